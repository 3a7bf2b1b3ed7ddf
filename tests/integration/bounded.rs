//! Bounded by what was asked: an answer keeps at most one record per asked day as it streams
//! (the last of a date; a record outside the range leaves only its date), and one with more
//! records than 4 a day asked is refused (exit 8) as soon as it passes that, so a hostile body
//! within the 64 MiB cap (3,000,000 tiny records, or the same gzip-compressed to a few hundred
//! KB; or long records all replaced or dropped) cannot push a run's peak memory past the bound
//! CLI.md states; the child's peak RSS is read from its `VmHWM`.

use std::io::{Read, Write};

use crate::support::{Cmd, Env, Reply, Stub};

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
fn run_measured(cmd: Cmd) -> (i32, String, i64) {
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
        let stub = Stub::always(reply);
        let env = Env::with_service(&stub.url);
        // Eight days at once over eight jobs: eight hostile answers in flight.
        let args = [
            "fees",
            "-c",
            "eth",
            "-s",
            "2024-01-01",
            "-e",
            "2024-01-08",
            "--chunk-days",
            "1",
            "--jobs",
            "8",
            "--retries",
            "0",
        ];
        let (code, stderr, peak) = run_measured(env.cmd_args(&args));
        assert_eq!(code, 8, "{what}: {stderr}");
        assert!(
            stderr.contains("more than 4 records for 1 day asked (at most 4 a day are taken): refused as they came"),
            "{what}: {stderr}"
        );
        assert!(peak < PEAK_KIB, "{what}: peak RSS {peak} KiB");
    }
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

/// A body the stream cannot follow (`meta` before `data`) goes whole to the whole-body parser,
/// which walks its array record by record into the same one-a-day keeping, instead of listing
/// its 2,900,000 elements and records first: held once (64 MB), the peak stays within the body
/// cap and the same bound again (83 MB, against 446 MB when every record was listed).
#[test]
fn a_body_left_to_the_whole_body_parser_is_walked_not_listed() {
    let body = array_of(br#"{"meta":1,"data":["#, 2_900_000, b"]}");
    assert!(body.len() < 64 << 20, "{}", body.len());
    let stub = Stub::always(Reply::json(200, "").body(body));
    let env = Env::with_service(&stub.url);
    let line = "social -c eth -s 2024-01-01 -e 2024-01-01 --retries 0";
    let (code, stderr, peak) = run_measured(env.cmd(line));
    assert_eq!(code, 8, "{stderr}");
    assert!(
        stderr.contains("more than 4 records for 1 day asked (at most 4 a day are taken)"),
        "{stderr}"
    );
    assert!(peak < 64 * 1024 + PEAK_KIB, "peak RSS {peak} KiB");
}
