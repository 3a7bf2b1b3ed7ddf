//! The response cache (CLI.md §5), end to end: what a run asks the service for (`planning`),
//! the flags and config keys (`flags`), the file and `cache path | stats | clear` (`file`), and a
//! service with gaps and duplicates, with the property that the cache never changes the output
//! (`quirks`).

mod file;
mod flags;
mod planning;
mod quirks;

use std::path::PathBuf;

use crate::support::{sandbox_env, Env, Run, Sandbox};

/// `fees` for ETHEREUM over ten settled days.
const FEES: [&str; 7] = ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-10"];

/// The sandbox and an environment pointed at it.
fn sandbox() -> (Sandbox, Env) {
    let (sandbox, env) = sandbox_env(&[]);
    (sandbox, env)
}

fn run_ok(env: &Env, args: &[&str]) -> Run {
    env.cmd_args(args).any_stderr().run()
}

/// `COMMAND -c CHAINS -s START -e END`.
fn query<'a>(command: &'a str, chains: &'a str, start: &'a str, end: &'a str) -> Vec<&'a str> {
    vec![command, "-c", chains, "-s", start, "-e", end]
}

/// `args` and `--cache`.
fn cached<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.push("--cache");
    all
}

/// The requests the sandbox received after the first `skip`, sorted (they run concurrently).
fn asked(sandbox: &Sandbox, skip: usize) -> Vec<String> {
    let mut requests: Vec<String> = sandbox.requests().into_iter().skip(skip).collect();
    requests.sort();
    requests
}

/// A fees request for ETHEREUM as the sandbox logs it.
fn fees_body(start: &str, end: &str) -> String {
    format!(
        r#"POST /api/chain-insights/fees {{"chain":"ETHEREUM","start_date":"{start}","end_date":"{end}"}}"#
    )
}

/// Another home whose cache is the one of `env`.
fn sharing_cache(env: &Env) -> Env {
    let mut other = Env::new();
    other.set(
        "XDG_CACHE_HOME",
        env.home.path().join(".cache").to_str().unwrap(),
    );
    other
}

/// The cache file of `env` (in its HOME).
fn cache_file(env: &Env) -> PathBuf {
    env.home.path().join(".cache/chain-metrics/cache.sqlite3")
}

/// The sandbox has received `count` requests in all, for the reason `why`.
#[track_caller]
fn asked_in_all(sandbox: &Sandbox, count: usize, why: &str) {
    assert_eq!(sandbox.requests().len(), count, "{why}");
}

/// Runs `args` with `--cache`: the same stdout as `plain` and `warning` as the whole stderr.
#[track_caller]
fn cached_warns(env: &Env, args: &[&str], plain: &Run, warning: String) {
    let run = run_ok(env, &cached(args));
    assert_eq!(run.stdout, plain.stdout);
    assert_eq!(run.stderr, warning);
}
