//! `svg`: one self-contained SVG, one panel per metric on its own scale from zero, one line per
//! chain with a legend, dates on the x axis, each point's exact value in its `<title>`. No
//! script, font or image from outside; no clock, so the same input gives the same bytes.

mod frame;
mod hover;
mod panel;
mod series;
#[cfg(test)]
mod tests;
pub(super) mod xml;

use std::io::{self, Write};

use chrono::{Datelike, NaiveDate};

use super::caption::Caption;
use super::chart::scale::{compact_label, round_ticks, tick_label};
use crate::model::Chain;
use crate::model::Dataset;
use crate::model::{DayRange, Period};
use crate::render::AxisScale;
use frame::{Frame, Scale};
use series::Axis;
pub(super) use series::{Line, Panel};
use xml::{at, escape};

pub(super) const WIDTH: f64 = 960.0;
const RIGHT: f64 = 44.0;
/// The two title lines above the legend.
const TITLE_HEIGHT: f64 = 58.0;
/// A third title line: where the data came from.
const SOURCE_LINE: f64 = 18.0;
const LEGEND_ROW: f64 = 24.0;
/// The legend's key to the look of a period that is not whole.
const PARTIAL_KEY: &str = "partial period (fewer days than it has)";
const PANEL_HEIGHT: f64 = 228.0;
/// Pixels a character of the 12px labels may take (wide for capitals: no label spills).
const CHAR_WIDTH: f64 = 8.0;
/// Pixels a date label (`2024-01-01`) needs, with room either side.
const DATE_LABEL: f64 = 96.0;
/// Okabe and Ito's colour-blind-safe colours, mid-light so that each reads on white and on a
/// dark page; one per chain, in SERVICE.md's order, so a chain keeps its colour everywhere.
const PALETTE: [&str; 6] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7",
];

/// The look of the text and axes, light by default and dark by `prefers-color-scheme`; the
/// HTML page carries the same rules once for all its charts.
pub(super) const STYLE: &str = "\
svg.cm text{font-family:system-ui,sans-serif;font-size:12px;fill:#1f2328}
svg.cm .title{font-size:15px;font-weight:600}
svg.cm .muted{fill:#57606a}
svg.cm .metric{font-size:13px;font-weight:600}
svg.cm .source{font-style:italic}
svg.cm .bg{fill:#ffffff}
svg.cm .grid{stroke:#d8dee4;stroke-width:1}
svg.cm .axis{stroke:#8c959f;stroke-width:1}
svg.cm .zero{stroke:#57606a;stroke-width:1.5}
svg.cm .series path{fill:none;stroke-width:2;stroke-linejoin:round;stroke-linecap:round}
svg.cm .series path.partial{stroke-dasharray:5 4}
svg.cm .series circle.partial{fill:#ffffff;stroke-width:1.5}
@media (prefers-color-scheme: dark){
svg.cm text{fill:#e6edf3}
svg.cm .muted{fill:#9ea7b3}
svg.cm .bg{fill:#0d1117}
svg.cm .grid{stroke:#30363d}
svg.cm .axis{stroke:#6e7681}
svg.cm .zero{stroke:#9ea7b3}
svg.cm .series circle.partial{fill:#0d1117}
}
";

/// Writes the standalone SVG of a long dataset (one row per date and chain).
pub(super) fn write(
    data: &Dataset,
    caption: &Caption,
    scale: AxisScale,
    out: &mut dyn Write,
) -> io::Result<()> {
    let picture = Picture::new(data, caption, scale);
    out.write_all(picture.svg(true).as_bytes())
}

/// The colour of a chain's line.
pub(super) fn colour(chain: Chain) -> &'static str {
    let index = Chain::ALL.iter().position(|c| *c == chain).unwrap_or(0);
    PALETTE[index % PALETTE.len()]
}

/// A dataset laid out as panels, ready to be written as an SVG.
pub(super) struct Picture<'a> {
    caption: &'a Caption,
    dates: Vec<NaiveDate>,
    pub panels: Vec<Panel>,
}

impl<'a> Picture<'a> {
    pub(super) fn new(data: &Dataset, caption: &'a Caption, scale: AxisScale) -> Picture<'a> {
        let dates = series::periods(caption);
        let panels = series::panels(data, caption, &dates, scale);
        Picture {
            caption,
            dates,
            panels,
        }
    }

    /// The metric names, panel by panel.
    pub(super) fn metrics(&self) -> Vec<&str> {
        self.panels.iter().map(|p| p.metric.as_str()).collect()
    }

    /// The whole SVG; `standalone` adds the XML declaration, the style and a background, which
    /// a page that inlines it provides itself.
    pub(super) fn svg(&self, standalone: bool) -> String {
        let scales: Vec<Scale> = self.panels.iter().map(scale).collect();
        let widest = scales.iter().flat_map(|s| &s.labels).map(String::len);
        let left = (20.0 + CHAR_WIDTH * widest.max().unwrap_or(1) as f64).max(56.0);
        let (legend, legend_height) = self.legend(left);
        let top = self.title_height() + legend_height;
        let height = top + PANEL_HEIGHT * self.panels.len().max(1) as f64;
        let mut out = String::new();
        if standalone {
            out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        }
        out.push_str(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cm\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\n<title>{t}</title>\n",
            w = WIDTH,
            h = height.round(),
            t = escape(&self.caption.query_line(&self.metrics()))
        ));
        if standalone {
            out.push_str(&format!(
                "<style>\n{STYLE}</style>\n<rect class=\"bg\" width=\"100%\" height=\"100%\"/>\n"
            ));
        }
        self.titles(&mut out, left);
        out.push_str(&legend);
        self.draw_panels(&mut out, &scales, left, top);
        out.push_str("</svg>\n");
        out
    }

    /// The title lines' height: two, and a third naming the source when it is known.
    fn title_height(&self) -> f64 {
        match self.caption.source_line() {
            Some(_) => TITLE_HEIGHT + SOURCE_LINE,
            None => TITLE_HEIGHT,
        }
    }

    fn titles(&self, out: &mut String, left: f64) {
        out.push_str(&format!(
            "<text class=\"title\" x=\"{x}\" y=\"24\">{}</text>\n<text class=\"muted\" x=\"{x}\" y=\"44\">{}</text>\n",
            escape(&self.metrics().join(", ")),
            escape(&self.caption.scope_line()),
            x = at(left)
        ));
        if let Some(source) = self.caption.source_line() {
            out.push_str(&format!(
                "<text class=\"source\" x=\"{}\" y=\"62\">{}</text>\n",
                at(left),
                escape(&source)
            ));
        }
    }

    /// One entry per chain (a stroke of its colour, then its name), wrapped to the width; the
    /// markup and its height.
    fn legend(&self, left: f64) -> (String, f64) {
        let mut out = String::from("<g class=\"legend\">\n");
        let (mut x, mut row) = (left, 0.0);
        for chain in &self.caption.chains {
            let width = 30.0 + CHAR_WIDTH * chain.name().len() as f64 + 20.0;
            if x > left && x + width > WIDTH - RIGHT {
                (x, row) = (left, row + 1.0);
            }
            let y = self.title_height() + 6.0 + row * LEGEND_ROW;
            out.push_str(&format!(
                "<g class=\"legend-entry\" data-chain=\"{name}\"><line x1=\"{x1}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" stroke=\"{colour}\" stroke-width=\"3\"/><text x=\"{tx}\" y=\"{ty}\">{name}</text></g>\n",
                name = chain.name(),
                colour = colour(*chain),
                x1 = at(x),
                x2 = at(x + 22.0),
                y = at(y),
                tx = at(x + 30.0),
                ty = at(y + 4.0),
            ));
            x += width;
        }
        if self.has_partial() {
            let width = 30.0 + CHAR_WIDTH * PARTIAL_KEY.len() as f64;
            if x > left && x + width > WIDTH - RIGHT {
                (x, row) = (left, row + 1.0);
            }
            let y = self.title_height() + 6.0 + row * LEGEND_ROW;
            out.push_str(&format!(
                "<g class=\"legend-key series\" stroke=\"#57606a\"><path class=\"partial\" d=\"M{x1} {y}L{x2} {y}\"/><circle class=\"partial\" cx=\"{x2}\" cy=\"{y}\" r=\"3.5\"/><text x=\"{tx}\" y=\"{ty}\" stroke=\"none\">{PARTIAL_KEY}</text></g>\n",
                x1 = at(x),
                x2 = at(x + 22.0),
                y = at(y),
                tx = at(x + 30.0),
                ty = at(y + 4.0),
            ));
        }
        out.push_str("</g>\n");
        (out, (row + 1.0) * LEGEND_ROW)
    }

    /// Whether any point stands for a period that is not whole: the legend then says how
    /// such a point looks.
    fn has_partial(&self) -> bool {
        let lines = self.panels.iter().flat_map(|p| &p.lines);
        lines
            .flat_map(|l| l.runs.iter().flatten())
            .any(|p| p.partial.is_some())
    }

    fn draw_panels(&self, out: &mut String, scales: &[Scale], left: f64, top: f64) {
        let width = WIDTH - left - RIGHT;
        let ticks = date_ticks(&self.dates, self.caption.by, width);
        if self.panels.is_empty() {
            out.push_str(&format!(
                "<text class=\"muted\" x=\"{}\" y=\"{}\">(no data to chart)</text>\n",
                at(left),
                at(top + 30.0)
            ));
        }
        for (k, (panel, scale)) in self.panels.iter().zip(scales).enumerate() {
            let frame = Frame {
                left,
                top: top + PANEL_HEIGHT * k as f64,
                width,
                first: self.dates.first().copied(),
                last: self.dates.last().copied(),
            };
            panel::draw(
                out,
                panel,
                scale,
                &frame,
                self.caption,
                (&ticks, &self.dates),
            );
        }
    }
}

/// A panel's value scale: round ticks from zero (or below, for negative values) up, or on a
/// log axis powers of ten around its values.
fn scale(panel: &Panel) -> Scale {
    let (lo, hi) = panel.value_range();
    let unit = if panel.percent { "%" } else { "" };
    if panel.axis == Axis::Log {
        let ticks = powers_of_ten(lo, hi);
        let labels = (ticks.iter())
            .map(|t| format!("{}{unit}", power_label(*t)))
            .collect();
        return Scale {
            ticks,
            labels,
            log: true,
        };
    }
    let (ticks, step) = round_ticks(lo, hi, 4);
    let top = ticks.iter().fold(0.0f64, |top, t| top.max(t.abs()));
    let labels = (ticks.iter())
        .map(|t| format!("{}{unit}", compact_label(*t, step, top)))
        .collect();
    Scale {
        ticks,
        labels,
        log: false,
    }
}

/// The most ticks a log axis gets: a wider range ticks every few powers of ten.
const MOST_POWERS: i32 = 8;

/// The powers of ten from the one at or below `lo` to the one at or above `hi` (two at
/// least), every k-th when there would be more than [`MOST_POWERS`], counted down from the
/// top; for values above zero (no panel draws others on a log axis).
fn powers_of_ten(lo: f64, hi: f64) -> Vec<f64> {
    let (lo, hi) = match lo > 0.0 && hi >= lo {
        true => (lo, hi),
        false => (1.0, 10.0),
    };
    let last = (hi.log10().ceil() as i32).clamp(-300, 300);
    let first = (lo.log10().floor() as i32).clamp(-300, last - 1);
    let every = (last - first + MOST_POWERS - 1) / MOST_POWERS;
    let mut ticks: Vec<f64> = (0..=MOST_POWERS)
        .map(|k| last - k * every)
        .take_while(|k| *k + every > first)
        .map(|k| 10f64.powi(k))
        .collect();
    ticks.reverse();
    ticks
}

/// A power of ten as an axis label, short: `0.01`, `1`, `100`, `1k`, `10M`, `100B`, `1T`;
/// beyond what those say briefly, `1e18`.
fn power_label(power: f64) -> String {
    const SUFFIXES: [(f64, &str); 5] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k"), (1.0, "")];
    if !(1e-4..1e15).contains(&power) {
        return format!("1e{}", power.log10().round());
    }
    match SUFFIXES
        .iter()
        .find(|(size, _)| power >= size * (1.0 - 1e-9))
    {
        Some((size, name)) => format!("{}{name}", tick_label(power / size, 1.0)),
        None => tick_label(power, power),
    }
}

/// The dates labelled on the x axis: calendar boundaries (days, Mondays, month, quarter or
/// year starts, every k-th) as fine as keeps the labels apart in `width` pixels, never finer
/// than the periods drawn; and the last date, in place of a tick too close to it.
fn date_ticks(dates: &[NaiveDate], by: Period, width: f64) -> Vec<NaiveDate> {
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
