//! `--by`: daily rows rolled up into weeks, months, quarters or years, in exact decimals.

use std::collections::BTreeMap;

use bigdecimal::num_bigint::{BigInt, BigUint, Sign};
use bigdecimal::BigDecimal;
use chrono::{Datelike, Days, Months, NaiveDate};

use crate::model::chain::Chain;
use crate::model::dates::DayRange;
use crate::model::{Dataset, Metric, Number, Row};

/// The column after `chain` that counts the days of a period with data.
pub const DAYS_COLUMN: &str = "days";

/// What one output row covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Period {
    /// one row per day, as the service sends them
    #[default]
    Day,
    /// ISO weeks, Monday to Sunday
    Week,
    /// calendar months
    Month,
    /// calendar quarters, starting in January, April, July and October
    Quarter,
    /// calendar years
    Year,
}

impl Period {
    /// The name `--by` takes.
    pub fn name(self) -> &'static str {
        match self {
            Period::Day => "day",
            Period::Week => "week",
            Period::Month => "month",
            Period::Quarter => "quarter",
            Period::Year => "year",
        }
    }

    /// The first day of the period that holds `date`.
    pub fn start(self, date: NaiveDate) -> NaiveDate {
        let first_of = |month: u32| NaiveDate::from_ymd_opt(date.year(), month, 1);
        let start = match self {
            Period::Day => Some(date),
            Period::Week => {
                let back = date.weekday().num_days_from_monday();
                date.checked_sub_days(Days::new(back.into()))
            }
            Period::Month => first_of(date.month()),
            Period::Quarter => first_of((date.month0() / 3) * 3 + 1),
            Period::Year => first_of(1),
        };
        // Only chrono's first representable week could have no Monday to go back to.
        start.unwrap_or(NaiveDate::MIN)
    }

    /// The last day of the period that starts on `start`.
    pub(crate) fn last_day(self, start: NaiveDate) -> NaiveDate {
        let next = match self {
            Period::Day => start.checked_add_days(Days::new(1)),
            Period::Week => start.checked_add_days(Days::new(7)),
            Period::Month => start.checked_add_months(Months::new(1)),
            Period::Quarter => start.checked_add_months(Months::new(3)),
            Period::Year => start.checked_add_months(Months::new(12)),
        };
        next.and_then(|day| day.pred_opt())
            .unwrap_or(NaiveDate::MAX)
    }
}

/// The name of a metric column once rolled up: a mean of daily actives is not a count.
pub fn label(column: Metric) -> &'static str {
    match column {
        Metric::ActiveUsers => "active_users_avg",
        other => other.name(),
    }
}

/// One row per period and chain, `date` the period's first day, sorted by date, then chain in
/// `chains` order; `columns` are the metrics of `data`, in order. The result has a `days` column
/// first, then the sums (fees, social counts) and the mean of `active_users` over the days that
/// have a value, rounded half to even. A metric with no value in a period stays a gap.
///
/// Fails, naming the value, on a number too large to add up exactly (see `Number::to_decimal`).
pub fn aggregate(
    data: Dataset,
    columns: &[Metric],
    chains: &[Chain],
    by: Period,
) -> Result<Dataset, String> {
    if by == Period::Day {
        return Ok(data);
    }
    let rank = |chain: Option<Chain>| chain.map_or(0, |c| c.rank(chains));
    let mut tallies: BTreeMap<(NaiveDate, usize), Tally> = BTreeMap::new();
    for row in &data.rows {
        tallies
            .entry((by.start(row.date), rank(row.chain)))
            .or_insert_with(|| Tally::new(row.chain, columns.len()))
            .add(row, columns)?;
    }
    let mut names = vec![DAYS_COLUMN.to_owned()];
    names.extend(columns.iter().map(|c| label(*c).to_owned()));
    Ok(Dataset {
        chain_column: data.chain_column,
        columns: names,
        rows: tallies
            .into_iter()
            .map(|((date, _), tally)| tally.row(date, columns))
            .collect(),
    })
}

/// For the chart: each period's values over every day it covers within `range` (a step per
/// period on a time axis), without the `days` column, which is no series to draw.
pub fn steps(mut data: Dataset, by: Period, range: &DayRange) -> Dataset {
    if by == Period::Day {
        return data;
    }
    data.columns.remove(0);
    data.rows = data
        .rows
        .into_iter()
        .flat_map(|mut row| {
            row.values.remove(0);
            let first = row.date.max(range.start);
            let last = by.last_day(row.date).min(range.end);
            let days = first.iter_days().take_while(move |day| *day <= last);
            days.map(move |date| Row {
                date,
                ..row.clone()
            })
        })
        .collect();
    data
}

/// What one period of one chain adds up to so far.
struct Tally {
    chain: Option<Chain>,
    /// Days with at least one value.
    days: u64,
    sums: Vec<BigDecimal>,
    /// Days with a value, per column.
    counts: Vec<u64>,
}

impl Tally {
    fn new(chain: Option<Chain>, width: usize) -> Tally {
        Tally {
            chain,
            days: 0,
            sums: vec![BigDecimal::default(); width],
            counts: vec![0; width],
        }
    }

    fn add(&mut self, row: &Row, columns: &[Metric]) -> Result<(), String> {
        let values = row.values.iter().enumerate();
        for (i, number) in values.filter_map(|(i, v)| Some((i, v.as_ref()?))) {
            let exact = number.to_decimal().map_err(|why| {
                let chain = row.chain.map(|c| format!("{c} ")).unwrap_or_default();
                format!(
                    "cannot add up {chain}{} of {}: {why}",
                    columns[i].name(),
                    row.date,
                )
            })?;
            self.sums[i] += exact;
            self.counts[i] += 1;
        }
        self.days += u64::from(row.values.iter().any(Option::is_some));
        Ok(())
    }

    fn row(self, date: NaiveDate, columns: &[Metric]) -> Row {
        let mut values = vec![Some(Number::from_decimal(&BigDecimal::from(self.days)))];
        for ((sum, count), column) in self.sums.iter().zip(self.counts).zip(columns) {
            values.push(match (count, column) {
                (0, _) => None,
                (_, Metric::ActiveUsers) => Some(mean_half_even(sum, count)),
                _ => Some(Number::from_decimal(sum)),
            });
        }
        Row {
            date,
            chain: self.chain,
            values,
        }
    }
}

/// `sum / count` rounded to a whole number, a tie to the even neighbour, with no division
/// error: with `sum = digits / 10^scale`, the mean is `digits / (count * 10^scale)` on integers.
fn mean_half_even(sum: &BigDecimal, count: u64) -> Number {
    let scale = sum.fractional_digit_count().max(0);
    let (digits, _) = sum.with_scale(scale).into_bigint_and_exponent();
    // The scale never exceeds the length of a number's text plus `to_decimal`'s exponent bound.
    let scale = u32::try_from(scale).unwrap_or_default();
    let divisor = BigUint::from(count) * BigUint::from(10u8).pow(scale);
    let magnitude = digits.magnitude();
    let (mut quotient, remainder) = (magnitude / &divisor, magnitude % &divisor);
    let twice = remainder * 2u8;
    if twice > divisor || (twice == divisor && quotient.bit(0)) {
        quotient += 1u8;
    }
    let mean = match digits.sign() {
        Sign::Minus => -BigInt::from(quotient),
        _ => BigInt::from(quotient),
    };
    Number::from_decimal(&BigDecimal::from(mean))
}

#[cfg(test)]
mod tests;
