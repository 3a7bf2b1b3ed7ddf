//! The header a shape says before any request is the header of the rows it makes.

use chrono::{Days, NaiveDate};

use super::*;
use crate::model::{Column, Metric, Number, Row, SocialMetric};

fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2024, 1, 1).unwrap() + Days::new(n)
}

/// Daily rows of `metrics` for `chains` over 45 days, with a gap now and then.
fn fetched(metrics: &[Metric], chains: &[Chain]) -> (Dataset, DayRange) {
    let mut rows = Vec::new();
    for n in 0..45 {
        for (c, chain) in chains.iter().enumerate() {
            let values = (0..metrics.len())
                .map(|m| match (n + c as u64 + m as u64) % 7 {
                    0 => None,
                    v => Number::from_json_token(&format!("{}", v * 10 + n)),
                })
                .collect();
            rows.push(Row {
                date: day(n),
                chain: Some(*chain),
                values,
                coverage: None,
            });
        }
    }
    let data = Dataset {
        chain_column: chains.len() > 1,
        columns: metrics.iter().copied().map(Column::value).collect(),
        rows,
    };
    let range = DayRange {
        start: day(0),
        end: day(44),
    };
    (data, range)
}

/// Every measure flag alone, then all of them at once.
fn measure_choices() -> Vec<Measures> {
    let none = Measures::default();
    let mut choices = vec![
        none,
        Measures {
            change: true,
            ..none
        },
        Measures {
            rolling: Some(3),
            ..none
        },
        Measures {
            cumulative: true,
            ..none
        },
        Measures {
            share: true,
            ..none
        },
        Measures {
            per_user: true,
            ..none
        },
    ];
    choices.push(Measures {
        change: true,
        rolling: Some(2),
        cumulative: true,
        share: true,
        per_user: true,
        decimals: 4,
    });
    choices
}

/// What the formats ask: nothing, a chain column, `--wide` named both ways, a chart.
fn layouts() -> [Layout; 5] {
    let plain = Layout::default();
    [
        plain,
        Layout {
            chain_column: true,
            ..plain
        },
        Layout {
            wide: Some(Naming::Chain),
            ..plain
        },
        Layout {
            wide: Some(Naming::ChainAndMetric),
            ..plain
        },
        Layout {
            steps: true,
            wide: Some(Naming::Chain),
            chain_column: false,
        },
    ]
}

#[test]
fn the_columns_are_those_of_the_rows_applied() {
    let report = [
        Metric::Fees,
        Metric::ActiveUsers,
        Metric::Social(SocialMetric::Tweet),
    ];
    let cases: [(&[Metric], &[Chain]); 4] = [
        (&[Metric::Fees], &[Chain::Ethereum, Chain::Base]),
        (&report, &[Chain::Base, Chain::Ethereum]),
        (&[Metric::ActiveUsers], &[Chain::Ethereum]),
        (&[Metric::Fees, Metric::ActiveUsers], &[Chain::Base]),
    ];
    let mut checked = 0;
    for (metrics, chains) in cases {
        let (data, range) = fetched(metrics, chains);
        for by in [Period::Day, Period::Week, Period::Month] {
            for measures in measure_choices() {
                for (layout, per_day) in layouts().into_iter().zip([false, true].iter().cycle()) {
                    let asked = Analysis {
                        measures,
                        sort: None,
                        top: Some(5),
                        per_day: *per_day,
                    };
                    let shape = Shape::new(asked, by, true, layout);
                    let applied = shape.apply(data.clone(), chains, &range).unwrap().data;
                    assert!(!applied.rows.is_empty());
                    let header = Dataset {
                        rows: Vec::new(),
                        ..applied
                    };
                    let said = shape.columns(&data, chains);
                    assert_eq!(said, header, "{metrics:?} {by:?} {measures:?} {layout:?}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 4 * 3 * 7 * 5);
}

#[test]
fn a_sort_key_named_by_the_columns_orders_the_rows_applied() {
    let chains = [Chain::Ethereum, Chain::Base];
    let (data, range) = fetched(&[Metric::Fees, Metric::ActiveUsers], &chains);
    let measures = Measures {
        change: true,
        per_user: true,
        ..Measures::default()
    };
    let layout = Layout {
        wide: Some(Naming::ChainAndMetric),
        ..Layout::default()
    };
    let mut shape = Shape::new(Analysis::default(), Period::Week, false, layout);
    shape.analysis.measures = measures;
    let header = shape.columns(&data, &chains).header();
    assert_eq!(header.len(), 1 + 2 * 8);
    assert_eq!(header[1], "ETHEREUM.days");
    let key = SortKey::parse("BASE.fees_per_user:desc").unwrap();
    assert!(key.check(&shape.columns(&data, &chains)).is_ok());
    shape.analysis.sort = Some(key);
    shape.analysis.top = Some(3);
    let applied = shape.apply(data, &chains, &range).unwrap().data;
    assert_eq!(applied.header(), header);
    let at = header
        .iter()
        .position(|h| h == "BASE.fees_per_user")
        .unwrap()
        - 1;
    let values: Vec<_> = (applied.rows.iter())
        .map(|r| r.values[at].as_ref().unwrap().to_decimal().unwrap())
        .collect();
    assert_eq!(values.len(), 3);
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
}
