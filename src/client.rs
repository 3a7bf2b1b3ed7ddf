//! The one type that talks to the service: the wire format, the method fallback, same-origin
//! redirects, retries, and errors that name the endpoint, the status and the service's message.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::blocking::Response;
use reqwest::header::{HeaderMap, ACCEPT, CONTENT_TYPE, LOCATION, RETRY_AFTER, USER_AGENT};
use reqwest::{Method, StatusCode, Url};
use serde::Serialize;

use crate::chain::Chain;
use crate::config_file::MethodChoice;
use crate::dates::DayRange;
use crate::error::{Exit, Failure, Result};
use crate::model::{Column, Endpoint, Item, Record};
use crate::response::parse_records;
use crate::retry::{self, Backoff};
use crate::secret::ApiKey;
use crate::service_error::service_message;

/// Bodies above this are refused: no daily series comes near it.
pub const MAX_BODY: u64 = 64 * 1024 * 1024;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Receives one line per request event when `--verbose` is on; the client itself never prints.
pub type Trace = Arc<dyn Fn(&str) + Send + Sync>;

pub struct ClientOptions {
    pub base_url: Url,
    pub key: ApiKey,
    pub timeout: Duration,
    pub retries: u32,
    pub method: MethodChoice,
    pub trace: Option<Trace>,
}

/// One request: an endpoint, a chain and a range (and, for the official account, includes).
#[derive(Clone, Debug)]
pub struct Query {
    pub endpoint: Endpoint,
    pub chain: Chain,
    pub range: DayRange,
    pub includes: Option<Vec<Item>>,
}

/// The JSON body of SERVICE.md §2.1, members in the documented order.
#[derive(Serialize)]
pub struct RequestBody {
    chain: &'static str,
    start_date: String,
    end_date: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    includes: Option<String>,
}

impl Query {
    pub fn body(&self) -> RequestBody {
        RequestBody {
            chain: self.chain.name(),
            start_date: self.range.start.to_string(),
            end_date: self.range.end.to_string(),
            includes: self
                .includes
                .as_ref()
                .map(|items| items.iter().map(|i| i.name()).collect::<Vec<_>>().join(",")),
        }
    }

    /// How the query is named in messages: `fees for ETHEREUM`.
    fn subject(&self) -> String {
        format!("{} for {}", self.endpoint.path(), self.chain)
    }
}

/// A complete HTTP answer, body read in full.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: reqwest::header::HeaderName) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// Why no answer came back; all of these are retried.
enum Transport {
    Connect(String),
    Timeout,
    CutShort(String),
    TooLarge,
    Other(String),
}

pub struct Client {
    http: reqwest::blocking::Client,
    base: String,
    key: ApiKey,
    timeout: Duration,
    retries: u32,
    method: MethodChoice,
    /// Set once `auto` has seen a 405 on POST: GET for the rest of the run.
    use_get: AtomicBool,
    trace: Option<Trace>,
}

impl Client {
    pub fn new(options: ClientOptions) -> Result<Client> {
        let http = reqwest::blocking::Client::builder()
            .timeout(options.timeout)
            .connect_timeout(CONNECT_TIMEOUT.min(options.timeout))
            .redirect(same_origin_redirects())
            .build()
            .map_err(|e| Failure::new(Exit::Internal, format!("cannot set up HTTP: {e}")))?;
        Ok(Client {
            http,
            base: options.base_url.as_str().trim_end_matches('/').to_owned(),
            key: options.key,
            timeout: options.timeout,
            retries: options.retries,
            method: options.method,
            use_get: AtomicBool::new(false),
            trace: options.trace,
        })
    }

    /// The endpoint's URL: the base URL, path prefix kept, then the endpoint path.
    pub fn url(&self, endpoint: Endpoint) -> String {
        format!("{}{}", self.base, endpoint.path())
    }

    /// Fetches and parses the records of one query, values in `columns` order.
    pub fn fetch_records(&self, query: &Query, columns: &[Column]) -> Result<Vec<Record>> {
        let (answer, method) = self.fetch(query)?;
        parse_records(query.endpoint, columns, &answer.body).map_err(|problem| {
            let content_type = answer
                .header(CONTENT_TYPE)
                .map(|t| format!(" (content-type {t})"))
                .unwrap_or_default();
            Failure::new(
                Exit::BadResponse,
                format!(
                    "{method} {} answered something that is not the documented shape{content_type}: {problem}",
                    query.subject()
                ),
            )
        })
    }

    /// Fetches the body of one query as the service sent it, for `--raw`.
    pub fn fetch_raw(&self, query: &Query) -> Result<Vec<u8>> {
        self.fetch(query).map(|(answer, _)| answer.body)
    }

    fn method(&self) -> Method {
        match self.method {
            MethodChoice::Get => Method::GET,
            MethodChoice::Auto if self.use_get.load(Ordering::Relaxed) => Method::GET,
            MethodChoice::Auto | MethodChoice::Post => Method::POST,
        }
    }

    fn trace(&self, line: impl FnOnce() -> String) {
        if let Some(trace) = &self.trace {
            trace(&line());
        }
    }

    /// Sends the query until it succeeds, fails for good, or the retries run out.
    fn fetch(&self, query: &Query) -> Result<(Answer, Method)> {
        let url = self.url(query.endpoint);
        let body = serde_json::to_vec(&query.body()).expect("a plain struct serialises");
        let mut backoff = Backoff::new(self.retries);
        loop {
            let method = self.method();
            let outcome = self.send(method.clone(), &url, &body);
            let wait = match outcome {
                Ok(answer) if answer.status.is_success() => return Ok((answer, method)),
                Ok(answer)
                    if answer.status == StatusCode::METHOD_NOT_ALLOWED
                        && self.method == MethodChoice::Auto
                        && method == Method::POST =>
                {
                    self.use_get.store(true, Ordering::Relaxed);
                    self.trace(|| {
                        "the service refused POST (405): retrying as GET, and using GET from now on"
                            .into()
                    });
                    continue;
                }
                Ok(answer) if retry::is_retryable(answer.status) => {
                    let asked = answer
                        .header(RETRY_AFTER)
                        .and_then(retry::parse_retry_after);
                    match backoff.next_wait(asked) {
                        Ok(wait) => wait,
                        Err(refusal) => {
                            return Err(self.status_failure(query, &method, &answer, refusal))
                        }
                    }
                }
                Ok(answer) => return Err(self.status_failure(query, &method, &answer, None)),
                Err(problem) => match backoff.next_wait(None) {
                    Ok(wait) => {
                        self.trace(|| format!("{method} {url}: {}", self.transport_text(&problem)));
                        wait
                    }
                    Err(_) => {
                        return Err(self.transport_failure(
                            query,
                            &method,
                            &problem,
                            backoff.attempts(),
                        ))
                    }
                },
            };
            self.trace(|| {
                format!(
                    "retry {} of {} in {} ms",
                    // `next_wait` has already counted the attempt about to be made.
                    backoff.attempts() - 1,
                    self.retries,
                    wait.as_millis()
                )
            });
            std::thread::sleep(wait);
        }
    }

    fn send(&self, method: Method, url: &str, body: &[u8]) -> Result<Answer, Transport> {
        let started = Instant::now();
        self.trace(|| {
            format!(
                "{method} {url} headers: x-api-key: {}, content-type, accept, user-agent; body {}",
                self.key.redacted(),
                String::from_utf8_lossy(body)
            )
        });
        let response = self
            .http
            .request(method, url)
            .header("X-API-Key", self.key.expose())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json")
            .header(
                USER_AGENT,
                concat!("chain-metrics/", env!("CARGO_PKG_VERSION")),
            )
            .body(body.to_vec())
            .send()
            .map_err(classify)?;
        let answer = read_answer(response)?;
        self.trace(|| {
            format!(
                "HTTP {} in {} ms, {} bytes",
                answer.status,
                started.elapsed().as_millis(),
                answer.body.len()
            )
        });
        Ok(answer)
    }

    fn status_failure(
        &self,
        query: &Query,
        method: &Method,
        answer: &Answer,
        refusal: Option<String>,
    ) -> Failure {
        let status = answer.status;
        let subject = format!("{method} {}", query.subject());
        if status.is_redirection() {
            let target = answer.header(LOCATION).unwrap_or("(no Location header)");
            return Failure::new(
                Exit::Network,
                format!("{subject} redirected to {target}, another origin: not followed, so the API key is not sent there"),
            )
            .with_hint("check the base URL; the key is only ever sent to the configured origin");
        }
        let message = self
            .key
            .scrub(&service_message(answer.header(CONTENT_TYPE), &answer.body));
        let answered = format!("{subject} answered HTTP {}: {message}", status_text(status));
        match status.as_u16() {
            401 | 403 => Failure::new(
                Exit::KeyRejected,
                format!("the service rejected the API key: {answered}"),
            ),
            429 | 500..=599 => {
                let note = refusal.unwrap_or_else(|| match self.retries {
                    0 => "no retries".into(),
                    n => format!("after {n} retries"),
                });
                Failure::new(
                    Exit::ServiceFailed,
                    format!("the service failed: {answered} ({note})"),
                )
                .with_hint("try again later, or raise --retries")
            }
            _ => Failure::new(
                Exit::RequestRejected,
                format!("the service rejected the request: {answered}"),
            ),
        }
    }

    fn transport_text(&self, problem: &Transport) -> String {
        match problem {
            Transport::Connect(e) => format!("cannot connect ({e})"),
            Transport::Timeout => format!("timed out after {} s", self.timeout.as_secs_f64()),
            Transport::CutShort(e) => format!("the response body was cut short ({e})"),
            Transport::TooLarge => format!("the response is larger than {} MiB", MAX_BODY >> 20),
            Transport::Other(e) => e.clone(),
        }
    }

    fn transport_failure(
        &self,
        query: &Query,
        method: &Method,
        problem: &Transport,
        attempts: u32,
    ) -> Failure {
        let text = self.transport_text(problem);
        let tries = if attempts > 1 {
            format!(" ({attempts} attempts)")
        } else {
            String::new()
        };
        let message = format!(
            "{method} {} at {}: {text}{tries}",
            query.subject(),
            self.url(query.endpoint)
        );
        let exit = match problem {
            Transport::TooLarge => Exit::BadResponse,
            _ => Exit::Network,
        };
        let failure = Failure::new(exit, message);
        match problem {
            Transport::Timeout => failure.with_hint("raise --timeout, or ask for fewer days"),
            Transport::Connect(_) => failure.with_hint("check the base URL and your connection"),
            _ => failure,
        }
    }
}

/// Follows redirects within the configured origin only: reqwest would otherwise carry the
/// X-API-Key header to any host a redirect names.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let first = &attempt.previous()[0];
        if attempt.previous().len() > 10 {
            attempt.error("more than 10 redirects")
        } else if first.origin() == attempt.url().origin() {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
}

fn read_answer(response: Response) -> Result<Answer, Transport> {
    let status = response.status();
    let headers = response.headers().clone();
    let mut body = Vec::new();
    response
        .take(MAX_BODY + 1)
        .read_to_end(&mut body)
        .map_err(|e| {
            let timed_out = e.kind() == std::io::ErrorKind::TimedOut
                || e.get_ref()
                    .and_then(|inner| inner.downcast_ref::<reqwest::Error>())
                    .is_some_and(reqwest::Error::is_timeout);
            if timed_out {
                Transport::Timeout
            } else {
                Transport::CutShort(e.to_string())
            }
        })?;
    if body.len() as u64 > MAX_BODY {
        return Err(Transport::TooLarge);
    }
    Ok(Answer {
        status,
        headers,
        body,
    })
}

fn classify(error: reqwest::Error) -> Transport {
    let detail = innermost(&error);
    if error.is_timeout() {
        Transport::Timeout
    } else if error.is_connect() {
        Transport::Connect(detail)
    } else if error.is_body() || error.is_decode() {
        Transport::CutShort(detail)
    } else {
        Transport::Other(detail)
    }
}

/// The deepest cause's text: reqwest's own text repeats the URL and hides the reason.
fn innermost(error: &dyn std::error::Error) -> String {
    let mut cause = error;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

fn status_text(status: StatusCode) -> String {
    match status.canonical_reason() {
        Some(reason) => format!("{} {reason}", status.as_u16()),
        None => status.as_u16().to_string(),
    }
}
