//! The exact oracles of every parser of foreign input (and of the masker of foreign text), shared by the seeded harness that
//! `cargo test` runs (`tests/fuzz_parsers.rs` and its `response.rs`) and the
//! coverage-guided AFL++ targets in `fuzz/` (which include this folder by path). Each oracle
//! takes raw bytes, as a fuzzer hands them, and returns `Err` describing a wrong answer; a
//! panic inside a parser is a failure too.

#![allow(dead_code)]

pub mod body;
pub mod cache;
pub mod config;
pub mod flags;
pub mod mask;
pub mod merge;
pub mod mutate;
pub mod sqlite_merge;

/// The input split into the fields an oracle needs: a first byte that picks a variant, then
/// text fields separated by newlines.
pub struct Input<'a> {
    pub pick: u8,
    pub rest: &'a [u8],
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Input<'a> {
        match data.split_first() {
            Some((pick, rest)) => Input { pick: *pick, rest },
            None => Input { pick: 0, rest: &[] },
        }
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(self.rest).into_owned()
    }
}

/// An oracle: `Err` says what the parser got wrong on the input.
pub type Oracle = fn(&[u8]) -> Result<(), String>;

/// Every oracle by name, for the harness and the AFL++ targets.
pub const ORACLES: [(&str, Oracle); 7] = [
    ("body", body::check),
    ("merge", merge::check),
    ("config", config::check),
    ("flags", flags::check),
    ("cache", cache::check),
    ("sqlite_merge", sqlite_merge::check),
    ("mask", mask::check),
];
