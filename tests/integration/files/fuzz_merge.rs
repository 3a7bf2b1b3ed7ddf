//! Merge files the reader refuses, made by the fuzz harness's seeded mutator from the seeds of
//! `fuzz/seeds/merge/`: the real binary refuses each with exit 9 and leaves the file byte for
//! byte as it was (the read -> write -> read identity of the files it accepts is
//! `tests/fuzz_parsers.rs`).

#[path = "../../oracles/mod.rs"]
mod oracles;

use std::path::Path;

use chain_metrics::{read_merge_file, Dataset, Format};
use oracles::mutate::{mutate, seeds, Rng};

use crate::support::{Env, Sandbox};

/// How many refused files are tried (each is one run of the binary).
const FILES: usize = 40;

/// The command that writes the columns of `shape`.
fn command(shape: &Dataset) -> Vec<&'static str> {
    let chains = if shape.chain_column {
        "eth,base"
    } else {
        "eth"
    };
    let mut args = match shape.columns[0].name().as_str() {
        "ETHEREUM" => return vec!["fees", "-c", "eth,base", "--wide"],
        "days" => vec!["fees", "--by", "month"],
        _ if shape.columns.len() == 3 => vec!["report", "--include", "reply"],
        _ => vec!["fees"],
    };
    args.extend(["-c", chains]);
    args
}

fn extension(format: Format) -> &'static str {
    match format {
        Format::Csv => "csv",
        Format::Tsv => "tsv",
        Format::Json => "json",
        _ => "ndjson",
    }
}

#[test]
fn merge_files_the_reader_refuses_are_refused_by_the_binary_and_left_byte_for_byte() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let seeds = seeds(Path::new(env!("CARGO_MANIFEST_DIR")), "merge");
    let mut rng = Rng(21);
    let mut tried = 0;
    while tried < FILES {
        let mut input = seeds[rng.below(seeds.len())].clone();
        let other = seeds[rng.below(seeds.len())].clone();
        mutate(&mut rng, &mut input, &other);
        let Some((pick, rest)) = input.split_first() else {
            continue;
        };
        let (format, shape) = oracles::merge::shape(*pick);
        if read_merge_file(rest, format, &shape).is_ok() {
            continue;
        }
        tried += 1;
        let file = format!("m{tried}.{}", extension(format));
        let path = env.home.path().join(&file);
        std::fs::write(&path, rest).unwrap();
        let day = [
            "-s",
            "2024-01-01",
            "-e",
            "2024-01-31",
            "--merge",
            "-o",
            &file,
        ];
        env.cmd_args(&[&command(&shape)[..], &day].concat())
            .code(9)
            .error_line_like("[..]left as it was[..]")
            .run();
        assert_eq!(std::fs::read(&path).unwrap(), rest, "{file} changed");
    }
}
