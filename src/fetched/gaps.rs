//! The asked values a result lacks, and `--strict`'s verdict on them.

use chrono::NaiveDate;

use crate::error::{Exit, Failure, RequestDetail};
use crate::model::{describe_days, Chain, DayRange, Metric};

/// The asked (date, chain, metric) values a result lacks, whatever the reason (a missing
/// date, a member left out, no answer at all).
#[derive(Debug, Default)]
pub(crate) struct Gaps {
    /// How many values were asked, and how many of them are missing.
    pub asked: usize,
    pub missing: usize,
    /// `ETHEREUM fees: 2024-01-02, 2024-01-05..2024-01-07`, series by series in plan order.
    pub series: Vec<String>,
    /// The same as data: (chain, metric, the days missing).
    pub lacking: Vec<(Chain, Metric, Vec<NaiveDate>)>,
}

impl Gaps {
    /// The values asked (each chain, column and day of `range`) that the rows lack:
    /// `has(date, chain position, column position)` says whether the rows hold one.
    pub(super) fn of(
        chains: &[Chain],
        columns: &[Metric],
        range: DayRange,
        has: impl Fn(NaiveDate, usize, usize) -> bool,
    ) -> Gaps {
        let mut gaps = Gaps::default();
        for (position, chain) in chains.iter().enumerate() {
            for (at, column) in columns.iter().enumerate() {
                let lacking: Vec<NaiveDate> = range
                    .days()
                    .filter(|date| !has(*date, position, at))
                    .collect();
                gaps.asked += range.days().count();
                if !lacking.is_empty() {
                    gaps.missing += lacking.len();
                    let days = describe_days(&lacking);
                    gaps.series
                        .push(format!("{chain} {}: {days}", column.name()));
                    gaps.lacking.push((*chain, *column, lacking));
                }
            }
        }
        gaps
    }

    /// `--strict`'s verdict: every asked value must be there (exit 10, after the result is
    /// written); what is missing is also the JSON error's `missing` member, one
    /// `{"chain", "metric", "days"}` per series.
    pub(crate) fn strict_verdict(&self) -> Result<(), Failure> {
        if self.missing == 0 {
            return Ok(());
        }
        let what = match self.missing == self.asked {
            true => format!(
                "no data at all: none of the {} asked values came",
                self.asked
            ),
            false => format!(
                "{} of {} asked values are missing: {}",
                self.missing,
                self.asked,
                self.series.join("; ")
            ),
        };
        let missing = RequestDetail {
            members: vec![("missing", self.as_data())],
            ..Default::default()
        };
        Err(Failure::new(
            Exit::Incomplete,
            format!(
                "--strict: incomplete data: {what}; everything \
            that came was written"
            ),
        )
        .with_hint(
            "ask again later for the missing days, or leave out --strict (and config \
                strict) to accept gaps",
        )
        .with_detail(missing))
    }

    /// The missing values as a JSON array of `{"chain", "metric", "days": [ISO dates]}`.
    fn as_data(&self) -> serde_json::Value {
        let series = self.lacking.iter().map(|(chain, metric, days)| {
            let days: Vec<String> = days.iter().map(NaiveDate::to_string).collect();
            serde_json::json!({"chain": chain.name(), "metric": metric.name(), "days": days})
        });
        serde_json::Value::Array(series.collect())
    }
}
