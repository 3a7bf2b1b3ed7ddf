//! Date ticks on calendar boundaries (days, Mondays, month, quarter or year starts, every
//! k-th), as fine as the labels' room allows: the svg's x axis and the terminal chart's.

use chrono::{Datelike, NaiveDate};

use crate::model::{DayRange, Period};

/// The calendar boundaries within `dates` (days, Mondays, month, quarter or year starts,
/// every k-th) as fine as gives fewer than `room` of them, never finer than the periods drawn
/// (`by`); the first date alone when even the coarsest gives too many.
pub(crate) fn calendar_ticks(dates: &[NaiveDate], by: Period, room: usize) -> Vec<NaiveDate> {
    let (Some(first), Some(last)) = (dates.first().copied(), dates.last().copied()) else {
        return Vec::new();
    };
    let range = DayRange {
        start: first,
        end: last,
    };
    TICK_STEPS
        .iter()
        .filter(|(unit, _)| length(*unit) >= length(by))
        .map(|(unit, every)| boundaries(*unit, *every, &range))
        .find(|ticks| ticks.len() < room)
        .unwrap_or_else(|| vec![first])
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
