//! The one type that talks to the service: the wire format, the method fallback, same-origin
//! redirects, retries, and errors that name the endpoint, the status and the service's message.
//!
//! Its rooms: `body/` reads a success body into records (the parsers the fuzz targets call);
//! `resend` is the retry/redirect loop around `exchange`, one request sent and its answer
//! read (`transport` below it); `failure` words what went wrong; `fetch` runs a plan's
//! requests concurrently.

mod body;
mod connection;
mod dry_run;
mod exchange;
mod failure;
mod fetch;
mod probe;
mod range_refusal;
mod raw;
mod request;
mod resend;
mod retry;
mod setup;
mod throttle;
mod transport;
mod trust;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use reqwest::header::CONTENT_TYPE;
use reqwest::{Method, Url};

use crate::error::{Exit, Failure, Result};
use crate::fetched::Request;
use crate::model::{Endpoint, Metric};
use crate::settings::hide_passwords;
use crate::settings::ApiKey;
use crate::settings::MethodChoice;
use crate::settings::ProxyChoice;
use crate::settings::Settings;
use crate::system::foreign;
use body::{bounded_records, Misshapen};
pub use body::{parse_held_body, parse_records, read_body_records};
pub use body::{parse_records_kept, read_records_kept, KeptRecords};
pub(crate) use dry_run::curl_lines;
use failure::{service_message, Scrub};
pub(crate) use fetch::fetch_each;
pub(crate) use raw::RawFailed;
pub(crate) use request::{endpoint_url, FIXED_HEADERS, KEY_HEADER};
use retry::Tally;
use throttle::Throttle;
use transport::Answer;
pub(crate) use trust::Roots;

/// Receives one line per request event when `--verbose` is on; the client itself never prints.
pub(crate) type Trace = Arc<dyn Fn(&str) + Send + Sync>;

/// Where a client connects and how, beside the settings (timeouts, retries, method, jobs).
pub(crate) struct ClientOptions {
    pub base_url: Url,
    pub key: ApiKey,
    pub trace: Option<Trace>,
    pub roots: Roots,
    /// `None`: connect directly (reqwest never reads the proxy variables itself).
    pub proxy: Option<ProxyChoice>,
}

pub(crate) struct Client {
    http: reqwest::blocking::Client,
    base_url: Url,
    key: ApiKey,
    timeout: Duration,
    connect_timeout: Duration,
    retries: u32,
    method: MethodChoice,
    /// Set once `auto` has seen a 405 on POST: GET for the rest of the run.
    use_get: AtomicBool,
    trace: Option<Trace>,
    proxy: Option<ProxyChoice>,
    /// Every retry of the run, by why, for [`Client::retry_summary`].
    retried: Tally,
    throttle: Throttle,
    /// Whether the base URL's port answered a TLS ClientHello, once asked (`second_look`).
    probed_tls: OnceLock<bool>,
    /// The status the proxy refused a tunnel with, once asked (`second_look`).
    probed_proxy: OnceLock<Option<u16>>,
    /// Whether a data answer said its data is synthetic (`model::DATA_HEADER`: a sandbox).
    synthetic: AtomicBool,
}

impl Client {
    /// The client of `options`, with the settings' timeouts, retries and method, and at most
    /// `--jobs` requests in flight at once (a 429 halves it for the rest of the run).
    pub(crate) fn new(options: ClientOptions, settings: &Settings) -> Result<Client> {
        let http = setup::http_client(&options, settings)?;
        register_secrets(&options);
        if let (Some(trace), Some(proxy)) = (&options.trace, &options.proxy) {
            trace(&format!("via proxy {}", proxy.describe()));
        }
        Ok(Client {
            http,
            base_url: options.base_url,
            key: options.key,
            timeout: settings.timeout,
            connect_timeout: settings.connect_timeout,
            retries: settings.retries,
            method: settings.method,
            use_get: AtomicBool::new(false),
            trace: options.trace,
            proxy: options.proxy,
            retried: Tally::default(),
            throttle: Throttle::new(settings.jobs),
            probed_tls: OnceLock::new(),
            probed_proxy: OnceLock::new(),
            synthetic: AtomicBool::new(false),
        })
    }

    /// `2 requests retried (3 retries): 429 x2, 503 x1` when this client had to send again;
    /// `None` if not.
    pub(crate) fn retry_summary(&self) -> Option<String> {
        self.retried.summary()
    }

    /// The endpoint's URL: the base URL, path prefix kept, then the endpoint path.
    pub(crate) fn url(&self, endpoint: Endpoint) -> String {
        endpoint_url(&self.base_url, endpoint)
    }

    /// Fetches and parses the records of one request, values in `columns` order: at most one
    /// per day asked, with the dates of the records it did not keep (see `keep`).
    pub(crate) fn fetch_records(
        &self,
        request: &Request,
        columns: &[Metric],
    ) -> Result<KeptRecords> {
        self.records(request, columns)
            .map_err(|f| self.scrubbed(f.with_detail(request.detail())))
    }

    /// What the service sent ends up in messages (its error text, a Location, a bad field):
    /// the key and URL passwords are masked wherever they show, and control characters
    /// cannot reach the terminal.
    fn scrubbed(&self, failure: Failure) -> Failure {
        let detail = failure.detail.map(|mut detail| {
            detail.service_message = detail.service_message.as_deref().map(|t| self.shown(t));
            detail
        });
        Failure {
            message: self.shown(&failure.message),
            hint: failure.hint.as_deref().map(|hint| self.shown(hint)),
            exit: failure.exit,
            detail,
        }
    }

    /// The secrets of `text` masked: the key wherever it shows, and URL passwords.
    fn mask(&self, text: &str) -> String {
        hide_passwords(&self.key.mask(text))
    }

    /// The one scrub of every text the client shows (a message, a `--verbose` line), through
    /// `system::foreign`: controls and reordering marks replaced, then the key and URL
    /// passwords masked. Service text goes through it before it is shortened.
    fn shown(&self, text: &str) -> String {
        foreign::shown(text, &|t| self.mask(t), usize::MAX)
    }

    /// Whether any data answer of the run said its data is synthetic, as the sandbox's do
    /// (`model::DATA_HEADER`), also one run on its own and reached by `--base-url`.
    pub(crate) fn said_synthetic(&self) -> bool {
        self.synthetic.load(Ordering::Relaxed)
    }

    fn records(&self, request: &Request, columns: &[Metric]) -> Result<KeptRecords> {
        let (mut answer, method) = self.fetch(request, Some(columns))?;
        check_content_type(&|t| self.mask(t), request, &method, &answer)?;
        let (name, synthetic) = crate::model::DATA_HEADER;
        let said = answer.headers.get(name).and_then(|v| v.to_str().ok());
        if said.is_some_and(|v| v.trim().eq_ignore_ascii_case(synthetic)) {
            self.synthetic.store(true, Ordering::Relaxed);
        }
        let records = match answer.records.take() {
            Some(records) => records,
            None => {
                let body = std::mem::take(&mut answer.body);
                let read =
                    bounded_records(request.endpoint, columns, request.range, &mut &body[..]);
                // Reading from memory cannot fail.
                read.unwrap_or_else(|e| {
                    Err(Misshapen {
                        problem: e.to_string(),
                        body: Vec::new(),
                    })
                })
            }
        };
        records.map_err(|Misshapen { problem, body }| {
            // The problem quotes the body cut short, and a cut key would no longer be masked
            // whole: the quote is taken again from the body with the key masked first.
            let problem = match self.key.scrub_bytes(body) {
                (masked, true) => parse_records_kept(
                    request.endpoint,
                    columns,
                    request.range,
                    usize::MAX,
                    &masked,
                )
                .err()
                .unwrap_or(problem),
                (_, false) => problem,
            };
            let content_type = answer
                .header(CONTENT_TYPE)
                .map(|t| format!(" (content-type {t})"))
                .unwrap_or_default();
            Failure::new(
                Exit::BadResponse,
                format!(
                    "{method} {} answered something that is not the documented \
                    shape{content_type}: {problem}",
                    request.subject()
                ),
            )
        })
    }

    fn method(&self) -> Method {
        match self.method {
            MethodChoice::Get => Method::GET,
            MethodChoice::Auto if self.use_get.load(Ordering::Relaxed) => Method::GET,
            MethodChoice::Auto | MethodChoice::Post => Method::POST,
        }
    }

    /// A `--verbose` line, through the same scrub as every message: a same-origin redirect
    /// URL carrying the key shows it masked, a URL no password.
    fn trace(&self, line: impl FnOnce() -> String) {
        if let Some(trace) = &self.trace {
            trace(&self.shown(&line()));
        }
    }
}

/// Makes the key and the URL passwords known to every later message, so that the one
/// diagnostics writer masks them too, whatever path a message took.
fn register_secrets(options: &ClientOptions) {
    options.key.register();
    let proxy = options.proxy.as_ref().map(|p| &p.url);
    for url in std::iter::once(&options.base_url).chain(proxy) {
        if let Some(password) = url.password() {
            foreign::register_secret(password);
            let decoded = percent_encoding::percent_decode_str(password).decode_utf8_lossy();
            foreign::register_secret(&decoded);
        }
    }
}

/// A range refused as too long under `--raw`, which asks in one request and refuses
/// `--chunk-days`: the hint says to leave `--raw` out first.
fn raw_range_hint(failure: Failure) -> Failure {
    match failure.hint.as_deref() {
        Some(hint) if hint.contains("--chunk-days") => {
            let hint = format!(
                "--raw asks for the whole range in one request: leave out --raw, and {hint}"
            );
            Failure {
                hint: Some(hint),
                ..failure
            }
        }
        _ => failure,
    }
}

/// A success is JSON or nothing: an HTML page from a proxy is not data (a missing type is
/// left to the parser, which names what it found).
fn check_content_type(
    scrub: &Scrub<'_>,
    request: &Request,
    method: &Method,
    answer: &Answer,
) -> Result<()> {
    match answer.header(CONTENT_TYPE) {
        Some(kind) if !transport::is_json_type(kind) => Err(Failure::new(
            Exit::BadResponse,
            format!(
                "{method} {} answered content-type {kind}, not JSON: {}",
                request.subject(),
                service_message(scrub, Some(kind), &answer.body)
            ),
        )),
        _ => Ok(()),
    }
}
