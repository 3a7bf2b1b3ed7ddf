//! Usage mistakes said plainly, before any request: "did you mean", empty list items, the ways
//! to give the first day, dates the service cannot take, the environment's bytes, Ctrl-C at the
//! key prompt, the range limit the service states; and every number a user sets bounded where
//! it enters (past the bounds a timer overflowed or a run never ended): a flag out of bounds is
//! a usage error (exit 2), a config file value a configuration error (exit 3).

use crate::support::{sandbox_env, Env, Reply, Run, Sandbox, Stub};
use snapbox::str;

/// Runs `args` against a server that records requests: a usage error (exit 2) that sends none.
fn refused(args: &[&str]) -> Run {
    let stub = Stub::always(Reply::json(200, "[]"));
    let run = Env::with_service(&stub.url).cmd_args(args).code(2).run();
    assert!(stub.seen().is_empty(), "a usage error sent a request");
    run
}

#[test]
fn mistyped_chains_includes_and_formats_get_a_did_you_mean() {
    let cases: [(&[&str], &str, &str); 4] = [
        (
            &["fees", "-c", "etherium", "--last", "2"],
            "error: invalid value 'etherium' for '--chain <CHAIN>': unknown chain 'etherium': expected one of ETHEREUM, ARBITRUM, BSC, OPTIMISM, BASE, POLYGON, an alias or chain id (see `chain-metrics chains`), or all",
            "ethereum",
        ),
        (&["fees", "-c", "eth,Polygn", "--last", "2"], "", "polygon"),
        (
            &["social", "-c", "eth", "-i", "reply,tweets", "--last", "2"],
            "error: invalid value 'tweets' for '--include <ITEMS>': unknown include 'tweets': expected reply, retweet, tweet or quote",
            "tweet",
        ),
        (
            &["fees", "-c", "eth", "--last", "2", "-f", "jsno"],
            "error: invalid value 'jsno' for '--format <FMT>'",
            "json",
        ),
    ];
    for (args, first, best) in cases {
        let run = refused(args);
        if !first.is_empty() {
            assert_eq!(run.error_line(), first, "{args:?}");
        }
        let tip = format!("\n  tip: a similar value exists: '{best}'\n");
        assert!(run.stderr.contains(&tip), "{args:?}: {}", run.stderr);
    }
    // Nothing close: no tip.
    let run = refused(&["fees", "-c", "solana", "--last", "2"]);
    assert!(!run.stderr.contains("tip:"), "{}", run.stderr);
}

#[test]
fn an_empty_item_in_a_list_is_named_as_such() {
    let run = refused(&["fees", "-c", "polygon,", "--last", "2"]);
    assert_eq!(
        run.error_line(),
        "error: invalid value '' for '--chain <CHAIN>': a chain is empty (a stray comma?): separate chains with single commas, as in eth,arb"
    );
    let run = refused(&["social", "-c", "eth", "-i", "reply,,tweet", "--last", "2"]);
    assert_eq!(
        run.error_line(),
        "error: invalid value '' for '--include <ITEMS>': an include is empty (a stray comma?): separate them with single commas, as in tweet,reply"
    );
}

#[test]
fn without_a_first_day_both_start_and_last_are_offered() {
    let run = refused(&["fees", "-c", "eth"]);
    assert_eq!(
        run.stderr,
        "error: the following required arguments were not provided:\n  <--start <DAY>|--last <N>|--resume|--month <YYYY-MM>|--quarter <YYYYQn>|--year <YYYY>>\n\nUsage: chain-metrics fees --chain <CHAIN> <--start <DAY>|--last <N>|--resume|--month <YYYY-MM>|--quarter <YYYYQn>|--year <YYYY>>\n\nFor more information, try '--help'.\n"
    );
}

#[test]
fn days_outside_the_years_1_to_9999_are_refused_never_sent() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["fees", "-c", "eth", "-e", "0000-01-02", "--last", "5"],
            "error: invalid value '0000-01-02' for '--end <DAY>': '0000-01-02' is outside the years 1 to 9999, the dates YYYY-MM-DD can write (or YYYY-MM for a month, today, yesterday)",
        ),
        (
            &["fees", "-c", "eth", "-e", "0001-01-02", "--last", "5"],
            "error: the first day, 0000-12-29, is outside the years 1 to 9999, the dates YYYY-MM-DD can write: ask for fewer days with --last, or a later --end",
        ),
        (
            &["fees", "-c", "eth", "-s", "10000-01-01", "-e", "10000-01-02"],
            "error: invalid value '10000-01-01' for '--start <DAY>': '10000-01-01' is not a date: expected YYYY-MM-DD (or YYYY-MM for a month, today, yesterday)",
        ),
    ];
    for (args, first) in cases {
        let run = refused(args);
        assert_eq!(run.error_line(), first, "{args:?}");
    }
}

#[test]
fn an_end_in_the_future_is_a_warning() {
    let (_sandbox, env) = sandbox_env(&[]);
    let tomorrow = chrono::Utc::now()
        .date_naive()
        .succ_opt()
        .unwrap()
        .to_string();
    let run = env.cmd(&format!("fees -c eth --last 2 -e {tomorrow}")).stderr(format!("warning: the range ends {tomorrow}, after today (UTC): the service has no data for days to come\n")).run();
    assert_eq!(run.stdout.lines().count(), 3, "{run:?}");
    env.cmd("fees -c eth --last 2 -e today").run();
}

#[test]
fn a_variable_that_is_not_utf8_is_named() {
    let (_sandbox, env) = sandbox_env(&[]);
    for name in [
        "CHAIN_METRICS_PROFILE",
        "CHAIN_METRICS_API_KEY",
        "CHAIN_METRICS_BASE_URL",
    ] {
        env.shell(&format!(
            "{name}=$'pro\\xff' chain-metrics fees -c eth --last 2"
        )).code(3).stderr(format!("error: the environment variable {name} is not UTF-8 text\nhint: set it to the text you meant, or unset it\n")).run();
    }
}

#[test]
fn ctrl_c_at_the_key_prompt_exits_130() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &sandbox.url);
    let prompt = "API key (input hidden): ";
    let run = env.cmd("auth login").typing(prompt, "\x03").code(130).run();
    assert!(!run.stdout.contains("error"), "{run:?}");
    assert!(!env.config_path().exists());
}

#[test]
fn a_range_refused_as_too_long_suggests_the_limit_the_service_states() {
    let stub = Stub::always(Reply::json(
        400,
        r#"{"error":"date range too long: 20 days asked, at most 7 days per request"}"#,
    ));
    Env::with_service(&stub.url).cmd("fees -c eth -s 2024-01-01 -e 2024-01-20").code(5).stderr(str![[r#"
error: the service rejected the request: POST /api/chain-insights/fees for ETHEREUM answered HTTP 400 Bad Request: date range too long: 20 days asked, at most 7 days per request
hint: the request asked for 20 days and the service takes at most 7: split the range with --chunk-days 7 (or chunk_days = 7 in the config file)

"#]]).run();
}

#[test]
fn value_names_are_taken_in_any_case_like_chains() {
    let (_sandbox, env) = sandbox_env(&[]);
    let day = ["fees", "-c", "ETH", "-s", "2024-01-01", "-e", "2024-01-02"];
    let pairs: [(&[&str], &[&str]); 5] = [
        (
            &["--by", "QUARTER", "-f", "CSV", "--method", "POST"],
            &["--by", "quarter", "-f", "csv", "--method", "post"],
        ),
        (
            &["--by", "Week", "-f", "Json"],
            &["--by", "week", "-f", "json"],
        ),
        (&["chains", "-f", "JSON"], &["chains", "-f", "json"]),
        (
            &["auth", "status", "--no-verify", "-f", "JSON"],
            &["auth", "status", "--no-verify", "-f", "json"],
        ),
        (&["completions", "BASH"], &["completions", "bash"]),
    ];
    for (upper, lower) in pairs {
        let with = |extra: &[&str]| match extra[0].starts_with("--") {
            true => env.cmd_args(&[&day[..], extra].concat()).run(),
            false => env.cmd_args(extra).run(),
        };
        let (upper_run, lower_run) = (with(upper), with(lower));
        assert!(!lower_run.stdout.is_empty(), "{lower:?}");
        assert_eq!(upper_run.stdout, lower_run.stdout, "{upper:?}");
    }
    // `--by day` is the default, so `--raw` takes it; the body is the same as without it.
    let raw = env.cmd_args(&[&day[..], &["--raw"]].concat()).run();
    env.cmd_args(&[&day[..], &["--raw", "--by", "DAY"]].concat())
        .stdout(&raw.stdout)
        .run();
    assert!(
        raw.stdout.starts_with('{') || raw.stdout.starts_with('['),
        "{raw:?}"
    );
}

const DAY: [&str; 7] = ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01"];

#[test]
fn flags_out_of_bounds_are_exit_2_naming_the_value() {
    let stub = Stub::always(Reply::json(200, "[]"));
    let env = Env::with_service(&stub.url);
    let over_a_day = "is more than a day (86400 seconds)";
    let cases: [(&[&str], String); 11] = [
        (
            &["--timeout", "1e19"],
            format!("'--timeout <SECS>': '1e19' {over_a_day}"),
        ),
        // Within what a Duration holds, but an Instant that far ahead overflows.
        (
            &["--timeout", "9.3e18"],
            format!("'--timeout <SECS>': '9.3e18' {over_a_day}"),
        ),
        (
            &["--timeout", "86400.5"],
            format!("'--timeout <SECS>': '86400.5' {over_a_day}"),
        ),
        (
            &["--connect-timeout", "inf"],
            format!("'--connect-timeout <SECS>': 'inf' {over_a_day}"),
        ),
        (
            &["--lock-timeout", "1e19"],
            format!("'--lock-timeout <SECS>': '1e19' {over_a_day}"),
        ),
        (
            &["--timeout", "NaN"],
            "'--timeout <SECS>': 'NaN' is not a number of seconds".into(),
        ),
        (
            &["--timeout", "1e-10"],
            "'--timeout <SECS>': '1e-10' is less than 0.001 seconds (a millisecond), the shortest wait".into(),
        ),
        (
            &["--retries", "4294967296"],
            "'--retries <N>': '4294967296' is not a number of retries from 0 to 100".into(),
        ),
        (
            &["--jobs", "65"],
            "'--jobs <N>': '65' is not a number of requests from 1 to 64".into(),
        ),
        (
            &["--chunk-days", "4294967295"],
            "'--chunk-days <N>': '4294967295' is not a number of days from 1 to 36600".into(),
        ),
        (
            &["--chunk-days", "0"],
            "'--chunk-days <N>': '0' is not a number of days from 1 to 36600".into(),
        ),
    ];
    for (flag, why) in cases {
        let value = flag[1];
        env.cmd_args(&[&DAY[..], flag].concat())
            .code(2)
            .error_line(format!("error: invalid value '{value}' for {why}").as_str())
            .run();
    }
    assert!(stub.seen().is_empty());
    // The largest value each takes still runs.
    env.cmd_args(
        &[
            &DAY[..],
            &["--timeout", "86400", "--retries", "100", "--jobs", "64"],
        ]
        .concat(),
    )
    .stderr_contains("warning: ETHEREUM fees: no data for 2024-01-01")
    .run();
}

#[test]
fn config_file_values_out_of_bounds_are_exit_3_before_any_request() {
    let stub = Stub::always(Reply::json(200, "[]"));
    let env = Env::with_service(&stub.url);
    let cases = [
        ("timeout = 1e19", "error: timeout 1e19 from config file is more than a day (86400 seconds)"),
        ("timeout = 9.3e18", "error: timeout 9.3e18 from config file is more than a day (86400 seconds)"),
        ("connect_timeout = 86401", "error: connect_timeout 86401 from config file is more than a day (86400 seconds)"),
        ("api_key_command_timeout = 1e300", "error: api_key_command_timeout 1e300 from config file is more than a day (86400 seconds)"),
        ("timeout = -1", "error: timeout -1 from config file is less than 0.001 seconds (a millisecond), the shortest wait"),
        ("retries = 1000", "error: retries 1000 from config file is out of bounds: expected from 0 to 100"),
        ("jobs = 100000", "error: jobs 100000 from config file is out of bounds: expected from 1 to 64"),
        ("[profiles.p]\nchunk_days = 99999", "error: chunk_days 99999 from config file, profile p is out of bounds: expected from 1 to 36600"),
    ];
    for (text, error) in cases {
        env.write_config(&format!("{text}\n"));
        let profile: &[&str] = match text.starts_with('[') {
            true => &["--profile", "p"],
            false => &[],
        };
        env.cmd_args(&[profile, &DAY[..]].concat())
            .code(3)
            .error_line(error)
            .run();
    }
    assert!(stub.seen().is_empty());
}

#[test]
fn sandbox_waits_are_bounded_too() {
    let cases = [
        (&["--latency", "86400001"][..], "error: invalid value '86400001' for '--latency <MS>': '86400001' is not a number of milliseconds from 0 to 86400000 (a day)"),
        (&["--fault", "latency:18446744073709551615"], "error: invalid value 'latency:18446744073709551615' for '--fault <FAULT>': bad fault 'latency:18446744073709551615': latency needs milliseconds, at most 86400000; expected one of"),
        (&["--fault", "503:date+18446744073709551615"], "error: invalid value '503:date+18446744073709551615' for '--fault <FAULT>': bad fault '503:date+18446744073709551615': 'date+18446744073709551615' is not a Retry-After: seconds or date+SECONDS, at most 86400; expected one of"),
    ];
    for (args, error) in cases {
        let run = Env::new()
            .cmd_args(&[&["sandbox", "--listen", "127.0.0.1:0"], args].concat())
            .code(2)
            .run();
        assert!(run.error_line().starts_with(error), "{}", run.error_line());
    }
}
