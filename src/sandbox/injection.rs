//! Fault injection: what the faults active on one attempt do to the sandbox's answer.

use axum::http::{header, StatusCode};
use axum::response::Response;

use super::body::{self, error};
use super::fault::{FaultKind, RetryAfter};
use super::Behaviour;
use crate::model::{Chain, DayRange};
use chrono::NaiveDate;

/// The faults shown on one attempt, in the order they were given.
pub(super) struct ActiveFaults<'a>(Vec<&'a FaultKind>);

impl<'a> ActiveFaults<'a> {
    pub(super) fn on(behaviour: &'a Behaviour, attempt: u64) -> ActiveFaults<'a> {
        let kinds = behaviour.faults.iter().filter(|f| f.active(attempt));
        ActiveFaults(kinds.map(|f| &f.kind).collect())
    }

    /// Waits out the latency faults and returns the answer a status or `html` fault gives in
    /// place of the service's, with its log note. Faults apply in the order given, so a latency
    /// listed after such a fault is not waited out.
    pub(super) async fn answer_instead(&self) -> Option<(Response, String)> {
        for kind in &self.0 {
            match kind {
                FaultKind::Latency(delay) => tokio::time::sleep(*delay).await,
                FaultKind::Status { code, retry_after } => {
                    return Some((status(*code, *retry_after), format!("fault {code}")));
                }
                FaultKind::Html => return Some((body::html_page(), "fault html".into())),
                _ => {}
            }
        }
        None
    }

    /// A 400 that speaks of the range, when a `range-cap` fault allows fewer days than asked.
    pub(super) fn refuse_range(&self, range: &DayRange) -> Option<(Response, String)> {
        let days = range.days().count();
        let cap = self.0.iter().find_map(|kind| match kind {
            FaultKind::RangeCap(cap) if days > *cap as usize => Some(*cap),
            _ => None,
        })?;
        let message =
            format!("date range too long: {days} days asked, at most {cap} days per request");
        Some((
            error(StatusCode::BAD_REQUEST, &message),
            "fault range-cap".into(),
        ))
    }

    /// Whether a `gap` fault leaves `date` out of the answers about `chain`.
    pub(super) fn left_out(&self, chain: Chain, date: NaiveDate) -> bool {
        self.0.iter().any(|kind| match kind {
            FaultKind::Gap { chain: only, days } => {
                only.is_none_or(|c| c == chain) && days.contains(date)
            }
            _ => false,
        })
    }

    pub(super) fn wrong_type(&self) -> bool {
        self.0.contains(&&FaultKind::WrongType)
    }

    /// The first fault in how the body is sent (`cut`, `huge`, `chunked`), if any.
    pub(super) fn body_fault(&self) -> Option<&'a FaultKind> {
        self.0.iter().copied().find(|k| {
            matches!(
                k,
                FaultKind::CutShort | FaultKind::Huge | FaultKind::Chunked
            )
        })
    }

    /// The log note of an answer with a body: the body fault, else `wrong-type`, if shown.
    pub(super) fn body_note(&self) -> Option<String> {
        self.body_fault()
            .map(|k| match k {
                FaultKind::CutShort => "fault cut",
                FaultKind::Huge => "fault huge",
                _ => "chunked",
            })
            .or(self.wrong_type().then_some("fault wrong-type"))
            .map(str::to_owned)
    }
}

/// A status fault's answer: a JSON error, and `Retry-After` when the fault gives one; a 429
/// also says its quota as rate-limited services do (`RateLimit-*`, IETF draft names).
fn status(code: u16, retry_after: Option<RetryAfter>) -> Response {
    let status = StatusCode::from_u16(code).expect("a 4xx or 5xx code");
    let mut response = error(status, &format!("synthetic failure (fault {code})"));
    if let Some(after) = retry_after {
        let value = after.header_value().parse().expect("a header value");
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    if code == 429 {
        let reset = match retry_after {
            Some(RetryAfter::Seconds(s) | RetryAfter::DateIn(s)) => s,
            None => 1,
        };
        let headers = response.headers_mut();
        headers.insert("ratelimit-limit", header::HeaderValue::from(SANDBOX_QUOTA));
        headers.insert("ratelimit-remaining", header::HeaderValue::from(0));
        headers.insert("ratelimit-reset", header::HeaderValue::from(reset));
    }
    response
}

/// The requests a minute the sandbox's 429 says it allows.
const SANDBOX_QUOTA: u32 = 600;
