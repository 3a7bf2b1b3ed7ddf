//! The first stage of a query's resolution, from the flags alone: the plan, the output, and
//! every usage error, before any settings, key, request or file write.

use chrono::NaiveDate;

use super::flags::QueryFlags;
use super::range;
use crate::error::Failure;
use crate::fetched::Plan;
use crate::model::{DayRange, Endpoint, Period, SocialMetric};
use crate::output::Output;
use crate::settings::{LibpqEnvironment, Terminal};

/// What the flags alone resolve to.
pub(super) struct Checked {
    /// Its range is the flags' (today's under `--resume`, until the file gives it).
    pub plan: Plan,
    pub output: Output,
}

impl Checked {
    /// Every usage error comes before any request, key lookup or file; `libpq` completes a
    /// `postgresql://` target.
    pub(super) fn resolve(
        flags: &QueryFlags,
        endpoints: Vec<Endpoint>,
        includes: Vec<SocialMetric>,
        terminal: Terminal,
        today: NaiveDate,
        libpq: &LibpqEnvironment,
    ) -> Result<Checked, Failure> {
        // With --resume the range comes from the file, read once the output is known.
        let range = match flags.output.resume {
            true => DayRange {
                start: today,
                end: today,
            },
            false => range::from_flags(&flags.days, flags.output.by, today)?,
        };
        let plan = Plan {
            endpoints,
            chains: flags.chains.clone(),
            range,
            includes,
            chunk_days: None,
        };
        let output = Output::resolve(&flags.output, &plan, terminal, libpq)?;
        check_dry_run(flags)?;
        if flags.raw {
            output.check_raw()?;
        }
        output.check_target(&plan)?;
        if flags.raw {
            check_raw(&plan, flags.output.by)?;
        }
        Ok(Checked { plan, output })
    }
}

/// `--dry-run` writes nothing: `--output` goes with it only to show a `--resume` range.
fn check_dry_run(flags: &QueryFlags) -> Result<(), Failure> {
    if flags.dry_run && flags.output.file.is_some() && !flags.output.resume {
        return Err(Failure::usage(
            "--dry-run sends nothing and writes nothing, so --output has nothing to do",
        )
        .with_hint(
            "leave out --output; with --merge --resume, --dry-run shows the range a \
            catch-up would ask",
        ));
    }
    Ok(())
}

/// `--raw` shows one body as sent, so it needs exactly one request, and its daily rows as they
/// are (`--by day`, the default, may be given).
fn check_raw(plan: &Plan, by: Period) -> Result<(), Failure> {
    if by != Period::Day {
        return Err(Failure::usage(format!(
            "--raw prints the service's body as sent, one entry a day, and cannot roll it up by {}",
            by.name()
        ))
        .with_hint("leave out --raw, or --by"));
    }
    if plan.endpoints.len() > 1 {
        return Err(Failure::usage(
            "--raw prints one service body, and report makes three requests per chain",
        )
        .with_hint("use --raw with fees, users or social"));
    }
    if plan.chains.len() > 1 {
        let names: Vec<&str> = plan.chains.iter().map(|c| c.name()).collect();
        return Err(Failure::usage(format!(
            "--raw prints one service body, for one chain; asked: {}",
            names.join(", ")
        ))
        .with_hint("give one chain to --chain"));
    }
    Ok(())
}
