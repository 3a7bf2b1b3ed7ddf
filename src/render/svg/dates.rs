//! The date axis: ticks on calendar boundaries, as fine as the labels' room allows.

use chrono::NaiveDate;

use super::DATE_LABEL;
use crate::model::Period;
use crate::render::scale::calendar_ticks;

/// The dates labelled on the x axis: calendar boundaries (see `scale::calendar_ticks`) as
/// fine as keeps the labels apart in `width` pixels, never finer than the periods drawn; and
/// the last date, in place of a tick too close to it.
pub(super) fn date_ticks(dates: &[NaiveDate], by: Period, width: f64) -> Vec<NaiveDate> {
    let (Some(first), Some(last)) = (dates.first().copied(), dates.last().copied()) else {
        return Vec::new();
    };
    let room = ((width / DATE_LABEL) as usize).max(2);
    let mut ticks = calendar_ticks(dates, by, room);
    // The last date is labelled; a tick closer to it than a label's width gives way.
    let span = (last - first).num_days().max(1) as f64;
    let gap = |a: NaiveDate| (last - a).num_days() as f64 / span * width;
    ticks.retain(|t| gap(*t) >= DATE_LABEL);
    if ticks.is_empty() || last != first {
        ticks.push(last);
    }
    ticks
}
