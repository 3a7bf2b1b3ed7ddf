//! `svg`: one self-contained SVG, one panel per metric on its own scale from zero, one line per
//! chain with a legend, dates on the x axis, each date's exact values in the `<title>` of its
//! hover column. No script, font or image from outside; no clock (the time it was made is
//! handed down, fixed by `SOURCE_DATE_EPOCH`), so the same input gives the same bytes.

mod axis;
mod dates;
mod frame;
mod hover;
mod panel;
mod series;
mod source;
#[cfg(test)]
mod tests;
pub(super) mod xml;

use std::io::{self, Write};

use chrono::NaiveDate;

use super::caption::Caption;
use crate::model::Chain;
use crate::model::Dataset;
use crate::model::Period;
use crate::render::AxisScale;
use axis::scale;
use dates::date_ticks;
use frame::Frame;
pub(super) use series::{Figure, Line, Panel, Why};
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
/// The least height of the panels: one panel's.
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
svg.cm .strip-name{font-weight:600}
svg.cm .bg{fill:#ffffff}
svg.cm .grid{stroke:#d8dee4;stroke-width:1}
svg.cm .axis{stroke:#8c959f;stroke-width:1}
svg.cm .zero{stroke:#57606a;stroke-width:1.5}
svg.cm .series path{fill:none;stroke-width:2;stroke-linejoin:round;stroke-linecap:round}
svg.cm .series path.partial{stroke-dasharray:5 4}
svg.cm .series path.dots{stroke-linecap:round}
svg.cm .series,svg.cm .grid,svg.cm .zero,svg.cm .axis,svg.cm text{pointer-events:none}
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

/// A series under this share of its panel's top lies on the floor of a linear axis.
const FLOOR_SHARE: f64 = 30.0;

/// What would make a picture of `data` read, as hints (each names the flag to add to the same
/// command): `--scale log` when a chain's line stays under 1/30 of its panel's top on a linear
/// axis (the first such panel), `--by week` (or `--by month`) when a line has more points than
/// the plot has pixel columns for.
pub(crate) fn hints(data: &Dataset, caption: &Caption, scale: AxisScale) -> Vec<String> {
    let picture = Picture::new(data, caption, scale);
    let mut hints = Vec::new();
    let floored = (picture.panels.iter())
        .filter(|p| p.axis == series::Axis::Linear && !p.strips())
        .filter(|p| matches!(p.source, Some((_, crate::model::Measure::Value))))
        .find_map(|panel| {
            let top = panel.value_range().1;
            let low: Vec<&str> = (panel.lines.iter())
                .filter(|l| !l.runs.is_empty())
                .filter(|l| {
                    let most = l.runs.iter().flatten().map(|p| p.value).fold(0.0, f64::max);
                    most < top / FLOOR_SHARE
                })
                .map(|l| l.chain.name())
                .collect();
            (top > 0.0 && !low.is_empty()).then(|| (panel.metric.clone(), low))
        });
    if let Some((metric, low)) = floored {
        let (chains, stay) = match low.as_slice() {
            [one] => (one.to_string(), "stays"),
            _ => (low.join(" and "), "stay"),
        };
        hints.push(format!(
            "{chains} {metric} {stay} under 1/30 of the panel's top, flat on the floor: add \
                --scale log to draw every chain's own shape"
        ));
    }
    let width = WIDTH - picture.left() - RIGHT;
    let points = (picture.panels.iter())
        .flat_map(|p| &p.lines)
        .map(|l| l.runs.iter().map(Vec::len).sum::<usize>())
        .max()
        .unwrap_or(0);
    let longer = match caption.by {
        Period::Day => Some("week"),
        Period::Week => Some("month"),
        _ => None,
    };
    if let Some(longer) = longer.filter(|_| points as f64 > width / 2.0) {
        hints.push(format!(
            "{points} {by}s a line are more than the plot's {w} pixels can show apart: add --by \
                {longer} to draw each {longer} as one point",
            by = caption.by.name(),
            w = width.round()
        ));
    }
    hints
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

    /// The whole SVG; `standalone` adds the XML declaration, the style, a background and the
    /// title lines, which a page that inlines it provides itself (its header, a caption).
    pub(super) fn svg(&self, standalone: bool) -> String {
        let all: Vec<&Panel> = self.panels.iter().collect();
        self.svg_of(&all, standalone, true)
    }

    /// The panels of each figure of the page, in the figures' order (fees, active users,
    /// social), each with its own SVG; the social counts (a strip per chain for each, too tall
    /// for a printed page at full width) an SVG per count, one under the other, the first
    /// with the legend.
    pub(super) fn figures(&self) -> Vec<(Figure, String)> {
        let mut figures: Vec<Figure> = self.panels.iter().map(|p| p.figure).collect();
        figures.sort();
        figures.dedup();
        (figures.into_iter())
            .map(|figure| {
                let panels: Vec<&Panel> = (self.panels.iter())
                    .filter(|p| p.figure == figure)
                    .collect();
                let svg = match figure {
                    Figure::Social => (panels.iter().enumerate())
                        .map(|(i, panel)| self.svg_of(&[*panel], false, i == 0))
                        .collect(),
                    _ => self.svg_of(&panels, false, true),
                };
                (figure, svg)
            })
            .collect()
    }

    /// An SVG of `panels`: titles, the legend (unless `legend` is false: a figure's second SVG
    /// on), then the panels; the value labels get the room the widest of every panel needs, so
    /// that the figures of a page line up.
    fn svg_of(&self, panels: &[&Panel], standalone: bool, legend: bool) -> String {
        let left = self.left();
        // A page's figure has its caption and the page's header instead of title lines.
        let head = match standalone {
            true => self.title_height(),
            false => LEGEND_ROW / 2.0,
        };
        let (legend, legend_height) = match legend {
            true => self.legend(left, head),
            false => (String::new(), 0.0),
        };
        let top = head + legend_height;
        let width = WIDTH - left - RIGHT;
        let heights = (panels.iter()).map(|p| panel::height(p, self.caption, (left, width)));
        let height = top + heights.sum::<f64>().max(PANEL_HEIGHT);
        let metrics: Vec<&str> = panels.iter().map(|p| p.metric.as_str()).collect();
        let mut out = String::new();
        if standalone {
            out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        }
        out.push_str(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cm\" width=\"{w}\" height=\"{h}\" \
            viewBox=\"0 0 {w} {h}\" role=\"img\">\n<title>{t}</title>\n",
            w = WIDTH,
            h = height.round(),
            t = escape(&self.caption.query_line(&metrics))
        ));
        if standalone {
            out.push_str(&format!("<desc>{}.</desc>\n", escape(&self.hover_says())));
            out.push_str(&format!(
                "<style>\n{STYLE}</style>\n<rect class=\"bg\" width=\"100%\" height=\"100%\"/>\n"
            ));
        }
        if standalone {
            self.titles(&mut out, &metrics, left);
        }
        out.push_str(&legend);
        self.draw_panels(&mut out, panels, left, top);
        out.push_str("</svg>\n");
        out
    }

    /// Where the plots start: after the widest value label of every panel.
    fn left(&self) -> f64 {
        let widest = (self.panels.iter())
            .flat_map(|p| scale(p).labels)
            .map(|l| l.len());
        (20.0 + CHAR_WIDTH * widest.max().unwrap_or(1) as f64).max(56.0)
    }

    /// What the hover columns hold, in words for a caption: a date's values, or (where a
    /// column per date would be too thin) each date's values of a week, a month...
    pub(super) fn hover_says(&self) -> String {
        let width = WIDTH - self.left() - RIGHT;
        let group = hover::grouping(&self.dates, self.caption.by, width);
        hover::says(group, self.caption.by)
    }

    /// The title lines' height: two, and those naming the source when it is known.
    fn title_height(&self) -> f64 {
        let lines = source::lines(self.caption, WIDTH - self.left() - RIGHT).len();
        TITLE_HEIGHT + SOURCE_LINE * lines as f64
    }

    fn titles(&self, out: &mut String, metrics: &[&str], left: f64) {
        out.push_str(&format!(
            "<text class=\"title\" x=\"{x}\" y=\"24\">{}</text>\n<text class=\"muted\" x=\"{x}\" \
            y=\"44\">{}</text>\n",
            escape(&metrics.join(", ")),
            escape(&self.caption.scope_line()),
            x = at(left)
        ));
        let lines = source::lines(self.caption, WIDTH - left - RIGHT);
        for (i, line) in lines.iter().enumerate() {
            out.push_str(&format!(
                "<text class=\"source\" x=\"{}\" y=\"{}\">{}</text>\n",
                at(left),
                62.0 + SOURCE_LINE * i as f64,
                escape(line)
            ));
        }
    }

    /// One entry per chain (a stroke of its colour, then its name), wrapped to the width; the
    /// markup and its height.
    fn legend(&self, left: f64, head: f64) -> (String, f64) {
        let mut out = String::from("<g class=\"legend\">\n");
        let (mut x, mut row) = (left, 0.0);
        for chain in &self.caption.chains {
            let width = 30.0 + CHAR_WIDTH * chain.name().len() as f64 + 20.0;
            if x > left && x + width > WIDTH - RIGHT {
                (x, row) = (left, row + 1.0);
            }
            let y = head + 6.0 + row * LEGEND_ROW;
            out.push_str(&format!(
                "<g class=\"legend-entry\" data-chain=\"{name}\"><line x1=\"{x1}\" y1=\"{y}\" \
                x2=\"{x2}\" y2=\"{y}\" stroke=\"{colour}\" stroke-width=\"3\"/><text x=\"{tx}\" \
                y=\"{ty}\">{name}</text></g>\n",
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
            let y = head + 6.0 + row * LEGEND_ROW;
            out.push_str(&format!(
                "<g class=\"legend-key series\" stroke=\"#57606a\"><path class=\"partial\" \
                d=\"M{x1} {y}L{x2} {y}\"/><circle class=\"partial\" cx=\"{x2}\" cy=\"{y}\" \
                r=\"3.5\"/><text x=\"{tx}\" y=\"{ty}\" stroke=\"none\">{PARTIAL_KEY}</text></g>\n",
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

    fn draw_panels(&self, out: &mut String, panels: &[&Panel], left: f64, top: f64) {
        let width = WIDTH - left - RIGHT;
        let ticks = date_ticks(&self.dates, self.caption.by, width);
        let group = hover::grouping(&self.dates, self.caption.by, width);
        if panels.is_empty() {
            out.push_str(&format!(
                "<text class=\"muted\" x=\"{}\" y=\"{}\">(no data to chart)</text>\n",
                at(left),
                at(top + 30.0)
            ));
        }
        let mut frame = Frame {
            left,
            top,
            width,
            height: 0.0,
            note: 0.0,
            span: self
                .dates
                .first()
                .zip(self.dates.last())
                .map(|(f, l)| (*f, *l)),
        };
        for panel in panels {
            frame.height = panel::plot_height(panel);
            frame.note = panel::note_height(panel, self.caption, (left, width));
            let scale = scale(panel);
            panel::draw(
                out,
                panel,
                &scale,
                &frame,
                self.caption,
                (&ticks, &self.dates, group),
            );
            frame.top += panel::height(panel, self.caption, (left, width));
        }
    }
}
