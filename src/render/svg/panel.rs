//! One panel of the SVG: the metric's name, grid lines at round values with their labels, the
//! date axis, and one line per chain, broken at gaps, with a hover `<title>` on every point.

use chrono::NaiveDate;

use super::colour;
use super::series::{Line, Panel, Point};
use super::xml::{at, escape};
use crate::render::caption::Caption;

/// The plot's height in pixels, between the metric's name and the date labels.
const PLOT_HEIGHT: f64 = 160.0;
/// Above the plot: the metric's name.
const HEAD: f64 = 28.0;
/// More points than this in a line and its dots shrink, so the line still reads.
const DENSE: usize = 120;
/// The left-out values a panel names before "and N more".
const LEFT_OUT_NAMED: usize = 3;

/// A value scale: tick values from the lowest up, and their labels.
pub(super) struct Scale {
    pub ticks: Vec<f64>,
    pub labels: Vec<String>,
}

/// Where a panel goes, and the dates its x axis spans.
pub(super) struct Frame {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub first: Option<NaiveDate>,
    pub last: Option<NaiveDate>,
}

impl Frame {
    fn bottom(&self) -> f64 {
        self.top + HEAD + PLOT_HEIGHT
    }

    fn x(&self, date: NaiveDate) -> f64 {
        let (Some(first), Some(last)) = (self.first, self.last) else {
            return self.left;
        };
        let span = (last - first).num_days();
        match span {
            0 => self.left + self.width / 2.0,
            _ => self.left + self.width * (date - first).num_days() as f64 / span as f64,
        }
    }

    fn y(&self, scale: &Scale, value: f64) -> f64 {
        let lo = scale.ticks.first().copied().unwrap_or(0.0);
        let hi = scale.ticks.last().copied().unwrap_or(1.0);
        let share = match hi > lo {
            true => (value - lo) / (hi - lo),
            false => 0.0,
        };
        self.bottom() - PLOT_HEIGHT * share
    }
}

pub(super) fn draw(
    out: &mut String,
    panel: &Panel,
    scale: &Scale,
    frame: &Frame,
    caption: &Caption,
    dates: &[NaiveDate],
) {
    let metric = escape(&panel.metric);
    out.push_str(&format!(
        "<g class=\"panel\" data-metric=\"{metric}\">\n<text class=\"metric\" x=\"{}\" y=\"{}\">{metric}</text>\n",
        at(frame.left),
        at(frame.top + 18.0)
    ));
    left_out(out, panel, frame, caption);
    date_axis(out, frame, dates);
    if panel.lines.iter().all(|l| l.runs.is_empty()) {
        // No bare 0-1 axis: it would read as values of zero.
        out.push_str(&format!(
            "<text class=\"muted empty\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">Nothing to draw: no chain has a value of {metric} that can be drawn in this range.</text>\n",
            at(frame.left + frame.width / 2.0),
            at(frame.bottom() - PLOT_HEIGHT / 2.0)
        ));
    } else {
        value_axis(out, scale, frame);
    }
    for line in &panel.lines {
        draw_line(out, line, &panel.metric, scale, frame, caption);
    }
    out.push_str("</g>\n");
}

/// The values of the panel that cannot be drawn, in a line beside its name: left out of the
/// picture, and said so (they are no gaps).
fn left_out(out: &mut String, panel: &Panel, frame: &Frame, caption: &Caption) {
    let mut named = Vec::new();
    for line in &panel.lines {
        for (date, text) in &line.left_out {
            named.push(format!(
                "{} {} ({text})",
                line.chain.name(),
                caption.when(*date)
            ));
        }
    }
    if named.is_empty() {
        return;
    }
    let more = named.len().saturating_sub(LEFT_OUT_NAMED);
    named.truncate(LEFT_OUT_NAMED);
    let mut text = format!("left out, too large to draw: {}", named.join(", "));
    if more > 0 {
        text.push_str(&format!(" and {more} more (the values are in the data)"));
    }
    out.push_str(&format!(
        "<text class=\"muted left-out\" x=\"{}\" y=\"{}\">{}</text>\n",
        at(frame.left + 16.0 + 9.0 * panel.metric.chars().count() as f64),
        at(frame.top + 18.0),
        escape(&text)
    ));
}

/// A grid line and a label at each round value.
fn value_axis(out: &mut String, scale: &Scale, frame: &Frame) {
    let right = at(frame.left + frame.width);
    for (tick, label) in scale.ticks.iter().zip(&scale.labels) {
        let y = frame.y(scale, *tick);
        // Zero is the line values are read against: stronger than the grid.
        let class = if *tick == 0.0 { "zero" } else { "grid" };
        out.push_str(&format!(
            "<line class=\"{class}\" x1=\"{l}\" y1=\"{y}\" x2=\"{right}\" y2=\"{y}\"/><text class=\"muted\" x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{label}</text>\n",
            l = at(frame.left),
            y = at(y),
            lx = at(frame.left - 8.0),
            ty = at(y + 4.0),
        ));
    }
}

/// The x axis line, a tick and a date label under each date of `dates`.
fn date_axis(out: &mut String, frame: &Frame, dates: &[NaiveDate]) {
    let bottom = frame.bottom();
    out.push_str(&format!(
        "<line class=\"axis\" x1=\"{}\" y1=\"{b}\" x2=\"{}\" y2=\"{b}\"/>\n",
        at(frame.left),
        at(frame.left + frame.width),
        b = at(bottom)
    ));
    for date in dates {
        let x = at(frame.x(*date));
        out.push_str(&format!(
            "<line class=\"axis\" x1=\"{x}\" y1=\"{b}\" x2=\"{x}\" y2=\"{b5}\"/><text class=\"muted\" x=\"{x}\" y=\"{ty}\" text-anchor=\"middle\">{date}</text>\n",
            b = at(bottom),
            b5 = at(bottom + 5.0),
            ty = at(bottom + 19.0),
        ));
    }
}

/// One chain's line: a path whose stretches break at gaps, dashed into and out of a period
/// that is not whole, and a dot per point that tells its exact value on hover (hollow for a
/// partial period, whose hover says how many of its days it holds).
fn draw_line(
    out: &mut String,
    line: &Line,
    metric: &str,
    scale: &Scale,
    frame: &Frame,
    caption: &Caption,
) {
    let colour = colour(line.chain);
    let name = line.chain.name();
    out.push_str(&format!(
        "<g class=\"series\" data-chain=\"{name}\" stroke=\"{colour}\" fill=\"{colour}\">\n"
    ));
    let place = |point: &Point| (at(frame.x(point.date)), at(frame.y(scale, point.value)));
    let (solid, dashed) = paths(line, &place);
    if !solid.is_empty() {
        out.push_str(&format!("<path d=\"{solid}\"/>\n"));
    }
    if !dashed.is_empty() {
        out.push_str(&format!("<path class=\"partial\" d=\"{dashed}\"/>\n"));
    }
    let points: usize = line.runs.iter().map(Vec::len).sum();
    let radius = if points > DENSE { 1.2 } else { 2.6 };
    for point in line.runs.iter().flatten() {
        let (x, y) = place(point);
        let (look, days) = match point.partial {
            Some(c) => (
                "class=\"partial\" r=\"3.5\"".to_owned(),
                format!(" (partial: {} of {} days)", c.days, c.of),
            ),
            None => (format!("r=\"{radius}\" stroke=\"none\""), String::new()),
        };
        out.push_str(&format!(
            "<circle cx=\"{x}\" cy=\"{y}\" {look}><title>{name}, {}: {} {}{days}</title></circle>\n",
            caption.when(point.date),
            escape(metric),
            point.exact
        ));
    }
    out.push_str("</g>\n");
}

/// The path data of a line's segments: solid between whole periods, dashed where a segment
/// meets a partial one.
fn paths(line: &Line, place: &dyn Fn(&Point) -> (String, String)) -> (String, String) {
    let (mut solid, mut dashed) = (String::new(), String::new());
    for run in &line.runs {
        // Where the solid path's pen is, so that a segment going on from it needs no move.
        let mut pen = None;
        for pair in run.windows(2) {
            let ((x0, y0), (x1, y1)) = (place(&pair[0]), place(&pair[1]));
            if pair[0].partial.is_some() || pair[1].partial.is_some() {
                dashed.push_str(&format!("M{x0} {y0}L{x1} {y1}"));
                pen = None;
                continue;
            }
            if pen != Some(pair[0].date) {
                solid.push_str(&format!("M{x0} {y0}"));
            }
            solid.push_str(&format!("L{x1} {y1}"));
            pen = Some(pair[1].date);
        }
    }
    (solid, dashed)
}
