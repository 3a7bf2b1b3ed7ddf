//! The chart's axes: round value ticks from zero on the rows, labelled as the svg labels its
//! axis (`scale::round_ticks`, `scale::compact_label`), and dates on period starts
//! (`scale::calendar_ticks`).

use chrono::NaiveDate;

use super::plot::Plot;
use super::scale;
use crate::model::Period;

/// The value axis of a chart: from `lo` (bottom row) to `hi` (top row), and each row's label
/// (empty between ticks).
pub(super) struct ValueAxis {
    pub lo: f64,
    pub hi: f64,
    pub labels: Vec<String>,
}

/// The smallest and largest value drawn, if any.
pub(super) fn bounds(series: &[Vec<Option<f64>>]) -> Option<(f64, f64)> {
    let values = series.iter().flatten().flatten().copied();
    values.fold(None, |acc: Option<(f64, f64)>, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// The value axis of values from `lo` to `hi`: from zero (or below, for values below zero) up
/// to a round value at or above them, ticks 1, 2 or 5 times a power of ten apart, each on a
/// row of its own (of `rows`, a tick every third row or so); ticks on whole numbers only when
/// the values are counts (`whole`).
pub(super) fn value_axis((lo, hi): (f64, f64), whole: bool, rows: usize) -> ValueAxis {
    let (lo, hi) = (lo.min(0.0), hi.max(0.0));
    let (ticks, mut step) = scale::round_ticks(lo, hi, ((rows - 1) / 3).max(1));
    let mut first = ticks.first().copied().unwrap_or(0.0);
    let mut count = ticks.len().saturating_sub(1).max(1);
    if whole && step < 1.0 {
        step = 1.0;
        first = lo.floor();
        count = ((hi.ceil() - first) as usize).max(1);
    }
    // Every tick on a row: the rows between two ticks are as many for each pair.
    while !(rows - 1).is_multiple_of(count) {
        count += 1;
    }
    let every = (rows - 1) / count;
    let top = first + step * count as f64;
    let widest = first.abs().max(top.abs());
    let labels = (0..rows)
        .map(|r| match r % every {
            0 => scale::compact_label(top - step * (r / every) as f64, step, widest),
            _ => String::new(),
        })
        .collect();
    ValueAxis {
        lo: first,
        hi: top,
        labels,
    }
}

/// The days (indices into `days`) a date axis labels: period starts (Mondays, months' first
/// days, ... never finer than `by`; by day, days or every 7th day from a Monday) evenly
/// spread, at most `room`, as the svg's axis ticks; the first day when no start falls within.
pub(super) fn date_labels(days: &[NaiveDate], by: Period, room: usize) -> Vec<usize> {
    let ticks = scale::calendar_ticks(days, by, room.max(1) + 1);
    let Some(first) = days.first() else {
        return Vec::new();
    };
    let indices: Vec<usize> = (ticks.iter())
        .map(|day| (*day - *first).num_days() as usize)
        .filter(|i| *i < days.len())
        .collect();
    match indices.is_empty() {
        true => vec![0],
        false => indices,
    }
}

/// The date axis of `plot` over `days`: its line with a tick under each labelled day, and the
/// labels (see [`date_labels`]), as many as keep apart.
pub(super) fn date_axis(plot: &Plot, days: &[NaiveDate], by: Period) -> (String, String) {
    let dates: Vec<String> = days.iter().map(NaiveDate::to_string).collect();
    (1..=plot.date_room().max(1))
        .rev()
        .find_map(|room| plot.date_axis(&dates, &date_labels(days, by, room)))
        .or_else(|| plot.date_axis(&dates, &[0]))
        .unwrap_or_default()
}
