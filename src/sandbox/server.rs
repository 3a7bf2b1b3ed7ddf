//! The sandbox's HTTP side: routes each endpoint to its answer, and refuses a wrong method or key.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::Response;
use axum::routing::any;
use axum::Router;

use super::body::{self, error};
use super::injection::ActiveFaults;
use super::request::parse_request;
use super::{Behaviour, Methods, ServiceState};
use crate::model::Endpoint;
use crate::system::foreign;

pub(super) fn app(state: Arc<ServiceState>) -> Router {
    // Gzip when the client asks, as a production server does; not while showing faults, whose
    // bodies (cut short, 65 MiB) must reach the client as they are made.
    let compress = state.behaviour.faults.is_empty();
    let mut router = Router::new();
    for endpoint in [
        Endpoint::Fees,
        Endpoint::ActiveUsers,
        Endpoint::OfficialAccount,
    ] {
        router = router.route(
            endpoint.path(),
            any(move |state, method, headers, body| answer(endpoint, state, method, headers, body)),
        );
    }
    let router = router
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such endpoint") })
        .with_state(state);
    match compress {
        true => router.layer(tower_http::compression::CompressionLayer::new()),
        false => router,
    }
}

/// How many characters of a request body the log shows.
const LOGGED_BODY_CHARS: usize = 1000;

async fn answer(
    endpoint: Endpoint,
    State(shared): State<Arc<ServiceState>>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let attempt = shared.next_attempt();
    let (guard, in_flight) = shared.arrive();
    // Logged on arrival, so that an attempt the client gave up on (a timeout) still shows;
    // the body is anyone's text, shown as foreign text.
    shared.log(&format!(
        "#{attempt} {method} {} {}",
        endpoint.path(),
        foreign::cut(&String::from_utf8_lossy(&body), LOGGED_BODY_CHARS)
    ));
    let (response, note) = respond(endpoint, &shared, attempt, &method, &headers, &body).await;
    drop(guard);
    let note = note.map(|n| format!(" ({n})")).unwrap_or_default();
    shared.log(&format!(
        "#{attempt} -> {}{note}; {in_flight} in flight on arrival",
        response.status().as_u16()
    ));
    response
}

/// The answer to one attempt, and a note for the log naming the fault shown, if any.
///
/// Faults that stand in for the whole answer come before the method and key checks, as a proxy
/// or an overloaded server answers before the service looks at the request.
async fn respond(
    endpoint: Endpoint,
    shared: &ServiceState,
    attempt: u64,
    method: &Method,
    headers: &HeaderMap,
    body: &[u8],
) -> (Response, Option<String>) {
    let behaviour = &shared.behaviour;
    let faults = ActiveFaults::on(behaviour, attempt);
    if let Some((response, note)) = faults.answer_instead().await {
        return (response, Some(note));
    }
    if !behaviour.latency.is_zero() {
        tokio::time::sleep(behaviour.latency).await;
    }
    if let Some(refusal) = check(behaviour, method, headers) {
        return (refusal, None);
    }
    let request = match parse_request(endpoint, body) {
        Ok(request) => request,
        Err(message) => return (error(StatusCode::BAD_REQUEST, &message), None),
    };
    if let Some((refusal, note)) = faults.refuse_range(&request.range) {
        return (refusal, Some(note));
    }
    let text = body::records(endpoint, &request, faults.wrong_type(), |date| {
        faults.left_out(request.chain, date)
    });
    let mut response = body::send(text, faults.body_fault());
    // Every data answer says its data is synthetic, so that a client reached by --base-url
    // (not only --sandbox's) says so in its pictures.
    let (name, value) = crate::model::DATA_HEADER;
    response
        .headers_mut()
        .insert(name, header::HeaderValue::from_static(value));
    (response, faults.body_note())
}

/// The method, the synthetic failure rate and the key: a refusal, or `None` to go on.
fn check(behaviour: &Behaviour, method: &Method, headers: &HeaderMap) -> Option<Response> {
    refuse_method(behaviour.methods, method)
        .or_else(|| synthetic_failure(behaviour.fail_rate))
        .or_else(|| refuse_key(&behaviour.key, headers))
}

/// A 405 with the `Allow` header, when `method` is not one the sandbox was told to answer.
fn refuse_method(methods: Methods, method: &Method) -> Option<Response> {
    let allowed = match methods {
        Methods::Both => method == Method::POST || method == Method::GET,
        Methods::Post => method == Method::POST,
        Methods::Get => method == Method::GET,
    };
    if allowed {
        return None;
    }
    let allow = match methods {
        Methods::Both => "GET, POST",
        Methods::Post => "POST",
        Methods::Get => "GET",
    };
    let mut response = error(
        StatusCode::METHOD_NOT_ALLOWED,
        &format!("method {method} is not allowed"),
    );
    response
        .headers_mut()
        .insert(header::ALLOW, header::HeaderValue::from_static(allow));
    Some(response)
}

/// A 500 on a random share `fail_rate` of the requests (`--fail-rate`).
fn synthetic_failure(fail_rate: f64) -> Option<Response> {
    (fail_rate > 0.0 && fastrand::f64() < fail_rate).then(|| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "synthetic failure (--fail-rate)",
        )
    })
}

/// A 401 when the `x-api-key` header is missing or is not `key`.
fn refuse_key(key: &str, headers: &HeaderMap) -> Option<Response> {
    let key_ok = headers
        .get("x-api-key")
        .is_some_and(|k| k.as_bytes() == key.as_bytes());
    (!key_ok).then(|| error(StatusCode::UNAUTHORIZED, "invalid API key"))
}
