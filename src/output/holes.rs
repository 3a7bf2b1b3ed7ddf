//! The holes of a stored export: each (day or `--by` period, chain) missing inside that chain's
//! own range of rows, which `--resume` asks again. Reads rows alone, whatever stored them (a
//! text file, a SQLite table, a database table), so every store shares one rule.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::NaiveDate;

use crate::model::{describe_days, Chain, Dataset, DayRange, Measure, Period, Row};
use crate::system::diag::Notice;

/// The days (or period starts) one chain lacks, in date order.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Hole {
    pub chain: Chain,
    pub dates: Vec<NaiveDate>,
}

/// The holes of `rows` (read as `shape`) for each of `chains`, in their order: between a
/// chain's first and last row, a day (a period, under `--by`) with no row, or whose row lacks a
/// value of a metric, or (under `--by`, after the chain's first period, whose own start the file
/// does not say) whose `days` is short of the period's length. Derived measures are no values.
pub(crate) fn holes(rows: &[Row], shape: &Dataset, chains: &[Chain], by: Period) -> Vec<Hole> {
    chains
        .iter()
        .filter_map(|chain| {
            let dates = chain_holes(rows, shape, *chain, by);
            (!dates.is_empty()).then_some(Hole {
                chain: *chain,
                dates,
            })
        })
        .collect()
}

/// The holes as a note names them: `ETHEREUM 2024-01-05, 2024-01-09..2024-01-10; BASE ...`.
pub(crate) fn describe(holes: &[Hole]) -> String {
    let each = holes
        .iter()
        .map(|h| format!("{} {}", h.chain, describe_days(&h.dates)));
    each.collect::<Vec<_>>().join("; ")
}

/// After a plain `--merge` (no `--resume`, which asks them again): a warning naming the holes
/// the merged rows `data` hold for `chains` outside the days this run asked (`asked`: the gaps
/// of those are the run's own warnings), and the hint that asks them again.
pub(crate) fn warn_of(
    file: &Path,
    data: &Dataset,
    (chains, asked): (&[Chain], &DayRange),
    by: Period,
    tell: &dyn Fn(Notice),
) {
    let mut found = holes(&data.rows, data, chains, by);
    for hole in &mut found {
        hole.dates
            .retain(|d| by.last_day(*d) < asked.start || *d > asked.end);
    }
    found.retain(|hole| !hole.dates.is_empty());
    if found.is_empty() {
        return;
    }
    let missing = match by {
        Period::Day => "days",
        _ => "periods",
    };
    tell(Notice::warning(format!(
        "{} lacks values for {missing} inside its own range that this run did not ask: {}",
        file.display(),
        describe(&found)
    )));
    tell(Notice::hint(
        "add --resume to this command: each run then asks the missing ones again",
    ));
}

/// What one row of `chain` says: whether it has every value, and its `days` count.
struct Seen {
    whole: bool,
    days: Option<u32>,
}

fn chain_holes(rows: &[Row], shape: &Dataset, chain: Chain, by: Period) -> Vec<NaiveDate> {
    let wide = shape.columns.iter().any(|c| c.chain().is_some());
    let mine = |at: &usize| !wide || shape.columns[*at].chain().is_none_or(|c| c == chain);
    let values: Vec<usize> = (0..shape.columns.len())
        .filter(|at| shape.columns[*at].measure() == Some(Measure::Value))
        .filter(mine)
        .collect();
    let days_at = (0..shape.columns.len())
        .filter(mine)
        .find(|at| shape.columns[*at].is_days());
    let mut seen = BTreeMap::new();
    for row in rows
        .iter()
        .filter(|row| row.chain.is_none_or(|c| c == chain))
    {
        let has = |at: &usize| row.values.get(*at).is_some_and(Option::is_some);
        if !values.iter().any(has) {
            continue;
        }
        let days = days_at.and_then(|at| row.values.get(at).cloned().flatten());
        let seen_row = Seen {
            whole: values.iter().all(has),
            days: days.and_then(|n| n.as_str().parse().ok()),
        };
        seen.insert(row.date, seen_row);
    }
    let (Some(first), Some(last)) = (seen.keys().next().copied(), seen.keys().last().copied())
    else {
        return Vec::new();
    };
    let mut lacking = Vec::new();
    let mut at = Some(first);
    while let Some(date) = at.filter(|d| *d <= last) {
        let short = |s: &Seen| date != first && s.days.is_some_and(|d| d < by.length(date));
        if seen.get(&date).is_none_or(|s| !s.whole || short(s)) {
            lacking.push(date);
        }
        at = by.next(date);
    }
    lacking
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Column, Metric, Number};

    fn d(text: &str) -> NaiveDate {
        crate::model::parse_date(text).unwrap()
    }

    fn row(date: &str, chain: Chain, values: &[Option<&str>]) -> Row {
        Row {
            date: d(date),
            chain: Some(chain),
            values: (values.iter())
                .map(|v| v.map(|t| Number::from_json_token(t).unwrap()))
                .collect(),
            coverage: None,
        }
    }

    fn fees(by: Period) -> Dataset {
        let mut columns = vec![Column::value(Metric::Fees)];
        if by != Period::Day {
            columns.insert(0, Column::days());
        }
        Dataset {
            chain_column: true,
            columns,
            rows: Vec::new(),
        }
    }

    #[test]
    fn a_day_missing_in_the_middle_is_a_hole_of_its_chain_only() {
        let (eth, base) = (Chain::Ethereum, Chain::Base);
        let rows = vec![
            row("2024-01-01", eth, &[Some("1")]),
            row("2024-01-01", base, &[Some("1")]),
            row("2024-01-02", base, &[Some("1")]),
            row("2024-01-03", eth, &[None]),
            row("2024-01-04", eth, &[Some("1")]),
            row("2024-01-04", base, &[Some("1")]),
        ];
        let found = holes(&rows, &fees(Period::Day), &[base, eth], Period::Day);
        let hole = |chain, days: &[&str]| Hole {
            chain,
            dates: days.iter().map(|t| d(t)).collect(),
        };
        assert_eq!(
            found,
            [
                hole(base, &["2024-01-03"]),
                hole(eth, &["2024-01-02", "2024-01-03"])
            ]
        );
        assert_eq!(
            describe(&found),
            "BASE 2024-01-03; ETHEREUM 2024-01-02..2024-01-03"
        );
    }

    #[test]
    fn a_period_short_of_its_days_is_a_hole_but_the_first_is_not() {
        let eth = Chain::Ethereum;
        let rows = vec![
            row("2024-01-01", eth, &[Some("10"), Some("1")]),
            row("2024-02-01", eth, &[Some("28"), Some("1")]),
            row("2024-03-01", eth, &[Some("31"), Some("1")]),
            row("2024-05-01", eth, &[Some("3"), Some("1")]),
        ];
        let found = holes(&rows, &fees(Period::Month), &[eth], Period::Month);
        let dates = ["2024-02-01", "2024-04-01", "2024-05-01"].map(d).to_vec();
        assert_eq!(found, [Hole { chain: eth, dates }]);
    }

    #[test]
    fn a_chain_with_no_rows_has_no_holes() {
        let rows = vec![row("2024-01-01", Chain::Base, &[Some("1")])];
        let found = holes(&rows, &fees(Period::Day), &[Chain::Ethereum], Period::Day);
        assert!(found.is_empty());
    }
}
