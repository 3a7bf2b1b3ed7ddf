//! One row of an earlier export as it is read back: made from its cells in header order, dated
//! plausibly, each key once; and what stops a merge.

use std::collections::HashMap;
use std::fmt;
use std::io;

use super::columns::Mismatch;
use crate::analysis::SUMMARY_LABELS;
use crate::model::{parse_date, today_utc};
use crate::model::{Chain, Dataset, Number, Row};
use crate::system::foreign::{cut, echo};

/// What stops a merge.
#[derive(Debug)]
pub(crate) enum MergeError {
    ColumnsDiffer(Mismatch),
    Unreadable(String),
    /// The file cannot be read, or is not UTF-8.
    Read(io::Error),
}

impl From<io::Error> for MergeError {
    fn from(error: io::Error) -> Self {
        MergeError::Read(error)
    }
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MergeError::ColumnsDiffer(mismatch) => write!(f, "{mismatch}"),
            MergeError::Unreadable(why) => f.write_str(&shown(why)),
            MergeError::Read(e) => write!(f, "{e}"),
        }
    }
}

impl From<Mismatch> for MergeError {
    fn from(mismatch: Mismatch) -> MergeError {
        MergeError::ColumnsDiffer(mismatch)
    }
}

/// A file's text in a message, made safe to print (it may have come from anyone).
fn shown(text: &str) -> String {
    cut(text, usize::MAX)
}

/// The first day a row of ours can plausibly have: the first day of the year Ethereum began
/// (2015-07-30), before which no supported chain has data, so that a `--by year` row of 2015
/// passes. A date before it is a typo (`0024-01-01`) that would make `--resume` ask for
/// centuries.
const FIRST_PLAUSIBLE_DAY: chrono::NaiveDate = match chrono::NaiveDate::from_ymd_opt(2015, 1, 1) {
    Some(day) => day,
    None => chrono::NaiveDate::MIN,
};

/// Why a stored `date` cannot be: after today (UTC), which would stall `--resume` for good, or
/// before any chain had data.
pub(super) fn implausible(date: chrono::NaiveDate) -> Option<String> {
    let today = today_utc();
    if date > today {
        return Some(format!(
            "it is dated {date}, after today ({today} UTC): a typo? correct or remove that row"
        ));
    }
    (date < FIRST_PLAUSIBLE_DAY).then(|| {
        format!(
            "it is dated {date}, before {FIRST_PLAUSIBLE_DAY}, when no supported chain had \
            data yet: a typo? correct or remove that row"
        )
    })
}

/// The rows read so far, each key once. A key written twice leaves no way to tell which row is
/// meant, and a date that cannot be is refused too: the first such row is named once the file
/// is read through, for a fault of its syntax or cells is told first.
pub(super) struct Kept {
    rows: Vec<Row>,
    /// Where each key was first met (`line 3`, `row 2`: the word, and the number).
    first: HashMap<(chrono::NaiveDate, Option<Chain>), usize>,
    word: &'static str,
    refused: Option<String>,
    /// `render`'s reading: `--summary` rows are passed over (and counted), not refused.
    summaries: Summaries,
}

/// What a reader does with the `--summary` rows of the tool's own exports (`total`, `mean`,
/// `min`, `max` in the date cell): `--merge` refuses them as any cell that is no date,
/// `render` passes them over and counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Summaries {
    Refused,
    Skipped(usize),
}

impl Kept {
    pub(super) fn new(word: &'static str, summaries: Summaries) -> Kept {
        Kept {
            rows: Vec::new(),
            first: HashMap::new(),
            word,
            refused: None,
            summaries,
        }
    }

    /// Whether the row whose date cell is `date` is a `--summary` row to pass over (counted).
    pub(super) fn skips(&mut self, date: Option<&str>) -> bool {
        let Summaries::Skipped(count) = &mut self.summaries else {
            return false;
        };
        let summary = date.is_some_and(|d| SUMMARY_LABELS.contains(&d));
        *count += usize::from(summary);
        summary
    }

    /// `count` more `--summary` rows passed over (those of a json export's `summary` member).
    pub(super) fn skipped(&mut self, count: usize) {
        if let Summaries::Skipped(skipped) = &mut self.summaries {
            *skipped += count;
        }
    }

    /// Whether `--summary` rows are passed over.
    pub(super) fn skipping(&self) -> bool {
        matches!(self.summaries, Summaries::Skipped(_))
    }

    /// The rows, and how many `--summary` rows were passed over.
    pub(super) fn rows_and_summaries(self) -> Result<(Vec<Row>, Summaries), MergeError> {
        let summaries = self.summaries;
        Ok((self.rows()?, summaries))
    }

    /// Keeps `row`, met at `at` (a line or row number).
    pub(super) fn keep(&mut self, at: usize, row: Row) {
        if self.refused.is_some() {
            return;
        }
        let word = self.word;
        if let Some(why) = implausible(row.date) {
            self.refused = Some(format!("{word} {at}: {why}"));
        } else if let Some(first) = self.first.insert((row.date, row.chain), at) {
            let key = match row.chain {
                Some(chain) => format!("{} {chain}", row.date),
                None => row.date.to_string(),
            };
            self.refused = Some(format!(
                "it holds the key {key} twice, on {word} {first} and on {word} {at}: remove one of \
                them"
            ));
        }
        self.rows.push(row);
    }

    pub(super) fn rows(self) -> Result<Vec<Row>, MergeError> {
        match self.refused {
            Some(why) => Err(MergeError::Unreadable(why)),
            None => Ok(self.rows),
        }
    }
}

/// One row from its cells in header order: a date, a chain when the header has one, numbers.
pub(super) fn to_row(cells: &[Option<&str>], data: &Dataset) -> Result<Row, String> {
    let date = parse_date(cells[0].unwrap_or_default())?;
    let (chain, first_value) = match data.chain_column {
        true => {
            let name = cells[1].unwrap_or_default();
            let chain = Chain::from_name(name)
                .ok_or_else(|| format!("{} is not a chain name", echo(name)))?;
            (Some(chain), 2)
        }
        false => (None, 1),
    };
    let values = cells[first_value..]
        .iter()
        .map(|cell| match cell {
            None => Ok(None),
            Some(text) => Number::from_json_token(text)
                .map(Some)
                .filter(|n| n.as_ref().is_some_and(|n| &*n.as_str() == *text))
                .ok_or_else(|| format!("{} is not a number", echo(text))),
        })
        .collect::<Result<_, _>>()?;
    Ok(Row {
        date,
        chain,
        values,
        coverage: None,
    })
}
