//! What a run with the cache asks the service for, and that it prints the same bytes.

use chrono::{Days, Utc};

use super::{asked, asked_in_all, cached, fees_body, query, run_ok, sandbox};

fn day(days_ago: u64) -> String {
    (Utc::now().date_naive() - Days::new(days_ago)).to_string()
}

#[test]
fn a_second_run_of_a_settled_range_sends_nothing_and_prints_the_same_bytes() {
    let (sandbox, env) = sandbox();
    let args = query("report", "eth,base", "2024-01-01", "2024-01-10");
    let plain = run_ok(&env, &args);
    let first = run_ok(&env, &[&args[..], &["--cache"]].concat());
    asked_in_all(&sandbox, 12, "6 without, 6 with a cold cache");
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
        &cached(&query("fees", "eth", "2024-01-04", "2024-01-05")),
    );
    run_ok(
        &env,
        &cached(&query("fees", "eth", "2024-01-08", "2024-01-08")),
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
    // Only the settled days were kept: a value fetched before its day settled may be revised.
    let stats = run_ok(&env, &["cache", "stats", "--format", "tsv"]);
    let row = stats.stdout.lines().nth(1).unwrap().to_owned();
    assert!(
        row.ends_with(&format!("\t4\t{}\t{}", day(10), day(7))),
        "{row}"
    );
    env.write_config("cache = true\ncache_settle_days = 3\n");
    run_ok(&env, &["fees", "-c", "eth", "--last", "10"]);
    run_ok(&env, &["fees", "-c", "eth", "--last", "10"]);
    let mut expected = [fees_body(&day(6), &day(1)), fees_body(&day(2), &day(1))];
    expected.sort();
    assert_eq!(asked(&sandbox, 2), expected);
}

#[test]
fn social_and_report_ask_only_for_the_metrics_not_yet_kept() {
    let (sandbox, env) = sandbox();
    let with = |command, includes| {
        let mut args = query(command, "eth", "2024-01-01", "2024-01-05");
        args.extend(["--include", includes]);
        args
    };
    run_ok(&env, &cached(&with("social", "tweet")));
    let run = run_ok(&env, &cached(&with("social", "tweet,reply")));
    run_ok(&env, &cached(&with("report", "reply,tweet")));
    let official = r#"POST /api/social-metrics/official-account {"chain":"ETHEREUM","start_date":"2024-01-01","end_date":"2024-01-05","includes""#;
    assert_eq!(
        asked(&sandbox, 1),
        [
            r#"POST /api/chain-insights/active_users {"chain":"ETHEREUM","start_date":"2024-01-01","end_date":"2024-01-05"}"#.to_owned(),
            fees_body("2024-01-01", "2024-01-05"),
            format!(r#"{official}:"reply"}}"#),
        ]
    );
    let plain = run_ok(&env, &with("social", "tweet,reply"));
    assert_eq!(run.stdout, plain.stdout);
}

#[test]
fn two_runs_at_once_both_succeed_and_keep_everything() {
    let (sandbox, env) = sandbox();
    let a = cached(&query("report", "eth,base", "2024-01-01", "2024-02-29"));
    let b = cached(&query("report", "base,bsc", "2024-02-01", "2024-03-31"));
    let (first, second) = (env.cmd_args(&a).spawn(), env.cmd_args(&b).spawn());
    first.finish();
    second.finish();
    let sent = sandbox.requests().len();
    assert_eq!(sent, 12);
    let both = cached(&query("report", "eth,base,bsc", "2024-01-01", "2024-03-31"));
    let run = run_ok(&env, &both);
    assert_eq!(
        sandbox.requests().len(),
        sent + 6,
        "ETHEREUM and BSC each lack a month"
    );
    let plain = run_ok(&env, &both[..both.len() - 1]);
    assert_eq!(run.stdout, plain.stdout);
}
