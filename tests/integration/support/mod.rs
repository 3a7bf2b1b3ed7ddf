//! Test support: an isolated environment for the real binary, the sandbox as a child process,
//! and a scripted HTTP server for answers the sandbox never gives. All on 127.0.0.1.
#![allow(dead_code)]

pub mod files;

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};

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

    /// Writes the default config file, private (0600) as the tool itself creates it.
    pub fn write_config(&self, text: &str) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(self.config_dir()).unwrap();
        std::fs::write(self.config_path(), text).unwrap();
        let private = std::fs::Permissions::from_mode(0o600);
        std::fs::set_permissions(self.config_path(), private).unwrap();
    }

    pub fn command(&self) -> Command {
        self.prepared(binary(), std::env::var("PATH").unwrap_or_default())
    }

    /// `program` with this environment only: the temporary HOME, `vars`, and `path`.
    fn prepared(&self, program: impl AsRef<std::ffi::OsStr>, path: String) -> Command {
        let mut command = Command::new(program);
        command
            .env_clear()
            .env("PATH", path)
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
        self.run_with_stdin(args, None)
    }

    /// Runs a bash script in the same environment, `chain-metrics` first on its PATH, for what
    /// needs a shell (pipes); its output is checked and recorded like every run's.
    pub fn run_shell(&self, script: &str) -> Run {
        let bin = binary().parent().unwrap().display().to_string();
        let path = format!("{bin}:{}", std::env::var("PATH").unwrap_or_default());
        let output = self
            .prepared("bash", path)
            .args(["-c", script])
            .output()
            .unwrap();
        let run = Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        check_output(&format!("bash -c {script:?}"), &run.stdout, &run.stderr);
        run
    }

    /// Runs the binary on a pseudo-terminal, as a person would: waits for `prompt`, then for
    /// the terminal's echo to be switched off, then types `input` and Enter. `stdout` is what
    /// the terminal showed (the program's stdout and stderr together), checked and recorded.
    pub fn run_on_terminal(&self, args: &[&str], prompt: &str, input: &str) -> Run {
        use portable_pty::{CommandBuilder, PtySize};
        let pty = portable_pty::native_pty_system()
            .openpty(PtySize::default())
            .unwrap();
        let mut command = CommandBuilder::new(binary());
        command.env_clear();
        command.env("PATH", std::env::var("PATH").unwrap_or_default());
        command.env("HOME", self.home.path());
        command.env("XDG_CONFIG_HOME", self.home.path().join(".config"));
        for (name, value) in &self.vars {
            command.env(name, value);
        }
        command.cwd(self.home.path());
        command.args(args);
        let mut child = pty.slave.spawn_command(command).unwrap();
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().unwrap();
        let (sender, chunks) = std::sync::mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = reader.read(&mut buffer) {
                let _ = sender.send(buffer[..n].to_vec());
            }
        });
        let mut shown = Vec::new();
        while !String::from_utf8_lossy(&shown).contains(prompt) {
            match chunks.recv() {
                Ok(chunk) => shown.extend(chunk),
                Err(_) => panic!(
                    "no prompt {prompt:?}; the terminal showed {:?}",
                    String::from_utf8_lossy(&shown)
                ),
            }
        }
        wait_for_echo_off(pty.master.as_raw_fd().unwrap());
        let mut writer = pty.master.take_writer().unwrap();
        writer.write_all(format!("{input}\r").as_bytes()).unwrap();
        let code = child.wait().unwrap().exit_code() as i32;
        drop(writer);
        drop(pty.master);
        shown.extend(chunks.iter().flatten());
        let run = Run {
            code,
            stdout: String::from_utf8_lossy(&shown).into_owned(),
            stderr: String::new(),
        };
        check_output(
            &format!("chain-metrics {args:?} on a terminal"),
            &run.stdout,
            "",
        );
        run
    }

    /// As `run`, with `input` on stdin (how scripts hand `auth login` the key).
    pub fn run_with_stdin(&self, args: &[&str], input: Option<&str>) -> Run {
        let mut command = self.command();
        command.args(args);
        if input.is_some() {
            command.stdin(Stdio::piped());
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if let Some(input) = input {
            // A binary that exits without reading all of stdin closes the pipe: not a test error.
            let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        }
        let output = child.wait_with_output().unwrap();
        let run = Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        check_output(&format!("chain-metrics {args:?}"), &run.stdout, &run.stderr);
        run
    }
}

/// Waits until the program has switched the terminal's echo off (a password prompt does so
/// just after printing itself); after 10 s it gives up, and the typed text will show.
fn wait_for_echo_off(master: std::os::unix::io::RawFd) {
    for _ in 0..10_000 {
        // SAFETY: `termios` is plain data, and `master` is an open terminal descriptor.
        let mut settings: libc::termios = unsafe { std::mem::zeroed() };
        let read = unsafe { libc::tcgetattr(master, &mut settings) };
        if read == 0 && settings.c_lflag & libc::ECHO == 0 {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Where every test binary writes the transcript of what the binary printed, one file per
/// test binary; leaks.rs scans them all for the key.
pub fn transcripts_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("transcripts")
}

/// The transcript of this test process, started afresh when the process writes to it first.
fn transcript() -> &'static Mutex<File> {
    static FILE: OnceLock<Mutex<File>> = OnceLock::new();
    FILE.get_or_init(|| {
        let dir = transcripts_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let exe = std::env::current_exe().unwrap();
        let name = exe.file_stem().unwrap().to_string_lossy().into_owned();
        Mutex::new(File::create(dir.join(format!("{name}.log"))).unwrap())
    })
}

/// Records what one run of the binary printed in the transcript, and fails at once if the
/// test key is anywhere in it.
pub fn check_output(what: &str, stdout: &str, stderr: &str) {
    {
        let mut file = transcript().lock().unwrap_or_else(|e| e.into_inner());
        write!(
            file,
            "$ {what}\n--- stdout\n{stdout}\n--- stderr\n{stderr}\n"
        )
        .unwrap();
    }
    assert!(
        !stdout.contains(KEY) && !stderr.contains(KEY),
        "the API key leaked in the output of {what}:\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    );
}

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
