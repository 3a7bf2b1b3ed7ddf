//! The `--summary` rows: total, mean, min and max of each column, in exact decimal arithmetic
//! so that a total of `0.1` and `0.2` is `0.3`, never a float's `0.30000000000000004`.

use bigdecimal::BigDecimal;

use crate::model::period_label as label;
use crate::model::Chain;
use crate::model::{Dataset, Metric, Number, Row};

/// Digits the mean keeps beyond the most precise value of its column.
const MEAN_EXTRA_DIGITS: i64 = 2;

/// One summary row: the statistic's name, the chain cell, a value per column.
pub type SummaryRow = (&'static str, &'static str, Vec<Option<Number>>);

/// One row per statistic, a value per column; a column with no value at all gets gaps. With a
/// chain column, one block of rows per chain, in the order the chains first show: a total over
/// several chains would add up different things. `users_only`: the data is active users alone,
/// so a column named by its chain alone (`users --wide`) counts users too, and has no total.
/// Fails, naming the value, on a number too large to add up exactly (see
/// `Number::to_decimal`), as `--by` does.
pub fn rows(data: &Dataset, users_only: bool) -> Result<Vec<SummaryRow>, String> {
    let no_total: Vec<bool> = (data.columns.iter())
        .map(|name| has_no_total(name) || (users_only && Chain::from_name(name).is_some()))
        .collect();
    if !data.chain_column {
        return block(&data.columns, &no_total, "", data.rows.iter());
    }
    let mut chains: Vec<Option<Chain>> = Vec::new();
    for row in &data.rows {
        if !chains.contains(&row.chain) {
            chains.push(row.chain);
        }
    }
    let mut blocks = Vec::new();
    for chain in chains {
        let rows = data.rows.iter().filter(move |row| row.chain == chain);
        let chain = chain.map_or("", Chain::name);
        blocks.extend(block(&data.columns, &no_total, chain, rows)?);
    }
    Ok(blocks)
}

/// Total, mean, min and max of `rows`, each labelled with `chain`; no total where `no_total`.
fn block<'a>(
    columns: &[String],
    no_total: &[bool],
    chain: &'static str,
    rows: impl Iterator<Item = &'a Row> + Clone,
) -> Result<Vec<SummaryRow>, String> {
    let stats = (0..columns.len())
        .map(|i| {
            let values = rows
                .clone()
                .filter_map(move |row| Some((row, row.values[i].as_ref()?)));
            Stats::of(&columns[i], values)
        })
        .collect::<Result<Vec<Option<Stats>>, String>>()?;
    let pick = |f: fn(&Stats) -> Number| stats.iter().map(|s| s.as_ref().map(f)).collect();
    let mut totals: Vec<Option<Number>> = pick(|s| s.total.clone());
    for (total, none) in totals.iter_mut().zip(no_total) {
        if *none {
            *total = None;
        }
    }
    Ok(vec![
        ("total", chain, totals),
        ("mean", chain, pick(|s| s.mean.clone())),
        ("min", chain, pick(|s| s.min.clone())),
        ("max", chain, pick(|s| s.max.clone())),
    ])
}

/// Whether a column's total would count nothing: active users (daily, or `--by`'s
/// `active_users_avg`: a sum of daily actives counts no real users), and the derived percents,
/// means, running totals and per-user values; `ETHEREUM.` in front with `--wide`.
fn has_no_total(name: &str) -> bool {
    let metric = name.rsplit_once('.').map_or(name, |(_, metric)| metric);
    let users = [Metric::ActiveUsers.name(), label(Metric::ActiveUsers)];
    users.contains(&metric)
        || metric.ends_with("_pct")
        || metric.ends_with("_cumulative")
        || metric.ends_with("_per_user")
        || metric.contains("_rolling_")
}

struct Stats {
    total: Number,
    mean: Number,
    /// The smallest and largest values as the service wrote them.
    min: Number,
    max: Number,
}

impl Stats {
    /// The statistics of a column's values, each with the row it is in (for the error that
    /// names a value beyond the bound of `Number::to_decimal`, its chain and its date).
    fn of<'a>(
        column: &str,
        values: impl Iterator<Item = (&'a Row, &'a Number)>,
    ) -> Result<Option<Stats>, String> {
        let values = values
            .map(|(row, n)| match n.to_decimal() {
                Ok(exact) => Ok((n, exact)),
                Err(why) => {
                    let chain = row.chain.map(|c| format!("{c} ")).unwrap_or_default();
                    Err(format!(
                        "cannot summarise {chain}{column} of {}: {why}",
                        row.date
                    ))
                }
            })
            .collect::<Result<Vec<(&Number, BigDecimal)>, String>>()?;
        let Some(min) = values.iter().min_by(|a, b| a.1.cmp(&b.1)) else {
            return Ok(None);
        };
        let min = min.0.clone();
        let max = values
            .iter()
            .max_by(|a, b| a.1.cmp(&b.1))
            .map_or(&min, |m| m.0)
            .clone();
        let total: BigDecimal = values.iter().map(|(_, v)| v).sum();
        let scale = values
            .iter()
            .map(|(_, v)| v.fractional_digit_count().max(0))
            .max()
            .unwrap_or(0);
        let mean = (&total / BigDecimal::from(values.len() as u64)).with_scale_round(
            scale + MEAN_EXTRA_DIGITS,
            bigdecimal::RoundingMode::HalfEven,
        );
        Ok(Some(Stats {
            total: plain(&total),
            mean: plain(&mean.normalized()),
            min,
            max,
        }))
    }
}

/// A decimal written without exponent, as a `Number`.
fn plain(value: &BigDecimal) -> Number {
    Number::from_decimal(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_exponent_is_refused_before_any_arithmetic() {
        let date = chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let data = Dataset {
            chain_column: false,
            columns: vec!["fees".into()],
            rows: ["0.1", "1e999999999"]
                .map(|v| Row {
                    date,
                    chain: None,
                    values: vec![Number::from_json_token(v)],
                })
                .to_vec(),
        };
        assert_eq!(
            rows(&data, false).unwrap_err(),
            "cannot summarise fees of 2024-01-01: 1e999999999 is beyond the range of a number \
             (an exponent beyond ±1000)"
        );
    }

    #[test]
    fn exact_total_mean_min_max_skip_gaps() {
        let n = |t: &str| Number::from_json_token(t);
        let date = chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let row = |a: &str, b: Option<Number>| Row {
            date,
            chain: None,
            values: vec![n(a), b],
        };
        let data = Dataset {
            chain_column: false,
            columns: vec!["fees".into(), "gaps".into()],
            rows: vec![row("0.1", None), row("0.2", None), row("5E+1", None)],
        };
        let text = |v: &Vec<Option<Number>>| {
            v.iter()
                .map(|x| x.as_ref().map(|n| n.as_str().to_owned()))
                .collect::<Vec<_>>()
        };
        let got: Vec<_> = rows(&data, false)
            .unwrap()
            .iter()
            .map(|(l, _, v)| (*l, text(v)))
            .collect();
        assert_eq!(
            got,
            vec![
                ("total", vec![Some("50.3".to_owned()), None]),
                ("mean", vec![Some("16.767".to_owned()), None]),
                ("min", vec![Some("0.1".to_owned()), None]),
                ("max", vec![Some("5E+1".to_owned()), None]),
            ]
        );
    }

    #[test]
    fn users_derived_percents_and_means_have_no_total() {
        for name in [
            "active_users",
            "active_users_avg",
            "BASE.active_users",
            "fees_change_pct",
            "ETHEREUM.fees_share_pct",
            "fees_rolling_7",
            "fees_cumulative",
            "fees_per_user",
        ] {
            assert!(has_no_total(name), "{name}");
        }
        for name in [
            "fees",
            "fees_change",
            "days",
            "ETHEREUM.days",
            "tweet",
            "ETHEREUM",
        ] {
            assert!(!has_no_total(name), "{name}");
        }
    }

    #[test]
    fn one_block_per_chain() {
        let date = chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let row = |chain, value: &str| Row {
            date,
            chain: Some(chain),
            values: vec![Number::from_json_token(value)],
        };
        let data = Dataset {
            chain_column: true,
            columns: vec!["fees".into()],
            rows: vec![
                row(Chain::Base, "1"),
                row(Chain::Ethereum, "10"),
                row(Chain::Base, "3"),
            ],
        };
        let got: Vec<String> = rows(&data, false)
            .unwrap()
            .iter()
            .map(|(label, chain, v)| format!("{label} {chain} {}", v[0].as_ref().unwrap().as_str()))
            .collect();
        assert_eq!(
            got,
            [
                "total BASE 4",
                "mean BASE 2",
                "min BASE 1",
                "max BASE 3",
                "total ETHEREUM 10",
                "mean ETHEREUM 10",
                "min ETHEREUM 10",
                "max ETHEREUM 10",
            ]
        );
    }
}
