//! The data of a picture: one panel per metric, one line per chain, each line cut into runs at
//! its gaps. A gap is a period of the range with no value (no row, or an empty cell): it breaks
//! the line and is listed, never drawn as zero.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::model::Chain;
use crate::model::{Coverage, Dataset, Measure, Metric, Number, Row, Unit};
use crate::render::caption::Caption;
use crate::render::group_digits;
use crate::render::scale::drawable;
pub(crate) use crate::render::scale::Why;
use crate::render::AxisScale;

/// The smallest value a log axis places: below it (zero, a negative value, or a number a
/// float cannot tell from zero) a value is left out.
const MIN_LOG: f64 = 1e-300;

/// One metric column of the data, drawn on its own y scale.
pub(crate) struct Panel {
    pub metric: String,
    /// The values are percents: the axis says so.
    pub percent: bool,
    /// How its value axis runs: in powers of ten only when `--scale log` asked it and its
    /// values cannot be below zero (a change stays linear, and says so).
    pub axis: Axis,
    /// The figure of the page it belongs in.
    pub figure: Figure,
    /// The metric it measures, and how (`None` for a column of no metric).
    pub source: Option<(Metric, Measure)>,
    pub lines: Vec<Line>,
}

/// The figures of the page, a metric each (its derived measures with it), in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Figure {
    Fees,
    ActiveUsers,
    /// The official account's activity: small counts, a strip per chain.
    Social,
}

impl Figure {
    /// Its caption's first words.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Figure::Fees => "Fees",
            Figure::ActiveUsers => "Active users",
            Figure::Social => "Official account activity",
        }
    }

    /// The `id` of its `<figure>`.
    pub(crate) fn id(self) -> &'static str {
        match self {
            Figure::Fees => "fees",
            Figure::ActiveUsers => "active-users",
            Figure::Social => "social",
        }
    }
}

/// A panel's value axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Axis {
    /// From zero, evenly, as asked (or by default).
    Linear,
    /// In powers of ten (`--scale log`): values at zero or below are left out.
    Log,
    /// `--scale log` was asked, but the measure can be below zero: linear, and the panel says so.
    KeptLinear,
}

/// One chain's values of one metric.
pub(crate) struct Line {
    pub chain: Chain,
    /// Unbroken stretches of points, in date order.
    pub runs: Vec<Vec<Point>>,
    /// The periods with no value, in date order.
    pub gaps: Vec<NaiveDate>,
    /// The periods of a change (`--change`) with no value because the period before has
    /// none (the range's first, or the first after a gap) while the metric has one: no gap.
    pub no_previous: Vec<NaiveDate>,
    /// The values that cannot be drawn (beyond the number bound or what a float can place, or
    /// off a log axis): their dates, texts and why. They are listed as left out, never as gaps.
    pub left_out: Vec<(NaiveDate, String, Why)>,
}

pub(crate) struct Point {
    pub date: NaiveDate,
    pub value: f64,
    /// The value as the service wrote it, with digit groups: the hover text.
    pub exact: String,
    /// The coverage of a period that is not whole (fewer days with data than it has).
    pub partial: Option<Coverage>,
}

impl Panel {
    /// Drawn as small multiples, a strip per chain on one shared scale: the social counts
    /// (0 to a few dozen), whose lines would tangle in one plot.
    pub(crate) fn strips(&self) -> bool {
        self.figure == Figure::Social && self.lines.len() > 1
    }

    /// About how many value steps its axis gets: on a strip one, zero and the top.
    pub(crate) fn ticks(&self) -> usize {
        match self.strips() {
            true => 1,
            false => 4,
        }
    }

    /// The lowest and highest value drawn, and zero: every linear scale starts at zero (a log
    /// scale has no zero: its lowest value).
    pub(crate) fn value_range(&self) -> (f64, f64) {
        let values = self.lines.iter().flat_map(|l| l.runs.iter().flatten());
        let start = match self.axis {
            Axis::Log => (f64::MAX, 0.0),
            _ => (0.0, 0.0),
        };
        values.fold(start, |(lo, hi), p| (p.value.min(lo), p.value.max(hi)))
    }
}

/// The first day of every period of the caption's range: where a point may be.
pub(super) fn periods(caption: &Caption) -> Vec<NaiveDate> {
    caption.by.starts(&caption.range)
}

/// The panels of a long dataset (one row per date and chain); the `days` column of `--by` is
/// a count, not a metric, so it gets no panel.
pub(super) fn panels(
    data: &Dataset,
    caption: &Caption,
    dates: &[NaiveDate],
    scale: AxisScale,
) -> Vec<Panel> {
    let fallback = caption.chains.first().copied().unwrap_or(Chain::Ethereum);
    let mut cells: BTreeMap<(Chain, NaiveDate), &Row> = BTreeMap::new();
    for row in &data.rows {
        cells.insert((row.chain.unwrap_or(fallback), row.date), row);
    }
    let mut panels: Vec<Panel> = data
        .columns
        .iter()
        .enumerate()
        .filter(|(_, column)| !column.is_days())
        .map(|(at, column)| {
            let axis = match (scale, column.may_be_negative()) {
                (AxisScale::Linear, _) => Axis::Linear,
                (AxisScale::Log, false) => Axis::Log,
                (AxisScale::Log, true) => Axis::KeptLinear,
            };
            Panel {
                metric: column.name(),
                percent: column.unit() == Unit::Percent,
                axis,
                figure: match column.metric() {
                    Some(Metric::ActiveUsers) => Figure::ActiveUsers,
                    Some(Metric::Social(_)) => Figure::Social,
                    _ => Figure::Fees,
                },
                source: column.metric().zip(column.measure()),
                lines: (caption.chains.iter())
                    .map(|chain| {
                        let unit = if column.unit() == Unit::Percent {
                            "%"
                        } else {
                            ""
                        };
                        line(*chain, dates, (axis, unit), |date| {
                            let row = cells.get(&(*chain, date))?;
                            Some((row.values.get(at)?.as_ref()?, row.coverage))
                        })
                    })
                    .collect(),
            }
        })
        .collect();
    no_previous(&mut panels);
    panels
}

/// Moves a change's gaps where its metric has a value (the period before has none) from
/// `gaps` to `no_previous`: a change's first period is no gap.
fn no_previous(panels: &mut [Panel]) {
    let valued: std::collections::HashMap<(Metric, Chain), Vec<NaiveDate>> = (panels.iter())
        .filter_map(|p| match p.source {
            Some((metric, Measure::Value)) => Some((metric, p)),
            _ => None,
        })
        .flat_map(|(metric, p)| {
            p.lines
                .iter()
                .map(move |l| ((metric, l.chain), l.gaps.clone()))
        })
        .collect();
    for panel in panels.iter_mut() {
        let Some((metric, Measure::Change | Measure::ChangePct)) = panel.source else {
            continue;
        };
        for line in &mut panel.lines {
            let Some(gaps) = valued.get(&(metric, line.chain)) else {
                continue;
            };
            let (real, first): (Vec<NaiveDate>, Vec<NaiveDate>) =
                line.gaps.iter().partition(|d| gaps.contains(d));
            (line.gaps, line.no_previous) = (real, first);
        }
    }
}

/// One chain's line over `dates`, `value` giving the number of a date, if any, and the
/// coverage of its row; a value left out is named with its `unit` (`%`).
fn line<'a>(
    chain: Chain,
    dates: &[NaiveDate],
    (axis, unit): (Axis, &str),
    value: impl Fn(NaiveDate) -> Option<(&'a Number, Option<Coverage>)>,
) -> Line {
    let mut line = Line {
        chain,
        runs: Vec::new(),
        gaps: Vec::new(),
        no_previous: Vec::new(),
        left_out: Vec::new(),
    };
    let mut broken = true;
    for date in dates {
        let Some((number, coverage)) = value(*date) else {
            line.gaps.push(*date);
            broken = true;
            continue;
        };
        let placed = match drawable(number) {
            None => Err(Why::undrawable(number)),
            Some(v) if axis == Axis::Log && v < MIN_LOG => Err(Why::off_log(number, v)),
            Some(v) => Ok(v),
        };
        let value = match placed {
            Ok(value) => value,
            Err(why) => {
                line.left_out.push((*date, number.shown_with(unit), why));
                broken = true;
                continue;
            }
        };
        let point = Point {
            date: *date,
            value,
            exact: group_digits(number),
            partial: coverage.filter(|c| c.days < c.of),
        };
        match line.runs.last_mut() {
            Some(run) if !broken => run.push(point),
            _ => line.runs.push(vec![point]),
        }
        broken = false;
    }
    line
}
