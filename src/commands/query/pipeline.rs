//! The pipeline of a resolved query, which reads the [`Query`] alone: print one body as sent
//! (`--raw`), print curl lines (`--dry-run`), or fetch, assemble, write and give the verdict.

use super::as_sent::{print_curl_lines, print_raw};
use super::cached::plan_work;
use super::connect::add_key_hint;
use super::keep_going::Answers;
use super::sent::{origin, send, verdict};
use super::{Fetch, Mode, Query};
use crate::cache::RunCache;
use crate::error::Failure;
use crate::fetched::{Assembly, Outcome};
use crate::output::Told;
use crate::system::diag::{self, Notice};

/// The notes first, then what the query's mode says.
pub(super) fn run(query: &Query) -> anyhow::Result<()> {
    for line in &query.without_effect {
        diag::note(line.as_str());
    }
    tell(query);
    match &query.mode {
        Mode::UpToDate => Ok(()),
        Mode::Raw => print_raw(query),
        Mode::DryRun { look } => print_curl_lines(query, *look),
        Mode::Fetch(how) => fetch_and_write(query, how),
    }
}

/// The notes on the days asked, before anything is sent.
fn tell(query: &Query) {
    let (settings, plan, asked) = (&query.settings, &query.plan, query.asked);
    // The file the run catches up with, as the notes name it.
    let file = query.output.target_name();
    let (why, again) = match &query.resume {
        Some(c) => (c.why.as_str(), c.again),
        None => ("", false),
    };
    if let Some(holes) = query.resume.as_ref().and_then(|c| c.holes.as_ref()) {
        diag::note(format!(
            "--resume: {file} lacks {holes} inside its rows: asked again"
        ));
    }
    if let Mode::UpToDate = query.mode {
        let line = format!("--resume: {file} is up to date for every chain asked; nothing to ask");
        return diag::note(line);
    }
    if let Some(line) = query.output.described_target().filter(|_| settings.verbose) {
        diag::verbose(line);
    }
    let dry_run = matches!(query.mode, Mode::DryRun { .. });
    // Days asked again are news in a cron job's mail; the plain catch-up is not.
    if query.resume.is_some() && (dry_run || settings.verbose || again) {
        let (start, end) = (asked.start, asked.end);
        let line = format!("--resume: asking {start}..{end} for {file}: {why}");
        diag::note(line);
    }
    if plan.range.start != asked.start {
        let (start, by) = (plan.range.start, query.by.name());
        diag::note(format!(
            "--merge --by {by}: asking from {start}, the first day of the {by} that \
            holds {}, so that the {by}'s row in the file is replaced whole",
            asked.start
        ));
    }
    if plan.range.end > query.today {
        let end = plan.range.end;
        diag::warning(format!(
            "the range ends {end}, after today (UTC): the service has no data for days to come"
        ));
    } else if plan.range.end == query.today {
        diag::warning(format!(
            "the range ends today, {}, which is not over (UTC): its values are partial",
            query.today
        ));
    }
}

/// What the requests brought: the rows, `--keep-going`'s warnings and the failure that sets the
/// exit code once the rest is written, and the retries' line.
struct Gathered {
    outcome: Outcome,
    left_out: Vec<super::keep_going::LeftOut>,
    failure: Option<Failure>,
    retried: Option<String>,
    /// Whether the service's answers said their data is synthetic (a sandbox's do).
    synthetic: bool,
}

/// The rows, warnings first; under `--strict`, a result that lacks asked values fails after it
/// is written; the retries are told last.
fn fetch_and_write(query: &Query, how: &Fetch) -> anyhow::Result<()> {
    // `--keep-going` leaves a chain out whole when any of its requests fails, so no row can
    // be written before every answer is in.
    if let Some(stream) = query.output.row_stream().filter(|_| !how.keep_going) {
        return super::streamed::fetch_and_write(query, how, stream);
    }
    let settings = &query.settings;
    let Gathered {
        outcome,
        left_out,
        failure,
        retried,
        synthetic,
    } = gather(query, how)?;
    for (warning, data) in outcome.warnings.iter().zip(&outcome.warning_data) {
        Notice::warning(warning.as_str()).with(data.clone()).write();
    }
    for (warning, data) in left_out {
        Notice::warning(warning).with(data).write();
    }
    let (color, wait) = (settings.color, settings.lock_wait());
    let told = Told {
        warnings: outcome.warnings.clone(),
        origin: origin(settings, synthetic),
        source_date_epoch: settings.source_date_epoch.clone(),
    };
    let written = (query.output).write(
        outcome.dataset,
        &query.plan,
        &told,
        color,
        wait,
        &Notice::write,
    );
    // A warning, under -q too: retries are the step before exit 6, which cron mail should show.
    if let Some(line) = retried {
        Notice::warning(line).loud().write();
    }
    written?;
    if let Some(failure) = failure {
        return Err(add_key_hint(failure, settings).into());
    }
    verdict(query, how, &outcome.gaps)
}

/// Every request the cache cannot answer, each answer joined as it comes (`--keep-going`:
/// chain by chain), then what the cache knew.
fn gather(query: &Query, how: &Fetch) -> anyhow::Result<Gathered> {
    let (settings, plan) = (&query.settings, &query.plan);
    let (work, mut cache) = plan_work(settings, plan, how.cache)?;
    let mut assembly = Assembly::new(plan);
    // The error reported is the first failed request in plan order, so it never depends on
    // timing.
    let mut answers = Answers::new(how.keep_going, &plan.chains);
    let (retried, synthetic) = send(query, how.jobs, &work.requests, &mut |answer| {
        if let (Ok(answer), Some(cache)) = (&answer, &mut cache) {
            cache.keep(answer);
        }
        answers.take(answer, &mut assembly)
    })?;
    answers.flush(&mut assembly);
    for known in work.from_cache {
        if !answers.failed(known.chain) {
            assembly.know(known.chain, known.date, known.column, known.value);
        }
    }
    if let Some(warning) = cache.as_mut().and_then(RunCache::take_warning) {
        diag::warning(warning);
    }
    if let Some((left_out, failure)) = answers.fatal() {
        for (warning, data) in left_out {
            Notice::warning(warning).with(data).write();
        }
        return Err(add_key_hint(failure, settings).into());
    }
    let (left_out, failure) = answers.left_out();
    let outcome = assembly.finish();
    Ok(Gathered {
        outcome,
        left_out,
        failure,
        retried,
        synthetic,
    })
}
