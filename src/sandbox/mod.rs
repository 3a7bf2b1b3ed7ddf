//! The sandbox: a reference implementation of SERVICE.md on loopback, with synthetic data.

mod data;

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;
use chrono::NaiveDate;
use serde_json::Value;

use crate::chain::Chain;
use crate::dates::{parse_date, DayRange};
use crate::model::{Endpoint, Item};

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
    let thread = std::thread::spawn(move || {
        runtime.block_on(async move {
            let _ = axum::serve(listener, app(behaviour))
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
        axum::serve(listener, app(behaviour)).await
    })
}

fn app(behaviour: Behaviour) -> Router {
    let state = Arc::new(behaviour);
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
    State(behaviour): State<Arc<Behaviour>>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if !behaviour.latency.is_zero() {
        tokio::time::sleep(behaviour.latency).await;
    }
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
        return response;
    }
    if behaviour.fail_rate > 0.0 && crate::retry::random_fraction() < behaviour.fail_rate {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "synthetic failure (--fail-rate)",
        );
    }
    let key_ok = headers
        .get("x-api-key")
        .is_some_and(|k| k.as_bytes() == behaviour.key.as_bytes());
    if !key_ok {
        return error(StatusCode::UNAUTHORIZED, "invalid API key");
    }
    match parse_request(endpoint, &body) {
        Ok(request) => {
            let body = records(endpoint, &request);
            ([(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        Err(message) => error(StatusCode::BAD_REQUEST, &message),
    }
}

struct Request {
    chain: Chain,
    range: DayRange,
    includes: Vec<Item>,
}

fn parse_request(endpoint: Endpoint, body: &[u8]) -> Result<Request, String> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|_| "the request body is not a JSON object".to_owned())?;
    let object = value
        .as_object()
        .ok_or("the request body is not a JSON object")?;
    let text = |name: &str| -> Result<&str, String> {
        match object.get(name) {
            None | Some(Value::Null) => Err(format!("missing parameter: {name}")),
            Some(Value::String(s)) => Ok(s),
            Some(_) => Err(format!("parameter {name} must be a string")),
        }
    };
    let chain_text = text("chain")?;
    let chain = Chain::ALL
        .into_iter()
        .find(|c| c.name() == chain_text)
        .ok_or_else(|| format!("unknown chain: {chain_text}"))?;
    let day = |name: &str| -> Result<NaiveDate, String> {
        let value = text(name)?;
        parse_date(value).map_err(|_| format!("{name} must be a date YYYY-MM-DD, got {value}"))
    };
    let (start, end) = (day("start_date")?, day("end_date")?);
    if start > end {
        return Err("start_date is after end_date".into());
    }
    let includes = match object.get("includes") {
        Some(Value::String(list)) if endpoint == Endpoint::OfficialAccount => list
            .split(',')
            .map(|item| {
                Item::ALL
                    .into_iter()
                    .find(|i| i.name() == item.trim())
                    .ok_or_else(|| format!("unknown includes item: {item}"))
            })
            .collect::<Result<_, _>>()?,
        Some(Value::Null) | None => Item::ALL.to_vec(),
        Some(_) if endpoint == Endpoint::OfficialAccount => {
            return Err("includes must be a string".into())
        }
        Some(_) => Item::ALL.to_vec(),
    };
    Ok(Request {
        chain,
        range: DayRange { start, end },
        includes,
    })
}

/// The success body, written directly: a 10-year series stays cheap.
fn records(endpoint: Endpoint, request: &Request) -> String {
    let chain = request.chain;
    let mut out = String::with_capacity(64 * (request.range.days().count() + 1));
    out.push_str(if endpoint == Endpoint::OfficialAccount {
        "{\"data\":["
    } else {
        "["
    });
    for (i, date) in request.range.days().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{{\"date\":\"{date}\"");
        let _ = match endpoint {
            Endpoint::Fees => write!(out, ",\"fees\":{:.2}", data::fees(chain, date)),
            Endpoint::ActiveUsers => {
                write!(out, ",\"active_users\":{}", data::active_users(chain, date))
            }
            Endpoint::OfficialAccount => request.includes.iter().try_for_each(|item| {
                write!(
                    out,
                    ",\"{}\":{}",
                    item.name(),
                    data::social(chain, date, *item)
                )
            }),
        };
        out.push('}');
    }
    out.push_str(if endpoint == Endpoint::OfficialAccount {
        "]}"
    } else {
        "]"
    });
    out
}
