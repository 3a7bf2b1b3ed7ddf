//! Bounded by what was asked: an answer with more records than 4 a day asked is refused (exit
//! 8) as soon as it passes that, so a hostile body within the 64 MiB cap (3,000,000 tiny
//! records, or the same gzip-compressed to a few hundred KB) cannot push a run's peak memory
//! past the bound CLI.md states; the child's peak RSS is read with `wait4`.

use std::io::{Read, Write};

use crate::support::{Env, Reply, Stub};

/// The peak resident memory a run against a hostile body may reach, in KiB: the bound stated
/// (the binary's own size and its TLS roots included).
const PEAK_KIB: i64 = 64 * 1024;

/// 3,000,000 records of one date: 66 MB, within the 64 MiB cap.
fn hostile_body() -> Vec<u8> {
    let record = br#"{"date":"2024-01-01"}"#;
    let mut body = Vec::with_capacity(3_000_000 * (record.len() + 1) + 2);
    body.push(b'[');
    for n in 0..3_000_000 {
        if n > 0 {
            body.push(b',');
        }
        body.extend_from_slice(record);
    }
    body.push(b']');
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
fn run_measured(env: &Env, args: &[&str]) -> (i32, String, i64) {
    let mut running = env.cmd_args(args).any_outcome().spawn();
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
        let (code, stderr, peak) = run_measured(&env, &args);
        assert_eq!(code, 8, "{what}: {stderr}");
        assert!(
            stderr.contains("more than 4 records for 1 day asked (at most 4 a day are taken): refused as they came"),
            "{what}: {stderr}"
        );
        assert!(peak < PEAK_KIB, "{what}: peak RSS {peak} KiB");
    }
}
