//! Hover per date, without a script: a transparent column over each date of a panel, on top of
//! the lines and grid (which let the pointer through), whose `<title>` lists every chain's
//! exact value of that date (or that it has none, or that it was left out), so that a reader
//! need not hit a 3-pixel dot. Where a column per date would be thinner than [`NARROWEST`],
//! a column holds a week of days, a month of weeks (or of days), and so on, and lists each of
//! its dates' exact values: at any range the pointer finds exact values. Each value is written
//! once, here (a dot has no title of its own).

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::frame::Frame;
use super::series::{Panel, Why};
use super::xml::{at, escape};
use crate::model::Period;
use crate::render::caption::Caption;

/// Fewer pixels a column than this and the columns group dates.
const NARROWEST: f64 = 4.0;

/// Pixels the first and last columns reach past the plot's edges, so that the outer half of
/// an edge's dot (and the pointer a little off it) still finds its values.
const PAST_EDGE: f64 = 4.0;

/// The periods a hover column may hold, from the shortest.
const GROUPS: [Period; 5] = [
    Period::Day,
    Period::Week,
    Period::Month,
    Period::Quarter,
    Period::Year,
];

/// What one hover column holds: a date of `by` (the period drawn), or the longer period whose
/// columns are at least [`NARROWEST`] wide over `width` pixels.
pub(super) fn grouping(dates: &[NaiveDate], by: Period, width: f64) -> Period {
    let from = GROUPS.iter().position(|g| *g == by).unwrap_or(0);
    for group in &GROUPS[from..] {
        let count = starts(dates, *group).len().max(1);
        if width / count as f64 >= NARROWEST {
            return *group;
        }
    }
    Period::Year
}

/// What the hover of a picture whose columns hold `group` gives, for its caption.
pub(super) fn says(group: Period, by: Period) -> String {
    match group == by {
        true => format!("hover a {} for every chain's exact value", by.name()),
        false => format!(
            "hover a {} for every chain's exact value of each of its {}s (a column a {} would be \
                too thin to point at)",
            group.name(),
            by.name(),
            by.name()
        ),
    }
}

/// The first dates of each column: `dates` cut where `group`'s period changes.
fn starts(dates: &[NaiveDate], group: Period) -> Vec<usize> {
    let mut starts = Vec::new();
    for (i, date) in dates.iter().enumerate() {
        let new = i == 0 || group.start(dates[i - 1]) != group.start(*date);
        if new {
            starts.push(i);
        }
    }
    starts
}

pub(super) fn columns(
    out: &mut String,
    panel: &Panel,
    frame: &Frame,
    caption: &Caption,
    (dates, group): (&[NaiveDate], Period),
) {
    if dates.is_empty() {
        return;
    }
    let said = values_by_date(panel);
    let mut cuts = starts(dates, group);
    cuts.push(dates.len());
    out.push_str("<g class=\"hover\" fill=\"#000\" fill-opacity=\"0\">\n");
    for pair in cuts.windows(2) {
        let (first, last) = (pair[0], pair[1] - 1);
        let x = |i: usize| frame.x(dates[i]);
        let left = first
            .checked_sub(1)
            .map_or(frame.left - PAST_EDGE, |p| (x(p) + x(first)) / 2.0);
        let right = match last + 1 < dates.len() {
            true => (x(last) + x(last + 1)) / 2.0,
            false => frame.left + frame.width + PAST_EDGE,
        };
        let text = match group == caption.by {
            true => one_date(panel, caption, dates[first], &said),
            false => grouped(panel, caption, group, &dates[first..=last], &said),
        };
        // Both edges rounded as written, so that a column starts where the last one ends.
        let (left, right) = (tenths(left), tenths(right));
        out.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{}</title></rect>\n",
            at(left),
            at(frame.plot_top()),
            at(right - left),
            at(frame.height),
            escape(&text)
        ));
    }
    out.push_str("</g>\n");
}

/// `value` rounded to the tenth [`at`] writes.
fn tenths(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// A column of one date: the date and metric, then a line per chain.
fn one_date(
    panel: &Panel,
    caption: &Caption,
    date: NaiveDate,
    said: &BTreeMap<NaiveDate, Vec<Said>>,
) -> String {
    let lines: Vec<String> = (said.get(&date).into_iter().flatten())
        .map(Said::full)
        .collect();
    format!(
        "{}: {}\n{}",
        caption.when(date),
        panel.metric,
        lines.join("\n")
    )
}

/// A column of several dates, kept light (a decade of days is some twenty thousand values a
/// panel): the period and metric with the chains' order, then a line per date, named by what
/// the period does not say (the day of a month), with every chain's value in that order,
/// separated by spaces; a gap is `gap`, and a value's note has no space (`(partial:6/7)`,
/// `*` for a value left out of the drawing), so that the values stay apart; the key after the
/// chains explains the marks the column uses.
fn grouped(
    panel: &Panel,
    caption: &Caption,
    group: Period,
    dates: &[NaiveDate],
    said: &BTreeMap<NaiveDate, Vec<Said>>,
) -> String {
    let chains: Vec<&str> = panel.lines.iter().map(|l| l.chain.name()).collect();
    let by = caption.by.name();
    let (named, shown) = match group {
        Period::Day | Period::Week => ("date", "%Y-%m-%d"),
        Period::Month => ("day of the month", "%d"),
        Period::Quarter | Period::Year => ("month and day", "%m-%d"),
    };
    let plural = |n: usize| match n {
        1 => "",
        _ => "s",
    };
    let mut text = format!(
        "{} of {}: {}, {n} {by}{s} (a line each, by its {named}): {}",
        group.name(),
        group.start(dates[0]),
        panel.metric,
        chains.join(" "),
        n = dates.len(),
        s = plural(dates.len()),
    );
    let mut needed = [false; KEY.len()];
    let mut lines = String::new();
    for date in dates {
        lines.push_str(&format!("\n{}:", date.format(shown)));
        for word in said.get(date).into_iter().flatten() {
            let (value, key) = word.short();
            if let Some(k) = key {
                needed[k] = true;
            }
            lines.push(' ');
            lines.push_str(&value);
        }
    }
    let key: Vec<&str> = (KEY.iter().zip(needed))
        .filter(|(_, n)| *n)
        .map(|(k, _)| *k)
        .collect();
    if !key.is_empty() {
        text.push_str(&format!("; {}", key.join("; ")));
    }
    text.push_str(&lines);
    text
}

/// What a grouped column's key explains, in its order; [`Said::short`] names the line a word
/// needs.
const KEY: [&str; 5] = [
    "gap: no value",
    "partial:D/N: a period with D of its N days",
    "*: left out of the drawing (see the notes)",
    "first: no previous value to change from",
    "a value of zero or below is not drawn on a log scale",
];

/// What a change says where the period before has no value.
const NO_PREVIOUS: &str = "no previous value";

/// One chain's word on one date: its value as the service wrote it, with the coverage of a
/// partial period or whether it was left out; `None` for a gap.
#[derive(Clone)]
struct Said {
    chain: &'static str,
    text: Option<String>,
    partial: Option<crate::model::Coverage>,
    left_out: Option<Why>,
    /// A change with no value because the period before has none: no gap.
    no_previous: bool,
}

impl Said {
    /// The word short, as a grouped column gives it, and the line of [`KEY`] it needs. On a
    /// log scale a value of zero or below has no place: the key says so once, rather than a
    /// mark on each of a decade's zero counts.
    fn short(&self) -> (String, Option<usize>) {
        let off_log = self.left_out == Some(Why::OffLog);
        match (
            &self.text,
            self.partial,
            self.left_out.is_some() && !off_log,
        ) {
            (None, ..) if self.no_previous => ("first".to_owned(), Some(3)),
            (None, ..) => ("gap".to_owned(), Some(0)),
            (Some(v), Some(c), _) => (format!("{v}(partial:{}/{})", c.days, c.of), Some(1)),
            (Some(v), None, true) => (format!("{v}*"), Some(2)),
            (Some(v), None, false) => (v.clone(), off_log.then_some(4)),
        }
    }

    /// The word in full, as a column of one date gives it.
    fn full(&self) -> String {
        let Some(text) = &self.text else {
            return match self.no_previous {
                true => format!("{}: {NO_PREVIOUS}", self.chain),
                false => format!("{}: no value", self.chain),
            };
        };
        let note = match (self.partial, self.left_out) {
            (Some(c), _) => format!(" (partial: {} of {} days)", c.days, c.of),
            (None, Some(why)) => format!(" (left out: {})", why.says()),
            (None, None) => String::new(),
        };
        format!("{} {text}{note}", self.chain)
    }
}

/// Each date's word per chain, chains in the legend's order.
fn values_by_date(panel: &Panel) -> BTreeMap<NaiveDate, Vec<Said>> {
    let mut said: BTreeMap<NaiveDate, Vec<Said>> = BTreeMap::new();
    let unit = if panel.percent { "%" } else { "" };
    for line in &panel.lines {
        let word = Said {
            chain: line.chain.name(),
            text: None,
            partial: None,
            left_out: None,
            no_previous: false,
        };
        let mut told: Vec<(NaiveDate, Said)> = Vec::new();
        for point in line.runs.iter().flatten() {
            let text = Some(format!("{}{unit}", point.exact));
            let partial = point.partial;
            told.push((
                point.date,
                Said {
                    text,
                    partial,
                    ..word.clone()
                },
            ));
        }
        told.extend(line.gaps.iter().map(|d| (*d, Said { ..word.clone() })));
        let first = line.no_previous.iter();
        told.extend(first.map(|d| {
            (
                *d,
                Said {
                    no_previous: true,
                    ..word.clone()
                },
            )
        }));
        for (date, text, why) in &line.left_out {
            // The text carries its unit already (`Number::shown_with`).
            let (text, left_out) = (Some(text.clone()), Some(*why));
            told.push((
                *date,
                Said {
                    text,
                    left_out,
                    ..word.clone()
                },
            ));
        }
        told.sort_by_key(|(date, _)| *date);
        for (date, word) in told {
            said.entry(date).or_default().push(word);
        }
    }
    said
}
