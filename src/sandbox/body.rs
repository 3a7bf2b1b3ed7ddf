//! The sandbox's bodies: JSON errors, the synthetic series, and the faulty ways of sending it.

use std::fmt::Write as _;

use axum::body::{Body, Bytes};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use futures_util::{stream, StreamExt};

use super::data;
use super::fault::FaultKind;
use super::request::Request;
use crate::model::Endpoint;

/// An error answer: `status`, with `{"error": message}` as its JSON body.
pub(super) fn error(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "error": message }).to_string();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The success body, written directly: a 10-year series stays cheap. With `wrong_type` the
/// metric value of the last record is written as a string; a day `left_out` has no record.
pub(super) fn records(
    endpoint: Endpoint,
    request: &Request,
    wrong_type: bool,
    left_out: impl Fn(NaiveDate) -> bool,
) -> String {
    let days = request.range.days().count();
    let mut out = String::with_capacity(64 * (days + 1));
    let wrapped = endpoint == Endpoint::OfficialAccount;
    out.push_str(if wrapped { "{\"data\":[" } else { "[" });
    let mut first = true;
    for (i, date) in request.range.days().enumerate() {
        if left_out(date) {
            continue;
        }
        if !std::mem::take(&mut first) {
            out.push(',');
        }
        let quote = if wrong_type && i + 1 == days {
            "\""
        } else {
            ""
        };
        let _ = write!(out, "{{\"date\":\"{date}\"");
        metrics(&mut out, endpoint, request, date, quote);
        out.push('}');
    }
    out.push_str(if wrapped { "]}" } else { "]" });
    out
}

/// The metric members of one record, after its date; `quote` wraps the first metric value.
fn metrics(out: &mut String, endpoint: Endpoint, request: &Request, date: NaiveDate, quote: &str) {
    let chain = request.chain;
    // Writing to a `String` cannot fail.
    let _ = match endpoint {
        Endpoint::Fees => write!(
            out,
            ",\"fees\":{quote}{:.2}{quote}",
            data::fees(chain, date)
        ),
        Endpoint::ActiveUsers => {
            let users = data::active_users(chain, date);
            write!(out, ",\"active_users\":{quote}{users}{quote}")
        }
        Endpoint::OfficialAccount => {
            request
                .includes
                .iter()
                .enumerate()
                .try_for_each(|(n, item)| {
                    let q = if n == 0 { quote } else { "" };
                    let count = data::social(chain, date, *item);
                    write!(out, ",\"{}\":{q}{count}{q}", item.name())
                })
        }
    };
}

/// Sends `body` the way a body fault asks; `None` is the plain, whole body.
pub(super) fn send(body: String, fault: Option<&FaultKind>) -> Response {
    let json = [(header::CONTENT_TYPE, "application/json")];
    match fault {
        Some(FaultKind::CutShort) => {
            let half = Bytes::from(body.into_bytes());
            let half = half.slice(..half.len() / 2);
            // The pause lets the headers and the first half reach the client before the break.
            let broken = stream::once(async {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                Err(std::io::Error::other("fault cut: body cut short"))
            });
            let parts = stream::iter([Ok(half)]).chain(broken);
            (json, Body::from_stream(parts)).into_response()
        }
        Some(FaultKind::Huge) => {
            let spaces = Bytes::from(vec![b' '; 1 << 20]);
            let chunks = std::iter::once(Bytes::from_static(b"["))
                .chain(std::iter::repeat_n(spaces, 65))
                .chain(std::iter::once(Bytes::from_static(b"]")))
                .map(Ok::<_, std::io::Error>);
            (json, Body::from_stream(stream::iter(chunks))).into_response()
        }
        Some(FaultKind::Chunked) => {
            let bytes = Bytes::from(body.into_bytes());
            let chunks: Vec<std::io::Result<Bytes>> = (0..bytes.len())
                .step_by(64)
                .map(|at| Ok(bytes.slice(at..(at + 64).min(bytes.len()))))
                .collect();
            (json, Body::from_stream(stream::iter(chunks))).into_response()
        }
        _ => (json, body).into_response(),
    }
}

/// What a proxy in maintenance answers: 200 and an HTML page.
pub(super) fn html_page() -> Response {
    let page = "<!DOCTYPE html><html><head><title>Down for \
        maintenance</title></head><body><h1>Back soon</h1></body></html>";
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
}
