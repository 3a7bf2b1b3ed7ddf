//! Derived measures (`--change`, `--rolling N`, `--cumulative`, `--share`, `--per-user`): extra
//! columns after the metric each comes from, in exact decimals. A measure that needs a missing
//! value is a gap, never computed over a zero.

use std::collections::HashMap;

use bigdecimal::BigDecimal;
use chrono::NaiveDate;

use crate::model::chain::Chain;
use crate::model::day_range::DayRange;
use crate::model::division::divide;
use crate::model::period::Period;
use crate::model::{Column, Dataset, Measure, Metric, Number, Row};

/// The measures asked for, as plain values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measures {
    pub change: bool,
    pub rolling: Option<u32>,
    pub cumulative: bool,
    pub share: bool,
    pub per_user: bool,
    /// Decimals of every divided value (percents, means, per user), rounded half to even.
    pub decimals: u32,
}

impl Default for Measures {
    fn default() -> Measures {
        Measures {
            change: false,
            rolling: None,
            cumulative: false,
            share: false,
            per_user: false,
            decimals: DEFAULT_DECIMALS,
        }
    }
}

/// `--decimals` when not given: percents to the hundredth.
pub(crate) const DEFAULT_DECIMALS: u32 = 2;

impl Measures {
    /// Whether any measure was asked.
    pub fn any(&self) -> bool {
        self.change || self.rolling.is_some() || self.cumulative || self.share || self.per_user
    }

    /// `--per-user`'s decimals, when asked: what `aggregate` needs to divide by the exact
    /// mean of a period's daily actives.
    pub fn per_user_decimals(&self) -> Option<u32> {
        self.per_user.then_some(self.decimals)
    }
}

/// One metric of one chain over every period of the range, gaps `None`.
type Series = Vec<Option<BigDecimal>>;

/// A column's cells, one per row.
type Cells = Vec<Option<Number>>;

/// The dataset with each asked measure after the metric it comes from (`fees`, `fees_change`,
/// `fees_change_pct`, `fees_rolling_7`, `fees_cumulative`, `fees_share_pct`), and
/// `fees_per_user` after the fees group. Rows are the same rows; a period without a row (a
/// missing date) counts as a gap. Under `--by`, `fees_per_user` comes made by `aggregate` (only
/// it knows the exact mean of the daily actives) and is moved into place. Fails, naming the
/// value, on a number too large to compute with exactly (see `Number::to_decimal`).
pub(super) fn derive(
    data: Dataset,
    measures: &Measures,
    chains: &[Chain],
    by: Period,
    range: &DayRange,
) -> Result<Dataset, String> {
    if !measures.any() {
        return Ok(data);
    }
    let periods = by.starts(range);
    let at: HashMap<NaiveDate, usize> = periods.iter().enumerate().map(|(i, d)| (*d, i)).collect();
    let keys = series_keys(&data, chains);
    let grid = Grid {
        measures,
        periods: periods.len(),
        at: &at,
        keys: &keys,
        rows: &data.rows,
    };
    let mut columns = Vec::new();
    let mut values: Vec<Cells> = vec![Vec::new(); data.rows.len()];
    let made = data.columns.iter().position(is_per_user);
    for (i, column) in data.columns.iter().enumerate() {
        if is_per_user(column) {
            continue;
        }
        let series = grid.series(i, column)?;
        let own = data.rows.iter().map(|row| row.values[i].clone());
        let mut group = vec![(*column, own.collect())];
        group.extend(grid.measures_of(column, &series));
        if measures.per_user && column.is_value_of(Metric::Fees) {
            group.extend(grid.per_user_after(&data, made, i, &series)?);
        }
        for (column, cells) in group {
            columns.push(column);
            for (row_values, cell) in values.iter_mut().zip(cells) {
                row_values.push(cell);
            }
        }
    }
    let rows = data.rows.iter().zip(values);
    let rows = rows.map(|(row, values)| Row {
        date: row.date,
        chain: row.chain,
        values,
        coverage: row.coverage,
    });
    Ok(Dataset {
        chain_column: data.chain_column,
        columns,
        rows: rows.collect(),
    })
}

/// Whether the column is `fees_per_user` (which `aggregate` makes under `--by`).
fn is_per_user(column: &Column) -> bool {
    column.measure() == Some(Measure::PerUser)
}

/// The series of the dataset: the asked chains in order, then any other chain its rows hold.
fn series_keys(data: &Dataset, chains: &[Chain]) -> Vec<Option<Chain>> {
    let mut keys: Vec<Option<Chain>> = chains.iter().copied().map(Some).collect();
    for row in &data.rows {
        if !keys.contains(&row.chain) {
            keys.push(row.chain);
        }
    }
    keys
}

/// Every series of the dataset laid on the periods of the range.
struct Grid<'a> {
    measures: &'a Measures,
    periods: usize,
    at: &'a HashMap<NaiveDate, usize>,
    keys: &'a [Option<Chain>],
    rows: &'a [Row],
}

impl Grid<'_> {
    /// Column `i` of every series, indexed by key then period.
    fn series(&self, i: usize, column: &Column) -> Result<Vec<Series>, String> {
        let mut all = vec![vec![None; self.periods]; self.keys.len()];
        for row in self.rows {
            let (Some(value), Some(p)) = (&row.values[i], self.at.get(&row.date)) else {
                continue;
            };
            let exact = value.to_decimal().map_err(|why| {
                let chain = row.chain.map(|c| format!("{c} ")).unwrap_or_default();
                let name = column.name();
                format!("cannot compute with {chain}{name} of {}: {why}", row.date)
            })?;
            all[self.key(row)][*p] = Some(exact);
        }
        Ok(all)
    }

    fn key(&self, row: &Row) -> usize {
        self.keys.iter().position(|k| *k == row.chain).unwrap_or(0)
    }

    /// The asked measures of one column, each as (its column, a cell per row); none of `days`.
    fn measures_of(&self, column: &Column, series: &[Series]) -> Vec<(Column, Cells)> {
        let m = self.measures;
        let d = m.decimals;
        let mut out = Vec::new();
        let mut push = |measure, cells| out.extend(column.with_measure(measure).zip(Some(cells)));
        if m.change {
            push(Measure::Change, self.each(series, change));
            push(
                Measure::ChangePct,
                self.each(series, |s, p| change_pct(s, p, d)),
            );
        }
        if let Some(n) = m.rolling {
            push(
                Measure::Rolling(n),
                self.each(series, |s, p| rolling(s, p, n, d)),
            );
        }
        if m.cumulative && column.adds_up() {
            let sums: Vec<Series> = series.iter().map(cumulative).collect();
            push(Measure::Cumulative, self.each(&sums, |s, p| s[p].clone()));
        }
        if m.share {
            let shares = shares(series, d);
            push(Measure::SharePct, self.each(&shares, |s, p| s[p].clone()));
        }
        out
    }

    /// `fees_per_user` after the fees at `fees`: the column `made` by `aggregate` when there
    /// is one, else fees over the active users of the same date and chain.
    fn per_user_after(
        &self,
        data: &Dataset,
        made: Option<usize>,
        fees: usize,
        fee_series: &[Series],
    ) -> Result<Option<(Column, Cells)>, String> {
        if let Some(at) = made {
            let cells = data.rows.iter().map(|row| row.values[at].clone());
            return Ok(Some((data.columns[at], cells.collect())));
        }
        let Some(users) = (data.columns.iter()).position(|c| c.is_value_of(Metric::ActiveUsers))
        else {
            return Ok(None);
        };
        let user_series = self.series(users, &data.columns[users])?;
        let ratio: Vec<Series> = (fee_series.iter().zip(&user_series))
            .map(|(f, u)| {
                f.iter()
                    .zip(u)
                    .map(|(f, u)| divide(f.as_ref()?, u.as_ref()?, self.measures.decimals))
                    .collect()
            })
            .collect();
        let column = data.columns[fees].with_measure(Measure::PerUser);
        Ok(column.map(|c| (c, self.each(&ratio, |s, p| s[p].clone()))))
    }

    /// A cell per row: `f` of the row's series at the row's period; a row off the grid is a gap.
    fn each(&self, series: &[Series], f: impl Fn(&Series, usize) -> Option<BigDecimal>) -> Cells {
        self.rows
            .iter()
            .map(|row| {
                let p = *self.at.get(&row.date)?;
                f(&series[self.key(row)], p).map(|v| Number::from_decimal(&v))
            })
            .collect()
    }
}

/// The value less the previous period's.
fn change(s: &Series, p: usize) -> Option<BigDecimal> {
    let previous = s.get(p.checked_sub(1)?)?.as_ref()?;
    Some(s[p].as_ref()? - previous)
}

/// The change as a percent of the previous period's value (of its size, so that a rise reads
/// positive even from a negative value); a gap after a zero.
fn change_pct(s: &Series, p: usize, decimals: u32) -> Option<BigDecimal> {
    let previous = s.get(p.checked_sub(1)?)?.as_ref()?;
    divide(&(change(s, p)? * 100), &previous.abs(), decimals)
}

/// The mean of the last `n` values up to `p` (gaps skipped); a gap at `p` or before `n` values.
fn rolling(s: &Series, p: usize, n: u32, decimals: u32) -> Option<BigDecimal> {
    s[p].as_ref()?;
    let window: Vec<&BigDecimal> = s[..=p].iter().rev().flatten().take(n as usize).collect();
    if window.len() < n as usize {
        return None;
    }
    let sum: BigDecimal = window.into_iter().sum();
    divide(&sum, &BigDecimal::from(n), decimals)
}

/// The running total; from the first gap on, gaps (a total that misses a value is no total).
fn cumulative(s: &Series) -> Series {
    let mut total = Some(BigDecimal::default());
    s.iter()
        .map(|value| {
            total = match (total.take(), value) {
                (Some(t), Some(v)) => Some(t + v),
                _ => None,
            };
            total.clone()
        })
        .collect()
}

/// Each series' percent of the period's total over every series; a gap in any series makes
/// the period's shares gaps, as does a total of zero.
fn shares(series: &[Series], decimals: u32) -> Vec<Series> {
    let periods = series.first().map_or(0, Vec::len);
    let totals: Vec<Option<BigDecimal>> = (0..periods)
        .map(|p| {
            series
                .iter()
                .map(|s| s[p].clone())
                .sum::<Option<BigDecimal>>()
        })
        .collect();
    series
        .iter()
        .map(|s| {
            s.iter()
                .zip(&totals)
                .map(|(v, t)| divide(&(v.as_ref()? * 100), t.as_ref()?, decimals))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests;
