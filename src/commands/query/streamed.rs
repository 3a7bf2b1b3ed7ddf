//! A fetch whose rows are written as they come ([`RowStream`]): the requests are sent window by
//! window in date order (every series' window before the next window), and the days before the
//! next request's first day are written as soon as its answer is taken, so a long run holds
//! about one window of rows, not the range. Without `--chunk-days` every request covers the
//! whole range, and the rows are written once the last answer is in, as before, taken out of
//! the join a batch of days at a time.
//!
//! What stays as in the run that writes every row at once: the bytes written, the warnings
//! (said once the rows are written, as they are known only then), the cache, `--strict`'s
//! verdict and the retries' line. A failure ends the run as before: a file is not replaced; on
//! stdout the days written before the failed window stay written.

use std::io::{self, Write};

use chrono::{Days, NaiveDate};

use super::cached::plan_work;
use super::connect::add_key_hint;
use super::sent::{origin, send, verdict};
use super::{Fetch, Query};
use crate::cache::{CachedValue, RunCache};
use crate::fetched::{Assembly, Fetched, Outcome, Plan};
use crate::output::RowStream;
use crate::system::diag::{self, Notice};

/// Days of rows written at a time once every answer is in.
const FINISH_DAYS: u64 = 64;

/// The rows written as they come; then the warnings, the retries' line and the verdict.
pub(super) fn fetch_and_write(
    query: &Query,
    how: &Fetch,
    stream: RowStream<'_>,
) -> anyhow::Result<()> {
    let (work, mut cache) = plan_work(&query.settings, &query.plan, how.cache)?;
    let mut requests = work.requests;
    // Stable: in plan order within a first day, so a run without windows sends as before.
    requests.sort_by_key(|request| request.range.start);
    let mut known = work.from_cache;
    known.sort_by_key(|value| value.date);
    // Several windows: the join holds the rows of the days not written yet alone.
    let windowed =
        requests.first().map(|r| r.range.start) != requests.last().map(|r| r.range.start);
    let assembly = match windowed {
        true => Assembly::windowed(&query.plan),
        false => Assembly::new(&query.plan),
    };
    let mut run = Streaming {
        plan: &query.plan,
        assembly: Some(assembly),
        known: known.into_iter().peekable(),
        stream: Some(stream),
        stopped: None,
        broken: None,
        outcome: None,
        retried: None,
        synthetic: false,
    };
    let written = query.output.write_streamed(&mut |out| {
        let mut next = 0;
        let sent = send(query, how.jobs, &requests, &mut |answer| {
            next += 1;
            if let (Ok(answer), Some(cache)) = (&answer, &mut cache) {
                cache.keep(answer);
            }
            let frontier = requests.get(next).map(|r| r.range.start);
            run.take(answer, frontier, out)
        });
        match sent {
            Ok((retried, synthetic)) => (run.retried, run.synthetic) = (retried, synthetic),
            Err(e) => run.stopped = Some(e),
        }
        run.end(out)
    });
    if let Some(warning) = cache.as_mut().and_then(RunCache::take_warning) {
        diag::warning(warning);
    }
    if let Some(stopped) = run.stopped {
        return Err(add_key_hint_to(stopped, query));
    }
    if let Some(outcome) = &run.outcome {
        for (warning, data) in outcome.warnings.iter().zip(&outcome.warning_data) {
            Notice::warning(warning.as_str()).with(data.clone()).write();
        }
    }
    if let Some(line) = run.retried {
        Notice::warning(line).loud().write();
    }
    written?;
    // A file written whole says where its data came from, as one written at once does.
    query
        .output
        .record_origin(&origin(&query.settings, run.synthetic));
    match &run.outcome {
        Some(outcome) => verdict(query, how, &outcome.gaps),
        None => Ok(()),
    }
}

/// The key's hint on a failure of the service (as the run that writes at once adds it).
fn add_key_hint_to(error: anyhow::Error, query: &Query) -> anyhow::Error {
    match error.downcast::<crate::error::Failure>() {
        Ok(failure) => add_key_hint(failure, &query.settings).into(),
        Err(error) => error,
    }
}

/// One streamed run: the join, the cached values not joined yet (by date), the writer, and
/// what ended it.
struct Streaming<'a, I: Iterator<Item = CachedValue>> {
    plan: &'a Plan,
    /// The join, until every answer is in.
    assembly: Option<Assembly<'a>>,
    known: std::iter::Peekable<I>,
    stream: Option<RowStream<'a>>,
    /// The failure that ends the run (a request, the connection): the rows stop there.
    stopped: Option<anyhow::Error>,
    /// The output's own error (a closed pipe, a full disk), which the output reports.
    broken: Option<io::Error>,
    /// The warnings and gaps, once every row is written.
    outcome: Option<Outcome>,
    retried: Option<String>,
    /// Whether the answers said their data is synthetic (a sandbox's do).
    synthetic: bool,
}

impl<I: Iterator<Item = CachedValue>> Streaming<'_, I> {
    /// Joins one answer (in request order) and writes the days before `frontier`, the first
    /// day of the next request (`None`: none is left); `false` once the run is to stop.
    fn take(
        &mut self,
        answer: crate::error::Result<Fetched>,
        frontier: Option<NaiveDate>,
        out: &mut dyn Write,
    ) -> bool {
        match (answer, &mut self.assembly) {
            (Ok(answer), Some(assembly)) => assembly.add(answer),
            (Ok(_), None) => return false,
            (Err(failure), _) => {
                self.stopped = Some(failure.into());
                return false;
            }
        }
        // Without windows every request starts on the range's first day: nothing is written
        // before the last answer. After the last, `finish` writes the rest.
        if frontier.is_none_or(|day| day <= self.plan.range.start) {
            return true;
        }
        let written = self.write(frontier, out);
        self.keep(written)
    }

    /// Keeps what went wrong, if anything: the output's own error apart; `false` then.
    fn keep(&mut self, done: anyhow::Result<()>) -> bool {
        match done.map_err(anyhow::Error::downcast::<io::Error>) {
            Ok(()) => true,
            Err(Ok(broken)) => {
                self.broken = Some(broken);
                false
            }
            Err(Err(e)) => {
                self.stopped = Some(e);
                false
            }
        }
    }

    /// Joins the cached values before `frontier` (every one left: `None`).
    fn know(&mut self, frontier: Option<NaiveDate>) {
        let Some(assembly) = &mut self.assembly else {
            return;
        };
        let before = |value: &CachedValue| frontier.is_none_or(|day| value.date < day);
        while let Some(value) = self.known.next_if(before) {
            let CachedValue {
                chain,
                date,
                column,
                value,
            } = value;
            assembly.know(chain, date, column, value);
        }
    }

    /// Joins the cached values before `frontier` and writes the rows of the days before it.
    fn write(&mut self, frontier: Option<NaiveDate>, out: &mut dyn Write) -> anyhow::Result<()> {
        self.know(frontier);
        let (Some(assembly), Some(stream)) = (&mut self.assembly, &mut self.stream) else {
            return Ok(());
        };
        stream.write(assembly.take_before(frontier), self.plan, out)
    }

    /// Once every answer is in: the last rows, the end of the output, the warnings and gaps
    /// kept. A failure is handed to the output as an error of its own, so that nothing is
    /// replaced; the output's own error stays what it is.
    fn end(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.stopped.is_none() && self.broken.is_none() {
            let finished = self.finish(out);
            self.keep(finished);
        }
        if let Some(broken) = self.broken.take() {
            return Err(broken);
        }
        match &self.stopped {
            Some(_) => Err(io::Error::other("the run stopped before every row came")),
            None => Ok(()),
        }
    }

    /// The rows left (every one, without windows), then the end of the output. They are taken
    /// out of the join [`FINISH_DAYS`] days at a time, so that the rows of a long range are
    /// never held all at once beside the join.
    fn finish(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        self.know(None);
        let (mut frontier, end) = (self.plan.range.start, self.plan.range.end);
        while let Some(next) = frontier.checked_add_days(Days::new(FINISH_DAYS)) {
            if next > end || self.stream.is_none() {
                break;
            }
            frontier = next;
            self.write(Some(frontier), out)?;
        }
        let Some(assembly) = self.assembly.take() else {
            return Ok(());
        };
        let mut outcome = assembly.finish();
        if let Some(mut stream) = self.stream.take() {
            let rows = std::mem::take(&mut outcome.dataset.rows);
            stream.write(rows, self.plan, out)?;
            stream.end(self.plan, out)?;
        }
        self.outcome = Some(outcome);
        Ok(())
    }
}
