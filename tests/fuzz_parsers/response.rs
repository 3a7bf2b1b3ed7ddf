//! A fuzz harness for the response parser that runs on stable: a seeded generator mutates valid
//! and edge-case bodies and feeds them to `parse_records` for every endpoint, failing on a panic
//! or on a record whose date or number texts are not, byte for byte, those of the body's
//! element at that index (the oracle of `tests/oracles/body.rs`, shared with `fuzz/`).
//!
//! A plain `cargo test` runs a short, fixed-seed pass, in the same test binary as the other
//! oracles' harness so that the two run side by side. For a bounded-time run (see
//! fuzz/RESULTS.md): `FUZZ_SECONDS=300 cargo test --release --test fuzz_parsers response --
//! --nocapture` (`FUZZ_SEED=N` picks another sequence).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use super::oracles;
use oracles::mutate::{mutate, Rng};

const SEEDS: &[&str] = &[
    r#"[{"date":"2024-01-01","fees":879768.88},{"date":"2024-01-02","fees":5E+3}]"#,
    r#"[{"date":"2024-01-01","active_users":9007199254740993},{"date":"2024-01-02","active_users":null}]"#,
    r#"{"data":[{"date":"2024-01-01","reply":0,"retweet":7,"tweet":5,"quote":0},{"date":"2024-01-02"}]}"#,
    r#"{"data":[],"meta":{"next":null}}"#,
    r#"[]"#,
    r#"[{"date":"2024-02-29","fees":-0.0e-0,"extra":{"a":[1,2,{"b":"c"}]}}]"#,
    r#"{"error":"invalid API key"}"#,
    // Read off the wire, these leave the documented shape after some records (a member after
    // `data`, a second `data`, lines and indents): the stream hands them to the whole-body
    // parser with placeholders for the records read.
    r#"{"data":[{"date":"2024-01-01","reply":1},{"date":"2024-01-02","tweet":2}],"meta":{"next":null}}"#,
    r#"{"data":[{"date":"2024-01-01","reply":1}],"data":[{"date":"2024-01-03","quote":4}]}"#,
    "[\r\n  {\"date\": \"2024-01-01\",\r\n   \"fees\": 1.5},\r\n  {\"date\": \"2024-01-02\", \"fees\": 2}\r\n]\r\n",
];

/// Nests the body in up to 300 brackets at a random place: deep JSON, which a recursive
/// parser must refuse rather than overflow its stack on.
fn nest(rng: &mut Rng, input: &mut Vec<u8>) {
    let at = rng.below(input.len() + 1);
    let depth = rng.below(300);
    let nested = "[".repeat(depth) + &"]".repeat(rng.below(depth + 1));
    input.splice(at..at, nested.bytes());
}

/// Parses `body` for every endpoint, the asked social metrics drawn at random; `Err` describes
/// a panic or a record that does not hold the body's own text (`oracles::body`).
fn check(rng: &mut Rng, body: &[u8]) -> Result<(), String> {
    let mut input = vec![rng.next() as u8];
    input.extend_from_slice(body);
    catch_unwind(AssertUnwindSafe(|| oracles::body::check(&input)))
        .unwrap_or_else(|_| Err("panic in parse_records".into()))
}

#[test]
fn response_parser_survives_mutated_bodies() {
    let seconds: Option<u64> = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok());
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let deadline = seconds.map(|s| Instant::now() + Duration::from_secs(s));
    let iterations = if deadline.is_some() { u64::MAX } else { 20_000 };
    let mut rng = Rng(seed);
    let mut executions = 0u64;
    std::panic::set_hook(Box::new(|_| {}));
    for n in 0..iterations {
        if deadline.is_some_and(|d| n % 1024 == 0 && Instant::now() >= d) {
            break;
        }
        let mut body = SEEDS[rng.below(SEEDS.len())].as_bytes().to_vec();
        for _ in 0..rng.below(3) {
            let other = SEEDS[rng.below(SEEDS.len())].as_bytes();
            match rng.below(7) {
                0 => nest(&mut rng, &mut body),
                _ => mutate(&mut rng, &mut body, other),
            }
        }
        if let Err(problem) = check(&mut rng, &body) {
            let _ = std::panic::take_hook();
            panic!(
                "{problem} at execution {n} (FUZZ_SEED={seed}); body: {:?}",
                String::from_utf8_lossy(&body)
            );
        }
        executions += 1;
    }
    let _ = std::panic::take_hook();
    println!("fuzz_response: seed {seed}, {executions} executions x 3 endpoints, no crash");
    assert!(executions > 0);
}
