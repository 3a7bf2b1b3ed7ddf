//! The `--summary` rows: total, mean, min and max of each column, in exact decimal arithmetic
//! so that a total of `0.1` and `0.2` is `0.3`, never a float's `0.30000000000000004`.

use bigdecimal::BigDecimal;

use crate::model::divide;
use crate::model::Chain;
use crate::model::{Column, Dataset, Number, Row};

/// One summary row: the statistic's name, the chain cell, a value per column.
pub(crate) type SummaryRow = (&'static str, &'static str, Vec<Option<Number>>);

/// One row per statistic, a value per column; a column with no value at all gets gaps. With a
/// chain column, one block of rows per chain, in the order the chains first show: a total over
/// several chains would add up different things. A column whose values do not add up (see
/// [`Column::adds_up`]: active users, percents, means) has no total. The mean is rounded half
/// to even to `decimals` (`--decimals`), as every derived number is, without trailing zeros. Fails,
/// naming the value,
/// on a number too large to add up exactly (see `Number::to_decimal`), as `--by` does.
pub(crate) fn rows(data: &Dataset, decimals: u32) -> Result<Vec<SummaryRow>, String> {
    if !data.chain_column {
        return block(&data.columns, decimals, "", data.rows.iter());
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
        blocks.extend(block(&data.columns, decimals, chain, rows)?);
    }
    Ok(blocks)
}

/// Total, mean, min and max of `rows`, each labelled with `chain`.
fn block<'a>(
    columns: &[Column],
    decimals: u32,
    chain: &'static str,
    rows: impl Iterator<Item = &'a Row> + Clone,
) -> Result<Vec<SummaryRow>, String> {
    let stats = (columns.iter().enumerate())
        .map(|(i, column)| {
            let values = rows
                .clone()
                .filter_map(move |row| Some((row, row.values[i].as_ref()?)));
            Stats::of(column, decimals, values)
        })
        .collect::<Result<Vec<Option<Stats>>, String>>()?;
    let pick = |f: fn(&Stats) -> Option<Number>| stats.iter().map(move |s| s.as_ref().and_then(f));
    let [total, mean, min, max] = LABELS;
    Ok(vec![
        (total, chain, pick(|s| s.total.clone()).collect()),
        (mean, chain, pick(|s| Some(s.mean.clone())).collect()),
        (min, chain, pick(|s| Some(s.min.clone())).collect()),
        (max, chain, pick(|s| Some(s.max.clone())).collect()),
    ])
}

/// What a `--summary` row has in its date cell, in the order the rows come.
pub(crate) const LABELS: [&str; 4] = ["total", "mean", "min", "max"];

struct Stats {
    /// `None` for a column whose values do not add up.
    total: Option<Number>,
    mean: Number,
    /// The smallest and largest values as the service wrote them.
    min: Number,
    max: Number,
}

impl Stats {
    /// The statistics of a column's values, each with the row it is in (for the error that
    /// names a value beyond the bound of `Number::to_decimal`, its chain and its date).
    fn of<'a>(
        column: &Column,
        decimals: u32,
        values: impl Iterator<Item = (&'a Row, &'a Number)>,
    ) -> Result<Option<Stats>, String> {
        let values = values
            .map(|(row, n)| match n.to_decimal() {
                Ok(exact) => Ok((n, exact)),
                Err(why) => {
                    let chain = row.chain.map(|c| format!("{c} ")).unwrap_or_default();
                    let name = column.name();
                    Err(format!(
                        "cannot summarise {chain}{name} of {}: {why}",
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
        let count = BigDecimal::from(values.len() as u64);
        // Never `None`: there is at least one value. Trailing zeros are dropped (a mean of
        // whole days stays `60`), as the summary always wrote its mean.
        let mean = divide(&total, &count, decimals).unwrap_or_default();
        let mean = mean.normalized();
        Ok(Some(Stats {
            total: column.adds_up().then(|| Number::from_decimal(&total)),
            mean: Number::from_decimal(&mean),
            min,
            max,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Measure, Metric, SocialMetric};

    #[test]
    fn a_huge_exponent_is_refused_before_any_arithmetic() {
        let date = chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let data = Dataset {
            chain_column: false,
            columns: vec![Column::value(Metric::Fees)],
            rows: ["0.1", "1e999999999"]
                .map(|v| Row {
                    date,
                    chain: None,
                    values: vec![Number::from_json_token(v)],
                    coverage: None,
                })
                .to_vec(),
        };
        assert_eq!(
            rows(&data, 2).unwrap_err(),
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
            coverage: None,
        };
        let fees = Column::value(Metric::Fees);
        let data = Dataset {
            chain_column: false,
            columns: vec![fees, Column::value(Metric::Social(SocialMetric::Tweet))],
            rows: vec![row("0.1", None), row("0.2", None), row("5E+1", None)],
        };
        let text = |v: &Vec<Option<Number>>| {
            v.iter()
                .map(|x| x.as_ref().map(|n| n.as_str().to_owned()))
                .collect::<Vec<_>>()
        };
        let got: Vec<_> = rows(&data, 3)
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
        let fees = Column::value(Metric::Fees);
        let users = Column::value(Metric::ActiveUsers);
        let measure = |m| fees.with_measure(m).unwrap();
        let columns = [
            (users, false),
            (users.rolled_up(), false),
            (users.in_chain(Chain::Base, false), false),
            (users.in_chain(Chain::Base, true), false),
            (measure(Measure::ChangePct), false),
            (
                measure(Measure::SharePct).in_chain(Chain::Ethereum, false),
                false,
            ),
            (measure(Measure::Rolling(7)), false),
            (measure(Measure::Cumulative), false),
            (measure(Measure::PerUser), false),
            (fees, true),
            (measure(Measure::Change), true),
            (Column::days(), true),
            (Column::days().in_chain(Chain::Ethereum, false), true),
            (Column::value(Metric::Social(SocialMetric::Tweet)), true),
            (fees.in_chain(Chain::Ethereum, true), true),
        ];
        let data = Dataset {
            chain_column: false,
            columns: columns.iter().map(|(c, _)| *c).collect(),
            rows: vec![Row {
                date: chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap(),
                chain: None,
                values: vec![Number::from_json_token("1"); columns.len()],
                coverage: None,
            }],
        };
        let summary = rows(&data, 2).unwrap();
        let (label, _, totals) = &summary[0];
        assert_eq!(*label, "total");
        for ((column, has_total), total) in columns.iter().zip(totals) {
            assert_eq!(total.is_some(), *has_total, "{}", column.name());
        }
    }

    #[test]
    fn the_mean_is_rounded_half_to_even_to_the_decimals_asked() {
        let date = chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let row = |value: &str| Row {
            date,
            chain: None,
            values: vec![Number::from_json_token(value)],
            coverage: None,
        };
        let data = Dataset {
            chain_column: false,
            columns: vec![Column::value(Metric::Fees)],
            // The mean is 0.125 exactly, then a third of a 40-digit number.
            rows: vec![row("0.1"), row("0.15")],
        };
        let mean = |data: &Dataset, decimals| {
            let summary = rows(data, decimals).unwrap();
            summary[1].2[0].as_ref().unwrap().as_str().to_owned()
        };
        assert_eq!(mean(&data, 2), "0.12");
        assert_eq!(mean(&data, 3), "0.125");
        assert_eq!(mean(&data, 0), "0");
        let halves = Dataset {
            rows: vec![row("1"), row("2")],
            ..data.clone()
        };
        assert_eq!(mean(&halves, 2), "1.5");
        let long = "1".repeat(40);
        let data = Dataset {
            rows: vec![row(&long), row("0"), row("0")],
            ..data
        };
        assert_eq!(mean(&data, 2), format!("{}.33", "370".repeat(13)));
    }

    #[test]
    fn one_block_per_chain() {
        let date = chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let row = |chain, value: &str| Row {
            date,
            chain: Some(chain),
            values: vec![Number::from_json_token(value)],
            coverage: None,
        };
        let data = Dataset {
            chain_column: true,
            columns: vec![Column::value(Metric::Fees)],
            rows: vec![
                row(Chain::Base, "1"),
                row(Chain::Ethereum, "10"),
                row(Chain::Base, "3"),
            ],
        };
        let got: Vec<String> = rows(&data, 0)
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
