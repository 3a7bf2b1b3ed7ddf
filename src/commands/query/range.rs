//! The days a query asks: from the flags (`--start`/`--last`/`--end`, or a calendar range),
//! from the file under `--resume`, widened to a whole `--by` period under `--merge`.

use chrono::NaiveDate;

use crate::cli::QueryArgs;
use crate::error::Failure;
use crate::fetched::Plan;
use crate::model::{DayRange, DaySpec};
use crate::output::{Output, Resume};

/// The range the flags give: a calendar range (`--month`, `--quarter`, `--year`), else
/// `--start`/`--last`/`--end`.
pub(super) fn from_flags(args: &QueryArgs, today: NaiveDate) -> Result<DayRange, Failure> {
    match args.calendar.range() {
        Some(range) => Ok(range),
        None => DayRange::resolve_span(args.start, args.end, args.last, args.by, today)
            .map_err(Failure::usage),
    }
}

/// The range asked: the flags' (already in `plan`), or under `--resume` the file's; `None`
/// when the file is up to date.
pub(super) fn asked(
    args: &QueryArgs,
    output: &Output,
    plan: &Plan,
    today: NaiveDate,
) -> Result<Option<DayRange>, Failure> {
    match args.resume {
        true => resumed(args, output, plan, today),
        false => Ok(Some(plan.range)),
    }
}

/// `--resume`: from the day after the file's newest (for every chain asked) to `--end`, the
/// flags' first day for a chain the file has no rows for; `None` when it is up to date.
fn resumed(
    args: &QueryArgs,
    output: &Output,
    plan: &Plan,
    today: NaiveDate,
) -> Result<Option<DayRange>, Failure> {
    let end = args.end.unwrap_or(DaySpec::Yesterday).resolve(today);
    let first_day = match (args.start, args.last, args.calendar.range()) {
        (None, None, None) => None,
        _ => Some(from_flags(args, today)?.start),
    };
    match output.resume(plan, first_day, end)? {
        Resume::From(start) => {
            let (start, end) = (Some(DaySpec::Date(start)), Some(DaySpec::Date(end)));
            let range = DayRange::resolve(start, end, None, today).map_err(Failure::usage)?;
            Ok(Some(range))
        }
        Resume::UpToDate => Ok(None),
    }
}

/// The range to ask for: with `--merge` and a `--by` period, from the first day of the period
/// that holds the start, so that a fresh row covers the days an older row of that period had
/// (a cron job's `--last 2 --by month` would otherwise never replace the month's row).
pub(super) fn widened(args: &QueryArgs, asked: DayRange) -> DayRange {
    match args.merge {
        true => DayRange {
            start: args.by.start(asked.start),
            ..asked
        },
        false => asked,
    }
}
