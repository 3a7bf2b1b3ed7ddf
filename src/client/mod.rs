//! The one type that talks to the service: the wire format, the method fallback, same-origin
//! redirects, retries, and errors that name the endpoint, the status and the service's message.

pub mod dry_run;
pub mod failure;
pub mod plan;
mod response;
pub mod retry;
pub mod transport;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION, RETRY_AFTER, USER_AGENT};
use reqwest::{Method, StatusCode, Url};
use serde::Serialize;

use crate::client::failure::{range_hint, service_message, speaks_of_range, status_text};
use crate::error::{Exit, Failure, Result};
use crate::model::chain::Chain;
use crate::model::dates::DayRange;
use crate::model::{Column, Endpoint, Item, Record};
use crate::settings::config_file::MethodChoice;
use crate::settings::secret::ApiKey;
pub use response::parse_records;
use retry::Backoff;
use transport::{classify, read_answer, same_origin_redirects, Answer, Transport};

/// Receives one line per request event when `--verbose` is on; the client itself never prints.
pub type Trace = Arc<dyn Fn(&str) + Send + Sync>;

pub struct ClientOptions {
    pub base_url: Url,
    pub key: ApiKey,
    pub timeout: Duration,
    pub connect_timeout: Duration,
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

pub struct Client {
    http: reqwest::blocking::Client,
    base: String,
    key: ApiKey,
    timeout: Duration,
    connect_timeout: Duration,
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
            .connect_timeout(options.connect_timeout)
            .redirect(same_origin_redirects())
            .build()
            .map_err(|e| Failure::new(Exit::Internal, format!("cannot set up HTTP: {e}")))?;
        Ok(Client {
            http,
            base: options.base_url.as_str().trim_end_matches('/').to_owned(),
            key: options.key,
            timeout: options.timeout,
            connect_timeout: options.connect_timeout,
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
        self.records(query, columns).map_err(|f| self.scrubbed(f))
    }

    /// Fetches the body of one query as the service sent it, for `--raw`.
    pub fn fetch_raw(&self, query: &Query) -> Result<Vec<u8>> {
        let raw = || {
            let (answer, method) = self.fetch(query)?;
            check_content_type(query, &method, &answer)?;
            Ok(answer.body)
        };
        raw().map_err(|f| self.scrubbed(f))
    }

    /// What the service sent ends up in messages (its error text, a Location, a bad field):
    /// the key is masked wherever it was echoed, and control characters cannot reach the
    /// terminal.
    fn scrubbed(&self, failure: Failure) -> Failure {
        let clean = |text: &str| -> String {
            self.key
                .scrub(text)
                .chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect()
        };
        Failure {
            message: clean(&failure.message),
            hint: failure.hint.as_deref().map(clean),
            exit: failure.exit,
        }
    }

    fn records(&self, query: &Query, columns: &[Column]) -> Result<Vec<Record>> {
        let (answer, method) = self.fetch(query)?;
        check_content_type(query, &method, &answer)?;
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
        let mut url = self.url(query.endpoint);
        let body = serde_json::to_vec(&query.body()).expect("a plain struct serialises");
        let mut backoff = Backoff::new(self.retries);
        let mut hops = 0;
        loop {
            let method = self.method();
            let (wait, why) = match self.send(method.clone(), &url, &body) {
                Ok(answer) if answer.status.is_success() => return Ok((answer, method)),
                Ok(answer) if self.falls_back_to_get(&answer, &method) => continue,
                Ok(answer) if hops < 10 && self.same_origin_target(&url, &answer).is_some() => {
                    // The same request, method and body, at the new address of this origin.
                    url = self
                        .same_origin_target(&url, &answer)
                        .expect("checked just above");
                    hops += 1;
                    continue;
                }
                Ok(answer) if retry::is_retryable(answer.status) => {
                    let asked = answer
                        .header(RETRY_AFTER)
                        .and_then(retry::parse_retry_after);
                    match backoff.next_wait(asked) {
                        Ok(wait) => (wait, format!("HTTP {}", status_text(answer.status))),
                        Err(refusal) => {
                            return Err(self.status_failure(query, &method, &answer, refusal))
                        }
                    }
                }
                Ok(answer) => return Err(self.status_failure(query, &method, &answer, None)),
                Err(problem) => match problem.is_transient() {
                    true => match backoff.next_wait(None) {
                        Ok(wait) => (wait, self.describe(&problem)),
                        Err(_) => {
                            return Err(self.transport_failure(query, &method, &problem, &backoff))
                        }
                    },
                    false => return Err(self.transport_failure(query, &method, &problem, &backoff)),
                },
            };
            self.trace(|| {
                format!(
                    "retry {} of {} in {} ms: {method} {url}: {why}",
                    backoff.attempts() - 1,
                    self.retries,
                    wait.as_millis()
                )
            });
            std::thread::sleep(wait);
        }
    }

    /// Where a 301/302/303 within the configured origin points (reqwest leaves these to us:
    /// following them itself would drop the body).
    fn same_origin_target(&self, url: &str, answer: &Answer) -> Option<String> {
        if !matches!(answer.status.as_u16(), 301..=303) {
            return None;
        }
        let here = Url::parse(url).ok()?;
        let there = here.join(answer.header(LOCATION)?).ok()?;
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

    fn describe(&self, problem: &Transport) -> String {
        problem.describe(self.timeout, self.connect_timeout)
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
        let answer = read_answer(response, started + self.timeout)?;
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
                let hint = match &refusal {
                    Some(_) => "try again once the service's wait is over",
                    None => "try again later, or raise --retries",
                };
                let note = refusal.unwrap_or_else(|| match self.retries {
                    0 => "no retries".into(),
                    1 => "after 1 retry".into(),
                    n => format!("after {n} retries"),
                });
                Failure::new(
                    Exit::ServiceFailed,
                    format!("the service failed: {answered} ({note})"),
                )
                .with_hint(hint)
            }
            _ => {
                let failure = Failure::new(
                    Exit::RequestRejected,
                    format!("the service rejected the request: {answered}"),
                );
                match speaks_of_range(&message) {
                    true => failure.with_hint(range_hint(&query.range)),
                    false => failure,
                }
            }
        }
    }

    fn transport_failure(
        &self,
        query: &Query,
        method: &Method,
        problem: &Transport,
        backoff: &Backoff,
    ) -> Failure {
        let tries = match backoff.attempts() {
            1 => String::new(),
            n => format!(" ({n} attempts)"),
        };
        let message = format!(
            "{method} {} at {}: {}{tries}",
            query.subject(),
            self.url(query.endpoint),
            self.describe(problem)
        );
        match problem {
            Transport::TooLarge => Failure::new(Exit::BadResponse, message),
            Transport::Timeout => Failure::new(Exit::Network, message).with_hint(
                "raise --timeout (seconds for a whole request), or ask for fewer days per request with --chunk-days N",
            ),
            Transport::ConnectTimeout => Failure::new(Exit::Network, message)
                .with_hint("check the base URL and your connection, or raise --connect-timeout"),
            Transport::Connect(_) => Failure::new(Exit::Network, message)
                .with_hint("check the base URL and your connection"),
            _ => Failure::new(Exit::Network, message)
                .with_hint("try again later, or raise --retries"),
        }
    }
}

/// A success is JSON or nothing: an HTML page from a proxy is not data (a missing type is
/// left to the parser, which names what it found).
fn check_content_type(query: &Query, method: &Method, answer: &Answer) -> Result<()> {
    match answer.header(CONTENT_TYPE) {
        Some(kind) if !transport::is_json_type(kind) => Err(Failure::new(
            Exit::BadResponse,
            format!(
                "{method} {} answered content-type {kind}, not JSON: {}",
                query.subject(),
                service_message(Some(kind), &answer.body)
            ),
        )),
        _ => Ok(()),
    }
}
