//! What the response cache answers for a query, and what is left to ask the service.

use crate::cache::Work;
use crate::cache::{self, Mode, RunCache};
use crate::fetched::Plan;
use crate::model::today_utc;
use crate::settings::Settings;
use crate::system::diag;

/// What to ask the service (and what the cache has), with the cache's warning and its `-v`
/// line on stderr.
pub(super) fn plan_work(
    settings: &Settings,
    plan: &Plan,
    mode: Option<Mode>,
) -> anyhow::Result<(Work, Option<RunCache>)> {
    let Some(mode) = mode else {
        return Ok((Work::everything(plan), None));
    };
    let base_url = match settings.sandbox {
        true => None,
        false => Some(settings.service_url()?),
    };
    let mut cache = RunCache::open(settings, cache::service_name(base_url.as_ref()), mode);
    let work = cache.work(plan, today_utc());
    if let Some(warning) = cache.take_warning() {
        diag::warning(warning);
    }
    if settings.verbose {
        diag::verbose(format!("cache: {}", cache_summary(plan, &work, mode)));
    }
    Ok((work, Some(cache)))
}

/// `-v`: how many days came from the cache, and what is left to ask.
fn cache_summary(plan: &Plan, work: &Work, mode: Mode) -> String {
    let series = plan.chains.len() * plan.endpoints.len();
    let days = plan.range.days().count();
    let requests = match work.requests.len() {
        1 => "1 request".to_owned(),
        n => format!("{n} requests"),
    };
    let of = match series {
        1 => format!("{days} days"),
        _ => format!("{} days ({series} series of {days} days)", series * days),
    };
    match mode {
        Mode::Refresh => format!("--refresh: asking for all {of} in {requests}"),
        _ => format!(
            "{} of {of} came from the cache; {requests} to send",
            work.days_from_cache
        ),
    }
}
