//! The date axis: ticks on calendar boundaries, as fine as the labels' room allows.

use chrono::{Datelike, NaiveDate};

use super::DATE_LABEL;
use crate::model::{DayRange, Period};

/// The dates labelled on the x axis: calendar boundaries (days, Mondays, month, quarter or
/// year starts, every k-th) as fine as keeps the labels apart in `width` pixels, never finer
/// than the periods drawn; and the last date, in place of a tick too close to it.
pub(super) fn date_ticks(dates: &[NaiveDate], by: Period, width: f64) -> Vec<NaiveDate> {
    let (Some(first), Some(last)) = (dates.first().copied(), dates.last().copied()) else {
        return Vec::new();
    };
    let room = ((width / DATE_LABEL) as usize).max(2);
    let range = DayRange {
        start: first,
        end: last,
    };
    let mut ticks = TICK_STEPS
        .iter()
        .filter(|(unit, _)| length(*unit) >= length(by))
        .map(|(unit, every)| boundaries(*unit, *every, &range))
        .find(|ticks| ticks.len() < room)
        .unwrap_or_else(|| vec![first]);
    // The last date is labelled; a tick closer to it than a label's width gives way.
    let span = (last - first).num_days().max(1) as f64;
    let gap = |a: NaiveDate| (last - a).num_days() as f64 / span * width;
    ticks.retain(|t| gap(*t) >= DATE_LABEL);
    if ticks.is_empty() || last != first {
        ticks.push(last);
    }
    ticks
}

/// How long a period is, in order: a date axis ticks no finer than the periods it draws.
fn length(period: Period) -> u8 {
    match period {
        Period::Day => 0,
        Period::Week => 1,
        Period::Month => 2,
        Period::Quarter => 3,
        Period::Year => 4,
    }
}

/// The calendar steps a date axis may tick at, finest first.
const TICK_STEPS: [(Period, u32); 16] = [
    (Period::Day, 1),
    (Period::Day, 2),
    (Period::Week, 1),
    (Period::Week, 2),
    (Period::Month, 1),
    (Period::Month, 2),
    (Period::Quarter, 1),
    (Period::Month, 6),
    (Period::Year, 1),
    (Period::Year, 2),
    (Period::Year, 5),
    (Period::Year, 10),
    (Period::Year, 20),
    (Period::Year, 50),
    (Period::Year, 100),
    (Period::Year, 1000),
];

/// The first days of `unit` within `range`, every `every`-th: months and years aligned to the
/// calendar (every 2 months from January, every 5 years from a year ending in 0 or 5), days
/// and weeks counted from the first.
fn boundaries(unit: Period, every: u32, range: &DayRange) -> Vec<NaiveDate> {
    let starts = unit.starts(range).into_iter().filter(|d| *d >= range.start);
    let aligned = |d: &NaiveDate| match unit {
        Period::Month => d.month0().is_multiple_of(every),
        Period::Year => d.year().rem_euclid(every as i32) == 0,
        _ => true,
    };
    let kept: Vec<NaiveDate> = starts.filter(aligned).collect();
    match unit {
        Period::Day | Period::Week => kept.into_iter().step_by(every as usize).collect(),
        _ => kept,
    }
}
