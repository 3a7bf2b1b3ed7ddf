//! Derived measures (`--change`, `--rolling N`, `--cumulative`, `--share`, `--per-user`): extra
//! columns after the metric each comes from, in exact decimals. A measure that needs a missing
//! value is a gap, never computed over a zero.

use std::collections::HashMap;

use bigdecimal::BigDecimal;
use chrono::NaiveDate;

use crate::model::{divide, Chain, DayRange, Period};
use crate::model::{Column, Dataset, Measure, Metric, Number, Row};

mod undivided;

pub(crate) use undivided::undivided;

/// The measures asked for, as plain values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Measures {
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
    pub(crate) fn any(&self) -> bool {
        self.change || self.rolling.is_some() || self.cumulative || self.share || self.per_user
    }

    /// `--per-user`'s decimals, when asked: what `aggregate` needs to divide by the exact
    /// mean of a period's daily actives.
    pub(crate) fn per_user_decimals(&self) -> Option<u32> {
        self.per_user.then_some(self.decimals)
    }
}

/// One metric of one chain over every period of the range, gaps `None`.
type Series = Vec<Option<BigDecimal>>;

/// A column's cells, one per row.
type Cells = Vec<Option<Number>>;

/// The dataset with each asked measure after the metric it comes from (`fees`, `fees_change`,
/// `fees_change_pct`, `fees_rolling_7`, `fees_cumulative`, `fees_share_pct`), and
/// `fees_per_user` after the fees group, as [`columns`] lays them out. Rows are the same rows;
/// a period without a row (a missing date) counts as a gap. Under `--by`, `fees_per_user` comes
/// made by `aggregate` (only it knows the exact mean of the daily actives) and is moved into
/// place. Fails, naming the value, on a number too large to compute with exactly (see
/// `Number::to_decimal`).
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
        columns: &data.columns,
    };
    let layout = layout(&data.columns, measures);
    let mut series = vec![None; data.columns.len()];
    let mut columns = Vec::with_capacity(layout.len());
    let mut values: Vec<Cells> = vec![Vec::with_capacity(layout.len()); data.rows.len()];
    for (column, made) in layout {
        let cells = grid.cells(made, &mut series)?;
        columns.push(column);
        for (row_values, cell) in values.iter_mut().zip(cells) {
            row_values.push(cell);
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

/// The columns [`derive()`] makes of `columns`: what it yields on any rows of them.
pub(super) fn columns(columns: &[Column], measures: &Measures) -> Vec<Column> {
    if !measures.any() {
        return columns.to_vec();
    }
    let layout = layout(columns, measures);
    layout.into_iter().map(|(column, _)| column).collect()
}

/// A measure computed from one column's series.
#[derive(Clone, Copy, Debug)]
enum FromSeries {
    Change,
    ChangePct,
    Rolling(u32),
    Cumulative,
    SharePct,
}

impl FromSeries {
    fn measure(self) -> Measure {
        match self {
            FromSeries::Change => Measure::Change,
            FromSeries::ChangePct => Measure::ChangePct,
            FromSeries::Rolling(n) => Measure::Rolling(n),
            FromSeries::Cumulative => Measure::Cumulative,
            FromSeries::SharePct => Measure::SharePct,
        }
    }
}

/// What a column of [`derive()`]'s result is made of (indexes of the columns it is made from).
#[derive(Clone, Copy, Debug)]
enum Made {
    /// The column as it is.
    Own(usize),
    /// A measure of the column's series.
    Measure(usize, FromSeries),
    /// `fees_per_user` as `aggregate` made it, moved into place.
    Moved(usize),
    /// The fees over the active users of the same date and chain.
    PerUser { fees: usize, users: usize },
}

/// The columns made of `columns`, in order, each with what it is made of: each column (but a
/// `fees_per_user` made by `aggregate`), then its asked measures, then after the fees
/// `fees_per_user` when asked and there is something to make it of.
fn layout(columns: &[Column], measures: &Measures) -> Vec<(Column, Made)> {
    let made = columns.iter().position(is_per_user);
    let users = columns
        .iter()
        .position(|c| c.is_value_of(Metric::ActiveUsers));
    let mut out = Vec::new();
    for (i, column) in columns.iter().enumerate() {
        if is_per_user(column) {
            continue;
        }
        out.push((*column, Made::Own(i)));
        for asked in asked_of(column, measures) {
            let measure = column.with_measure(asked.measure());
            out.extend(measure.map(|c| (c, Made::Measure(i, asked))));
        }
        if !(measures.per_user && column.is_value_of(Metric::Fees)) {
            continue;
        }
        match (made, users) {
            (Some(at), _) => out.push((columns[at], Made::Moved(at))),
            (None, Some(users)) => {
                let column = column.with_measure(Measure::PerUser);
                out.extend(column.map(|c| (c, Made::PerUser { fees: i, users })));
            }
            (None, None) => {}
        }
    }
    out
}

/// The measures asked of `column`, in the order of their columns (`--cumulative` only of a
/// column that adds up).
fn asked_of(column: &Column, m: &Measures) -> Vec<FromSeries> {
    let mut asked = Vec::new();
    if m.change {
        asked.extend([FromSeries::Change, FromSeries::ChangePct]);
    }
    asked.extend(m.rolling.map(FromSeries::Rolling));
    if m.cumulative && column.adds_up() {
        asked.push(FromSeries::Cumulative);
    }
    if m.share {
        asked.push(FromSeries::SharePct);
    }
    asked
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
    columns: &'a [Column],
}

/// Each column's series once laid on the grid, by column.
type Laid = [Option<Vec<Series>>];

impl Grid<'_> {
    /// Column `i` of every series, indexed by key then period.
    fn series(&self, i: usize) -> Result<Vec<Series>, String> {
        let column = &self.columns[i];
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

    /// Lays column `i` on the grid unless it is already: every column a measure may read is
    /// checked to be within bounds, in column order.
    fn lay(&self, i: usize, laid: &mut Laid) -> Result<(), String> {
        if laid[i].is_none() {
            laid[i] = Some(self.series(i)?);
        }
        Ok(())
    }

    fn key(&self, row: &Row) -> usize {
        self.keys.iter().position(|k| *k == row.chain).unwrap_or(0)
    }

    /// The cells of one column of the result, a cell per row.
    fn cells(&self, made: Made, laid: &mut Laid) -> Result<Cells, String> {
        let own = |i: usize| self.rows.iter().map(|row| row.values[i].clone()).collect();
        Ok(match made {
            Made::Own(i) => {
                self.lay(i, laid)?;
                own(i)
            }
            Made::Moved(at) => own(at),
            Made::Measure(i, asked) => {
                self.lay(i, laid)?;
                self.measure(asked, laid[i].as_deref().unwrap_or_default())
            }
            Made::PerUser { fees, users } => {
                self.lay(fees, laid)?;
                self.lay(users, laid)?;
                let series = |i: usize| laid[i].as_deref().unwrap_or_default();
                self.per_user(series(fees), series(users))
            }
        })
    }

    /// One asked measure of a column's series, a cell per row.
    fn measure(&self, asked: FromSeries, series: &[Series]) -> Cells {
        let d = self.measures.decimals;
        match asked {
            FromSeries::Change => self.each(series, change),
            FromSeries::ChangePct => self.each(series, |s, p| change_pct(s, p, d)),
            FromSeries::Rolling(n) => self.each(series, |s, p| rolling(s, p, n, d)),
            FromSeries::Cumulative => {
                let sums: Vec<Series> = series.iter().map(cumulative).collect();
                self.each(&sums, |s, p| s[p].clone())
            }
            FromSeries::SharePct => self.each(&shares(series, d), |s, p| s[p].clone()),
        }
    }

    /// The fees over the active users of the same date and chain.
    fn per_user(&self, fee_series: &[Series], user_series: &[Series]) -> Cells {
        let ratio: Vec<Series> = (fee_series.iter().zip(user_series))
            .map(|(f, u)| {
                f.iter()
                    .zip(u)
                    .map(|(f, u)| divide(f.as_ref()?, u.as_ref()?, self.measures.decimals))
                    .collect()
            })
            .collect();
        self.each(&ratio, |s, p| s[p].clone())
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
