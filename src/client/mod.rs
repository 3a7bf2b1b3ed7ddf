//! The one type that talks to the service: the wire format, the method fallback, same-origin
//! redirects, retries, and errors that name the endpoint, the status and the service's message.

mod body;
mod connection;
mod dry_run;
mod failure;
mod fetch;
mod keep;
mod probe;
mod range_refusal;
mod request;
mod response;
mod retry;
mod setup;
mod stream;
mod throttle;
mod transport;
mod trust;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use reqwest::header::{CONTENT_TYPE, LOCATION, RETRY_AFTER};
use reqwest::{Method, StatusCode, Url};

use crate::error::{Exit, Failure, Result};
use crate::fetched::Request;
use crate::model::{DayRange, Endpoint, Metric};
use crate::settings::hide_passwords;
use crate::settings::ApiKey;
use crate::settings::MethodChoice;
use crate::settings::ProxyChoice;
use crate::settings::MASK;
use crate::system::foreign;
pub use body::{parse_records, parse_records_kept, read_body_records, read_records_kept};
use connection::Finding;
pub(crate) use dry_run::curl_lines;
use failure::{service_message, status_failure, status_text, transport_failure, Scrub};
pub(crate) use fetch::fetch_each;
pub use keep::KeptRecords;
pub(crate) use request::{endpoint_url, FIXED_HEADERS, KEY_HEADER};
pub use response::parse_held_body;
use retry::{Backoff, Tally};
use throttle::Throttle;
use transport::{
    bounded_records, classify, read_answer, read_records_answer, Answer, Misshapen, TransportError,
};
pub(crate) use trust::Roots;

/// Receives one line per request event when `--verbose` is on; the client itself never prints.
pub(crate) type Trace = Arc<dyn Fn(&str) + Send + Sync>;

pub(crate) struct ClientOptions {
    pub base_url: Url,
    pub key: ApiKey,
    pub timeout: Duration,
    pub connect_timeout: Duration,
    pub retries: u32,
    pub method: MethodChoice,
    pub trace: Option<Trace>,
    pub roots: Roots,
    /// `None`: connect directly (reqwest never reads the proxy variables itself).
    pub proxy: Option<ProxyChoice>,
    /// Requests in flight at once, at most (`--jobs`); a 429 halves it for the rest of the run.
    pub jobs: usize,
}

/// A body for `--raw`, and whether the key had to be masked in it.
pub(crate) struct RawBody {
    pub body: Vec<u8>,
    pub key_masked: bool,
}

/// What to do after an answer.
enum Step {
    Done(Answer),
    /// Send again at once: `auto` switched to GET.
    Again,
    /// Send again at this address of the same origin.
    Redirected(String),
    /// Send again after the wait; the text says why, for `--verbose`. A 429's wait is the
    /// whole run's (see [`Throttle`]).
    Wait(Duration, String),
    Throttled(Duration, String),
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
}

/// hyper's words for a connection closed before any answer came.
const CLOSED_BEFORE_ANSWER: &str = "connection closed before message completed";

impl Client {
    pub(crate) fn new(options: ClientOptions) -> Result<Client> {
        let http = setup::http_client(&options)?;
        register_secrets(&options);
        if let (Some(trace), Some(proxy)) = (&options.trace, &options.proxy) {
            trace(&format!("via proxy {}", proxy.describe()));
        }
        Ok(Client {
            http,
            base_url: options.base_url,
            key: options.key,
            timeout: options.timeout,
            connect_timeout: options.connect_timeout,
            retries: options.retries,
            method: options.method,
            use_get: AtomicBool::new(false),
            trace: options.trace,
            proxy: options.proxy,
            retried: Tally::default(),
            throttle: Throttle::new(options.jobs),
            probed_tls: OnceLock::new(),
            probed_proxy: OnceLock::new(),
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

    /// Fetches the body of one request as the service sent it, for `--raw`: byte for byte,
    /// but for the key, masked wherever the service echoed it (the key never shows).
    pub(crate) fn fetch_raw(&self, request: &Request) -> Result<RawBody> {
        let raw = || {
            let (answer, method) = self.fetch(request, None)?;
            check_content_type(&|t| self.mask(t), request, &method, &answer)?;
            let (body, key_masked) = self.key.scrub_bytes(answer.body);
            Ok(RawBody { body, key_masked })
        };
        raw().map_err(|f: Failure| self.scrubbed(raw_range_hint(f).with_detail(request.detail())))
    }

    /// What the service sent ends up in messages (its error text, a Location, a bad field):
    /// the key and URL passwords are masked wherever they show, and control characters
    /// cannot reach the terminal.
    fn scrubbed(&self, failure: Failure) -> Failure {
        let detail = failure.detail.map(|mut detail| {
            detail.service_message = detail.service_message.as_deref().map(|t| self.clean(t));
            detail
        });
        Failure {
            message: self.clean(&failure.message),
            hint: failure.hint.as_deref().map(|hint| self.clean(hint)),
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
    fn clean(&self, text: &str) -> String {
        foreign::shown(text, &|t| self.mask(t), usize::MAX)
    }

    fn records(&self, request: &Request, columns: &[Metric]) -> Result<KeptRecords> {
        let (mut answer, method) = self.fetch(request, Some(columns))?;
        check_content_type(&|t| self.mask(t), request, &method, &answer)?;
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
                (masked, true) => {
                    parse_records_kept(request.endpoint, columns, request.range, usize::MAX, &masked)
                        .err()
                        .unwrap_or(problem)
                }
                (_, false) => problem,
            };
            let content_type = answer
                .header(CONTENT_TYPE)
                .map(|t| format!(" (content-type {t})"))
                .unwrap_or_default();
            Failure::new(
                Exit::BadResponse,
                format!(
                    "{method} {} answered something that is not the documented shape{content_type}: {problem}",
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
            trace(&self.clean(&line()));
        }
    }

    /// Sends the request until it succeeds, fails for good, or the retries run out; with
    /// `columns`, a success's JSON body is read into records as it comes.
    fn fetch(&self, request: &Request, columns: Option<&[Metric]>) -> Result<(Answer, Method)> {
        let records = columns.map(|columns| (request.endpoint, columns, request.range));
        let mut url = self.url(request.endpoint);
        let body = request.body().to_json().into_bytes();
        let mut backoff = Backoff::new(self.retries);
        let mut hops = 0;
        let label = request.label();
        loop {
            let method = self.method();
            let sent = self.send(method.clone(), &url, &body, &label, records);
            let (wait, why, together) = match sent {
                Ok(answer) => {
                    match self.next_step(request, &method, &url, answer, &mut backoff, hops < 10)? {
                        Step::Done(answer) => return Ok((answer, method)),
                        Step::Again => continue,
                        Step::Redirected(target) => {
                            // The same request, method and body, at the new address of this origin.
                            url = target;
                            hops += 1;
                            continue;
                        }
                        Step::Wait(wait, why) => (wait, why, false),
                        Step::Throttled(wait, why) => (wait, self.throttle_all(wait, &why), true),
                    }
                }
                Err(problem) if problem.is_transient() => match backoff.next_wait(None) {
                    Ok(wait) => {
                        let first = backoff.attempts() == 2;
                        self.retried.count(problem.short().to_owned(), first);
                        (wait, self.describe(&problem), false)
                    }
                    Err(_) => {
                        return Err(self.transport_failure(request, &method, &problem, &backoff))
                    }
                },
                Err(problem) => {
                    return Err(self.transport_failure(request, &method, &problem, &backoff))
                }
            };
            self.trace(|| {
                format!(
                    "retry {} of {} in {} ms: {method} {url}: {why} ({label})",
                    backoff.attempts() - 1,
                    self.retries,
                    wait.as_millis()
                )
            });
            // After a 429 the wait is the whole run's: the next `send` waits it out with the
            // other workers (see `Throttle::enter`).
            if !together {
                std::thread::sleep(wait);
            }
        }
    }

    /// What an answer means for the request: done, the same again (as GET now), again at a
    /// same-origin address, again after a wait, or a failure.
    fn next_step(
        &self,
        request: &Request,
        method: &Method,
        url: &str,
        answer: Answer,
        backoff: &mut Backoff,
        may_redirect: bool,
    ) -> Result<Step> {
        if answer.status.is_success() {
            return Ok(Step::Done(answer));
        }
        if self.falls_back_to_get(&answer, method) {
            return Ok(Step::Again);
        }
        if let Some(target) = self.same_origin_target(url, &answer) {
            if may_redirect {
                return Ok(Step::Redirected(target));
            }
            // Past ten hops within the origin: a loop, said as one (not "another origin").
            let target = foreign::shown(&target, &|t| self.mask(t), failure::LOCATION_CHARS);
            let problem = TransportError::Found(Finding::RedirectLoop, format!("last to {target}"));
            return Err(self.transport_failure(request, method, &problem, backoff));
        }
        let failure = |refusal| {
            status_failure(
                &|t| self.mask(t),
                self.retries,
                request,
                method,
                &answer,
                refusal,
            )
        };
        if !retry::is_retryable(answer.status) {
            return Err(failure(None));
        }
        let asked = answer
            .header(RETRY_AFTER)
            .and_then(retry::parse_retry_after);
        match backoff.next_wait(asked) {
            Ok(wait) => {
                let first = backoff.attempts() == 2;
                self.retried
                    .count(answer.status.as_u16().to_string(), first);
                let why = format!("HTTP {}", status_text(answer.status));
                match answer.status == StatusCode::TOO_MANY_REQUESTS {
                    true => Ok(Step::Throttled(wait, why)),
                    false => Ok(Step::Wait(wait, why)),
                }
            }
            Err(refusal) => Err(failure(refusal)),
        }
    }

    /// Where a 301/302/303 within the configured origin points (reqwest leaves these to us:
    /// following them itself would drop the body).
    fn same_origin_target(&self, url: &str, answer: &Answer) -> Option<String> {
        if !matches!(answer.status.as_u16(), 301..=303) {
            return None;
        }
        let here = Url::parse(url).ok()?;
        let location = answer
            .header(LOCATION)
            .filter(|l| l.len() <= failure::MAX_LOCATION_BYTES)?;
        // A host that is not plain ASCII is not ours, and the IDNA checks must never see it.
        if crate::settings::outside_ascii(location).is_some() {
            return None;
        }
        let there = here.join(location).ok()?;
        (there.origin() == here.origin()).then(|| there.to_string())
    }

    /// Under `auto`, a 405 on POST switches this run to GET (CLI.md §3).
    fn falls_back_to_get(&self, answer: &Answer, method: &Method) -> bool {
        let fall_back = answer.status == StatusCode::METHOD_NOT_ALLOWED
            && self.method == MethodChoice::Auto
            && *method == Method::POST;
        if fall_back {
            self.use_get.store(true, Ordering::Relaxed);
            self.trace(|| {
                "the service refused POST (405): retrying as GET, and using GET from now on".into()
            });
        }
        fall_back
    }

    /// A failure looked at again where its first words mislead: an http:// request whose
    /// connection closed before any answer, by a port that speaks TLS (some TLS servers just
    /// close), and a proxy's refusal of a tunnel, whose status (403: its policy; 502: it cannot
    /// reach the service) hyper keeps to itself. Each probe runs once a run.
    fn second_look(&self, problem: TransportError, url: &str) -> TransportError {
        let Ok(url) = Url::parse(url) else {
            return problem;
        };
        match (problem, &self.proxy) {
            (TransportError::Broken(detail), None)
                if url.scheme() == "http"
                    && detail == CLOSED_BEFORE_ANSWER
                    && *self
                        .probed_tls
                        .get_or_init(|| probe::speaks_tls(&url, self.connect_timeout)) =>
            {
                TransportError::Found(Finding::NotPlainHttp, detail)
            }
            (TransportError::Found(Finding::ProxyRefused, detail), Some(proxy)) => {
                let status = self
                    .probed_proxy
                    .get_or_init(|| probe::tunnel_status(&proxy.url, &url, self.connect_timeout));
                match status {
                    Some(status @ 400..=499) => {
                        TransportError::Found(Finding::ProxyForbidden(*status), detail)
                    }
                    _ => TransportError::Found(Finding::ProxyRefused, detail),
                }
            }
            (problem, _) => problem,
        }
    }

    fn describe(&self, problem: &TransportError) -> String {
        problem.describe(self.timeout, self.connect_timeout)
    }

    fn transport_failure(
        &self,
        request: &Request,
        method: &Method,
        problem: &TransportError,
        backoff: &Backoff,
    ) -> Failure {
        let at = self.url(request.endpoint);
        let description = self.describe(problem);
        transport_failure(
            request,
            method,
            &at,
            problem,
            &description,
            backoff.attempts(),
            self.proxy.as_ref(),
        )
    }

    /// A 429: every worker waits `wait` before its next request, and fewer go at once; the
    /// reason for `--verbose`, saying so.
    fn throttle_all(&self, wait: Duration, why: &str) -> String {
        match self.throttle.throttled(wait) {
            Some(n) => format!("{why}: every request waits; at most {n} at once from now on"),
            None => format!("{why}: every request waits"),
        }
    }

    /// Sends once; the `--verbose` lines name what was asked (`label`: chain, endpoint, days).
    fn send(
        &self,
        method: Method,
        url: &str,
        body: &[u8],
        label: &str,
        records: Option<(Endpoint, &[Metric], DayRange)>,
    ) -> Result<Answer, TransportError> {
        let _slot = self.throttle.enter();
        let started = Instant::now();
        self.trace(|| {
            format!(
                "{method} {url} headers: x-api-key: {MASK}, content-type, accept, user-agent; body {}",
                String::from_utf8_lossy(body)
            )
        });
        let response = self
            .http
            .request(method, url)
            .header(KEY_HEADER, self.key.expose())
            .body(body.to_vec())
            .send()
            .map_err(|e| self.second_look(classify(e), url))?;
        let deadline = started + self.timeout;
        // A success in JSON (or of no stated type) is read into records as it comes; `--raw`'s
        // success is held whole, to be printed; of anything else only the start is held, to be
        // quoted.
        let json = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|t| t.to_str().ok())
            .is_none_or(transport::is_json_type);
        let answer = match records {
            Some((endpoint, columns, range)) if response.status().is_success() && json => {
                read_records_answer(response, deadline, endpoint, columns, range)?
            }
            _ => {
                let whole = records.is_none() && response.status().is_success();
                read_answer(response, deadline, whole)?
            }
        };
        self.trace(|| {
            format!(
                "HTTP {} in {} ms, {} bytes ({label})",
                answer.status,
                started.elapsed().as_millis(),
                answer.length
            )
        });
        if let Some(limits) = rate_limit_headers(&answer) {
            self.trace(|| format!("rate limit: {limits}"));
        }
        Ok(answer)
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

/// The service's `RateLimit-*` (and `X-RateLimit-*`) and `Retry-After` headers, as sent, for
/// `--verbose`; `None` when it sent none.
fn rate_limit_headers(answer: &Answer) -> Option<String> {
    let shown: Vec<String> = answer
        .headers
        .iter()
        .filter(|(name, _)| {
            let name = name.as_str();
            name.starts_with("ratelimit")
                || name.starts_with("x-ratelimit")
                || name == "retry-after"
        })
        .filter_map(|(name, value)| Some(format!("{name}: {}", value.to_str().ok()?)))
        .collect();
    (!shown.is_empty()).then(|| shown.join(", "))
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
