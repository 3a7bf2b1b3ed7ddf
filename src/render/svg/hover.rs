//! Hover per date, without a script: a transparent column over each date of a panel, under
//! the lines, whose `<title>` lists every chain's exact value of that date (or that it has
//! none, or that it was left out), so that a reader need not hit a 3-pixel dot. A panel with
//! more dates than its plot has columns of pixels gets none: its marks are thinned, and the
//! values are in the data.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::frame::Frame;
use super::series::Panel;
use super::xml::{at, escape};
use crate::render::caption::Caption;

/// Fewer pixels a date than this and the panel gets no hover columns.
const NARROWEST: f64 = 2.0;

pub(super) fn columns(
    out: &mut String,
    panel: &Panel,
    frame: &Frame,
    caption: &Caption,
    dates: &[NaiveDate],
) {
    if dates.len() < 2 || frame.width / (dates.len() as f64) < NARROWEST {
        return;
    }
    let said = values_by_date(panel);
    out.push_str("<g class=\"hover\" fill=\"#000\" fill-opacity=\"0\">\n");
    for (i, date) in dates.iter().enumerate() {
        let x = frame.x(*date);
        let left = i
            .checked_sub(1)
            .map_or(frame.left, |p| (frame.x(dates[p]) + x) / 2.0);
        let right = dates
            .get(i + 1)
            .map_or(frame.left + frame.width, |n| (frame.x(*n) + x) / 2.0);
        let lines = said.get(date).map(|l| l.join("\n")).unwrap_or_default();
        out.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{}: {}\n{}</title></rect>\n",
            at(left),
            at(frame.plot_top()),
            at(right - left),
            at(frame.height),
            caption.when(*date),
            escape(&panel.metric),
            escape(&lines)
        ));
    }
    out.push_str("</g>\n");
}

/// Each date's line per chain, chains in the legend's order: the exact value (and a partial
/// period's days), `no value` for a gap, or the text of a value left out.
fn values_by_date(panel: &Panel) -> BTreeMap<NaiveDate, Vec<String>> {
    let mut said: BTreeMap<NaiveDate, Vec<String>> = BTreeMap::new();
    for line in &panel.lines {
        let name = line.chain.name();
        let mut say = |date: NaiveDate, text: String| said.entry(date).or_default().push(text);
        let mut told: Vec<(NaiveDate, String)> = Vec::new();
        for point in line.runs.iter().flatten() {
            let days = point.partial.map_or(String::new(), |c| {
                format!(" (partial: {} of {} days)", c.days, c.of)
            });
            told.push((point.date, format!("{name} {}{days}", point.exact)));
        }
        told.extend(line.gaps.iter().map(|d| (*d, format!("{name}: no value"))));
        let left_out = line.left_out.iter();
        told.extend(
            left_out.map(|(d, t, why)| (*d, format!("{name} {t} (left out: {})", why.says()))),
        );
        told.sort_by_key(|(date, _)| *date);
        for (date, text) in told {
            say(date, text);
        }
    }
    said
}
