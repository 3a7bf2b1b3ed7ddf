//! The terminal chart's layout: a chart per metric, period starts as date labels, round axes.

use chrono::NaiveDate;

use super::write;
use crate::model::Chain;
use crate::model::DayRange;
use crate::model::Period;
use crate::model::{column_named, Dataset, Number, Row};
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
            coverage: None,
        })
        .collect();
    Dataset {
        chain_column: false,
        columns: vec![
            column_named("ETHEREUM.fees"),
            column_named("ETHEREUM.tweet"),
        ],
        rows,
    }
}

fn draw(data: &Dataset, by: Period) -> String {
    draw_as(data, by, RenderOptions::default())
}

/// `data` drawn 60 columns wide with `look`'s colour and braille.
fn draw_as(data: &Dataset, by: Period, look: RenderOptions) -> String {
    let caption = Caption {
        chains: vec![Chain::Ethereum],
        range: DayRange {
            start: day(0),
            end: day(20),
        },
        by,
        warnings: Vec::new(),
        hints: Vec::new(),
        made: String::new(),
        origin: Default::default(),
    };
    let style = RenderOptions {
        width: 60,
        caption: Some(&caption),
        ..look
    };
    let mut out = Vec::new();
    write(data, style, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn each_metric_gets_a_chart_and_the_provenance_closes_them() {
    let text = draw(&data(), Period::Day);
    let headings: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.contains('+') && !l.contains('|'))
        .filter(|l| !l.contains(" · "))
        .collect();
    assert_eq!(headings, ["fees", "", "tweet"], "{text}");
    // The provenance line closes the whole, once.
    assert!(
        text.ends_with("ETHEREUM · 2024-01-03 to 2024-01-23 · by day\n"),
        "{text}"
    );
    let mut one = data();
    one.columns.truncate(1);
    one.rows.iter_mut().for_each(|r| r.values.truncate(1));
    assert!(!draw(&one, Period::Day).starts_with("fees"));
}

#[test]
fn with_by_week_every_date_label_is_a_monday_the_first_too() {
    let text = draw(&data(), Period::Week);
    let labels: Vec<NaiveDate> = text
        .lines()
        .filter(|l| !l.contains(" · "))
        .flat_map(str::split_whitespace)
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(labels.len() >= 3, "{text}");
    assert_ne!(labels[0], day(0), "2024-01-03 is a Wednesday:\n{text}");
    for label in &labels {
        assert_eq!(
            Period::Week.start(*label),
            *label,
            "{label} is no Monday:\n{text}"
        );
    }
}

fn is_braille(c: char) -> bool {
    ('\u{2800}'..='\u{28FF}').contains(&c)
}

#[test]
fn braille_needs_the_terminal_and_for_several_series_colour() {
    let braille = RenderOptions {
        braille: true,
        ..RenderOptions::default()
    };
    let coloured = RenderOptions {
        color: true,
        ..braille
    };
    let mut one = data();
    one.columns.truncate(1);
    one.rows.iter_mut().for_each(|r| r.values.truncate(1));
    // Without braille: plain marks, as ever.
    let plain = draw(&data(), Period::Day);
    assert!(
        !plain.chars().any(is_braille) && plain.contains('*'),
        "{plain}"
    );
    // One series: braille, with or without colour; its legend shows the sample line.
    let text = draw_as(&one, Period::Day, braille);
    assert!(
        text.chars().any(is_braille) && !text.contains('*'),
        "{text}"
    );
    assert!(text.contains("\u{2812} ETHEREUM.fees"), "{text}");
    // Several series on one chart: braille only with colour, each series (and its legend
    // entry) in its own.
    let mut two = data();
    two.columns[1] = column_named("ARBITRUM.fees");
    let text = draw_as(&two, Period::Day, coloured);
    assert!(text.chars().any(is_braille), "{text}");
    let yellow = text
        .split("\x1b[33m")
        .skip(1)
        .filter_map(|t| t.chars().next());
    assert!(
        yellow.filter(|c| is_braille(*c)).count() > 20,
        "ARBITRUM's line: {text}"
    );
    assert!(
        text.contains("\x1b[34m\u{2812}\x1b[0m ETHEREUM.fees"),
        "{text}"
    );
    assert!(
        text.contains("\x1b[33m\u{2812}\x1b[0m ARBITRUM.fees"),
        "{text}"
    );
    assert_eq!(draw_as(&two, Period::Day, braille), draw(&two, Period::Day));
    assert_eq!(draw_as(&data(), Period::Day, braille), plain);
}

#[test]
fn braille_keeps_the_axes_labels_and_date_ticks_of_the_plain_chart() {
    let mut one = data();
    one.columns.truncate(1);
    one.rows.iter_mut().for_each(|r| r.values.truncate(1));
    let braille = RenderOptions {
        braille: true,
        ..RenderOptions::default()
    };
    let frame = |text: String| -> Vec<String> {
        text.lines()
            .map(|l| l.chars().filter(|c| !is_braille(*c) && *c != '*').collect())
            .map(|l: String| l.trim_end().to_owned())
            .collect()
    };
    let plain = frame(draw(&one, Period::Week));
    let dotted = frame(draw_as(&one, Period::Week, braille));
    // Everything but the plot's cells and the legend's mark is the same: value labels, the
    // axes, the dates; a tick falls in the cell of its date's dot, which braille's finer
    // columns may put one cell further.
    assert_eq!(plain.len(), dotted.len());
    let ticks = |l: &str| -> Vec<usize> { l.match_indices('+').map(|(at, _)| at).collect() };
    for (p, d) in plain.iter().zip(&dotted) {
        if p.contains("ETHEREUM") {
            continue;
        }
        let axis = |l: &str| l.split_once(['+', '|']).map(|(label, _)| label.to_owned());
        match (p.contains("--"), p.contains('-')) {
            (true, _) => {
                let (p, d) = (ticks(p), ticks(d));
                assert_eq!(p.len(), d.len(), "{p:?} / {d:?}");
                assert!(p.iter().zip(&d).all(|(p, d)| p.abs_diff(*d) <= 1));
            }
            (false, true) => assert_eq!(p, d),
            (false, false) => assert_eq!(axis(p), axis(d), "{p:?} / {d:?}"),
        }
    }
}

#[test]
fn the_value_axis_is_round_from_zero_and_counts_tick_on_whole_numbers() {
    let labels = |axis: super::axis::ValueAxis| -> Vec<String> {
        axis.labels.into_iter().filter(|l| !l.is_empty()).collect()
    };
    // Fees from 303,158 to 472,251: from zero, not from the smallest value, in round steps.
    let fees = super::axis::value_axis((303_158.0, 472_251.0), false, super::HEIGHT);
    assert_eq!((fees.lo, fees.hi), (0.0, 600_000.0));
    assert_eq!(labels(fees), ["600k", "400k", "200k", "0"]);
    // Counts up to 2: whole numbers only, where amounts step by halves.
    let counts = super::axis::value_axis((0.0, 2.0), true, super::HEIGHT);
    assert_eq!(labels(counts), ["2", "1", "0"]);
    let amounts = super::axis::value_axis((0.0, 2.0), false, super::HEIGHT);
    assert_eq!(labels(amounts), ["2.0", "1.5", "1.0", "0.5", "0.0"]);
    // Below zero (a change): from the lowest round value below it, through zero.
    let change = super::axis::value_axis((-30.0, 70.0), false, super::HEIGHT);
    assert_eq!(labels(change), ["100", "50", "0", "-50"]);
    // Every label on a row of its own, evenly apart.
    let rows: Vec<usize> = (super::axis::value_axis((0.0, 5.0), true, super::HEIGHT)
        .labels
        .iter())
    .enumerate()
    .filter(|(_, l)| !l.is_empty())
    .map(|(r, _)| r)
    .collect();
    assert_eq!(rows, [0, 4, 8, 12]);
}
