//! Test support: an isolated environment for the real binary, the sandbox as a child process,
//! and a scripted HTTP server for answers the sandbox never gives. All on 127.0.0.1.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

/// The key every test uses; no output may ever contain it.
pub const KEY: &str = "cm-test-key-7f3a9c2e51d4";

pub fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("chain-metrics")
}

/// A temporary HOME and config folder, and the binary run inside them with nothing of the
/// user's environment (no CHAIN_METRICS_*, RUST_BACKTRACE, NO_COLOR...).
pub struct Env {
    pub home: tempfile::TempDir,
    vars: Vec<(String, String)>,
}

/// What one run of the binary did.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The first line of stderr.
    pub fn error_line(&self) -> &str {
        self.stderr.lines().next().unwrap_or("")
    }
}

impl Env {
    pub fn new() -> Env {
        Env {
            home: tempfile::tempdir().unwrap(),
            vars: Vec::new(),
        }
    }

    /// An environment whose CHAIN_METRICS_BASE_URL and CHAIN_METRICS_API_KEY point at `url`.
    pub fn with_service(url: &str) -> Env {
        let mut env = Env::new();
        env.set("CHAIN_METRICS_BASE_URL", url);
        env.set("CHAIN_METRICS_API_KEY", KEY);
        env
    }

    pub fn set(&mut self, name: &str, value: &str) -> &mut Env {
        self.vars.push((name.into(), value.into()));
        self
    }

    pub fn config_dir(&self) -> PathBuf {
        self.home.path().join(".config").join("chain-metrics")
    }

    /// The default config file's path.
    pub fn config_path(&self) -> PathBuf {
        self.config_dir().join("config.toml")
    }

    pub fn write_config(&self, text: &str) {
        std::fs::create_dir_all(self.config_dir()).unwrap();
        std::fs::write(self.config_path(), text).unwrap();
    }

    pub fn command(&self) -> Command {
        let mut command = Command::new(binary());
        command
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.home.path().join(".config"))
            .current_dir(self.home.path())
            .stdin(Stdio::null());
        for (name, value) in &self.vars {
            command.env(name, value);
        }
        command
    }

    /// Runs the binary with `args`, and checks that the test key appears in no output.
    pub fn run(&self, args: &[&str]) -> Run {
        let output = self.command().args(args).output().unwrap();
        let run = Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        assert_no_key(&run, args);
        run
    }
}

/// Fails if the test key is anywhere in what a run printed.
pub fn assert_no_key(run: &Run, args: &[&str]) {
    assert!(
        !run.stdout.contains(KEY) && !run.stderr.contains(KEY),
        "the API key leaked in the output of {args:?}:\n{run:?}"
    );
}

/// The sandbox, run as `chain-metrics sandbox` on an ephemeral loopback port. Its stderr (one
/// line per connection and per request) goes to a file, so tests can count attempts.
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
        assert!(
            url.starts_with("http://127.0.0.1:"),
            "sandbox printed {line:?}"
        );
        Sandbox { child, url, log }
    }

    /// What the sandbox logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log.path()).unwrap()
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
    _runtime: tokio::runtime::Runtime,
}

impl Stub {
    pub fn start(script: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Stub {
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
        let url = format!("http://{}", listener.local_addr().unwrap());
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
        runtime.spawn(async move { axum::serve(listener, app).await.unwrap() });
        Stub {
            url,
            seen,
            _runtime: runtime,
        }
    }

    /// A server that always gives the same answer.
    pub fn always(reply: Reply) -> Stub {
        Stub::start(move |_| reply.clone())
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}
