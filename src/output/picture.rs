//! What svg and html show beside the data: the query, the run's warnings, when the page was
//! made.

use chrono::{DateTime, NaiveDate, Utc};

use crate::analysis::Measures;
use crate::fetched::Plan;
use crate::model::{Chain, Dataset, Period};
use crate::render::{Caption, Origin};

/// What a run tells beside its rows: its warnings and where the data came from.
#[derive(Clone, Debug, Default)]
pub(crate) struct Told {
    /// The warning lines, as stderr shows them (without `warning: `).
    pub warnings: Vec<String>,
    pub origin: Origin,
    /// `SOURCE_DATE_EPOCH`, as the settings read it (see [`made_at`]).
    pub source_date_epoch: Option<String>,
}

/// The caption of a picture of `plan`'s query: the run's warnings, and `partial` (the
/// warning of [`partial_warning`], printed after the fetch), so that the page's notes hold
/// every warning stderr printed.
pub(super) fn caption(plan: &Plan, by: Period, told: &Told, partial: Option<String>) -> Caption {
    Caption {
        chains: plan.chains.clone(),
        range: plan.range,
        by,
        warnings: told.warnings.iter().cloned().chain(partial).collect(),
        hints: Vec::new(),
        made: made_at(told.source_date_epoch.as_deref()),
        origin: told.origin.clone(),
    }
}

/// The hints of a picture (svg, html) of `data` (see `render::picture_hints`), each told as a
/// `hint:` and kept in the caption for the page's notes; none for other formats.
pub(super) fn hints(
    data: &Dataset,
    caption: &mut Caption,
    (format, scale): (crate::render::Format, crate::render::AxisScale),
    tell: &dyn Fn(crate::system::diag::Notice),
) {
    use crate::render::Format;
    if !matches!(format, Format::Svg | Format::Html) {
        return;
    }
    caption.hints = crate::render::picture_hints(data, caption, scale);
    for hint in &caption.hints {
        tell(crate::system::diag::Notice::hint(hint.as_str()));
    }
}

/// The hint to draw sums as means per day (`--per-day`) when a picture (svg, html, chart)
/// draws sums over periods of unequal length: months, quarters, years, or a partial period of
/// `range`. Told as a `hint:` and kept in the caption for the page's notes, for a query's
/// picture and for `render FILE`'s alike (which draws the same picture).
pub(super) fn per_day_hint(
    data: &Dataset,
    caption: &mut Caption,
    (format, per_day): (crate::render::Format, bool),
    tell: &dyn Fn(crate::system::diag::Notice),
) {
    use crate::model::{Aggregation, Measure};
    use crate::render::Format;
    let by = caption.by;
    if per_day || by == Period::Day || !matches!(format, Format::Svg | Format::Html | Format::Chart)
    {
        return;
    }
    let summed = |c: &crate::model::Column| {
        c.measure() == Some(Measure::Value) && c.aggregation() == Some(Aggregation::Sum)
    };
    let Some(column) = data.columns.iter().find(|c| summed(c)) else {
        return;
    };
    let range = &caption.range;
    let lengths: Vec<u32> = (by.starts(range).into_iter())
        .map(|start| u32::try_from(by.within(start, range).days().count()).unwrap_or(u32::MAX))
        .collect();
    let whole = (by.starts(range).into_iter()).all(|start| {
        let days = by.within(start, range).days().count();
        u32::try_from(days).is_ok_and(|days| days == by.length(start))
    });
    if whole && lengths.windows(2).all(|w| w[0] == w[1]) {
        return;
    }
    let name = column.without_chain().name();
    // Worded for `render FILE` too, which draws the query's picture and takes no --per-day.
    let hint = format!(
        "{name} sums {by}s of unequal length: add --per-day to the query to draw each {by} as \
        its mean per covered day",
        by = by.name()
    );
    tell(crate::system::diag::Notice::hint(hint.as_str()));
    caption.hints.push(hint);
}

/// The warning that `--change` or `--share` compare a period that is not whole (a range's
/// edge, a gap) with whole ones: their values are written, and the partial periods named, so
/// that a fall of 70 % at a 2-day week is not read as a crash.
pub(super) fn partial_warning(data: &Dataset, by: Period, measures: &Measures) -> Option<String> {
    let asked: Vec<&str> = [(measures.change, "--change"), (measures.share, "--share")]
        .into_iter()
        .filter_map(|(on, flag)| on.then_some(flag))
        .collect();
    if asked.is_empty() || by == Period::Day {
        return None;
    }
    let mut partial: Vec<String> = Vec::new();
    for row in &data.rows {
        let Some(c) = row.coverage.filter(|c| c.days < c.of) else {
            continue;
        };
        let text = format!("{} ({} of {} days)", by.start(row.date), c.days, c.of);
        if !partial.contains(&text) {
            partial.push(text);
        }
    }
    let (first, more) = (partial.first()?, partial.len() - 1);
    let more = match more {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    Some(format!(
        "{} with --by {name}: a partial {name} is compared with whole ones, the {name} of \
        {first}{more}; \
         --last N{unit} asks whole {name}s",
        asked.join(" and "),
        name = by.name(),
        unit = &by.name()[..1],
    ))
}

/// Now in UTC to the minute, or the time `SOURCE_DATE_EPOCH` gives (seconds since 1970, the
/// reproducible-builds convention), so that a page can be made again byte for byte.
pub(super) fn made_at(epoch: Option<&str>) -> String {
    let fixed = epoch
        .and_then(|text| text.trim().parse::<i64>().ok())
        .and_then(|seconds| DateTime::<Utc>::from_timestamp(seconds, 0));
    fixed
        .unwrap_or_else(Utc::now)
        .format("%Y-%m-%d %H:%M UTC")
        .to_string()
}

/// Why `fees_per_user` is left empty where it is for want of active users, once for the run:
/// the first few (chain, day or period) named, and how many more.
pub(super) fn undivided_note(
    undivided: &[(NaiveDate, Option<Chain>)],
    by: Period,
) -> Option<String> {
    const NAMED: usize = 3;
    let (first, more) = undivided.split_at(undivided.len().min(NAMED));
    let when = |date: &NaiveDate| match by {
        Period::Day => date.to_string(),
        by => format!("the {} of {date}", by.name()),
    };
    let named: Vec<String> = (first.iter())
        .map(|(date, chain)| match chain {
            Some(chain) => format!("{chain} {}", when(date)),
            None => when(date),
        })
        .collect();
    let more = match more.len() {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    (!named.is_empty()).then(|| {
        format!(
            "fees_per_user is left empty where no user was active, as there is nothing to \
            divide by: {}{more}",
            named.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::made_at;

    #[test]
    fn source_date_epoch_fixes_the_time() {
        assert_eq!(made_at(Some("1700000000")), "2023-11-14 22:13 UTC");
        assert_ne!(made_at(Some("soon")), "");
    }
}
