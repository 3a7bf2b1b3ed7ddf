//! The retry/redirect loop: one request sent until it succeeds, fails for good, or the
//! retries run out; `auto`'s switch to GET, same-origin redirects followed with the body kept,
//! and the waits (a 429's shared by every worker, see `Throttle`).

use std::sync::atomic::Ordering;
use std::time::Duration;

use reqwest::header::{LOCATION, RETRY_AFTER};
use reqwest::{Method, StatusCode, Url};

use super::connection::Finding;
use super::failure::{self, status_failure, status_text};
use super::retry::{self, Backoff};
use super::transport::{Answer, TransportError};
use super::Client;
use crate::error::Result;
use crate::fetched::Request;
use crate::model::Metric;
use crate::settings::MethodChoice;
use crate::system::foreign;

/// What to do after an answer.
enum Step {
    Done(Answer),
    /// Send again at once: `auto` switched to GET.
    Again,
    /// Send again at this address of the same origin.
    Redirected(String),
    /// Send again after the wait; the text says why, for `--verbose`. A 429's wait is the
    /// whole run's (see [`Throttle`](super::throttle::Throttle)).
    Wait(Duration, String),
    Throttled(Duration, String),
}

impl Client {
    /// Sends the request until it succeeds, fails for good, or the retries run out; with
    /// `columns`, a success's JSON body is read into records as it comes.
    pub(super) fn fetch(
        &self,
        request: &Request,
        columns: Option<&[Metric]>,
    ) -> Result<(Answer, Method)> {
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

    /// A 429: every worker waits `wait` before its next request, and fewer go at once; the
    /// reason for `--verbose`, saying so.
    fn throttle_all(&self, wait: Duration, why: &str) -> String {
        match self.throttle.throttled(wait) {
            Some(n) => format!("{why}: every request waits; at most {n} at once from now on"),
            None => format!("{why}: every request waits"),
        }
    }
}
