//! One panel of the SVG: the metric's name, grid lines at round values with their labels, the
//! date axis, and one line per chain, broken at gaps, with a hover `<title>` on every point.

use chrono::NaiveDate;

use super::colour;
use super::frame::{Frame, Scale, HEAD, PLOT_HEIGHT};
use super::series::{Axis, Line, Panel, Point, Why};
use super::xml::{at, escape};
use crate::render::caption::Caption;

/// More points than this in a line and its dots shrink, so the line still reads.
const DENSE: usize = 120;
/// Pixels per column of a thinned line: a line with more points than columns keeps each
/// column's lowest and highest.
const COLUMN: f64 = 2.0;
/// The left-out values a panel names before "and N more".
const LEFT_OUT_NAMED: usize = 3;
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
    (ticks, dates): (&[NaiveDate], &[NaiveDate]),
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
    let head = panel.metric.chars().count() + axis.chars().count() + 1;
    left_out(out, panel, frame, (caption, head));
    date_axis(out, frame, ticks);
    if panel.lines.iter().all(|l| l.runs.is_empty()) {
        // No bare 0-1 axis: it would read as values of zero.
        out.push_str(&format!(
            "<text class=\"muted empty\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">Nothing to draw: \
            no chain has a value of {metric} that can be drawn in this range.</text>\n",
            at(frame.left + frame.width / 2.0),
            at(frame.bottom() - frame.height / 2.0)
        ));
    } else {
        // Over the whole plot (every strip), under the lines: a column per date.
        super::hover::columns(out, panel, frame, caption, dates);
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
        draw_line(out, line, &panel.metric, scale, &plot, caption);
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

/// The panel's whole height: its head, its plot and the date labels under it.
pub(super) fn height(panel: &Panel) -> f64 {
    HEAD + plot_height(panel) + FOOT
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

/// The values of the panel that cannot be drawn, in a line beside its name: left out of the
/// picture, and said so (they are no gaps), a sentence per reason.
fn left_out(out: &mut String, panel: &Panel, frame: &Frame, (caption, head): (&Caption, usize)) {
    let mut sentences = Vec::new();
    for why in [Why::TooLarge, Why::OffLog] {
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
    if sentences.is_empty() {
        return;
    }
    out.push_str(&format!(
        "<text class=\"muted left-out\" x=\"{}\" y=\"{}\">{}</text>\n",
        at(frame.left + 16.0 + 9.0 * head as f64),
        at(frame.top + 18.0),
        escape(&sentences.join("; "))
    ));
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
/// that is not whole, and a dot per point that tells its exact value on hover (hollow for a
/// partial period, whose hover says how many of its days it holds). A line with more points
/// than its plot has pixel columns is thinned to each column's lowest and highest point, and
/// only its partial periods keep a dot: the marks are thinned, never the values, which the
/// data (and the page's table) hold exactly.
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
    let points: usize = line.runs.iter().map(Vec::len).sum();
    let dense = points as f64 > frame.width / COLUMN;
    let runs: Vec<Vec<&Point>> = (line.runs.iter())
        .map(|run| match dense {
            true => thin(run, frame),
            false => run.iter().collect(),
        })
        .collect();
    let (solid, dashed) = paths(&runs, &place);
    if !solid.is_empty() && dense {
        let (first, last) = (
            caption.when(line.runs[0][0].date),
            line.runs.last().and_then(|r| r.last()),
        );
        let last = last.map(|p| caption.when(p.date)).unwrap_or_default();
        out.push_str(&format!(
            "<path d=\"{solid}\"><title>{name} {}: {points} values, {first} to {last}, thinned to \
            the plot's width; the exact values are in the data</title></path>\n",
            escape(metric)
        ));
    } else if !solid.is_empty() {
        out.push_str(&format!("<path d=\"{solid}\"/>\n"));
    }
    if !dashed.is_empty() {
        out.push_str(&format!("<path class=\"partial\" d=\"{dashed}\"/>\n"));
    }
    let dotted = line
        .runs
        .iter()
        .flatten()
        .filter(|p| !dense || p.partial.is_some());
    let radius = if points > DENSE { 1.2 } else { 2.6 };
    for point in dotted {
        dot(out, point, (name, metric, radius), &place, caption);
    }
    out.push_str("</g>\n");
}

/// A point's dot with its exact value as hover text: hollow and larger for a partial period,
/// whose hover says how many of its days it holds.
fn dot(
    out: &mut String,
    point: &Point,
    (name, metric, radius): (&str, &str, f64),
    place: &dyn Fn(&Point) -> (String, String),
    caption: &Caption,
) {
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
/// meets a partial one.
fn paths(runs: &[Vec<&Point>], place: &dyn Fn(&Point) -> (String, String)) -> (String, String) {
    let (mut solid, mut dashed) = (String::new(), String::new());
    for run in runs {
        // Where the solid path's pen is, so that a segment going on from it needs no move.
        let mut pen = None;
        for pair in run.windows(2) {
            let ((x0, y0), (x1, y1)) = (place(pair[0]), place(pair[1]));
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
