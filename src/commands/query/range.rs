//! The days a query asks: from the flags (`--start`/`--last`/`--end`, or a calendar range),
//! from the file under `--resume`, widened to a whole `--by` period under `--merge`.

use chrono::{Days, NaiveDate};

use super::flags::{DayFlags, QueryFlags};
use crate::error::Failure;
use crate::fetched::Plan;
use crate::model::{DayRange, DaySpec, Period};
use crate::output::{describe_holes, Hole, Output, Resume};

/// The range the flags give: a calendar range (`--month`, `--quarter`, `--year`), else
/// `--start`/`--last`/`--end` (`--last` counts periods of `by`, `--by`'s).
pub(super) fn from_flags(
    days: &DayFlags,
    by: Period,
    today: NaiveDate,
) -> Result<DayRange, Failure> {
    match days.calendar {
        Some(range) => Ok(range),
        None => DayRange::resolve_span(days.start, days.end, days.last, by, today)
            .map_err(Failure::usage),
    }
}

/// What the file says of a `--resume` run: where it starts, the holes it asks again, and its
/// last day.
pub(super) struct Resumed {
    resume: Resume,
    holes: Vec<Hole>,
    end: NaiveDate,
}

/// Where a `--resume` run starts, as the file says (`None`: not `--resume`).
pub(super) fn resume_start(
    flags: &QueryFlags,
    output: &Output,
    plan: &Plan,
    today: NaiveDate,
) -> Result<Option<Resumed>, Failure> {
    if !flags.output.resume {
        return Ok(None);
    }
    let days = &flags.days;
    let end = days.end.unwrap_or(DaySpec::Yesterday).resolve(today);
    let first_day = match (days.start, days.last, days.calendar) {
        (None, None, None) => None,
        _ => Some(from_flags(days, flags.output.by, today)?.start),
    };
    let (resume, holes) = output.resume(plan, first_day)?;
    Ok(Some(Resumed { resume, holes, end }))
}

/// Where a `--resume` run starts, and why, for its note.
pub(crate) struct CatchUp {
    /// `None`: the file is up to date.
    pub range: Option<DayRange>,
    /// Why it starts where it does, in the user's words.
    pub why: String,
    /// Whether days the file has are asked again (news in a cron job's mail).
    pub again: bool,
    /// The holes inside the file asked again, named (`ETHEREUM 2024-01-05`); `None`: none.
    pub holes: Option<String>,
}

/// A `--resume` run's range and why it starts there: after the file's newest day, less the
/// days asked again because the service may still revise them (`--resume-overlap N`, else
/// those of the file's last `cache_settle_days` days that are not settled yet, as the
/// response cache counts them); from the file's first hole (on or before the end) when that
/// is earlier, so that a day missing inside the file is asked again on every run.
pub(super) fn catch_up(
    resumed: Resumed,
    overlap: Option<u32>,
    settle_days: u32,
    today: NaiveDate,
) -> Result<CatchUp, Failure> {
    let Resumed { resume, end, .. } = resumed;
    let mut holes = resumed.holes;
    holes.iter_mut().for_each(|h| h.dates.retain(|d| *d <= end));
    holes.retain(|h| !h.dates.is_empty());
    let first_hole = holes.iter().filter_map(|h| h.dates.first()).min().copied();
    let up_to_date = CatchUp {
        range: None,
        why: String::new(),
        again: false,
        holes: None,
    };
    let (start, why) = match resume {
        Resume::UpToDate => match first_hole {
            Some(hole) => (hole, "it is up to date but for its holes".to_owned()),
            None => return Ok(up_to_date),
        },
        Resume::First(start) => (
            start,
            "it has no rows yet (for a chain asked): from the first day --start/--last give"
                .to_owned(),
        ),
        Resume::After(next) => reasked(next, end, overlap, settle_days, today),
    };
    let (start, why) = match first_hole.filter(|hole| *hole < start) {
        Some(hole) => (hole, format!("from its first hole, {hole}; {why}")),
        None => (start, why),
    };
    if start > end {
        return Ok(up_to_date);
    }
    let range = DayRange::resolve(
        Some(DaySpec::Date(start)),
        Some(DaySpec::Date(end)),
        None,
        today,
    )
    .map_err(Failure::usage)?;
    let again = matches!(resume, Resume::After(next) if start < next);
    Ok(CatchUp {
        range: Some(range),
        why,
        again,
        holes: (!holes.is_empty()).then(|| describe_holes(&holes)),
    })
}

/// The first day to ask when the file's newest is the day before `next`, and why.
fn reasked(
    next: NaiveDate,
    end: NaiveDate,
    overlap: Option<u32>,
    settle_days: u32,
    today: NaiveDate,
) -> (NaiveDate, String) {
    let back = |days: u32| {
        next.checked_sub_days(Days::new(days.into()))
            .unwrap_or(next)
    };
    let (start, flag) = match overlap {
        Some(days) => (back(days), format!("--resume-overlap {days}")),
        None => {
            // The first day not yet settled: the cache serves no day after it either.
            let unsettled = today
                .checked_sub_days(Days::new(u64::from(settle_days).saturating_sub(1)))
                .unwrap_or(today);
            let start = back(settle_days).max(unsettled).min(next);
            (start, format!("cache_settle_days = {settle_days}"))
        }
    };
    let after = "from the day after its newest day".to_owned();
    if start >= next || start > end {
        return (next, after);
    }
    let last = next.pred_opt().unwrap_or(next).min(end);
    let why = format!(
        "{after}, less {start}..{last} asked again: the service may still revise \
        days that recent ({flag}; --resume-overlap 0 asks none again)"
    );
    (start, why)
}

/// The range to ask for: with `--merge` and a `--by` period, from the first day of the period
/// that holds the start, so that a fresh row covers the days an older row of that period had
/// (a cron job's `--last 2 --by month` would otherwise never replace the month's row).
pub(super) fn widened(flags: &QueryFlags, asked: DayRange) -> DayRange {
    match flags.output.merge {
        true => DayRange {
            start: flags.output.by.start(asked.start),
            ..asked
        },
        false => asked,
    }
}
