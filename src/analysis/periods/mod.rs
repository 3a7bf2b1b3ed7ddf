//! `--by`: daily rows rolled up into weeks, months, quarters or years, in exact decimals, and
//! the chart's steps over their days. The calendar itself is `model::Period`'s.

use std::collections::BTreeMap;

use bigdecimal::BigDecimal;
use chrono::NaiveDate;

use crate::model::{divide, Chain, Coverage, DayRange, Period};
use crate::model::{Aggregation, Column, Dataset, Measure, Metric, Number, Row};

mod per_day;
pub(crate) use per_day::{per_day, per_day_columns};

/// One row per period and chain, `date` the period's first day, sorted by date, then chain in
/// `chains` order. The result has a `days` column first, then each metric of `data` rolled up
/// as its column says (fees and social counts summed, `active_users` the mean over the days
/// that have a value, rounded half to even to a whole number). A metric with no value in a
/// period stays a gap. Each row carries its [`Coverage`].
///
/// `per_user` (`--per-user`'s decimals) adds `fees_per_user`: the period's fees over the exact
/// mean of its daily actives, which only the sums and counts here know (the mean shown is
/// rounded). Fails, naming the value, on a number too large to add up exactly (see
/// `Number::to_decimal`).
pub fn aggregate(
    data: Dataset,
    chains: &[Chain],
    by: Period,
    per_user: Option<u32>,
) -> Result<Dataset, String> {
    if by == Period::Day {
        return Ok(data);
    }
    let rank = |chain: Option<Chain>| chain.map_or(0, |c| c.rank(chains));
    let mut tallies: BTreeMap<(NaiveDate, usize), Tally> = BTreeMap::new();
    for row in &data.rows {
        tallies
            .entry((by.start(row.date), rank(row.chain)))
            .or_insert_with(|| Tally::new(row.chain, data.columns.len()))
            .add(row, &data.columns)?;
    }
    let columns = rolled_up(&data.columns, per_user);
    let pair = per_user.and_then(|decimals| Some((fees_and_users(&data.columns)?, decimals)));
    let rows = tallies.into_iter().map(|((date, _), tally)| {
        let mut row = tally.row(date, by, &data.columns);
        if let Some(((fees, users), decimals)) = pair {
            row.values.push(tally.per_user(fees, users, decimals));
        }
        row
    });
    Ok(Dataset {
        chain_column: data.chain_column,
        columns,
        rows: rows.collect(),
    })
}

/// The columns `aggregate` makes of `columns` (under a `--by` longer than a day): `days`, each
/// column rolled up, then `fees_per_user` when `per_user` is asked and both are there.
pub(super) fn rolled_up(columns: &[Column], per_user: Option<u32>) -> Vec<Column> {
    let mut rolled = vec![Column::days()];
    rolled.extend(columns.iter().map(|c| c.rolled_up()));
    if per_user.is_some() && fees_and_users(columns).is_some() {
        let fees = Column::value(Metric::Fees).rolled_up();
        rolled.extend(fees.with_measure(Measure::PerUser));
    }
    rolled
}

/// Where the fees and the active users are among `columns`.
fn fees_and_users(columns: &[Column]) -> Option<(usize, usize)> {
    let at = |metric| columns.iter().position(|c| c.is_value_of(metric));
    Some((at(Metric::Fees)?, at(Metric::ActiveUsers)?))
}

/// For the chart: each period's values over every day it covers within `range` (a step per
/// period on a time axis), without the `days` column, which is no series to draw.
pub(crate) fn steps(mut data: Dataset, by: Period, range: &DayRange) -> Dataset {
    if by == Period::Day {
        return data;
    }
    let drawn: Vec<bool> = data.columns.iter().map(|c| !c.is_days()).collect();
    data.columns = drawn_columns(&data.columns);
    data.rows = data
        .rows
        .into_iter()
        .flat_map(|mut row| {
            let mut keep = drawn.iter();
            row.values.retain(|_| keep.next() == Some(&true));
            let days = by.within(row.date, range);
            days.days().map(move |date| Row {
                date,
                ..row.clone()
            })
        })
        .collect();
    data
}

/// The columns `steps` keeps: all but `days`.
pub(super) fn drawn_columns(columns: &[Column]) -> Vec<Column> {
    columns.iter().filter(|c| !c.is_days()).copied().collect()
}

/// What one period of one chain adds up to so far.
struct Tally {
    chain: Option<Chain>,
    /// Days with at least one value.
    days: u32,
    sums: Vec<BigDecimal>,
    /// Days with a value, per column.
    counts: Vec<u32>,
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

    fn add(&mut self, row: &Row, columns: &[Column]) -> Result<(), String> {
        let values = row.values.iter().enumerate();
        for (i, number) in values.filter_map(|(i, v)| Some((i, v.as_ref()?))) {
            let exact = number.to_decimal().map_err(|why| {
                let chain = row.chain.map(|c| format!("{c} ")).unwrap_or_default();
                let name = columns[i].name();
                format!("cannot add up {chain}{name} of {}: {why}", row.date)
            })?;
            self.sums[i] += exact;
            self.counts[i] += 1;
        }
        self.days += u32::from(row.values.iter().any(Option::is_some));
        Ok(())
    }

    fn row(&self, date: NaiveDate, by: Period, columns: &[Column]) -> Row {
        let mut values = vec![Some(Number::from_decimal(&BigDecimal::from(self.days)))];
        for ((sum, count), column) in self.sums.iter().zip(&self.counts).zip(columns) {
            values.push(match (count, column.rolled_up().aggregation()) {
                (0, _) => None,
                (_, Some(Aggregation::Mean)) => self.mean(sum, *count),
                _ => Some(Number::from_decimal(sum)),
            });
        }
        Row {
            date,
            chain: self.chain,
            values,
            coverage: Some(Coverage {
                days: self.days,
                of: by.length(date),
            }),
        }
    }

    /// `sum / count` rounded half to even to a whole number.
    fn mean(&self, sum: &BigDecimal, count: u32) -> Option<Number> {
        divide(sum, &BigDecimal::from(count), 0).map(|mean| Number::from_decimal(&mean))
    }

    /// The fees over the exact mean of the daily actives: `fees / (users / count)`, computed
    /// as `fees * count / users` so that nothing is rounded before the one division.
    fn per_user(&self, fees: usize, users: usize, decimals: u32) -> Option<Number> {
        if self.counts[fees] == 0 || self.counts[users] == 0 {
            return None;
        }
        let scaled = &self.sums[fees] * BigDecimal::from(self.counts[users]);
        divide(&scaled, &self.sums[users], decimals).map(|v| Number::from_decimal(&v))
    }
}

#[cfg(test)]
mod tests;
