//! What both ways of writing a query's rows share (all at once in `pipeline`, as they come
//! in `streamed`): the requests sent, where the data came from, and `--strict`'s verdict.

use super::connect::connect;
use super::{Fetch, Query};
use crate::client::fetch_each;
use crate::error::Failure;
use crate::fetched::{Fetched, Gaps, Request};
use crate::render::Origin;
use crate::settings::{shown_url, Source};

/// `--strict`'s verdict on the rows written: gaps, or a range that holds today.
pub(super) fn verdict(query: &Query, how: &Fetch, gaps: &Gaps) -> anyhow::Result<()> {
    if how.strict.value {
        let configured = matches!(how.strict.source, Source::File | Source::Profile(_));
        gaps.strict_verdict(configured)?;
        if query.plan.range.contains(query.today) {
            return Err(today_partial(query.today).into());
        }
    }
    Ok(())
}

/// `--strict`'s verdict on a range that holds today: its values are partial, as a gap is.
fn today_partial(today: chrono::NaiveDate) -> Failure {
    let message = format!(
        "--strict: incomplete data: {today} (today, UTC) is not over, so its values are \
         partial; everything that came was written"
    );
    Failure::new(crate::error::Exit::Incomplete, message)
        .with_hint("end the range yesterday (the default end), or leave out --strict")
}

/// Where the run's data came from: the built-in sandbox, a service whose answers said theirs is
/// synthetic (a sandbox run on its own), or a service, by its URL with any password masked.
pub(super) fn origin(settings: &crate::settings::Settings, synthetic: bool) -> Origin {
    match (settings.sandbox, &settings.base_url) {
        (true, _) => Origin::Sandbox,
        (false, Some(url)) if synthetic => Origin::SyntheticService(shown_url(&url.value)),
        (false, Some(url)) => Origin::Service(shown_url(&url.value)),
        (false, None) => Origin::Unknown,
    }
}

/// Sends the requests; with none to send, needs neither the key nor a connection. Returns the
/// retries' line (`1 request retried (3 retries): 429 x2, 503 x1`), if any, and whether the
/// answers said their data is synthetic.
pub(super) fn send(
    query: &Query,
    jobs: usize,
    requests: &[Request],
    take: &mut dyn FnMut(crate::error::Result<Fetched>) -> bool,
) -> anyhow::Result<(Option<String>, bool)> {
    if requests.is_empty() {
        return Ok((None, false));
    }
    let (client, _sandbox) = connect(&query.settings)?;
    // Shared with the workers, which may outlive this call once the outcome is decided.
    let client = std::sync::Arc::new(client);
    let progress = query.output.progress(requests.len());
    fetch_each(&client, requests, jobs, &|| progress.tick(), take);
    progress.finish();
    Ok((client.retry_summary(), client.said_synthetic()))
}
