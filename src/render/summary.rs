//! The `--summary` rows: total, mean, min and max of each column, in exact decimal arithmetic
//! so that a total of `0.1` and `0.2` is `0.3`, never a float's `0.30000000000000004`.

use std::str::FromStr;

use bigdecimal::BigDecimal;

use crate::model::{Dataset, Number};

/// Digits the mean keeps beyond the most precise value of its column.
const MEAN_EXTRA_DIGITS: i64 = 2;

/// One row per statistic, a value per column; a column with no value at all gets gaps.
pub fn rows(data: &Dataset) -> Vec<(&'static str, Vec<Option<Number>>)> {
    let stats: Vec<Option<Stats>> = (0..data.columns.len())
        .map(|i| Stats::of(data.rows.iter().filter_map(|row| row.values[i].as_ref())))
        .collect();
    let pick = |f: fn(&Stats) -> Number| stats.iter().map(|s| s.as_ref().map(f)).collect();
    vec![
        ("total", pick(|s| s.total.clone())),
        ("mean", pick(|s| s.mean.clone())),
        ("min", pick(|s| s.min.clone())),
        ("max", pick(|s| s.max.clone())),
    ]
}

struct Stats {
    total: Number,
    mean: Number,
    /// The smallest and largest values as the service wrote them.
    min: Number,
    max: Number,
}

impl Stats {
    fn of<'a>(values: impl Iterator<Item = &'a Number>) -> Option<Stats> {
        let values: Vec<(&Number, BigDecimal)> = values
            .map(|n| {
                let exact = BigDecimal::from_str(n.as_str()).expect("a JSON number parses");
                (n, exact)
            })
            .collect();
        let min = values.iter().min_by(|a, b| a.1.cmp(&b.1))?.0.clone();
        let max = values.iter().max_by(|a, b| a.1.cmp(&b.1))?.0.clone();
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
        Some(Stats {
            total: plain(&total),
            mean: plain(&mean.normalized()),
            min,
            max,
        })
    }
}

/// A decimal written without exponent, as a `Number`.
fn plain(value: &BigDecimal) -> Number {
    let text = value.to_plain_string();
    Number::from_json_token(&text).expect("a plain decimal is a JSON number")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Row;

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
        let got: Vec<_> = rows(&data).iter().map(|(l, v)| (*l, text(v))).collect();
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
}
