//! One panel of the SVG: the metric's name, grid lines at round values with their labels, the
//! date axis, one line per chain, broken at gaps, and on top the hover columns that tell the
//! exact values.

use chrono::NaiveDate;

use super::colour;
use super::frame::{Frame, Scale, HEAD, PLOT_HEIGHT};
use super::series::{Axis, Line, Panel, Point, Why};
use super::xml::{at, escape};
use crate::model::Period;
use crate::render::caption::Caption;

/// More points than this in a line and its dots shrink, so the line still reads.
const DENSE: usize = 120;
/// Pixels per column of a thinned line: a line with more points than columns keeps each
/// column's lowest and highest.
const COLUMN: f64 = 2.0;
/// The left-out values a panel names before "and N more".
const LEFT_OUT_NAMED: usize = 3;
/// Pixels a character of a note may take (12px, mostly capitals and digits).
const NOTE_CHAR: f64 = 7.5;
/// A line of a note that wraps.
const NOTE_LINE: f64 = 15.0;
/// Below the plot: the date labels.
const FOOT: f64 = 40.0;
/// A strip of the small multiples: the chain's name, a short plot, a gap before the next.
const STRIP_NAME: f64 = 15.0;
const STRIP_PLOT: f64 = 40.0;
const STRIP_GAP: f64 = 9.0;
const STRIP: f64 = STRIP_NAME + STRIP_PLOT + STRIP_GAP;

pub(super) fn draw(
    out: &mut String,
    panel: &Panel,
    scale: &Scale,
    frame: &Frame,
    caption: &Caption,
    (ticks, dates, group): (&[NaiveDate], &[NaiveDate], Period),
) {
    let metric = escape(&panel.metric);
    let axis = axis_note(panel.axis);
    out.push_str(&format!(
        "<g class=\"panel\" data-metric=\"{metric}\">\n<text class=\"metric\" x=\"{}\" \
            y=\"{}\">{metric}{note}</text>\n",
        at(frame.left),
        at(frame.top + 18.0),
        note = match axis {
            "" => String::new(),
            axis => format!("<tspan class=\"muted axis-note\" dx=\"8\">{axis}</tspan>"),
        }
    ));
    left_out(out, panel, frame, caption);
    date_axis(out, frame, ticks);
    if panel.lines.iter().all(|l| l.runs.is_empty()) {
        // No bare 0-1 axis: it would read as values of zero.
        out.push_str(&format!(
            "<text class=\"muted empty\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">Nothing to draw: \
                no chain has a value of {metric} that can be drawn in this range.</text>\n",
            at(frame.left + frame.width / 2.0),
            at(frame.bottom() - frame.height / 2.0)
        ));
    }
    let drawn = !panel.lines.iter().all(|l| l.runs.is_empty());
    for (i, line) in panel.lines.iter().enumerate() {
        let plot = match panel.strips() {
            true => strip(frame, i),
            false => *frame,
        };
        if drawn && (panel.strips() || i == 0) {
            value_axis(out, scale, &plot);
        }
        if panel.strips() {
            strip_name(out, line, &plot);
        }
        draw_line(out, line, scale, &plot);
    }
    if drawn {
        // Over the whole plot (every strip), on top of the lines: a column per date (or group).
        super::hover::columns(out, panel, frame, caption, (dates, group));
    }
    out.push_str("</g>\n");
}

/// The plot's height: one plot, or a strip per chain.
pub(super) fn plot_height(panel: &Panel) -> f64 {
    match panel.strips() {
        true => STRIP * panel.lines.len() as f64 - STRIP_GAP,
        false => PLOT_HEIGHT,
    }
}

/// The panel's whole height: its head (with its note's lines), its plot and the date labels
/// under it, for a plot at `left`, `width` wide.
pub(super) fn height(panel: &Panel, caption: &Caption, at: (f64, f64)) -> f64 {
    HEAD + note_height(panel, caption, at) + plot_height(panel) + FOOT
}

/// The room the lines of the panel's note need under its name (the first is beside it).
pub(super) fn note_height(panel: &Panel, caption: &Caption, at: (f64, f64)) -> f64 {
    NOTE_LINE * note_lines(panel, caption, at).len().saturating_sub(1) as f64
}

/// Where the note starts: after the metric's name and its axis note.
fn note_x(panel: &Panel, left: f64) -> f64 {
    let head = panel.metric.chars().count() + axis_note(panel.axis).chars().count() + 1;
    left + 16.0 + 9.0 * head as f64
}

/// The note of values left out, cut into lines at spaces: the first fits beside the name,
/// the others from the plot's left edge, none past its right edge.
fn note_lines(panel: &Panel, caption: &Caption, (left, width): (f64, f64)) -> Vec<String> {
    let Some(text) = left_out_text(panel, caption) else {
        return Vec::new();
    };
    let mut room = ((left + width - note_x(panel, left)) / NOTE_CHAR).max(0.0) as usize;
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("one line at least");
        let needed = line.chars().count() + 1 + word.chars().count();
        if !line.is_empty() && needed > room || line.is_empty() && word.chars().count() > room {
            lines.push(String::new());
            room = (width / NOTE_CHAR) as usize;
        }
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines
}

/// The frame of the `i`-th strip of small multiples in a panel's `frame`: the chain's name,
/// then its plot.
fn strip(frame: &Frame, i: usize) -> Frame {
    Frame {
        top: frame.top + STRIP * i as f64 + STRIP_NAME,
        height: STRIP_PLOT,
        ..*frame
    }
}

/// A strip's chain, named above its plot in its colour.
fn strip_name(out: &mut String, line: &Line, plot: &Frame) {
    let name = line.chain.name();
    out.push_str(&format!(
        "<text class=\"strip-name\" x=\"{}\" y=\"{}\" style=\"fill:{}\">{name}</text>\n",
        at(plot.left + 4.0),
        at(plot.plot_top() - 3.0),
        colour(line.chain)
    ));
}

/// The values of the panel that cannot be drawn, beside its name (and under it, when long):
/// left out of the picture, and said so (they are no gaps), a sentence per reason.
fn left_out(out: &mut String, panel: &Panel, frame: &Frame, caption: &Caption) {
    let lines = note_lines(panel, caption, (frame.left, frame.width));
    if lines.is_empty() {
        return;
    }
    if let [line] = lines.as_slice() {
        out.push_str(&format!(
            "<text class=\"muted left-out\" x=\"{}\" y=\"{}\">{}</text>\n",
            at(note_x(panel, frame.left)),
            at(frame.top + 18.0),
            escape(line)
        ));
        return;
    }
    let mut tspans = String::new();
    for (i, line) in lines.iter().enumerate() {
        let x = match i {
            0 => note_x(panel, frame.left),
            _ => frame.left,
        };
        let y = frame.top + 18.0 + NOTE_LINE * i as f64;
        tspans.push_str(&format!(
            "<tspan x=\"{}\" y=\"{}\">{}</tspan>",
            at(x),
            at(y),
            escape(line)
        ));
    }
    out.push_str(&format!("<text class=\"muted left-out\">{tspans}</text>\n"));
}

/// The note of the values the panel cannot draw, if any.
fn left_out_text(panel: &Panel, caption: &Caption) -> Option<String> {
    let mut sentences = Vec::new();
    for why in Why::ALL {
        let named: Vec<String> = (panel.lines.iter())
            .flat_map(|line| {
                let of_why = line.left_out.iter().filter(move |l| l.2 == why);
                of_why.map(|(date, text, _)| {
                    format!("{} {} ({text})", line.chain.name(), caption.when(*date))
                })
            })
            .collect();
        if named.is_empty() {
            continue;
        }
        let more = named.len().saturating_sub(LEFT_OUT_NAMED);
        let mut text = format!(
            "left out, {}: {}",
            why.says(),
            named[..named.len() - more].join(", ")
        );
        if more > 0 {
            text.push_str(&format!(" and {more} more (the values are in the data)"));
        }
        sentences.push(text);
    }
    (!sentences.is_empty()).then(|| sentences.join("; "))
}

/// What a panel's head says of its value axis, after the metric's name: nothing for the
/// usual linear one.
fn axis_note(axis: Axis) -> &'static str {
    match axis {
        Axis::Linear => "",
        Axis::Log => "log scale",
        Axis::KeptLinear => "linear scale: a change can be below zero",
    }
}

/// A grid line and a label at each round value.
fn value_axis(out: &mut String, scale: &Scale, frame: &Frame) {
    let right = at(frame.left + frame.width);
    for (tick, label) in scale.ticks.iter().zip(&scale.labels) {
        let y = frame.y(scale, *tick);
        // Zero is the line values are read against: stronger than the grid.
        let class = if *tick == 0.0 { "zero" } else { "grid" };
        out.push_str(&format!(
            "<line class=\"{class}\" x1=\"{l}\" y1=\"{y}\" x2=\"{right}\" y2=\"{y}\"/><text \
                class=\"muted\" x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{label}</text>\n",
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
            "<line class=\"axis\" x1=\"{x}\" y1=\"{b}\" x2=\"{x}\" y2=\"{b5}\"/><text \
                class=\"muted\" x=\"{x}\" y=\"{ty}\" text-anchor=\"middle\">{date}</text>\n",
            b = at(bottom),
            b5 = at(bottom + 5.0),
            ty = at(bottom + 19.0),
        ));
    }
}

/// One chain's line: a path whose stretches break at gaps, dashed into and out of a period
/// that is not whole, and a dot per point (hollow for a partial period). The dots of whole
/// periods are one path of round-capped points, light to write; a dot tells nothing on hover
/// (the hover column over its date does). A line with more points than its plot has pixel
/// columns is thinned to each column's lowest and highest point, and only its partial periods
/// keep a dot: the marks are thinned, never the values, which the hover columns hold exactly.
fn draw_line(out: &mut String, line: &Line, scale: &Scale, frame: &Frame) {
    let colour = colour(line.chain);
    let name = line.chain.name();
    out.push_str(&format!(
        "<g class=\"series\" data-chain=\"{name}\" stroke=\"{colour}\" fill=\"{colour}\">\n"
    ));
    let place = |point: &Point| (frame.x(point.date), frame.y(scale, point.value));
    let points: usize = line.runs.iter().map(Vec::len).sum();
    let dense = points as f64 > frame.width / COLUMN;
    let runs: Vec<Vec<&Point>> = (line.runs.iter())
        .map(|run| match dense {
            true => thin(run, frame),
            false => run.iter().collect(),
        })
        .collect();
    let (solid, dashed) = paths(&runs, &place);
    if !solid.is_empty() {
        out.push_str(&format!("<path d=\"{solid}\"/>\n"));
    }
    if !dashed.is_empty() {
        out.push_str(&format!("<path class=\"partial\" d=\"{dashed}\"/>\n"));
    }
    let radius = if points > DENSE { 1.2 } else { 2.6 };
    let mut dots = String::new();
    for point in line.runs.iter().flatten() {
        let (x, y) = place(point);
        let (x, y) = (at(x), at(y));
        match point.partial {
            Some(_) => out.push_str(&format!(
                "<circle cx=\"{x}\" cy=\"{y}\" class=\"partial\" r=\"3.5\"/>\n"
            )),
            None if !dense => dots.push_str(&format!("M{x} {y}h0")),
            None => {}
        }
    }
    if !dots.is_empty() {
        out.push_str(&format!(
            "<path class=\"dots\" stroke-width=\"{}\" d=\"{dots}\"/>\n",
            radius * 2.0
        ));
    }
    out.push_str("</g>\n");
}

/// A run's points thinned to the lowest and the highest of each [`COLUMN`] of pixels (in date
/// order), its first and last point and every partial period kept.
fn thin<'a>(run: &'a [Point], frame: &Frame) -> Vec<&'a Point> {
    let mut kept: Vec<&Point> = Vec::new();
    let column = |p: &Point| (frame.x(p.date) / COLUMN).floor() as i64;
    let mut start = 0;
    while start < run.len() {
        let here = column(&run[start]);
        let end = (start..run.len())
            .find(|i| column(&run[*i]) != here)
            .unwrap_or(run.len());
        let bucket = &run[start..end];
        let low = bucket.iter().min_by(|a, b| a.value.total_cmp(&b.value));
        let high = bucket.iter().max_by(|a, b| a.value.total_cmp(&b.value));
        let keep = |p: &Point| {
            p.partial.is_some()
                || std::ptr::eq(p, &run[0])
                || std::ptr::eq(p, &run[run.len() - 1])
                || low.is_some_and(|l| std::ptr::eq(p, l))
                || high.is_some_and(|h| std::ptr::eq(p, h))
        };
        kept.extend(bucket.iter().filter(|p| keep(p)));
        start = end;
    }
    kept
}

/// The path data of a line's segments: solid between whole periods, dashed where a segment
/// meets a partial one. The solid path, the long one (a decade of days is some thousand points
/// a line), moves to a stretch's start and goes on by relative steps in tenths of a pixel
/// (`M56.0 101.8l.7 56.4 1.7-2.9`): each step is the difference of two rounded positions, so
/// that the pen ends where the absolute positions are.
fn paths(runs: &[Vec<&Point>], place: &dyn Fn(&Point) -> (f64, f64)) -> (String, String) {
    let (mut solid, mut dashed) = (String::new(), String::new());
    for run in runs {
        // Where the solid path's pen is, so that a segment going on from it needs no move.
        let mut pen = None;
        for pair in run.windows(2) {
            let ((x0, y0), (x1, y1)) = (place(pair[0]), place(pair[1]));
            if pair[0].partial.is_some() || pair[1].partial.is_some() {
                let (x0, y0, x1, y1) = (at(x0), at(y0), at(x1), at(y1));
                dashed.push_str(&format!("M{x0} {y0}L{x1} {y1}"));
                pen = None;
                continue;
            }
            let (dx, dy) = (tenths(x1) - tenths(x0), tenths(y1) - tenths(y0));
            if pen != Some(pair[0].date) {
                let start = |v: f64| at(tenths(v) as f64 / 10.0);
                solid.push_str(&format!("M{} {}l", start(x0), start(y0)));
            } else if dx >= 0 {
                solid.push(' ');
            }
            let gap = if dy < 0 { "" } else { " " };
            solid.push_str(&format!("{}{gap}{}", shortest(dx), shortest(dy)));
            pen = Some(pair[1].date);
        }
    }
    (solid, dashed)
}

/// A position in tenths of a pixel, rounded as [`at`] writes it.
fn tenths(position: f64) -> i64 {
    (position * 10.0).round() as i64
}

/// Tenths of a pixel written shortest: `.7`, `-56.4`, `12`, `0`.
fn shortest(tenths: i64) -> String {
    let sign = if tenths < 0 { "-" } else { "" };
    let (whole, tenth) = (tenths.abs() / 10, tenths.abs() % 10);
    match (whole, tenth) {
        (0, 0) => "0".to_owned(),
        (0, t) => format!("{sign}.{t}"),
        (w, 0) => format!("{sign}{w}"),
        (w, t) => format!("{sign}{w}.{t}"),
    }
}
