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
        let mut lacking = Lacking::new(chains.len(), columns.len());
        for date in range.days() {
            lacking.day(date, |position, at| has(date, position, at));
        }
        lacking.gaps(chains, columns)
    }

    /// `--strict`'s verdict: every asked value must be there (exit 10, after the result is
    /// written); what is missing is also the JSON error's `missing` member, one
    /// `{"chain", "metric", "days"}` per series. `configured`: strict came from the config
    /// file, which `--no-strict` overrides for one run.
    pub(crate) fn strict_verdict(&self, configured: bool) -> Result<(), Failure> {
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
        let hint = match configured {
            true => {
                "ask again later for the missing days, or add --no-strict (config strict is \
                     set) to accept gaps for one run"
            }
            false => {
                "ask again later for the missing days, or leave out --strict (and config \
                      strict) to accept gaps"
            }
        };
        Err(Failure::new(
            Exit::Incomplete,
            format!("--strict: incomplete data: {what}; everything that came was written"),
        )
        .with_hint(hint)
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

/// The gaps of rows looked at day by day, as a streamed join lets them go: what
/// [`Gaps::of`] says of the same rows, day after day in date order.
#[derive(Debug)]
pub(super) struct Lacking {
    days: usize,
    columns: usize,
    /// The days lacking, per chain position and column position (`position * columns + at`).
    missing: Vec<Vec<NaiveDate>>,
}

impl Lacking {
    pub(super) fn new(chains: usize, columns: usize) -> Lacking {
        Lacking {
            days: 0,
            columns,
            missing: vec![Vec::new(); chains * columns],
        }
    }

    /// One more day of the range, later than every day before it: `has(chain position,
    /// column position)` says whether the rows hold that value.
    pub(super) fn day(&mut self, date: NaiveDate, has: impl Fn(usize, usize) -> bool) {
        self.days += 1;
        for (series, days) in self.missing.iter_mut().enumerate() {
            if !has(series / self.columns.max(1), series % self.columns.max(1)) {
                days.push(date);
            }
        }
    }

    /// The gaps, series by series in plan order (chains as asked, then columns).
    pub(super) fn gaps(self, chains: &[Chain], columns: &[Metric]) -> Gaps {
        let mut gaps = Gaps::default();
        let series = chains
            .iter()
            .flat_map(|c| columns.iter().map(move |m| (*c, *m)));
        for ((chain, column), lacking) in series.zip(self.missing) {
            gaps.asked += self.days;
            if !lacking.is_empty() {
                gaps.missing += lacking.len();
                let days = describe_days(&lacking);
                gaps.series
                    .push(format!("{chain} {}: {days}", column.name()));
                gaps.lacking.push((chain, column, lacking));
            }
        }
        gaps
    }
}
