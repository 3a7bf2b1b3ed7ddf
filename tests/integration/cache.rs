//! The response cache (CLI.md §5) against the sandbox: what a run asks for, what it prints, the
//! settle rule, the flags and config keys, and what the file holds.

use chrono::{Days, Utc};

use crate::support::{Env, Run, Sandbox, KEY};

const FEES_10: [&str; 6] = ["-c", "eth", "-s", "2024-01-01", "-e", "2024-01-10"];

/// The sandbox and an environment pointed at it.
fn sandbox() -> (Sandbox, Env) {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    (sandbox, env)
}

fn run_ok(env: &Env, args: &[&str]) -> Run {
    let run = env.run(args);
    assert_eq!(run.code, 0, "{args:?}: {run:?}");
    run
}

/// The requests the sandbox received after the first `skip`, sorted (they run concurrently).
fn asked(sandbox: &Sandbox, skip: usize) -> Vec<String> {
    let mut requests: Vec<String> = sandbox.requests().into_iter().skip(skip).collect();
    requests.sort();
    requests
}

fn fees_body(start: &str, end: &str) -> String {
    format!(
        r#"POST /api/chain-insights/fees {{"chain":"ETHEREUM","start_date":"{start}","end_date":"{end}"}}"#
    )
}

/// Another home whose cache is the one of `env`.
fn sharing_cache(env: &Env) -> Env {
    let mut other = Env::new();
    let cache = env.home.path().join(".cache");
    other.set("XDG_CACHE_HOME", cache.to_str().unwrap());
    other
}

fn day(days_ago: u64) -> String {
    (Utc::now().date_naive() - Days::new(days_ago)).to_string()
}

#[test]
fn a_second_run_of_a_settled_range_sends_nothing_and_prints_the_same_bytes() {
    let (sandbox, env) = sandbox();
    let args = [
        "report",
        "-c",
        "eth,base",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-10",
    ];
    let plain = run_ok(&env, &args);
    let first = run_ok(&env, &[&args[..], &["--cache"]].concat());
    assert_eq!(
        sandbox.requests().len(),
        12,
        "6 without, 6 with a cold cache"
    );
    let second = run_ok(&env, &[&args[..], &["--cache"]].concat());
    assert_eq!(sandbox.requests().len(), 12, "the warm run sent nothing");
    assert_eq!(
        (&first.stdout, &first.stderr),
        (&plain.stdout, &plain.stderr)
    );
    assert_eq!(
        (&second.stdout, &second.stderr),
        (&plain.stdout, &plain.stderr)
    );
    assert_eq!(plain.stdout.lines().count(), 21);
}

#[test]
fn a_longer_range_asks_only_for_the_days_missing_joined_then_chunked() {
    let (sandbox, env) = sandbox();
    run_ok(
        &env,
        &[
            "fees",
            "-c",
            "eth",
            "-s",
            "2024-01-04",
            "-e",
            "2024-01-05",
            "--cache",
        ],
    );
    run_ok(
        &env,
        &[
            "fees",
            "-c",
            "eth",
            "-s",
            "2024-01-08",
            "-e",
            "2024-01-08",
            "--cache",
        ],
    );
    let args = ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-12"];
    let run = run_ok(
        &env,
        &[&args[..], &["--cache", "--chunk-days", "2", "-v"]].concat(),
    );
    assert_eq!(
        asked(&sandbox, 2),
        [
            fees_body("2024-01-01", "2024-01-02"),
            fees_body("2024-01-03", "2024-01-03"),
            fees_body("2024-01-06", "2024-01-07"),
            fees_body("2024-01-09", "2024-01-10"),
            fees_body("2024-01-11", "2024-01-12"),
        ]
    );
    assert_eq!(
        run.error_line(),
        "* cache: 3 of 12 days came from the cache; 5 requests to send"
    );
    let plain = run_ok(&env, &args);
    assert_eq!(run.stdout, plain.stdout);
}

#[test]
fn days_not_yet_settled_are_asked_again() {
    let (sandbox, env) = sandbox();
    let args = ["fees", "-c", "eth", "--last", "10", "--cache", "-v"];
    run_ok(&env, &args);
    let second = run_ok(&env, &args);
    // Yesterday is the last day; days 7 or more before today are settled.
    assert_eq!(asked(&sandbox, 1), [fees_body(&day(6), &day(1))]);
    assert_eq!(
        second.error_line(),
        "* cache: 4 of 10 days came from the cache; 1 request to send"
    );
    env.write_config("cache = true\ncache_settle_days = 3\n");
    run_ok(&env, &["fees", "-c", "eth", "--last", "10"]);
    assert_eq!(asked(&sandbox, 2), [fees_body(&day(2), &day(1))]);
}

#[test]
fn refresh_asks_for_every_day_and_keeps_the_new_answers() {
    let (sandbox, env) = sandbox();
    let cached = [&["fees"][..], &FEES_10, &["--cache"]].concat();
    run_ok(&env, &cached);
    let refresh = [&["fees"][..], &FEES_10, &["--refresh", "-v"]].concat();
    let run = run_ok(&env, &refresh);
    assert_eq!(
        run.error_line(),
        "* cache: --refresh: asking for all 10 days in 1 request"
    );
    assert_eq!(asked(&sandbox, 1), [fees_body("2024-01-01", "2024-01-10")]);
    run_ok(&env, &cached);
    assert_eq!(
        sandbox.requests().len(),
        2,
        "the refreshed values serve the next run"
    );
}

#[test]
fn the_cache_is_off_by_default_on_by_config_and_off_again_with_no_cache() {
    let (sandbox, env) = sandbox();
    let args = [&["fees"][..], &FEES_10].concat();
    run_ok(&env, &args);
    run_ok(&env, &args);
    assert_eq!(sandbox.requests().len(), 2);
    assert!(
        !env.home.path().join(".cache").exists(),
        "no file without --cache"
    );
    env.write_config("cache = true\n");
    run_ok(&env, &args);
    run_ok(&env, &args);
    assert_eq!(
        sandbox.requests().len(),
        3,
        "config cache = true serves the second run"
    );
    run_ok(&env, &[&args[..], &["--no-cache"]].concat());
    assert_eq!(sandbox.requests().len(), 4, "--no-cache asks the service");
    let run = env.run(&[&args[..], &["--no-cache", "--cache"]].concat());
    assert_eq!(run.code, 2);
    assert_eq!(
        run.error_line(),
        "error: the argument '--no-cache' cannot be used with '--cache'"
    );
}

#[test]
fn another_base_url_never_sees_the_values_of_the_first() {
    let (first, env) = sandbox();
    let second = Sandbox::start(&[]);
    let args = [&["fees"][..], &FEES_10, &["--cache"]].concat();
    run_ok(&env, &args);
    let mut other = sharing_cache(&env);
    other.set("CHAIN_METRICS_BASE_URL", &second.url);
    other.set("CHAIN_METRICS_API_KEY", KEY);
    run_ok(&other, &args);
    assert_eq!((first.requests().len(), second.requests().len()), (1, 1));
    let stats = run_ok(&env, &["cache", "stats", "--format", "tsv"]);
    let mut services: Vec<String> = [&first.url, &second.url]
        .iter()
        .map(|url| format!("{url}\t/api/chain-insights/fees\tETHEREUM\t10\t2024-01-01\t2024-01-10"))
        .collect();
    services.sort();
    assert_eq!(
        stats.stdout,
        format!(
            "service\tendpoint\tchain\tvalues\toldest\tnewest\n{}\n",
            services.join("\n")
        )
    );
}

#[test]
fn social_and_report_ask_only_for_the_metrics_not_yet_kept() {
    let (sandbox, env) = sandbox();
    let range = [
        "-c",
        "eth",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-05",
        "--cache",
    ];
    run_ok(
        &env,
        &[&["social", "--include", "tweet"][..], &range].concat(),
    );
    let run = run_ok(
        &env,
        &[&["social", "--include", "tweet,reply"][..], &range].concat(),
    );
    run_ok(
        &env,
        &[&["report", "--include", "reply,tweet"][..], &range].concat(),
    );
    let official = r#"POST /api/social-metrics/official-account {"chain":"ETHEREUM","start_date":"2024-01-01","end_date":"2024-01-05","includes""#;
    assert_eq!(
        asked(&sandbox, 1),
        [
            r#"POST /api/chain-insights/active_users {"chain":"ETHEREUM","start_date":"2024-01-01","end_date":"2024-01-05"}"#.to_owned(),
            fees_body("2024-01-01", "2024-01-05"),
            format!(r#"{official}:"reply"}}"#),
        ]
    );
    let plain = run_ok(
        &env,
        &[
            "social",
            "--include",
            "tweet,reply",
            "-c",
            "eth",
            "-s",
            "2024-01-01",
            "-e",
            "2024-01-05",
        ],
    );
    assert_eq!(run.stdout, plain.stdout);
}

#[test]
fn raw_never_reads_the_cache_and_refuses_the_cache_flags() {
    let (sandbox, env) = sandbox();
    run_ok(&env, &[&["fees"][..], &FEES_10, &["--cache"]].concat());
    env.write_config("cache = true\n");
    let raw = run_ok(&env, &[&["fees"][..], &FEES_10, &["--raw"]].concat());
    assert_eq!(sandbox.requests().len(), 2, "--raw asked the service");
    assert!(
        raw.stdout
            .starts_with(r#"[{"date":"2024-01-01","fees":879768.88}"#),
        "{raw:?}"
    );
    let run = env.run(&[&["fees"][..], &FEES_10, &["--raw", "--cache"]].concat());
    assert_eq!(run.code, 2);
    assert_eq!(
        run.error_line(),
        "error: the argument '--raw' cannot be used with '--cache'"
    );
}

#[test]
fn dry_run_prints_only_the_requests_the_cache_cannot_answer() {
    let (sandbox, env) = sandbox();
    let dry = |start: &str| {
        let args = [
            "fees",
            "-c",
            "eth",
            "-s",
            start,
            "-e",
            "2024-01-10",
            "--cache",
            "--dry-run",
        ];
        run_ok(&env, &args)
    };
    let cold = dry("2024-01-01");
    assert!(
        !env.home.path().join(".cache").exists(),
        "--dry-run creates no cache"
    );
    assert!(cold
        .stdout
        .contains(r#""start_date":"2024-01-01","end_date":"2024-01-10""#));
    run_ok(
        &env,
        &[
            "fees",
            "-c",
            "eth",
            "-s",
            "2024-01-05",
            "-e",
            "2024-01-10",
            "--cache",
        ],
    );
    let warm = dry("2024-01-01");
    assert_eq!(warm.stdout.lines().count(), 1, "{warm:?}");
    assert!(warm
        .stdout
        .contains(r#""start_date":"2024-01-01","end_date":"2024-01-04""#));
    let all = dry("2024-01-05");
    assert_eq!(all.stdout, "");
    assert_eq!(
        all.stderr,
        "note: every day asked is in the cache: nothing would be sent\n"
    );
    assert_eq!(sandbox.requests().len(), 1, "--dry-run sent nothing");
}

#[test]
fn a_fully_cached_run_needs_no_key() {
    let (sandbox, env) = sandbox();
    let args = [&["fees"][..], &FEES_10, &["--cache"]].concat();
    let first = run_ok(&env, &args);
    let mut keyless = sharing_cache(&env);
    keyless.set("CHAIN_METRICS_BASE_URL", &sandbox.url);
    let second = run_ok(&keyless, &args);
    assert_eq!(second.stdout, first.stdout);
}
