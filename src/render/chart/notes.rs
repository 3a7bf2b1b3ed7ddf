//! The lines under a chart: what it left out, the periods that are not whole, and where its
//! data came from.

use std::io::{self, Write};

use chrono::NaiveDate;

use super::{scale, value, RenderOptions, DEFAULT_WIDTH, LEFT_OUT_NAMED};
use crate::model::{Dataset, Period, Unit};

/// A line under the chart per reason, naming the values it could not draw, if any.
pub(super) fn left_out_note(data: &Dataset, out: &mut dyn Write) -> io::Result<()> {
    for why in scale::Why::ALL {
        let mut left_out = Vec::new();
        for row in &data.rows {
            for (column, number) in data.columns.iter().zip(&row.values) {
                let Some(number) = number.as_ref().filter(|_| value(number).is_none()) else {
                    continue;
                };
                if scale::Why::undrawable(number) == why {
                    let unit = if column.unit() == Unit::Percent {
                        "%"
                    } else {
                        ""
                    };
                    let shown = number.shown_with(unit);
                    left_out.push(format!("{column} of {} ({shown})", row.date));
                }
            }
        }
        if left_out.is_empty() {
            continue;
        }
        let more = left_out.len().saturating_sub(LEFT_OUT_NAMED);
        left_out.truncate(LEFT_OUT_NAMED);
        let mut line = left_out.join(", ");
        if more > 0 {
            line.push_str(&format!(" and {more} more"));
        }
        writeln!(out, "left out, {}: {line}", why.says())?;
    }
    Ok(())
}

/// A line under the charts naming the periods that are not whole (fewer days with data than
/// the period has), as the rows' coverage says: their steps stand for only part of a period.
pub(super) fn partial_note(
    data: &Dataset,
    style: RenderOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let by = style.caption.map_or(Period::Day, |c| c.by);
    let mut named: Vec<(NaiveDate, String)> = Vec::new();
    for row in &data.rows {
        let Some(coverage) = row.coverage.filter(|c| c.days < c.of) else {
            continue;
        };
        let start = by.start(row.date);
        if named.last().is_none_or(|(date, _)| *date != start) {
            let text = format!(
                "{} of {start} ({} of {} days)",
                by.name(),
                coverage.days,
                coverage.of
            );
            named.push((start, text));
        }
    }
    if named.is_empty() {
        return Ok(());
    }
    let texts: Vec<String> = named.into_iter().map(|(_, text)| text).collect();
    writeln!(
        out,
        "partial (fewer days with data than the {} has): {}",
        by.name(),
        texts.join(", ")
    )
}

/// The last lines: what was asked (chains, range, period), where the data came from
/// (`synthetic` for the sandbox's) and when the chart was made, as the svg's title lines say
/// it; wrapped between its parts to the chart's width.
pub(super) fn provenance(style: RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let Some(caption) = style.caption else {
        return Ok(());
    };
    let scope = caption.scope_line();
    let parts = scope.split(" · ").map(str::to_owned);
    let width = match style.width {
        0 => DEFAULT_WIDTH,
        width => width,
    };
    let mut line = String::new();
    for part in parts
        .chain(caption.source_line())
        .chain(caption.made_line())
    {
        if !line.is_empty() && line.chars().count() + 3 + part.chars().count() > width {
            writeln!(out, "{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push_str(" · ");
        }
        line.push_str(&part);
    }
    writeln!(out, "{line}")
}
