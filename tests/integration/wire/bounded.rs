//! Bounded by what was asked: an answer keeps at most one record per asked day as it streams
//! (the last of a date; a record outside the range leaves only its date), and one with more
//! records than 4 a day asked is refused (exit 8) as soon as it passes that, so a hostile body
//! within the 64 MiB cap (3,000,000 tiny records, or the same gzip-compressed to a few hundred
//! KB; or long records all replaced or dropped) cannot push a run's peak memory past the bound
//! CLI.md states; the child's peak RSS is read from its `VmHWM`.

use std::io::{Read, Write};

use crate::support::{Cmd, Env, Reply, Stub, KEY};

/// The peak resident memory a run against a hostile body may reach, in KiB: the bound stated
/// (the binary's own size and its TLS roots included).
const PEAK_KIB: i64 = 64 * 1024;

/// 3,000,000 records of one date: 66 MB, within the 64 MiB cap.
fn hostile_body() -> Vec<u8> {
    array_of(b"[", 3_000_000, b"]")
}

/// `count` records `{"date":"2024-01-01"}` separated by commas, between `open` and `close`.
fn array_of(open: &[u8], count: usize, close: &[u8]) -> Vec<u8> {
    let record = br#"{"date":"2024-01-01"}"#;
    let mut body = Vec::with_capacity(open.len() + count * (record.len() + 1) + close.len());
    body.extend_from_slice(open);
    for n in 0..count {
        if n > 0 {
            body.push(b',');
        }
        body.extend_from_slice(record);
    }
    body.extend_from_slice(close);
    body
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// Runs `args` to its end; its exit code, stderr and peak RSS in KiB. The peak is the
/// child's own `VmHWM`, read until it exits: `getrusage`'s `ru_maxrss` of a child spawned
/// from this (large) test process also counts the parent's peak at the spawn (the kernel
/// keeps the old memory's high-water mark across `exec` after `vfork`), so it would measure
/// the test, not the run.
pub(crate) fn run_measured(cmd: Cmd) -> (i32, String, i64) {
    let mut running = cmd.any_outcome().spawn();
    let status = format!("/proc/{}/status", running.child.id());
    let mut stderr = running.child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let mut peak = 0;
    let code = loop {
        let hwm = std::fs::read_to_string(&status)
            .unwrap_or_default()
            .lines()
            .find_map(|l| {
                l.strip_prefix("VmHWM:")?
                    .trim()
                    .strip_suffix("kB")?
                    .trim()
                    .parse()
                    .ok()
            });
        peak = peak.max(hwm.unwrap_or(0));
        if let Some(done) = running.child.try_wait().unwrap() {
            break done.code().unwrap_or(-1);
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    };
    assert!(peak > 0, "no reading of the run's memory");
    (code, reader.join().unwrap(), peak)
}

#[test]
fn an_answer_of_millions_of_records_is_refused_within_the_memory_bound() {
    let body = hostile_body();
    let compressed = gzip(&body);
    assert!(compressed.len() < 1_000_000, "{}", compressed.len());
    for (what, reply) in [
        ("plain", Reply::json(200, "").body(body.clone())),
        (
            "gzip",
            Reply::json(200, "")
                .header("content-encoding", "gzip")
                .body(compressed.clone()),
        ),
    ] {
        // Eight days at once over eight jobs: eight hostile answers in flight.
        let line = "fees -c eth -s 2024-01-01 -e 2024-01-08 --chunk-days 1 --jobs 8 --retries 0";
        let refusal =
            "more than 4 records for 1 day asked (at most 4 a day are taken): refused as they came";
        refused_within_the_peak(reply, line, refusal, what);
    }
}

/// A 64 MB body that is no JSON (lines of text), with the key echoed in it about a thousand
/// times, each one cut at another place by the 64 KiB pieces the body is read in: the body and
/// the same with every key masked.
fn raw_body_with_keys() -> (Vec<u8>, Vec<u8>) {
    const SIZE: usize = 64_000_000;
    let (mut body, mut masked) = (Vec::with_capacity(SIZE), Vec::with_capacity(SIZE));
    let filler = |body: &mut Vec<u8>, masked: &mut Vec<u8>, until: usize| {
        while body.len() < until {
            let byte = if body.len() % 100 == 99 { b'\n' } else { b'x' };
            body.push(byte);
            masked.push(byte);
        }
    };
    for n in 1..SIZE / 65536 {
        // The key begins 1..len-1 bytes before a multiple of 64 KiB.
        let at = n * 65536 - (n % (KEY.len() - 1) + 1);
        filler(&mut body, &mut masked, at - 1);
        body.extend_from_slice(format!(" {KEY} ").as_bytes());
        masked.extend_from_slice(b" **** ");
    }
    filler(&mut body, &mut masked, SIZE - 1);
    // No line break at the end: --raw adds one.
    body.push(b'x');
    masked.extend_from_slice(b"x\n");
    (body, masked)
}

/// `--raw` prints a body as it arrives: a 64 MB body that is no JSON goes to stdout within the
/// bound (held whole, it peaked at 390 MiB), every echo of the key masked, also one cut between
/// two pieces; one of a type that is not JSON is refused within the bound too.
#[test]
fn raw_streams_a_large_body_within_the_memory_bound_and_masks_every_key() {
    let (body, masked) = raw_body_with_keys();
    let stub = Stub::always(Reply::json(200, "").body(body.clone()));
    let env = Env::with_service(&stub.url);
    let out = env.home.path().join("raw.out");
    let line = "fees -c eth -s 2024-01-01 -e 2024-01-01 --raw --retries 0";
    let (code, stderr, peak) = run_measured(env.cmd(line).stdout_to(&out));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "warning: the service echoed the API key in its answer; --raw shows it as ****\n"
    );
    let printed = std::fs::read(&out).unwrap();
    assert!(
        !printed.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
        "the key shows"
    );
    let first = printed.iter().zip(&masked).position(|(a, b)| a != b);
    assert!(
        printed == masked,
        "not the body as sent with the keys masked: {} bytes against {}, first apart at {first:?}",
        printed.len(),
        masked.len(),
    );
    assert!(peak < PEAK_KIB, "peak RSS {peak} KiB");
    drop(stub);
    refused_within_the_peak(
        Reply::new(200, "text/html", body),
        line,
        "answered content-type text/html, not JSON",
        "html",
    );
}

/// An answer of 4 records a day for `days` days (within the refusal): in rounds, a long number
/// for a day before the range, one for each day asked, another before the range, then a short
/// one for each day asked. 60 MB of long numbers, all dropped or replaced as they come: what
/// is held at most is one record a day (20 MB, the second round). Held until the body ended,
/// as they once were, they took the body's size again in memory (a peak of 79 MB, against 41).
fn replaced_and_dropped_body(start: chrono::NaiveDate, days: u64) -> Vec<u8> {
    let long = "1".repeat(20_000);
    let day = |n: u64| start + chrono::Days::new(n);
    let before = |n: u64| start - chrono::Days::new(days - n);
    let mut records = Vec::new();
    for round in 0..4 {
        for n in 0..days {
            records.push(match round {
                0 | 2 => format!(r#"{{"date":"{}","fees":{long}}}"#, before(n)),
                1 => format!(r#"{{"date":"{}","fees":{long}}}"#, day(n)),
                _ => format!(r#"{{"date":"{}","fees":{n}}}"#, day(n)),
            });
        }
    }
    format!("[{}]", records.join(",")).into_bytes()
}

#[test]
fn duplicates_and_days_outside_the_range_are_not_held_while_the_answer_streams() {
    let start = chrono::NaiveDate::from_ymd_opt(2020, 1, 1).unwrap();
    let days = 1_000;
    let body = replaced_and_dropped_body(start, days);
    assert!(
        body.len() > 60_000_000 && body.len() < 64 << 20,
        "{}",
        body.len()
    );
    let stub = Stub::always(Reply::json(200, "").body(body));
    let env = Env::with_service(&stub.url);
    let end = (start + chrono::Days::new(days - 1)).to_string();
    let out = env.home.path().join("out.csv");
    let args = [
        "fees",
        "-c",
        "eth",
        "-s",
        "2020-01-01",
        "-e",
        &end,
        "--chunk-days",
        "1000",
        "-f",
        "csv",
    ];
    let (code, stderr, peak) = run_measured(env.cmd_args(&args).stdout_to(&out));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("several records for 2020-01-01..2022-09-26; kept the last"),
        "{stderr}"
    );
    assert!(
        stderr.contains("dropped records outside the asked range: 2017-04-06..2019-12-31"),
        "{stderr}"
    );
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().count(), 1 + 1_000, "{}", &written[..200]);
    assert!(
        written.contains(",999\n"),
        "the last record of each day is the one kept"
    );
    assert!(peak < PEAK_KIB, "peak RSS {peak} KiB");
}

/// A body the stream cannot follow (`meta` before `data`) goes to the whole-body parser only
/// within 1 MiB (one such body of 64 MB was once held whole, 83 MB at the peak): past that it
/// is refused where it left the documented shape, its rest counted and dropped, and the peak
/// stays within the same bound as a streamed body.
#[test]
fn a_body_left_to_the_whole_body_parser_is_held_only_within_a_mebibyte() {
    let body = array_of(br#"{"meta":1,"data":["#, 2_900_000, b"]}");
    assert!(body.len() < 64 << 20, "{}", body.len());
    let line = "social -c eth -s 2024-01-01 -e 2024-01-01 --retries 0";
    let refusal = "the body leaves the documented shape at line 1 column 2, and more than 1 MiB of it would have to be held to say how: not read further";
    refused_within_the_peak(Reply::json(200, "").body(body), line, refusal, "a wrapper");
    // The same wrapper within the mebibyte is read as before.
    let small = array_of(br#"{"meta":1,"data":["#, 1, b"]}");
    let stub = Stub::always(Reply::json(200, "").body(small));
    let env = Env::with_service(&stub.url);
    env.cmd("social -c eth -s 2024-01-01 -e 2024-01-01 -f csv")
        .stdout_contains("\n2024-01-01,")
        .stderr_contains("have no reply (left empty, not zero)")
        .run();
}

/// Runs `line` against a server giving `reply` to every request: refused with exit 8 saying
/// `refusal`, its peak under `PEAK_KIB`; `what` names the case in a failure.
#[track_caller]
fn refused_within_the_peak(reply: Reply, line: &str, refusal: &str, what: &str) {
    let stub = Stub::always(reply);
    let env = Env::with_service(&stub.url);
    let (code, stderr, peak) = run_measured(env.cmd(line));
    assert_eq!(code, 8, "{what}: {stderr}");
    assert!(stderr.contains(refusal), "{what}: {stderr}");
    assert!(peak < PEAK_KIB, "{what}: peak RSS {peak} KiB");
}

/// A hostile HTTP server on 127.0.0.1: every request gets `status`, `content_type` and the one
/// shared `body` (sent with `Connection: close`), but only once `together` requests have come
/// in (or 20 s have passed), so that that many hostile bodies are in flight at once.
struct Hostile {
    url: String,
}

impl Hostile {
    fn start(
        status: &'static str,
        content_type: &'static str,
        body: std::sync::Arc<Vec<u8>>,
        together: usize,
    ) -> Hostile {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let arrived =
            std::sync::Arc::new((std::sync::Mutex::new(0usize), std::sync::Condvar::new()));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let (body, arrived) = (body.clone(), arrived.clone());
                std::thread::spawn(move || {
                    answer(stream, status, content_type, &body, &arrived, together)
                });
            }
        });
        Hostile { url }
    }
}

/// Reads one request (head and `Content-Length` body), waits for `together` requests, then
/// answers it; write errors (the client gave up) end the answer.
fn answer(
    mut stream: std::net::TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    arrived: &(std::sync::Mutex<usize>, std::sync::Condvar),
    together: usize,
) {
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !seen.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => seen.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&seen).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("content-length:")?
                .trim()
                .parse::<usize>()
                .ok()
        })
        .unwrap_or(0);
    let mut request_body = vec![0; length];
    if stream.read_exact(&mut request_body).is_err() {
        return;
    }
    let (count, moved) = arrived;
    let mut count = count.lock().unwrap();
    *count += 1;
    moved.notify_all();
    let limit = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while *count < together && std::time::Instant::now() < limit {
        count = moved
            .wait_timeout(count, std::time::Duration::from_millis(100))
            .unwrap()
            .0;
    }
    drop(count);
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

/// `open`, then `count` bytes of `fill`, then `close`.
fn filled(open: &str, fill: u8, count: usize, close: &str) -> Vec<u8> {
    let mut body = Vec::with_capacity(open.len() + count + close.len());
    body.extend_from_slice(open.as_bytes());
    body.resize(open.len() + count, fill);
    body.extend_from_slice(close.as_bytes());
    body
}

/// The peak a run at `--jobs 32` may reach whatever a server sends within the body cap, in
/// KiB: the bound stated for 32 jobs (24 MiB + 2.5 MiB a request in flight = 104 MiB, under the
/// 192 MiB stated for any `--jobs`; docs/https-and-proxies.md) with room to spare; bodies held
/// whole would take 512 MiB here.
const ANY_JOBS_PEAK_KIB: i64 = 128 * 1024;

/// Every kind of answer that was once held whole, 16 MiB each: an error's body, a success
/// that is not JSON, JSON off the documented shape, one record of 16 MiB, and a valid array
/// followed by 16 MiB of white space. At `--jobs 32` (32 such bodies in flight at once: 512 MiB
/// if each were held, four times the bound) and at `--jobs 1`, the run's peak stays within the
/// stated bound. (Before, the error body alone, 48 MiB at `--jobs 1`, peaked at 404 MiB.)
///
/// One test per kind of body (below), so that the five run side by side.
fn not_held_whole_at_any_jobs(kind: usize) {
    let (what, status, content_type, body, expected) = hostile_bodies()
        .into_iter()
        .nth(kind)
        .expect("one of the five kinds");
    let body = std::sync::Arc::new(body);
    for jobs in [1, 32] {
        let server = Hostile::start(status, content_type, body.clone(), jobs);
        let env = Env::with_service(&server.url);
        let jobs_text = jobs.to_string();
        let args = [
            "fees",
            "-c",
            "eth",
            "-s",
            "2024-01-01",
            "-e",
            "2024-02-01",
            "--chunk-days",
            "1",
            "--jobs",
            &jobs_text,
            "--retries",
            "0",
            // 32 bodies of 16 MiB on a loaded 2-core machine can take longer than the
            // default 30 s; what is measured here is memory, not time.
            "--timeout",
            "300",
        ];
        let (code, stderr, peak) = run_measured(env.cmd_args(&args));
        eprintln!("{what}, --jobs {jobs}: exit {code}, peak RSS {peak} KiB");
        assert_eq!(code, expected, "{what}, --jobs {jobs}: {stderr}");
        assert!(
            peak < ANY_JOBS_PEAK_KIB,
            "{what}, --jobs {jobs}: peak RSS {peak} KiB: {stderr}"
        );
    }
}

#[test]
fn an_error_body_is_not_held_whole_at_any_jobs() {
    not_held_whole_at_any_jobs(0);
}

#[test]
fn an_html_success_is_not_held_whole_at_any_jobs() {
    not_held_whole_at_any_jobs(1);
}

#[test]
fn json_off_the_shape_is_not_held_whole_at_any_jobs() {
    not_held_whole_at_any_jobs(2);
}

#[test]
fn one_long_record_is_not_held_whole_at_any_jobs() {
    not_held_whole_at_any_jobs(3);
}

#[test]
fn trailing_space_is_not_held_whole_at_any_jobs() {
    not_held_whole_at_any_jobs(4);
}

/// The answers of [`not_held_whole_at_any_jobs`], 16 MiB each: what, status,
/// content type, body, and the exit code expected.
fn hostile_bodies() -> [(&'static str, &'static str, &'static str, Vec<u8>, i32); 5] {
    const SIZE: usize = 16 << 20;
    [
        (
            "error body",
            "400 Bad Request",
            "application/json",
            filled(r#"{"error":""#, b'x', SIZE, r#""}"#),
            5,
        ),
        (
            "html success",
            "200 OK",
            "text/html",
            filled("<html><title>x</title>", b'x', SIZE, ""),
            8,
        ),
        (
            "off the shape",
            "200 OK",
            "application/json",
            filled(r#"{"meta":""#, b'x', SIZE, r#""}"#),
            8,
        ),
        (
            "one long record",
            "200 OK",
            "application/json",
            filled(r#"[{"date":"2024-01-01","x":""#, b'x', SIZE, r#""}]"#),
            8,
        ),
        (
            "trailing space",
            "200 OK",
            "application/json",
            filled("[]", b' ', SIZE, ""),
            0,
        ),
    ]
}
