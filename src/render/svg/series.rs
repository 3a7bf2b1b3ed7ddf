//! The data of a picture: one panel per metric, one line per chain, each line cut into runs at
//! its gaps. A gap is a period of the range with no value (no row, or an empty cell): it breaks
//! the line and is listed, never drawn as zero.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::model::Chain;
use crate::model::{Coverage, Dataset, Number, Row, Unit};
use crate::render::caption::Caption;
use crate::render::chart::scale::drawable;
use crate::render::group_digits;

/// One metric column of the data, drawn on its own y scale.
pub(crate) struct Panel {
    pub metric: String,
    /// The values are percents: the axis says so.
    pub percent: bool,
    pub lines: Vec<Line>,
}

/// One chain's values of one metric.
pub(crate) struct Line {
    pub chain: Chain,
    /// Unbroken stretches of points, in date order.
    pub runs: Vec<Vec<Point>>,
    /// The periods with no value, in date order.
    pub gaps: Vec<NaiveDate>,
    /// The values that cannot be drawn (beyond the number bound or what a float can place):
    /// their dates and texts. They are listed as left out, never as gaps.
    pub left_out: Vec<(NaiveDate, String)>,
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
    /// The lowest and highest value drawn, and zero: every panel's scale starts at zero.
    pub(crate) fn value_range(&self) -> (f64, f64) {
        let values = self.lines.iter().flat_map(|l| l.runs.iter().flatten());
        values.fold((0.0, 0.0), |(lo, hi), p| (p.value.min(lo), p.value.max(hi)))
    }
}

/// The first day of every period of the caption's range: where a point may be.
pub(super) fn periods(caption: &Caption) -> Vec<NaiveDate> {
    caption.by.starts(&caption.range)
}

/// The panels of a long dataset (one row per date and chain); the `days` column of `--by` is
/// a count, not a metric, so it gets no panel.
pub(super) fn panels(data: &Dataset, caption: &Caption, dates: &[NaiveDate]) -> Vec<Panel> {
    let fallback = caption.chains.first().copied().unwrap_or(Chain::Ethereum);
    let mut cells: BTreeMap<(Chain, NaiveDate), &Row> = BTreeMap::new();
    for row in &data.rows {
        cells.insert((row.chain.unwrap_or(fallback), row.date), row);
    }
    data.columns
        .iter()
        .enumerate()
        .filter(|(_, column)| !column.is_days())
        .map(|(at, column)| Panel {
            metric: column.name(),
            percent: column.unit() == Unit::Percent,
            lines: caption
                .chains
                .iter()
                .map(|chain| {
                    line(*chain, dates, |date| {
                        let row = cells.get(&(*chain, date))?;
                        Some((row.values.get(at)?.as_ref()?, row.coverage))
                    })
                })
                .collect(),
        })
        .collect()
}

/// One chain's line over `dates`, `value` giving the number of a date, if any, and the
/// coverage of its row.
fn line<'a>(
    chain: Chain,
    dates: &[NaiveDate],
    value: impl Fn(NaiveDate) -> Option<(&'a Number, Option<Coverage>)>,
) -> Line {
    let mut line = Line {
        chain,
        runs: Vec::new(),
        gaps: Vec::new(),
        left_out: Vec::new(),
    };
    let mut broken = true;
    for date in dates {
        let Some((number, coverage)) = value(*date) else {
            line.gaps.push(*date);
            broken = true;
            continue;
        };
        let Some(value) = drawable(number) else {
            line.left_out.push((*date, number.shown()));
            broken = true;
            continue;
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
