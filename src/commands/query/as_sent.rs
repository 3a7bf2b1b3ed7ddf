//! A query's requests or answer as they are, with no rows made: `--raw`'s body and
//! `--dry-run`'s curl lines.

use super::cached::plan_work;
use super::connect::{add_key_hint, connect};
use super::Query;
use crate::cache::Mode as CacheMode;
use crate::client::curl_lines;
use crate::error::Failure;
use crate::output::write_stdout;
use crate::settings::MASK;
use crate::system::{diag, foreign};

/// `--raw`: one body as sent, the whole range in one request.
pub(super) fn print_raw(query: &Query) -> anyhow::Result<()> {
    let settings = &query.settings;
    let (client, _sandbox) = connect(settings)?;
    let raw = client
        .fetch_raw(&query.plan.requests()[0])
        .map_err(|failure| add_key_hint(failure, settings))?;
    if raw.key_masked {
        let line =
            format!("the service echoed the API key in its answer; --raw shows it as {MASK}");
        diag::warning(line);
    }
    // The body as sent, plus the newline a text file and a shell prompt expect after it.
    let mut body = raw.body;
    if !body.ends_with(b"\n") {
        body.push(b'\n');
    }
    // To a pipe or a file byte for byte; a terminal gets no control characters, which
    // would let the service drive it (write the clipboard, change the title).
    if query.output.to_terminal() {
        body = foreign::for_terminal(&body);
    }
    query.output.write_bytes(&body)
}

/// `--dry-run`: the curl lines of the requests the cache (read only) cannot answer.
pub(super) fn print_curl_lines(query: &Query, look: Option<CacheMode>) -> anyhow::Result<()> {
    let settings = &query.settings;
    if settings.sandbox {
        return Err(Failure::usage(
            "--dry-run prints commands for a service that outlives the run; --sandbox lasts only \
            one run",
        )
        .with_hint("start `chain-metrics sandbox` and set CHAIN_METRICS_BASE_URL to its URL")
        .into());
    }
    let (work, _) = plan_work(settings, &query.plan, look)?;
    if work.requests.is_empty() {
        diag::note("every day asked is in the cache: nothing would be sent");
    }
    let lines = curl_lines(&settings.service_url()?, settings.method, &work.requests);
    write_stdout(|out| lines.iter().try_for_each(|line| writeln!(out, "{line}")))
}
