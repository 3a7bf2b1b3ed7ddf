//! The terminal chart's layout: a chart per metric when scales differ, period labels with --by.

use chrono::NaiveDate;

use super::write;
use crate::model::Chain;
use crate::model::DayRange;
use crate::model::Period;
use crate::model::{Dataset, Number, Row};
use crate::render::{Caption, RenderOptions};

fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2024, 1, 3).unwrap() + chrono::Days::new(n)
}

/// 21 days from Wednesday 2024-01-03: fees near a million, tweets under ten.
fn data() -> Dataset {
    let rows = (0..21)
        .map(|n| Row {
            date: day(n),
            chain: None,
            values: vec![
                Number::from_json_token(&format!("{}", 1_000_000 + n * 1000)),
                Number::from_json_token(&format!("{}", n % 7)),
            ],
        })
        .collect();
    Dataset {
        chain_column: false,
        columns: vec!["ETHEREUM.fees".into(), "ETHEREUM.tweet".into()],
        rows,
    }
}

fn draw(data: &Dataset, by: Period) -> String {
    let caption = Caption {
        chains: vec![Chain::Ethereum],
        range: DayRange {
            start: day(0),
            end: day(20),
        },
        by,
        warnings: Vec::new(),
        made: String::new(),
    };
    let style = RenderOptions {
        width: 60,
        caption: Some(&caption),
        ..RenderOptions::default()
    };
    let mut out = Vec::new();
    write(data, style, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn metrics_of_different_scale_get_a_chart_each() {
    let text = draw(&data(), Period::Day);
    let headings: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.contains('+') && !l.contains('|'))
        .collect();
    assert_eq!(headings, ["fees", "", "tweet"], "{text}");
    let mut one = data();
    one.columns.truncate(1);
    one.rows.iter_mut().for_each(|r| r.values.truncate(1));
    assert!(!draw(&one, Period::Day).starts_with("fees"));
}

#[test]
fn with_by_week_the_first_day_and_the_mondays_are_labelled() {
    let text = draw(&data(), Period::Week);
    let labels: Vec<NaiveDate> = text
        .lines()
        .flat_map(str::split_whitespace)
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(labels.len() >= 3, "{text}");
    assert_eq!(labels[0], day(0));
    for label in labels.iter().filter(|l| **l != day(0)) {
        assert_eq!(
            Period::Week.start(*label),
            *label,
            "{label} is no Monday:\n{text}"
        );
    }
}
