//! The sandbox: a reference implementation of SERVICE.md on loopback, with synthetic data.

mod body;
mod data;
pub mod fault;
mod listener;
mod request;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;

use self::fault::{Fault, FaultKind};
use self::listener::FaultyListener;
use self::request::parse_request;
use crate::model::Endpoint;

/// Which methods the sandbox answers (the other gets 405).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Methods {
    Both,
    Post,
    Get,
}

/// How the sandbox behaves.
#[derive(Clone, Debug)]
pub struct Behaviour {
    pub key: String,
    pub methods: Methods,
    pub latency: Duration,
    pub fail_rate: f64,
    /// Faults to show, in order (see `fault::FAULT_HELP`).
    pub faults: Vec<Fault>,
    /// Log each connection and request on stderr (the standalone sandbox, not `--sandbox`).
    pub log: bool,
}

/// What every request handler sees: the behaviour, and counters of attempts and connections.
pub struct ServiceState {
    behaviour: Behaviour,
    attempts: AtomicU64,
    connections: AtomicU64,
}

impl ServiceState {
    fn new(behaviour: Behaviour) -> Arc<ServiceState> {
        Arc::new(ServiceState {
            behaviour,
            attempts: AtomicU64::new(0),
            connections: AtomicU64::new(0),
        })
    }

    /// Counts one attempt (a request, or a connection reset by a fault) and returns its number.
    fn next_attempt(&self) -> u64 {
        self.attempts.fetch_add(1, Ordering::SeqCst) + 1
    }

    fn attempts_seen(&self) -> u64 {
        self.attempts.load(Ordering::SeqCst)
    }

    fn next_connection(&self) -> u64 {
        self.connections.fetch_add(1, Ordering::SeqCst) + 1
    }

    fn log(&self, line: &str) {
        if self.behaviour.log {
            crate::output::diag::line(&format!("sandbox: {line}"));
        }
    }
}

/// A sandbox serving on a background thread; dropping it stops it.
pub struct Running {
    pub url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
}

/// Starts the sandbox on `listen` in the background and returns once it accepts connections.
pub fn start(listen: SocketAddr, behaviour: Behaviour) -> std::io::Result<Running> {
    let runtime = runtime()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind(listen))?;
    let url = format!("http://{}", listener.local_addr()?);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let shared = ServiceState::new(behaviour);
    let listener = FaultyListener {
        inner: listener,
        shared: shared.clone(),
    };
    let thread = std::thread::spawn(move || {
        runtime.block_on(async move {
            let _ = axum::serve(listener, app(shared))
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await;
        });
    });
    Ok(Running {
        url,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// Serves on `listen` until the process ends; `ready` gets the URL once it accepts connections.
pub fn serve(
    listen: SocketAddr,
    behaviour: Behaviour,
    ready: impl FnOnce(&str),
) -> std::io::Result<()> {
    let runtime = runtime()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen).await?;
        ready(&format!("http://{}", listener.local_addr()?));
        let shared = ServiceState::new(behaviour);
        let listener = FaultyListener {
            inner: listener,
            shared: shared.clone(),
        };
        axum::serve(listener, app(shared)).await
    })
}

fn app(state: Arc<ServiceState>) -> Router {
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
    router
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such endpoint") })
        .with_state(state)
}

fn error(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "error": message }).to_string();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn answer(
    endpoint: Endpoint,
    State(shared): State<Arc<ServiceState>>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let attempt = shared.next_attempt();
    // Logged on arrival, so that an attempt the client gave up on (a timeout) still shows.
    shared.log(&format!(
        "#{attempt} {method} {} {}",
        endpoint.path(),
        String::from_utf8_lossy(&body)
    ));
    let (response, note) = respond(endpoint, &shared, attempt, &method, &headers, &body).await;
    let note = note.map(|n| format!(" ({n})")).unwrap_or_default();
    shared.log(&format!(
        "#{attempt} -> {}{note}",
        response.status().as_u16()
    ));
    response
}

/// The answer to one attempt, and a note for the log naming the fault shown, if any.
async fn respond(
    endpoint: Endpoint,
    shared: &ServiceState,
    attempt: u64,
    method: &Method,
    headers: &HeaderMap,
    body: &[u8],
) -> (Response, Option<String>) {
    let behaviour = &shared.behaviour;
    let active: Vec<&FaultKind> = behaviour
        .faults
        .iter()
        .filter(|f| f.active(attempt))
        .map(|f| &f.kind)
        .collect();
    for kind in &active {
        match kind {
            FaultKind::Latency(delay) => tokio::time::sleep(*delay).await,
            FaultKind::Status { code, retry_after } => {
                let status = StatusCode::from_u16(*code).expect("a 4xx or 5xx code");
                let mut response = error(status, &format!("synthetic failure (fault {code})"));
                if let Some(after) = retry_after {
                    let value = after.header_value().parse().expect("a header value");
                    response.headers_mut().insert(header::RETRY_AFTER, value);
                }
                return (response, Some(format!("fault {code}")));
            }
            FaultKind::Html => return (body::html_page(), Some("fault html".into())),
            _ => {}
        }
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
    let days = request.range.days().count();
    for kind in &active {
        if let FaultKind::RangeCap(cap) = kind {
            if days > *cap as usize {
                let message = format!(
                    "date range too long: {days} days asked, at most {cap} days per request"
                );
                return (
                    error(StatusCode::BAD_REQUEST, &message),
                    Some("fault range-cap".into()),
                );
            }
        }
    }
    let wrong_type = active.contains(&&FaultKind::WrongType);
    let text = body::records(endpoint, &request, wrong_type);
    let body_fault = active.iter().copied().find(|k| {
        matches!(
            k,
            FaultKind::CutShort | FaultKind::Huge | FaultKind::Chunked
        )
    });
    let note = body_fault
        .map(|k| match k {
            FaultKind::CutShort => "fault cut",
            FaultKind::Huge => "fault huge",
            _ => "chunked",
        })
        .or(wrong_type.then_some("fault wrong-type"))
        .map(str::to_owned);
    (body::send(text, body_fault), note)
}

/// The method, the synthetic failure rate and the key: a refusal, or `None` to go on.
fn check(behaviour: &Behaviour, method: &Method, headers: &HeaderMap) -> Option<Response> {
    let allowed = match behaviour.methods {
        Methods::Both => method == Method::POST || method == Method::GET,
        Methods::Post => method == Method::POST,
        Methods::Get => method == Method::GET,
    };
    if !allowed {
        let allow = match behaviour.methods {
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
        return Some(response);
    }
    if behaviour.fail_rate > 0.0 && crate::client::retry::random_fraction() < behaviour.fail_rate {
        return Some(error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "synthetic failure (--fail-rate)",
        ));
    }
    let key_ok = headers
        .get("x-api-key")
        .is_some_and(|k| k.as_bytes() == behaviour.key.as_bytes());
    (!key_ok).then(|| error(StatusCode::UNAUTHORIZED, "invalid API key"))
}
