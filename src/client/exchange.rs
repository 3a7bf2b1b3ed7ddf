//! One exchange with the service: a request sent once and its answer read (into records as it
//! comes, or held), each step a `--verbose` line; a failure to get an answer sorted, looked at
//! twice where its first words mislead, and worded.

use std::time::Instant;

use reqwest::header::CONTENT_TYPE;
use reqwest::{Method, Url};

use super::connection::Finding;
use super::failure::transport_failure;
use super::probe;
use super::request::KEY_HEADER;
use super::retry::Backoff;
use super::transport::{self, classify, read_answer, read_records_answer, Answer, TransportError};
use super::Client;
use crate::error::{Failure, Result};
use crate::fetched::Request;
use crate::model::{DayRange, Endpoint, Metric};
use crate::settings::MASK;

/// hyper's words for a connection closed before any answer came.
const CLOSED_BEFORE_ANSWER: &str = "connection closed before message completed";

impl Client {
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

    pub(super) fn describe(&self, problem: &TransportError) -> String {
        problem.describe(self.timeout, self.connect_timeout)
    }

    pub(super) fn transport_failure(
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

    /// Sends once; the `--verbose` lines name what was asked (`label`: chain, endpoint, days).
    pub(super) fn send(
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
                "{method} {url} headers: x-api-key: {MASK}, content-type, accept, user-agent; body \
                {}",
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
        // is left to be printed as it comes; of anything else only the start is held, to be
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
                let stream = records.is_none() && response.status().is_success() && json;
                read_answer(response, deadline, stream)?
            }
        };
        self.trace(|| {
            let length = match answer.unread {
                Some(_) => "its body streamed".to_owned(),
                None => format!("{} bytes", answer.length),
            };
            format!(
                "HTTP {} in {} ms, {length} ({label})",
                answer.status,
                started.elapsed().as_millis(),
            )
        });
        if let Some(limits) = rate_limit_headers(&answer) {
            self.trace(|| format!("rate limit: {limits}"));
        }
        Ok(answer)
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
