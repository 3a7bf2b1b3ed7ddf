//! The SVG's layout at the largest size a report asks: 6 chains x 3 metrics over 3,653 days.

use chrono::{Datelike, NaiveDate};

use super::Picture;
use crate::model::Chain;
use crate::model::DayRange;
use crate::model::Period;
use crate::model::{column_named, Dataset, Number, Row};
use crate::render::{AxisScale, Caption};

fn decade() -> (Dataset, Caption) {
    let start = NaiveDate::from_ymd_opt(2015, 1, 1).unwrap();
    let range = DayRange {
        start,
        end: NaiveDate::from_ymd_opt(2024, 12, 31).unwrap(),
    };
    let rows = range
        .days()
        .enumerate()
        .flat_map(|(n, date)| {
            Chain::ALL.into_iter().map(move |chain| Row {
                date,
                chain: Some(chain),
                values: [n * 1000, n * 10, n % 9]
                    .map(|v| Number::from_json_token(&v.to_string()))
                    .to_vec(),
                coverage: None,
            })
        })
        .collect();
    let data = Dataset {
        chain_column: true,
        columns: ["fees", "active_users", "tweet"].map(column_named).to_vec(),
        rows,
    };
    let caption = Caption {
        chains: Chain::ALL.to_vec(),
        range,
        by: Period::Day,
        warnings: Vec::new(),
        hints: Vec::new(),
        made: String::new(),
        origin: Default::default(),
    };
    (data, caption)
}

/// The x of each `text-anchor="{anchor}"` label of the first panel, in order.
fn label_xs(svg: &str, anchor: &str) -> Vec<f64> {
    let panel = svg.split("<g class=\"panel\"").nth(1).unwrap();
    panel
        .split("<text ")
        .filter(|t| t.contains(&format!("text-anchor=\"{anchor}\"")))
        .map(|t| {
            t.split("x=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect()
}

#[test]
fn a_decade_of_six_chains_keeps_its_labels_apart() {
    let (data, caption) = decade();
    let svg = Picture::new(&data, &caption, AxisScale::Linear).svg(true);
    assert_eq!(svg.matches("<g class=\"panel\"").count(), 3);
    assert_eq!(svg.matches("<g class=\"series\"").count(), 18);
    let dates = label_xs(&svg, "middle");
    assert!(
        (5..=12).contains(&dates.len()),
        "{} date labels",
        dates.len()
    );
    // A date label is ten 12px characters: about 70 pixels.
    assert!(dates.windows(2).all(|w| w[1] - w[0] >= 80.0), "{dates:?}");
    let values = svg
        .split("<g class=\"panel\"")
        .nth(1)
        .unwrap()
        .matches("text-anchor=\"end\"")
        .count();
    assert!((3..=7).contains(&values), "{values} value labels");
    // One legend row holds the six names.
    let legend: Vec<&str> = svg.split("<g class=\"legend-entry\"").skip(1).collect();
    let ys: Vec<&str> = legend
        .iter()
        .map(|e| e.split("y1=\"").nth(1).unwrap().split('"').next().unwrap())
        .collect();
    assert!(ys.windows(2).all(|w| w[0] == w[1]), "{ys:?}");
    assert_eq!(
        Picture::new(&data, &caption, AxisScale::Linear).svg(true),
        svg,
        "the same bytes again"
    );
}

#[test]
fn a_gap_breaks_the_line_and_is_listed() {
    let (mut data, caption) = decade();
    data.rows
        .retain(|r| !(r.chain == Some(Chain::Base) && r.date.to_string().starts_with("2020-03")));
    let picture = Picture::new(&data, &caption, AxisScale::Linear);
    let base = &picture.panels[0].lines[4];
    assert_eq!(base.chain, Chain::Base);
    assert_eq!(base.runs.len(), 2);
    assert_eq!(base.gaps.len(), 31);
    assert_eq!(base.gaps[0].to_string(), "2020-03-01");
}

#[test]
fn date_ticks_fall_on_calendar_boundaries_and_the_last_date_is_labelled() {
    let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
    let days = |start: NaiveDate, end: NaiveDate| -> Vec<NaiveDate> {
        DayRange { start, end }.days().collect()
    };
    // 90 days: every other Monday, then the last day.
    let ticks = super::dates::date_ticks(
        &days(day(2024, 10, 3), day(2024, 12, 31)),
        Period::Day,
        820.0,
    );
    assert_eq!(ticks.first(), Some(&day(2024, 10, 7)));
    assert!(ticks[..ticks.len() - 1]
        .iter()
        .all(|d| d.weekday() == chrono::Weekday::Mon));
    assert_eq!(ticks.last(), Some(&day(2024, 12, 31)));
    // A decade: years, then the last day.
    let ticks = super::dates::date_ticks(
        &days(day(2015, 1, 1), day(2024, 12, 31)),
        Period::Day,
        820.0,
    );
    assert!(
        ticks[..ticks.len() - 1].iter().all(|d| d.ordinal() == 1),
        "{ticks:?}"
    );
    assert_eq!(ticks.last(), Some(&day(2024, 12, 31)));
    // By month: month starts, never a Monday between them.
    let months = Period::Month.starts(&DayRange {
        start: day(2023, 1, 1),
        end: day(2024, 12, 31),
    });
    let ticks = super::dates::date_ticks(&months, Period::Month, 820.0);
    assert!(ticks.iter().all(|d| d.day() == 1), "{ticks:?}");
    assert_eq!(ticks.last(), Some(&day(2024, 12, 1)));
}

#[test]
fn a_log_axis_ticks_at_powers_of_ten_with_short_labels() {
    assert_eq!(
        super::axis::powers_of_ten(91_890.9, 5_789_367.5),
        [1e4, 1e5, 1e6, 1e7]
    );
    assert_eq!(super::axis::powers_of_ten(3.0, 7.0), [1.0, 10.0]);
    assert_eq!(super::axis::powers_of_ten(100.0, 100.0), [10.0, 100.0]);
    // Thirty decades: every fourth power, counted down from the top, at most nine ticks.
    let wide = super::axis::powers_of_ten(1e-10, 1e20);
    assert_eq!(wide.len(), 9);
    assert_eq!((wide[0], wide[8]), (1e-12, 1e20));
    let labels =
        super::axis::power_labels(&[0.01, 1.0, 10.0, 100.0, 1e3, 1e4, 1e6, 1e7, 1e9, 1e12]);
    assert_eq!(
        labels,
        ["0.01", "1", "10", "100", "1k", "10k", "1M", "10M", "1B", "1T"]
    );
    // One notation an axis: past what the short labels say, every tick is `1eN`.
    assert_eq!(
        super::axis::power_labels(&wide),
        ["1e-12", "1e-8", "1e-4", "1e0", "1e4", "1e8", "1e12", "1e16", "1e20"]
    );
}
