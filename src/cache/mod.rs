//! The response cache (CLI.md §5): the values the service sent, kept per (service, endpoint,
//! chain, metric, day), so that a run asks only for the days it lacks settled in the cache.
//!
//! The cache can make a run faster, never wrong and never failed: any problem with it is one
//! warning, and the run goes on against the service.

mod error;
mod missing;
mod store;

use std::path::{Path, PathBuf};

use chrono::{Days, NaiveDate};

use crate::fetched::Request;
use crate::fetched::{Fetched, Plan};
use crate::model::Chain;
use crate::model::{Metric, Number, Record};
use crate::settings::without_credentials;
use crate::settings::Settings;
pub use error::CacheError;
pub use store::{Replacement, SeriesKey, SeriesStats, Store};

/// How a query uses the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Serve settled days from it; keep what the service sends.
    Use,
    /// `--refresh`: ask for every day; keep what the service sends.
    Refresh,
    /// `--dry-run`: read it to leave out what it has; change nothing.
    Look,
}

/// The cache as one run uses it. After the first problem it is left alone for the rest of the
/// run, and the problem becomes the one warning.
pub(crate) struct RunCache {
    store: Option<Store>,
    path: PathBuf,
    service: String,
    mode: Mode,
    settle_days: u32,
    /// The last settled day, once [`RunCache::work`] knows today.
    last_settled: Option<NaiveDate>,
    warning: Option<String>,
}

impl RunCache {
    /// Opens the cache of `settings` for a run against `service` (see [`service_name`]).
    pub(crate) fn open(settings: &Settings, service: String, mode: Mode) -> RunCache {
        let mut cache = RunCache {
            store: None,
            path: PathBuf::new(),
            service,
            mode,
            settle_days: settings.cache.settle_days,
            last_settled: None,
            warning: None,
        };
        match &settings.cache.file {
            Ok(path) => {
                cache.path = path.clone();
                let opened = match mode {
                    Mode::Look => Store::open_read_only(path),
                    Mode::Use | Mode::Refresh => Store::open(path).map(Some),
                };
                match opened {
                    Ok(store) => cache.store = store,
                    Err(e) => cache.fail(&e, "asking the service for every day"),
                }
            }
            Err(why) => {
                cache.warning = Some(format!(
                    "the response cache cannot be used: {why}; asking the service for every day"
                ))
            }
        }
        cache
    }

    /// The requests for the days the cache lacks settled (every day with `--refresh`), and
    /// the values it has.
    pub(crate) fn work(&mut self, plan: &Plan, today: NaiveDate) -> Work {
        let last_settled = today.checked_sub_days(Days::new(u64::from(self.settle_days)));
        self.last_settled = last_settled;
        let known = match (self.mode, last_settled) {
            (Mode::Refresh, _) | (_, None) => Ok(missing::Known::new()),
            (_, Some(last)) if last < plan.range.start => Ok(missing::Known::new()),
            (_, Some(last)) => self.known(plan, last.min(plan.range.end)),
        };
        match known {
            Ok(known) => missing::work(plan, &known),
            Err(e) => {
                self.fail(&e, "asking the service for every day");
                Work::everything(plan)
            }
        }
    }

    /// The settled values of the plan's range up to `last`, per chain and column.
    fn known(&self, plan: &Plan, last: NaiveDate) -> Result<missing::Known, CacheError> {
        let mut known = missing::Known::new();
        let Some(store) = &self.store else {
            return Ok(known);
        };
        for chain in &plan.chains {
            for endpoint in &plan.endpoints {
                for column in plan.endpoint_columns(*endpoint) {
                    let key = self.key(*chain, endpoint.path(), column);
                    let values = store.values(&key, plan.range.start, last)?;
                    known.insert((*chain, column), values.into_iter().collect());
                }
            }
        }
        Ok(known)
    }

    /// Keeps the answers that came: the values of the settled days each covers replace the
    /// old ones. Days the service left out, sent several records for or sent as null are not
    /// kept (asked again next time), nor days not yet settled (their values may be revised).
    pub(crate) fn keep(&mut self, answer: &Fetched) {
        let Some(last_settled) = self.last_settled.filter(|_| self.mode != Mode::Look) else {
            return;
        };
        // An answer with records outside the days asked is not trusted: none of it is kept,
        // so the next run asks the same again and warns the same.
        if !answer.notes.out_of_range.is_empty() {
            return;
        }
        let replacements = self.replacements(answer, last_settled);
        let Some(store) = &mut self.store else { return };
        if let Err(e) = store.replace(&replacements) {
            self.fail(&e, "this run's answers were not kept");
        }
    }

    /// What one answer says about the settled days it covers, metric by metric.
    fn replacements<'a>(
        &self,
        answer: &'a Fetched,
        last_settled: NaiveDate,
    ) -> Vec<store::Replacement<'a>> {
        let (request, notes) = (&answer.request, &answer.notes);
        let last = request.range.end.min(last_settled);
        if last < request.range.start {
            return Vec::new();
        }
        let kept = |r: &&Record| r.date <= last && notes.duplicated.binary_search(&r.date).is_err();
        let columns = request.columns().into_iter().enumerate();
        columns
            .map(|(i, column)| store::Replacement {
                key: self.key(request.chain, request.endpoint.path(), column),
                first: request.range.start,
                last,
                values: (answer.records.iter().filter(kept))
                    .filter_map(|r| r.values[i].as_ref().map(|v| (r.date, v)))
                    .collect(),
            })
            .collect()
    }

    fn key(&self, chain: Chain, endpoint: &str, column: Metric) -> SeriesKey {
        key(&self.service, chain, endpoint, column)
    }

    /// Leaves the cache alone from now on, with one warning saying why.
    fn fail(&mut self, error: &CacheError, consequence: &str) {
        self.store = None;
        if self.warning.is_none() {
            self.warning = Some(format!(
                "the response cache {} {}: {consequence}",
                self.path.display(),
                error
            ));
        }
    }

    /// The one warning about the cache, if anything went wrong with it.
    pub(crate) fn take_warning(&mut self) -> Option<String> {
        self.warning.take()
    }
}

fn key(service: &str, chain: Chain, endpoint: &str, column: Metric) -> SeriesKey {
    SeriesKey {
        service: service.to_owned(),
        endpoint: endpoint.to_owned(),
        chain: chain.name().to_owned(),
        metric: column.name().to_owned(),
    }
}

/// What a run asks the service, and the values it already has from the cache.
#[derive(Debug, Default)]
pub(crate) struct Work {
    /// In plan order: chains as asked, then endpoints, then days.
    pub requests: Vec<Request>,
    pub from_cache: Vec<CachedValue>,
    /// The (chain, endpoint, day)s answered wholly from the cache, for `-v`.
    pub days_from_cache: usize,
}

impl Work {
    /// Every request of the plan, nothing known: a run without the cache.
    pub(crate) fn everything(plan: &Plan) -> Work {
        Work {
            requests: plan.requests(),
            ..Work::default()
        }
    }
}

/// One value served from the cache instead of the service.
#[derive(Clone, Debug)]
pub(crate) struct CachedValue {
    pub chain: Chain,
    pub date: NaiveDate,
    pub column: Metric,
    pub value: Number,
}

/// How the cache names a service: its base URL without user name or password (a password
/// never goes into the file), or `(--sandbox)`, whose data is the same on every run.
pub(crate) fn service_name(base_url: Option<&reqwest::Url>) -> String {
    match base_url {
        None => "(--sandbox)".to_owned(),
        Some(url) => without_credentials(url)
            .as_str()
            .trim_end_matches('/')
            .to_owned(),
    }
}

/// The file and its WAL and shared-memory companions, for `cache clear` and sizes.
pub(crate) fn files(path: &Path) -> [PathBuf; 3] {
    let with = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    [path.to_owned(), with("-wal"), with("-shm")]
}
