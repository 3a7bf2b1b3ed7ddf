//! Once a run's outcome is decided (a refused body without `--keep-going`, or with it once
//! every chain asked failed; a signal), the requests still on the wire are abandoned, not
//! waited for: against a server that holds 31 answers open until the run has ended, the run
//! ends all the same, with the deciding answer's exit code, and none of the held answers was
//! ever sent. The 60 s bound on each run is a liveness check (a run that waited would wait for
//! its 300 s timeout), not a speed target: how soon it exits is measured in benches/bench.py.
//! What must not be lost is not: the run merges into an export and keeps a cache, and after it
//! the export is the user's old file, byte for byte, no temporary file is left beside it, no
//! lock is held, and the cache opens.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::support::Env;

/// Requests in flight at once, one a day: 2024-01-01..2024-02-01.
const JOBS: usize = 32;

/// A server on 127.0.0.1 that answers only the request for `refused_day`, with an HTML page
/// (refused: exit 8), once every one of the run's requests has come in; every other request
/// is held, unanswered, until the server is dropped. It counts what came and what was answered.
struct Holding {
    url: String,
    arrived: Arc<AtomicUsize>,
    answered: Arc<AtomicUsize>,
    released: Arc<AtomicBool>,
}

impl Holding {
    fn start(refused_day: Option<&'static str>) -> Holding {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let arrived = Arc::new(AtomicUsize::new(0));
        let answered = Arc::new(AtomicUsize::new(0));
        let released = Arc::new(AtomicBool::new(false));
        let counts = (arrived.clone(), answered.clone(), released.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let (arrived, answered, released) = counts.clone();
                std::thread::spawn(move || {
                    let Some(request) = read_request(&stream) else {
                        return;
                    };
                    arrived.fetch_add(1, Ordering::SeqCst);
                    let refused = refused_day.is_some_and(|day| request.contains(day));
                    if refused {
                        let limit = Instant::now() + Duration::from_secs(20);
                        while arrived.load(Ordering::SeqCst) < JOBS && Instant::now() < limit {
                            std::thread::sleep(Duration::from_millis(10));
                        }
                    } else {
                        while !released.load(Ordering::SeqCst) {
                            std::thread::sleep(Duration::from_millis(10));
                        }
                    }
                    let body = "<html>not data</html>";
                    let head = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\n\
                         connection: close\r\n\r\n",
                        body.len()
                    );
                    let mut stream = stream;
                    if stream.write_all(format!("{head}{body}").as_bytes()).is_ok() {
                        answered.fetch_add(1, Ordering::SeqCst);
                    }
                });
            }
        });
        Holding {
            url,
            arrived,
            answered,
            released,
        }
    }
}

impl Drop for Holding {
    fn drop(&mut self) {
        self.released.store(true, Ordering::SeqCst);
    }
}

/// One request, head and `Content-Length` body, as text; `None` if the client went away.
fn read_request(mut stream: &std::net::TcpStream) -> Option<String> {
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !seen.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => seen.push(byte[0]),
            _ => return None,
        }
    }
    let head = String::from_utf8_lossy(&seen).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:")?.trim().parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    stream.read_exact(&mut body).ok()?;
    Some(format!("{head}{}", String::from_utf8_lossy(&body)))
}

/// The run over 32 days at `--jobs 32`, one request a day, with a timeout no held request
/// reaches within the test, merged into `out.csv` with the cache on.
fn args() -> Vec<&'static str> {
    let line = "fees -c eth -s 2024-01-01 -e 2024-02-01 --chunk-days 1 --jobs 32 --retries 0";
    let mut args: Vec<&str> = line.split(' ').collect();
    args.extend(["--timeout", "300", "-o", "out.csv", "--merge", "--cache"]);
    args
}

/// The export the run merges into, as the user had it.
const OLD: &str = "date,chain,fees\n2023-12-31,ETHEREUM,1.5\n";

/// The user's folder before the run: the export alone.
fn with_old_export(env: &Env) {
    crate::support::files::write(env, "out.csv", OLD);
}

/// After the run: the export as it was, nothing new beside it but an unheld lock file, and a
/// cache that `cache stats` reads, holding nothing.
fn nothing_lost(env: &Env) {
    assert_eq!(crate::support::files::read(env, "out.csv"), OLD);
    let names = crate::support::files::names(env.home.path());
    let visible: Vec<&String> = names.iter().filter(|n| !n.starts_with(".cache")).collect();
    for name in &visible {
        assert!(
            ["out.csv", ".out.csv.lock", ".config"].contains(&name.as_str()),
            "{name} left beside the export: {names:?}"
        );
    }
    let lock = env.home.path().join(".out.csv.lock");
    if lock.exists() {
        let file = std::fs::File::open(&lock).unwrap();
        assert!(file.try_lock().is_ok(), "the lock is still held");
    }
    // Opened and read: nothing was kept, since no answer was taken.
    env.cmd("cache stats")
        .stdout("service,endpoint,chain,values,oldest,newest\n")
        .stderr_contains("cache.sqlite3: 0 values, ")
        .run();
}

/// Waits until `running` ends (at most 60 s, else kills it and fails): its exit code.
fn ended_within_a_minute(running: &mut crate::support::Running) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = running.child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        if Instant::now() > deadline {
            let _ = running.child.kill();
            panic!("the run still waits for the answers held open");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_refused_body_ends_the_run_without_waiting_for_the_answers_held_open() {
    let server = Holding::start(Some("\"2024-01-01\""));
    let env = Env::with_service(&server.url);
    with_old_export(&env);
    let mut running = env
        .cmd_args(&args())
        .code(8)
        .error_line(
            "error: POST /api/chain-insights/fees for ETHEREUM answered content-type text/html, \
             not JSON: an HTML page",
        )
        .spawn();
    let code = ended_within_a_minute(&mut running);
    let (arrived, answered) = (&server.arrived, &server.answered);
    assert_eq!(arrived.load(Ordering::SeqCst), JOBS, "all on the wire");
    assert_eq!(answered.load(Ordering::SeqCst), 1, "only the refusal");
    assert_eq!(code, 8);
    running.finish();
    nothing_lost(&env);
}

/// Under `--keep-going` the run goes on past a failure while another chain may still be
/// written; once every chain asked has failed (here the one), its outcome is decided too.
#[test]
fn a_refused_body_under_keep_going_ends_the_run_once_every_chain_asked_failed() {
    let server = Holding::start(Some("\"2024-01-01\""));
    let env = Env::with_service(&server.url);
    with_old_export(&env);
    let mut args = args();
    args.push("--keep-going");
    let mut running = env
        .cmd_args(&args)
        .code(8)
        .error_line(
            "warning: --keep-going: ETHEREUM is left out (bad_response): POST \
             /api/chain-insights/fees for ETHEREUM answered content-type text/html, not JSON: an \
             HTML page",
        )
        .stderr_contains("\nerror: POST /api/chain-insights/fees for ETHEREUM answered")
        .spawn();
    let code = ended_within_a_minute(&mut running);
    assert_eq!(
        server.arrived.load(Ordering::SeqCst),
        JOBS,
        "all on the wire"
    );
    assert_eq!(
        server.answered.load(Ordering::SeqCst),
        1,
        "only the refusal"
    );
    assert_eq!(code, 8);
    running.finish();
    nothing_lost(&env);
}

#[test]
fn a_signal_ends_the_run_without_waiting_for_the_answers_held_open() {
    for (signal, code) in [("-TERM", 143), ("-INT", 130)] {
        let server = Holding::start(None);
        let env = Env::with_service(&server.url);
        with_old_export(&env);
        let mut running = env.cmd_args(&args()).code(code).stderr("").spawn();
        let deadline = Instant::now() + Duration::from_secs(60);
        while server.arrived.load(Ordering::SeqCst) < JOBS {
            assert!(Instant::now() < deadline, "the requests never all arrived");
            std::thread::sleep(Duration::from_millis(20));
        }
        running.kill(signal);
        assert_eq!(ended_within_a_minute(&mut running), code, "{signal}");
        assert_eq!(server.answered.load(Ordering::SeqCst), 0, "{signal}");
        running.finish();
        nothing_lost(&env);
    }
}
