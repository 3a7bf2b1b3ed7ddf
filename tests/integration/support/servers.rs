//! The servers the binary talks to in tests, both on 127.0.0.1: the sandbox, run as the
//! binary's own `sandbox` command, and a scripted server for answers the sandbox never gives.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use super::tls::{Leaf, TlsListener};
use super::{binary, check_output, KEY};

/// The sandbox, run as `chain-metrics sandbox` on an ephemeral loopback port. Its stderr (one
/// line per connection and per request) goes to a file, so tests can count attempts; it is
/// checked for the key when the sandbox stops.
pub struct Sandbox {
    child: Child,
    pub url: String,
    log: tempfile::NamedTempFile,
}

impl Sandbox {
    pub fn start(extra: &[&str]) -> Sandbox {
        let log = tempfile::NamedTempFile::new().unwrap();
        let mut child = Command::new(binary())
            .env_clear()
            .args(["sandbox", "--listen", "127.0.0.1:0", "--key", KEY])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log.reopen().unwrap())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line.trim().to_owned();
        let tls = extra.contains(&"--tls");
        let scheme = if tls { "https" } else { "http" };
        assert!(
            url.starts_with(&format!("{scheme}://127.0.0.1:")),
            "sandbox printed {line:?}"
        );
        Sandbox { child, url, log }
    }

    /// What the sandbox logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log.path()).unwrap()
    }

    /// The log once it holds `text`, for what the sandbox logs after the client has gone
    /// (a refused handshake); after 10 s, the log as it is.
    pub fn log_with(&self, text: &str) -> String {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let log = self.log();
            if log.contains(text) || std::time::Instant::now() > until {
                return log;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// The requests it received, as logged: `POST /api/... {"chain":...}`.
    pub fn requests(&self) -> Vec<String> {
        self.log()
            .lines()
            .filter_map(|l| l.strip_prefix("sandbox: #"))
            .filter_map(|l| l.split_once(' ').map(|(_, rest)| rest))
            .filter(|rest| rest.starts_with("POST ") || rest.starts_with("GET "))
            .map(str::to_owned)
            .collect()
    }

    /// Checks that it received no request (a run refused before any): `why` says what sent one.
    #[track_caller]
    pub fn assert_no_requests(&self, why: &str) {
        let requests = self.requests();
        assert!(requests.is_empty(), "{why}: {requests:#?}");
    }

    /// The `start_date..end_date` of every request it received, in order.
    pub fn ranges(&self) -> Vec<String> {
        let field = |line: &str, name: &str| {
            let at = line.find(&format!("\"{name}\":\"")).unwrap() + name.len() + 4;
            line[at..at + 10].to_owned()
        };
        let range = |line: &String| {
            let (start, end) = (field(line, "start_date"), field(line, "end_date"));
            format!("{start}..{end}")
        };
        self.requests().iter().map(range).collect()
    }

    /// Attempts it saw: requests, and connections it reset on purpose.
    pub fn attempts(&self) -> usize {
        self.log()
            .lines()
            .filter_map(|l| l.strip_prefix("sandbox: #"))
            .filter(|l| !l.contains(" -> "))
            .count()
    }

    /// Connections it accepted (and did not reset).
    pub fn connections(&self) -> usize {
        self.log()
            .lines()
            .filter(|l| l.starts_with("sandbox: connection ") && l.ends_with(" opened"))
            .count()
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let stderr = std::fs::read_to_string(self.log.path()).ok();
        // A second panic while a test is already failing would abort the whole test binary.
        if !std::thread::panicking() {
            check_output(
                &format!("chain-metrics sandbox at {}", self.url),
                &self.url,
                &stderr.unwrap_or_default(),
            );
        }
    }
}

/// A request as a scripted server saw it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub headers: HeaderMap,
    pub body: String,
}

/// A scripted answer.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            headers: vec![("content-type", content_type.to_owned())],
            body: body.into(),
        }
    }

    pub fn json(status: u16, body: &str) -> Reply {
        Reply::new(status, "application/json", body)
    }

    pub fn body(mut self, body: Vec<u8>) -> Reply {
        self.body = body;
        self
    }

    pub fn header(mut self, name: &'static str, value: &str) -> Reply {
        self.headers.push((name, value.to_owned()));
        self
    }
}

type Script = dyn Fn(&Seen) -> Reply + Send + Sync;

/// An HTTP server on 127.0.0.1 that answers every request with a script and records it.
pub struct Stub {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    connections: Arc<AtomicUsize>,
    _runtime: tokio::runtime::Runtime,
}

impl Stub {
    pub fn start(script: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Stub {
        Stub::serve(None, script)
    }

    /// The same over HTTPS with `leaf`, at `https://127.0.0.1:PORT`.
    pub fn start_tls(leaf: &Leaf, script: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Stub {
        Stub::serve(Some(leaf), script)
    }

    fn serve(tls: Option<&Leaf>, script: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Stub {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let script: Arc<Script> = Arc::new(script);
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let scheme = if tls.is_some() { "https" } else { "http" };
        let url = format!("{scheme}://{}", listener.local_addr().unwrap());
        let log = seen.clone();
        let app = axum::Router::new().fallback(
            move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
                let (log, script) = (log.clone(), script.clone());
                async move {
                    let request = Seen {
                        method: method.to_string(),
                        path: uri.path().to_owned(),
                        headers,
                        body: String::from_utf8_lossy(&body).into_owned(),
                    };
                    log.lock().unwrap().push(request.clone());
                    let reply = script(&request);
                    let mut response: Response =
                        (StatusCode::from_u16(reply.status).unwrap(), reply.body).into_response();
                    for (name, value) in reply.headers {
                        response.headers_mut().insert(name, value.parse().unwrap());
                    }
                    response
                }
            },
        );
        let connections = Arc::new(AtomicUsize::new(0));
        match tls {
            None => runtime.spawn(async move { axum::serve(listener, app).await.unwrap() }),
            Some(leaf) => {
                let _inside = runtime.enter();
                let listener = TlsListener::new(listener, leaf, connections.clone());
                runtime.spawn(async move { axum::serve(listener, app).await.unwrap() })
            }
        };
        Stub {
            url,
            seen,
            connections,
            _runtime: runtime,
        }
    }

    /// A service whose base URL moved: a request outside `/v2/` is redirected (302, same
    /// origin) to `location`, and one under it answers one record (2024-01-01, fees 1).
    pub fn moved_to_v2(location: String) -> Stub {
        Stub::start(move |seen| match seen.path.starts_with("/v2/") {
            true => Reply::json(200, r#"[{"date":"2024-01-01","fees":1}]"#),
            false => Reply::json(302, "").header("location", &location),
        })
    }

    /// A server that always gives the same answer.
    pub fn always(reply: Reply) -> Stub {
        Stub::start(move |_| reply.clone())
    }

    /// A server giving each of the three endpoints its own JSON body (status 200): fees,
    /// active users, and the official account (any other path).
    pub fn per_endpoint(fees: &'static str, users: &'static str, social: &'static str) -> Stub {
        Stub::start(move |seen| match seen.path.as_str() {
            "/api/chain-insights/fees" => Reply::json(200, fees),
            "/api/chain-insights/active_users" => Reply::json(200, users),
            _ => Reply::json(200, social),
        })
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// TCP connections accepted over TLS, a failed handshake included (not counted without TLS).
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}
