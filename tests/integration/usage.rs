//! Usage mistakes said plainly (issue 12 point 7): "did you mean", empty list items, the ways
//! to give the first day, dates the service cannot take, the environment's bytes, Ctrl-C at the
//! key prompt, and the range limit the service states.

use crate::support::{Env, Reply, Sandbox, Stub};

/// Runs `args` against a server that records requests; returns the run and what it received.
fn refused(args: &[&str]) -> (crate::support::Run, usize) {
    let stub = Stub::always(Reply::json(200, "[]"));
    let run = Env::with_service(&stub.url).run(args);
    (run, stub.seen().len())
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
        let (run, sent) = refused(args);
        assert_eq!((run.code, sent), (2, 0), "{args:?}: {run:?}");
        if !first.is_empty() {
            assert_eq!(run.error_line(), first, "{args:?}");
        }
        let tip = format!("\n  tip: a similar value exists: '{best}'\n");
        assert!(run.stderr.contains(&tip), "{args:?}: {}", run.stderr);
    }
    // Nothing close: no tip.
    let (run, _) = refused(&["fees", "-c", "solana", "--last", "2"]);
    assert!(!run.stderr.contains("tip:"), "{}", run.stderr);
}

#[test]
fn an_empty_item_in_a_list_is_named_as_such() {
    let (run, sent) = refused(&["fees", "-c", "polygon,", "--last", "2"]);
    assert_eq!((run.code, sent), (2, 0), "{run:?}");
    assert_eq!(
        run.error_line(),
        "error: invalid value '' for '--chain <CHAIN>': a chain is empty (a stray comma?): separate chains with single commas, as in eth,arb"
    );
    let (run, _) = refused(&["social", "-c", "eth", "-i", "reply,,tweet", "--last", "2"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.error_line(),
        "error: invalid value '' for '--include <ITEMS>': an include is empty (a stray comma?): separate them with single commas, as in tweet,reply"
    );
}

#[test]
fn without_a_first_day_both_start_and_last_are_offered() {
    let (run, sent) = refused(&["fees", "-c", "eth"]);
    assert_eq!((run.code, sent), (2, 0), "{run:?}");
    assert_eq!(
        run.stderr,
        "error: the following required arguments were not provided:\n  <--start <DAY>|--last <N>>\n\nUsage: chain-metrics fees [OPTIONS] --chain <CHAIN> <--start <DAY>|--last <N>>\n\nFor more information, try '--help'.\n"
    );
}

#[test]
fn days_outside_the_years_1_to_9999_are_refused_never_sent() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["fees", "-c", "eth", "-e", "0000-01-02", "--last", "5"],
            "error: invalid value '0000-01-02' for '--end <DAY>': '0000-01-02' is outside the years 1 to 9999, the dates YYYY-MM-DD can write (or today, yesterday)",
        ),
        (
            &["fees", "-c", "eth", "-e", "0001-01-02", "--last", "5"],
            "error: the first day, 0000-12-29, is outside the years 1 to 9999, the dates YYYY-MM-DD can write: ask for fewer days with --last, or a later --end",
        ),
        (
            &["fees", "-c", "eth", "-s", "10000-01-01", "-e", "10000-01-02"],
            "error: invalid value '10000-01-01' for '--start <DAY>': '10000-01-01' is not a date: expected YYYY-MM-DD (or today, yesterday)",
        ),
    ];
    for (args, first) in cases {
        let (run, sent) = refused(args);
        assert_eq!((run.code, sent), (2, 0), "{args:?}: {run:?}");
        assert_eq!(run.error_line(), first, "{args:?}");
    }
}

#[test]
fn an_end_in_the_future_is_a_warning() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let tomorrow = chrono::Utc::now()
        .date_naive()
        .succ_opt()
        .unwrap()
        .to_string();
    let run = env.run(&["fees", "-c", "eth", "--last", "2", "-e", &tomorrow]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        format!("warning: the range ends {tomorrow}, after today (UTC): the service has no data for days to come\n")
    );
    assert_eq!(run.stdout.lines().count(), 3, "{run:?}");
    let today = env.run(&["fees", "-c", "eth", "--last", "2", "-e", "today"]);
    assert_eq!((today.code, today.stderr.as_str()), (0, ""));
}

#[test]
fn a_variable_that_is_not_utf8_is_named() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    for name in [
        "CHAIN_METRICS_PROFILE",
        "CHAIN_METRICS_API_KEY",
        "CHAIN_METRICS_BASE_URL",
    ] {
        let run = env.run_shell(&format!(
            "{name}=$'pro\\xff' chain-metrics fees -c eth --last 2"
        ));
        assert_eq!(run.code, 3, "{name}: {run:?}");
        assert_eq!(
            run.stderr,
            format!("error: the environment variable {name} is not UTF-8 text\nhint: set it to the text you meant, or unset it\n")
        );
    }
}

#[test]
fn ctrl_c_at_the_key_prompt_exits_130() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &sandbox.url);
    let prompt = "API key (input hidden): ";
    let run = env.cmd(&["auth", "login"]).typing(prompt, "\x03").run();
    assert_eq!(run.code, 130, "{run:?}");
    assert!(!run.stdout.contains("error"), "{run:?}");
    assert!(!env.config_path().exists());
}

#[test]
fn a_range_refused_as_too_long_suggests_the_limit_the_service_states() {
    let stub = Stub::always(Reply::json(
        400,
        r#"{"error":"date range too long: 20 days asked, at most 7 days per request"}"#,
    ));
    let run = Env::with_service(&stub.url).run(&[
        "fees",
        "-c",
        "eth",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-20",
    ]);
    assert_eq!(run.code, 5, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: the service rejected the request: POST /api/chain-insights/fees for ETHEREUM answered HTTP 400 Bad Request: date range too long: 20 days asked, at most 7 days per request\nhint: the request asked for 20 days and the service takes at most 7: split the range with --chunk-days 7 (or chunk_days = 7 in the config file)\n"
    );
}

#[test]
fn value_names_are_taken_in_any_case_like_chains() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
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
            true => env.run(&[&day[..], extra].concat()),
            false => env.run(extra),
        };
        let (upper_run, lower_run) = (with(upper), with(lower));
        assert_eq!(upper_run.code, 0, "{upper:?}: {upper_run:?}");
        assert!(!lower_run.stdout.is_empty(), "{lower:?}");
        assert_eq!(upper_run.stdout, lower_run.stdout, "{upper:?}");
    }
    // `--by day` is the default, so `--raw` takes it; the body is the same as without it.
    let raw = env.run(&[&day[..], &["--raw"]].concat());
    let by_day = env.run(&[&day[..], &["--raw", "--by", "DAY"]].concat());
    assert_eq!((by_day.code, by_day.stderr.as_str()), (0, ""), "{by_day:?}");
    assert!(
        raw.stdout.starts_with('{') || raw.stdout.starts_with('['),
        "{raw:?}"
    );
    assert_eq!(by_day.stdout, raw.stdout);
}
