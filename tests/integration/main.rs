//! The integration tests, one test binary: each module is a former `tests/*.rs` crate, and
//! `support` is what they share (the isolated environment, the sandbox, scripted servers).
//! One binary links the crate once and lets libtest run every test in parallel.

mod support;

mod auth;
mod cache;
mod completion;
mod config;
mod exit_codes;
mod export;
mod fault_matrix;
mod flags;
mod foreign_files;
mod formats;
mod fuzz_findings;
mod fuzz_merge;
mod generated;
mod help;
mod hostile_files;
mod leaks;
mod limits;
mod locks;
mod merge;
mod messages;
mod periods;
mod periods_merge;
mod periods_output;
mod proxy;
mod query;
mod reliability;
mod report;
mod sandbox;
mod secrets;
mod settings;
mod snapshots;
mod streams;
mod tls;
mod usage;
mod wire;
