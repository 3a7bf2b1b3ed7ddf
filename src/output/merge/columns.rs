//! Which of a merge file's columns is which of this run's, matched by name: a file written with
//! another `--include` order, or before an include was added, is read by name; a column this
//! run does not write, a missing key column or `days` is what differs, and is named.

use std::fmt;

use crate::model::{parse_date, Chain, Dataset};
use crate::system::foreign::cut;

/// How much of a file's column list a message shows.
const SHOWN_HEADER_CHARS: usize = 200;

/// Where each of this run's columns is in the file (`None`: the file lacks it, an empty cell).
pub(super) type Placement = Vec<Option<usize>>;

/// Why a file's columns do not take this run's rows.
#[derive(Debug)]
pub(crate) struct Mismatch {
    /// The file's columns, comma-joined and cut for a message.
    pub found: String,
    /// What differs, in the user's words.
    pub why: String,
    /// The file has every column but `chain`: a file of one chain, which names none.
    pub no_chain: bool,
    /// Its first line is a row, not a header: it was written with `--no-header`.
    pub headerless: bool,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "has the columns {} ({})", self.found, self.why)
    }
}

/// Where each column of `data` is among `found` (a header, or a row object's members).
pub(super) fn place<S: AsRef<str>>(found: &[S], data: &Dataset) -> Result<Placement, Mismatch> {
    let names: Vec<&str> = found.iter().map(AsRef::as_ref).collect();
    let header = data.header();
    let headerless = names.first().is_some_and(|n| parse_date(n).is_ok());
    let mismatch = |why: String, no_chain: bool| Mismatch {
        found: cut(&names.join(","), SHOWN_HEADER_CHARS),
        why,
        no_chain,
        headerless,
    };
    if let Some(twice) = (names.iter().enumerate()).find(|(at, n)| names[..*at].contains(n)) {
        return Err(mismatch(format!("{} twice", cut(twice.1, 60)), false));
    }
    let unknown: Vec<&str> = (names.iter().copied())
        .filter(|n| !header.iter().any(|h| h == n))
        .collect();
    if !unknown.is_empty() {
        let what = cut(&unknown.join(", "), SHOWN_HEADER_CHARS);
        return Err(mismatch(
            format!("{what}: not written by this command with these flags"),
            false,
        ));
    }
    let missing_key = |name: &str| header.iter().any(|h| h == name) && !names.contains(&name);
    if missing_key("date") {
        return Err(mismatch("no date column".to_owned(), false));
    }
    if missing_key("days") {
        return Err(mismatch(
            "no days column: it was written without --by".to_owned(),
            false,
        ));
    }
    if missing_key("chain") {
        return Err(mismatch("no chain column".to_owned(), true));
    }
    if !data.columns.iter().any(|c| c.is_days()) && names.contains(&"days") {
        return Err(mismatch(
            "a days column: it was written with --by".to_owned(),
            false,
        ));
    }
    Ok(header
        .iter()
        .map(|h| names.iter().position(|n| n == h))
        .collect())
}

/// The cells of one record in this run's column order, `None` where the file has no such
/// column or the cell is empty.
pub(super) fn arrange<'a>(placement: &Placement, cells: &[&'a str]) -> Vec<Option<&'a str>> {
    placement
        .iter()
        .map(|at| {
            at.and_then(|at| cells.get(at).copied())
                .filter(|c| !c.is_empty())
        })
        .collect()
}

/// The hint of a refusal, by what differs. For a file that names no chain it never proposes
/// a chain: the run's own would be the very typo the refusal catches.
pub(super) fn hint(mismatch: &Mismatch, chains: &[Chain]) -> String {
    if mismatch.headerless {
        return "its first line is a row, not a header: it was written with --no-header, and \
                --merge matches columns by the header; write it once without --no-header (or \
                add the header line), then merge"
            .to_owned();
    }
    if mismatch.no_chain {
        let asked: Vec<&str> = chains.iter().map(|c| c.name()).collect();
        let asked = asked.join(",");
        return format!(
            "nothing in it says which chain it holds, and this run asks {asked}; run once with \
             --file-chain CHAIN naming the chain whose rows it holds (the file then gains a \
             chain column), else write to another file"
        );
    }
    "merge only the same command with the same --wide and --by (columns are matched by name, so \
        another --include order or a new include merges); or write to another file"
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Column, Metric, SocialMetric};

    fn social(chain_column: bool, items: &[SocialMetric]) -> Dataset {
        Dataset {
            chain_column,
            columns: (items.iter())
                .map(|m| Column::value(Metric::Social(*m)))
                .collect(),
            rows: Vec::new(),
        }
    }

    #[test]
    fn columns_are_matched_by_name_and_a_new_one_is_empty() {
        use SocialMetric::{Reply, Tweet};
        let data = social(true, &[Tweet, Reply]);
        let placed = place(&["chain", "date", "reply"], &data).unwrap();
        assert_eq!(placed, [Some(1), Some(0), None, Some(2)]);
        assert_eq!(
            arrange(&placed, &["ETHEREUM", "2024-01-01", ""]),
            [Some("2024-01-01"), Some("ETHEREUM"), None, None]
        );
    }

    #[test]
    fn what_differs_is_named() {
        let data = social(true, &[SocialMetric::Tweet]);
        let why = |found: &[&str]| place(found, &data).unwrap_err().why;
        assert_eq!(
            why(&["date", "chain", "fees"]),
            "fees: not written by this command with these flags"
        );
        assert_eq!(why(&["date", "tweet"]), "no chain column");
        assert!(place(&["date", "tweet"], &data).unwrap_err().no_chain);
        assert_eq!(why(&["date", "chain", "tweet", "tweet"]), "tweet twice");
    }
}
