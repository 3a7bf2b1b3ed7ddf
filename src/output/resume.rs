//! `--resume`: where a catch-up run starts, from the newest day the `--merge` target already
//! holds for each asked chain, so that one cron line serves the first run and every later one.

use chrono::NaiveDate;

use super::holes::{holes, Hole};
use super::merge::stored;
use super::Output;
use crate::error::Failure;
use crate::fetched::Plan;
use crate::model::{Chain, Dataset, Row};

/// Where a `--resume` run starts, before any day is asked again.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Resume {
    /// A chain asked has no rows yet: from this day, the first `--start`/`--last` give.
    First(NaiveDate),
    /// The day after the file's newest, the earliest over the chains asked.
    After(NaiveDate),
    /// Every asked chain has the last day there is: nothing to ask.
    UpToDate,
}

impl Output {
    /// The first day to ask: the day after the newest the file holds a value of, for every
    /// asked chain, the earliest of those (so no chain misses a day). A chain the file has no
    /// rows for starts on `first_day` (`--start`/`--last`), which must then be given. Also
    /// the holes inside each asked chain's rows, which are asked again.
    pub(crate) fn resume(
        &self,
        plan: &Plan,
        first_day: Option<NaiveDate>,
    ) -> Result<(Resume, Vec<Hole>), Failure> {
        let shape = self.header(plan);
        #[cfg(feature = "postgres")]
        if let Some(database) = self.database.as_ref().filter(|_| self.merge) {
            let rows = database.stored_rows(&shape)?;
            let resume = start_after(&rows, &shape, plan, first_day, database.shown())?;
            return Ok((resume, holes(&rows, &shape, &plan.chains, self.shape.by)));
        }
        let Some(file) = self.file.as_deref().filter(|_| self.merge) else {
            return Err(Failure::usage(
                "--resume needs --merge and --output FILE: it starts after \
                the newest day of that file",
            ));
        };
        let stored = stored(self.target(file, plan), &shape)?;
        let rows = stored.map(|s| s.rows).unwrap_or_default();
        let resume = start_after(&rows, &shape, plan, first_day, &file.display().to_string())?;
        Ok((resume, holes(&rows, &shape, &plan.chains, self.shape.by)))
    }
}

/// Where a run starts after `rows` (the target's, shown as `target`): the earliest day after
/// an asked chain's newest; `first_day` for a chain with none.
fn start_after(
    rows: &[Row],
    shape: &Dataset,
    plan: &Plan,
    first_day: Option<NaiveDate>,
    target: &str,
) -> Result<Resume, Failure> {
    let (mut after, mut first): (Option<NaiveDate>, Option<NaiveDate>) = (None, None);
    for chain in &plan.chains {
        match newest(rows, shape, *chain) {
            // The last day there is: nothing comes after it.
            Some(day) => match day.succ_opt() {
                Some(next) => after = Some(after.map_or(next, |a| a.min(next))),
                None => continue,
            },
            None => first = Some(first_day.ok_or_else(|| no_rows_yet(target, rows, *chain))?),
        };
    }
    Ok(match (first, after) {
        (Some(first), Some(after)) if after < first => Resume::After(after),
        (Some(first), _) => Resume::First(first),
        (None, Some(after)) => Resume::After(after),
        (None, None) => Resume::UpToDate,
    })
}

/// The newest date of `rows` with a value for `chain`: its rows when they name chains, its
/// columns when the file is wide (`ETHEREUM`, `ETHEREUM.fees`), else every row (a file of one
/// chain). The `days` counts of `--by` are no values. The file's columns are this run's
/// (`stored` has checked them), so their types say which is which.
fn newest(rows: &[Row], shape: &Dataset, chain: Chain) -> Option<NaiveDate> {
    let wide = shape.columns.iter().any(|c| c.chain().is_some());
    let counted: Vec<usize> = (shape.columns.iter().enumerate())
        .filter(|(_, c)| !c.is_days())
        .filter(|(_, c)| !wide || c.chain() == Some(chain))
        .map(|(at, _)| at)
        .collect();
    rows.iter()
        .filter(|row| row.chain.is_none_or(|c| c == chain))
        .filter(|row| counted.iter().any(|at| row.values[*at].is_some()))
        .map(|row| row.date)
        .max()
}

/// The usage error of a run with no first day: the file has no rows (for `chain`) yet.
fn no_rows_yet(target: &str, rows: &[Row], chain: Chain) -> Failure {
    let what = match rows.is_empty() {
        true => "no rows yet".to_owned(),
        false => format!("no rows for {chain} yet"),
    };
    Failure::usage(format!(
        "--resume starts after the newest day in {target}, and it has {what}"
    ))
    .with_hint(
        "give the first run's range with --start DAY or --last N; --resume uses it only \
        while the file has no rows",
    )
}
