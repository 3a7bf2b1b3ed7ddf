//! Derived measures (`--change`, `--rolling N`, `--cumulative`, `--share`, `--per-user`): extra
//! columns after the metric each comes from, in exact decimals. A measure that needs a missing
//! value is a gap, never computed over a zero.

use std::collections::HashMap;

use bigdecimal::num_bigint::{BigInt, Sign};
use bigdecimal::BigDecimal;
use chrono::NaiveDate;

use crate::model::chain::Chain;
use crate::model::dates::DayRange;
use crate::model::period::{Period, DAYS_COLUMN};
use crate::model::{Dataset, Number, Row};

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
pub const DEFAULT_DECIMALS: u32 = 2;

impl Measures {
    /// Whether any measure was asked.
    pub fn any(&self) -> bool {
        self.change || self.rolling.is_some() || self.cumulative || self.share || self.per_user
    }
}

/// One metric of one chain over every period of the range, gaps `None`.
type Series = Vec<Option<BigDecimal>>;

/// The dataset with each asked measure after the metric it comes from (`fees`, `fees_change`,
/// `fees_change_pct`, `fees_rolling_7`, `fees_cumulative`, `fees_share_pct`), and
/// `fees_per_user` after the fees group. Rows are the same rows; a period without a row (a
/// missing date) counts as a gap. Fails, naming the value, on a number too large to compute
/// with exactly (see `Number::to_decimal`).
pub fn derive(
    data: Dataset,
    measures: &Measures,
    chains: &[Chain],
    by: Period,
    range: &DayRange,
) -> Result<Dataset, String> {
    if !measures.any() {
        return Ok(data);
    }
    let periods = period_starts(by, range);
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
    let mut values: Vec<Vec<Option<Number>>> = vec![Vec::new(); data.rows.len()];
    for (i, name) in data.columns.iter().enumerate() {
        columns.push(name.clone());
        let mut cells = Vec::new();
        let series = grid.series(i, name)?;
        for (suffix, measure) in grid.measures_of(name, &series) {
            columns.push(format!("{name}{suffix}"));
            cells.push(measure);
        }
        if let (true, "fees", Some(users)) = (
            measures.per_user,
            name.as_str(),
            users_column(&data.columns),
        ) {
            columns.push("fees_per_user".to_owned());
            cells.push(grid.per_user(&series, &grid.series(users, &data.columns[users])?));
        }
        for (r, row_values) in values.iter_mut().enumerate() {
            row_values.push(data.rows[r].values[i].clone());
            row_values.extend(cells.iter().map(|c| c[r].clone()));
        }
    }
    let rows = data
        .rows
        .iter()
        .zip(values)
        .map(|(row, values)| Row {
            date: row.date,
            chain: row.chain,
            values,
        })
        .collect();
    Ok(Dataset {
        chain_column: data.chain_column,
        columns,
        rows,
    })
}

/// The first day of each period of `range`, in order.
fn period_starts(by: Period, range: &DayRange) -> Vec<NaiveDate> {
    let mut starts: Vec<NaiveDate> = Vec::new();
    for day in range.days() {
        let start = by.start(day);
        if starts.last() != Some(&start) {
            starts.push(start);
        }
    }
    starts
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

/// The active-users column `--per-user` divides by: daily, or the mean of a `--by` period.
fn users_column(columns: &[String]) -> Option<usize> {
    columns
        .iter()
        .position(|c| c == "active_users" || c == "active_users_avg")
}

/// Whether a column counts active users: its sum counts no real users.
fn is_users(name: &str) -> bool {
    name.starts_with("active_users")
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
    fn series(&self, i: usize, name: &str) -> Result<Vec<Series>, String> {
        let mut all = vec![vec![None; self.periods]; self.keys.len()];
        for row in self.rows {
            let (Some(value), Some(p)) = (&row.values[i], self.at.get(&row.date)) else {
                continue;
            };
            let exact = value.to_decimal().map_err(|why| {
                let chain = row.chain.map(|c| format!("{c} ")).unwrap_or_default();
                format!("cannot compute with {chain}{name} of {}: {why}", row.date)
            })?;
            all[self.key(row)][*p] = Some(exact);
        }
        Ok(all)
    }

    fn key(&self, row: &Row) -> usize {
        self.keys.iter().position(|k| *k == row.chain).unwrap_or(0)
    }

    /// The asked measures of one metric column, each as (name suffix, a cell per row).
    fn measures_of(&self, name: &str, series: &[Series]) -> Vec<(String, Vec<Option<Number>>)> {
        let m = self.measures;
        let d = m.decimals;
        let mut out = Vec::new();
        if name == DAYS_COLUMN {
            return out;
        }
        if m.change {
            out.push(("_change".to_owned(), self.each(series, change)));
            out.push((
                "_change_pct".to_owned(),
                self.each(series, |s, p| change_pct(s, p, d)),
            ));
        }
        if let Some(n) = m.rolling {
            let values = self.each(series, |s, p| rolling(s, p, n, d));
            out.push((format!("_rolling_{n}"), values));
        }
        if m.cumulative && !is_users(name) {
            let sums: Vec<Series> = series.iter().map(cumulative).collect();
            out.push((
                "_cumulative".to_owned(),
                self.each(&sums, |s, p| s[p].clone()),
            ));
        }
        if m.share {
            let shares = shares(series, d);
            out.push((
                "_share_pct".to_owned(),
                self.each(&shares, |s, p| s[p].clone()),
            ));
        }
        out
    }

    /// Fees over active users of the same date and chain.
    fn per_user(&self, fees: &[Series], users: &[Series]) -> Vec<Option<Number>> {
        let ratio: Vec<Series> = fees
            .iter()
            .zip(users)
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
    fn each(
        &self,
        series: &[Series],
        f: impl Fn(&Series, usize) -> Option<BigDecimal>,
    ) -> Vec<Option<Number>> {
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

/// `num / den` rounded half to even to `decimals`, on integers so that no intermediate rounding
/// can shift a tie; `None` for a zero `den`.
pub(crate) fn divide(num: &BigDecimal, den: &BigDecimal, decimals: u32) -> Option<BigDecimal> {
    let scale = num
        .fractional_digit_count()
        .max(den.fractional_digit_count())
        .max(0);
    let (a, _) = num.with_scale(scale).into_bigint_and_exponent();
    let (b, _) = den.with_scale(scale).into_bigint_and_exponent();
    if b.sign() == Sign::NoSign {
        return None;
    }
    let a = a * BigInt::from(10u8).pow(decimals);
    let negative = (a.sign() == Sign::Minus) != (b.sign() == Sign::Minus);
    let (a, b) = (a.magnitude().clone(), b.magnitude().clone());
    let (mut quotient, remainder) = (&a / &b, &a % &b);
    let twice = remainder * 2u8;
    if twice > b || (twice == b && quotient.bit(0)) {
        quotient += 1u8;
    }
    let sign = if negative { Sign::Minus } else { Sign::Plus };
    let value = BigInt::from_biguint(sign, quotient);
    Some(BigDecimal::new(value, i64::from(decimals)))
}

#[cfg(test)]
mod tests;
