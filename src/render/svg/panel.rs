//! One panel of the SVG: the metric's name, grid lines at round values with their labels, the
//! date axis, and one line per chain, broken at gaps, with a hover `<title>` on every point.

use chrono::NaiveDate;

use super::colour;
use super::series::{Line, Panel};
use super::xml::{at, escape};
use crate::render::caption::Caption;

/// The plot's height in pixels, between the metric's name and the date labels.
const PLOT_HEIGHT: f64 = 160.0;
/// Above the plot: the metric's name.
const HEAD: f64 = 28.0;
/// More points than this in a line and its dots shrink, so the line still reads.
const DENSE: usize = 120;

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
    value_axis(out, scale, frame);
    date_axis(out, frame, dates);
    for line in &panel.lines {
        draw_line(out, line, &panel.metric, scale, frame, caption);
    }
    out.push_str("</g>\n");
}

/// A grid line and a label at each round value.
fn value_axis(out: &mut String, scale: &Scale, frame: &Frame) {
    let right = at(frame.left + frame.width);
    for (tick, label) in scale.ticks.iter().zip(&scale.labels) {
        let y = frame.y(scale, *tick);
        out.push_str(&format!(
            "<line class=\"grid\" x1=\"{l}\" y1=\"{y}\" x2=\"{right}\" y2=\"{y}\"/><text class=\"muted\" x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{label}</text>\n",
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

/// One chain's line: a path whose stretches break at gaps, and a dot per point that tells its
/// exact value on hover.
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
    let mut path = String::new();
    for run in &line.runs {
        for (i, point) in run.iter().enumerate() {
            let step = if i == 0 { 'M' } else { 'L' };
            let (x, y) = (frame.x(point.date), frame.y(scale, point.value));
            path.push_str(&format!("{step}{} {}", at(x), at(y)));
        }
    }
    if !path.is_empty() {
        out.push_str(&format!("<path d=\"{path}\"/>\n"));
    }
    let points: usize = line.runs.iter().map(Vec::len).sum();
    let radius = if points > DENSE { 1.2 } else { 2.6 };
    for point in line.runs.iter().flatten() {
        out.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{radius}\" stroke=\"none\"><title>{name}, {}: {} {}</title></circle>\n",
            at(frame.x(point.date)),
            at(frame.y(scale, point.value)),
            caption.when(point.date),
            escape(metric),
            point.exact
        ));
    }
    out.push_str("</g>\n");
}
