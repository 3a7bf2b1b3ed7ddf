//! Diagnoses that tell the truth, against small scripted servers: `http://` to a
//! TLS port that just closes, headers too large, a bad Content-Length, a same-origin redirect
//! loop and a proxy's 403 are each named as what they are and not retried.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::support::{Env, Reply, Run, Stub, TestCa, TestProxy, DAY};

/// Two retries: enough to see a retried failure, quick to give up.
const RETRIES: &str = "--retries 2";

/// The last line of the run's stderr is `hint: {hint}`.
#[track_caller]
fn ends_with_hint(run: &Run, hint: &str) {
    let last = format!("hint: {hint}\n");
    assert!(run.stderr.ends_with(&last), "{run:?}");
}

/// One day of fees with two retries in `env`: it exits `code`, its first line of stderr like
/// `like` (`[..]` for any text).
#[track_caller]
fn day_fails(env: &Env, code: i32, like: &str) -> Run {
    env.cmd(&format!("{DAY} {RETRIES}"))
        .code(code)
        .error_line_like(like)
        .run()
}

/// A TCP server on 127.0.0.1 that reads what a connection sends first and answers it with
/// `answer` of those bytes, then closes; it counts the connections.
struct Raw {
    url: String,
    connections: Arc<AtomicUsize>,
}

impl Raw {
    fn start(answer: fn(&[u8]) -> Vec<u8>) -> Raw {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let connections = Arc::new(AtomicUsize::new(0));
        let count = connections.clone();
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                count.fetch_add(1, Ordering::SeqCst);
                let mut first = vec![0; 64 * 1024];
                let read = stream.read(&mut first).unwrap_or(0);
                let _ = stream.write_all(&answer(&first[..read]));
            }
        });
        Raw { url, connections }
    }

    fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

/// What a TLS server that just closes on anything but TLS does: to a ClientHello it answers
/// a TLS alert (handshake failure), to plain HTTP nothing at all.
fn tls_that_just_closes(first: &[u8]) -> Vec<u8> {
    match first.first() {
        Some(0x16) => vec![0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28],
        _ => Vec::new(),
    }
}

#[test]
fn http_to_a_tls_port_that_just_closes_gets_the_https_hint_at_once() {
    let server = Raw::start(tls_that_just_closes);
    let env = Env::with_service(&server.url);
    let run = day_fails(
        &env,
        7,
        "[..]the server does not speak plain HTTP (an https:// port?)[..]",
    );
    ends_with_hint(&run, "the port speaks TLS: use https:// in the base URL");
    // The request, then the one ClientHello that told: no retries.
    assert_eq!(server.connections(), 2);
}

fn huge_headers(_: &[u8]) -> Vec<u8> {
    let filler = "x".repeat(1024 * 1024);
    format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Filler: {filler}\r\nContent-Length: 2\r\n\r\n[]")
        .into_bytes()
}

fn bad_content_length(_: &[u8]) -> Vec<u8> {
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: two\r\n\r\n[]".to_vec()
}

#[test]
fn headers_too_large_and_a_bad_content_length_are_named_and_not_retried() {
    type Answer = fn(&[u8]) -> Vec<u8>;
    let cases: [(Answer, &str); 2] = [
        (huge_headers, "the answer's headers are too large (over the client's limit of about 400 KiB) (message head is too large)"),
        (bad_content_length, "the answer's Content-Length header is not a length (invalid content-length parsed)"),
    ];
    for (answer, said) in cases {
        let server = Raw::start(answer);
        let env = Env::with_service(&server.url);
        let run = env
            .cmd(&format!("{DAY} {RETRIES}"))
            .code(8)
            .error_line(format!(
                "error: POST /api/chain-insights/fees for ETHEREUM at {}/api/chain-insights/fees: {said}",
                server.url
            ))
            .run();
        ends_with_hint(
            &run,
            "the server at the base URL does not answer as the service does: check the base URL",
        );
        assert_eq!(server.connections(), 1, "retried");
    }
}

#[test]
fn a_same_origin_redirect_loop_is_called_a_redirect_loop() {
    for status in [302, 307] {
        let stub =
            Stub::always(Reply::json(status, "").header("location", "/api/chain-insights/fees"));
        let env = Env::with_service(&stub.url);
        let run = day_fails(
            &env,
            7,
            "[..]redirected more than 10 times within the same origin: a redirect loop[..]",
        );
        assert!(!run.stderr.contains("another origin"), "{run:?}");
        ends_with_hint(
            &run,
            "the service redirects to itself without end: check the base URL's path",
        );
        assert_eq!(stub.seen().len(), 11, "{status}: followed ten hops, once");
    }
}

#[test]
fn a_proxys_403_is_named_and_not_retried() {
    let proxy = TestProxy::start(403);
    let ca = TestCa::new();
    let stub = Stub::start_tls(&ca.leaf(), |_| Reply::json(200, "[]"));
    let mut env = Env::with_service(&stub.url.replace("127.0.0.1", "chain-metrics.test"));
    env.set("HTTPS_PROXY", &proxy.url);
    let run = day_fails(
        &env,
        7,
        "[..]the proxy refused to open a tunnel to the service (HTTP 403, its own policy)[..]",
    );
    assert!(!run.error_line().contains("attempts"), "{run:?}");
    // The tunnel asked for, then the one CONNECT that learnt the status.
    assert_eq!(proxy.seen().len(), 2, "{:?}", proxy.seen());
}

/// How many requests the sandbox had in flight as each attempt arrived, by attempt number.
fn in_flight(log: &str) -> Vec<(u64, u64)> {
    log.lines()
        .filter_map(|line| line.strip_prefix("sandbox: #"))
        .filter_map(|line| {
            let (attempt, rest) = line.split_once(" -> ")?;
            let count = rest
                .split("; ")
                .nth(1)?
                .strip_suffix(" in flight on arrival")?;
            Some((attempt.parse().ok()?, count.parse().ok()?))
        })
        .collect()
}

#[test]
fn a_429_slows_every_worker_and_halves_the_window_for_the_rest_of_the_run() {
    let sandbox = crate::support::Sandbox::start(&["--fault", "429:1@1", "--latency", "300"]);
    let env = Env::with_service(&sandbox.url);
    let run = env
        .cmd("fees -c eth -v --jobs 4 -s 2024-01-01 -e 2024-01-12 --chunk-days 1")
        .any_stderr()
        .run();
    assert_eq!(run.stdout.lines().count(), 13, "{}", run.stdout);
    let halving = "HTTP 429 Too Many Requests: every request waits; at most 2 at once from now on";
    assert_eq!(run.stderr.matches(halving).count(), 1, "{}", run.stderr);
    let seen = in_flight(&sandbox.log());
    assert_eq!(
        seen.len(),
        13,
        "12 days and the one retry:\n{}",
        sandbox.log()
    );
    // The first four went out together; every later one with at most one other.
    let later: Vec<_> = seen.iter().filter(|(attempt, _)| *attempt > 4).collect();
    assert!(later.iter().all(|(_, count)| *count <= 2), "{seen:?}");
}

#[test]
fn an_over_long_location_is_refused_cut_and_never_followed() {
    // 100 KB, same origin: neither followed nor echoed whole.
    let location = format!("/api/{}", "a".repeat(100_000));
    let stub = Stub::always(Reply::json(302, "").header("location", &location));
    let env = Env::with_service(&stub.url);
    let run = env
        .cmd(&format!("{DAY} {RETRIES}"))
        .code(7)
        .error_line_like(
            "[..]redirected to a Location of 100005 bytes (/api/aaa[..]…), longer than the 8 KiB this tool follows: not followed",
        )
        .any_stderr()
        .run();
    assert!(run.stderr.len() < 1000, "{} bytes", run.stderr.len());
    assert_eq!(stub.seen().len(), 1, "followed or retried");
}
