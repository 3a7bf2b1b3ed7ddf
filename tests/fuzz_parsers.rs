//! The seeded, stable harness of every parser of foreign input (CI runs it): the seed inputs
//! of `fuzz/seeds/<oracle>/`, mutated by a seeded generator, through the exact oracles of
//! `tests/oracles/` — the same oracles the AFL++ targets of `fuzz/` run coverage-guided.
//!
//! A plain `cargo test` runs a fixed number of inputs per oracle with seed 1. Longer:
//! `FUZZ_INPUTS=1000000 FUZZ_SEED=7 cargo test --release --test fuzz_parsers -- --nocapture`.

mod oracles;
// The response parser's own pass (its seeds in the file), in this binary so that it runs
// beside the others rather than after them.
#[path = "fuzz_parsers/response.rs"]
mod response;

use oracles::mutate::{mutate, Rng};

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

fn seeds(oracle: &str) -> Vec<Vec<u8>> {
    oracles::mutate::seeds(Path::new(env!("CARGO_MANIFEST_DIR")), oracle)
}

/// Runs `inputs` mutated seeds (and every seed as it is) through the oracle named `name`.
fn run(name: &str, check: fn(&[u8]) -> Result<(), String>, inputs: u64) {
    let inputs = std::env::var("FUZZ_INPUTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(inputs);
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let seeds = seeds(name);
    let mut rng = Rng(seed);
    for n in 0..inputs + seeds.len() as u64 {
        let mut input = seeds[n as usize % seeds.len()].clone();
        if n >= seeds.len() as u64 {
            let other = &seeds[rng.below(seeds.len())];
            for _ in 0..1 + rng.below(3) {
                mutate(&mut rng, &mut input, other);
            }
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| check(&input)))
            .unwrap_or_else(|_| Err("a parser panicked".into()));
        if let Err(problem) = outcome {
            panic!(
                "{name}: {problem}\nat input {n} (FUZZ_SEED={seed}): {:?}",
                String::from_utf8_lossy(&input)
            );
        }
    }
    println!(
        "{name}: seed {seed}, {inputs} mutated inputs and {} seeds, no failure",
        seeds.len()
    );
}

/// A test per oracle: `test: "the oracle's name", its module, inputs per run;`.
macro_rules! oracle_tests {
    ($($(#[doc = $why:literal])* $test:ident: $name:literal, $oracle:ident, $inputs:expr;)*) => {$(
        $(#[doc = $why])*
        #[test]
        fn $test() {
            run($name, oracles::$oracle::check, $inputs);
        }
    )*};
}

oracle_tests! {
    service_bodies: "body", body, 20_000;
    merge_files_in_four_formats: "merge", merge, 20_000;
    config_files: "config", config, 20_000;
    flag_values: "flags", flags, 20_000;
    /// A cache file per input: slower than the others.
    cache_rows: "cache", cache, 300;
    /// A SQLite file per input, read twice: slower than the others.
    sqlite_exports_read_back: "sqlite_merge", sqlite_merge, 200;
    /// The key in every spelling, inside foreign text.
    keys_masked_in_any_spelling: "mask", mask, 20_000;
}

#[test]
fn every_oracle_has_a_test_and_seeds() {
    for (name, _) in oracles::ORACLES {
        assert!(!seeds(name).is_empty(), "{name}");
    }
}
