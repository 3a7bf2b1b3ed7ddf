//! `report`, concurrency, `--raw`, `--dry-run`, progress and the usage errors of CLI.md §1.

mod common;

use std::process::Command;

use common::{Env, Reply, Sandbox, Stub, KEY};

#[test]
fn report_joins_fees_users_and_social_per_date() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let run = env.run(&["report", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-03", "-f", "table"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert_eq!(
        run.stdout,
        "\
┌────────────┬────────────┬──────────────┬───────┬─────────┬───────┬───────┐
│ date       ┆       fees ┆ active_users ┆ reply ┆ retweet ┆ tweet ┆ quote │
╞════════════╪════════════╪══════════════╪═══════╪═════════╪═══════╪═══════╡
│ 2024-01-01 ┆ 879,768.88 ┆      414,059 ┆     0 ┆       0 ┆     2 ┆     0 │
│ 2024-01-02 ┆ 826,665.76 ┆      458,588 ┆     0 ┆       7 ┆     5 ┆     0 │
│ 2024-01-03 ┆ 821,920.42 ┆      472,251 ┆     8 ┆       0 ┆     6 ┆     0 │
└────────────┴────────────┴──────────────┴───────┴─────────┴───────┴───────┘
"
    );
    let run = env.run(&["report", "-c", "eth", "-i", "tweet,quote", "-s", "2024-01-01", "-e", "2024-01-02", "-f", "json"]);
    assert_eq!(
        run.stdout,
        "[\n  {\"date\":\"2024-01-01\",\"fees\":879768.88,\"active_users\":414059,\"tweet\":2,\"quote\":0},\n  {\"date\":\"2024-01-02\",\"fees\":826665.76,\"active_users\":458588,\"tweet\":5,\"quote\":0}\n]\n"
    );
    let run = env.run(&["report", "-c", "eth,arb", "-i", "tweet", "-s", "2024-01-01", "-e", "2024-01-02", "--wide", "-f", "csv"]);
    assert_eq!(
        run.stdout,
        "date,ETHEREUM.fees,ETHEREUM.active_users,ETHEREUM.tweet,ARBITRUM.fees,ARBITRUM.active_users,ARBITRUM.tweet\n\
         2024-01-01,879768.88,414059,2,59575.78,311339,0\n\
         2024-01-02,826665.76,458588,5,71927.52,324705,0\n"
    );
}

#[test]
fn report_sends_three_requests_per_chain_and_leaves_gaps_empty() {
    let stub = Stub::start(|seen| match seen.path.as_str() {
        "/api/chain-insights/fees" => Reply::json(200, r#"[{"date":"2024-01-01","fees":1.5},{"date":"2024-01-02","fees":2.5}]"#),
        "/api/chain-insights/active_users" => Reply::json(200, r#"[{"date":"2024-01-02","active_users":20}]"#),
        _ => Reply::json(200, r#"{"data":[{"date":"2024-01-01","tweet":3}]}"#),
    });
    let run = Env::with_service(&stub.url).run(&[
        "report", "-c", "op,bsc", "-i", "tweet", "-s", "2024-01-01", "-e", "2024-01-02", "--jobs", "1",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "date,chain,fees,active_users,tweet\n2024-01-01,OPTIMISM,1.5,,3\n2024-01-01,BSC,1.5,,3\n2024-01-02,OPTIMISM,2.5,20,\n2024-01-02,BSC,2.5,20,\n"
    );
    assert_eq!(
        run.stderr,
        "warning: OPTIMISM active users: no data for 2024-01-01 (left out, not zero)\n\
         warning: OPTIMISM official account: no data for 2024-01-02 (left out, not zero)\n\
         warning: BSC active users: no data for 2024-01-01 (left out, not zero)\n\
         warning: BSC official account: no data for 2024-01-02 (left out, not zero)\n"
    );
    let seen: Vec<(String, String)> = stub.seen().into_iter().map(|s| (s.path, s.body)).collect();
    let range = r#""start_date":"2024-01-01","end_date":"2024-01-02""#;
    assert_eq!(
        seen,
        [
            ("/api/chain-insights/fees", format!(r#"{{"chain":"OPTIMISM",{range}}}"#)),
            ("/api/chain-insights/active_users", format!(r#"{{"chain":"OPTIMISM",{range}}}"#)),
            ("/api/social-metrics/official-account", format!(r#"{{"chain":"OPTIMISM",{range},"includes":"tweet"}}"#)),
            ("/api/chain-insights/fees", format!(r#"{{"chain":"BSC",{range}}}"#)),
            ("/api/chain-insights/active_users", format!(r#"{{"chain":"BSC",{range}}}"#)),
            ("/api/social-metrics/official-account", format!(r#"{{"chain":"BSC",{range},"includes":"tweet"}}"#)),
        ]
        .map(|(p, b)| (p.to_owned(), b))
    );
}

#[test]
fn concurrent_output_is_identical_to_one_request_at_a_time() {
    // Latency keeps many requests in flight at once, so they finish in no fixed order.
    let sandbox = Sandbox::start(&["--latency", "20"]);
    let env = Env::with_service(&sandbox.url);
    let args = ["report", "-c", "all", "-s", "2024-02-01", "-e", "2024-02-10", "-f", "csv"];
    let one = env.run(&[&args[..], &["--jobs", "1"]].concat());
    assert_eq!((one.code, one.stderr.as_str()), (0, ""), "{one:?}");
    assert_eq!(one.stdout.lines().count(), 1 + 10 * 6);
    for jobs in ["8", "18"] {
        let many = env.run(&[&args[..], &["--jobs", jobs]].concat());
        assert_eq!(many.stdout, one.stdout, "--jobs {jobs}");
        assert_eq!(many.stderr, "");
    }
    let wide = env.run(&[&args[..], &["--wide", "--jobs", "1"]].concat());
    assert_eq!(env.run(&[&args[..], &["--wide"]].concat()).stdout, wide.stdout);
}

#[test]
fn raw_prints_the_body_byte_for_byte() {
    let body = "{ \"data\" : [ {\"date\":\"2024-01-01\",\"tweet\":1.0E0, \"extra\":\"\u{e9}\"} ] }\n\n";
    let stub = Stub::always(Reply::json(200, body));
    let env = Env::with_service(&stub.url);
    let args = ["social", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01", "--raw"];
    let run = env.run(&args);
    assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, body, ""));
    let run = env.run(&[&args[..], &["-o", "raw.json"]].concat());
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(std::fs::read(env.home.path().join("raw.json")).unwrap(), body.as_bytes());
}

#[test]
fn dry_run_prints_curl_lines_that_bash_runs_as_printed_and_sends_nothing() {
    let stub = Stub::always(Reply::json(200, r#"{"data":[]}"#));
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &format!("{}/v2/", stub.url));
    let run = env.run(&["social", "-c", "eth,op", "-i", "quote", "-s", "2024-01-01", "-e", "2024-01-02", "--dry-run"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "no key is needed: {run:?}");
    let version = env!("CARGO_PKG_VERSION");
    let line = |chain: &str| {
        format!(
            "curl -sS -X POST '{}/v2/api/social-metrics/official-account' -H \"X-API-Key: $CHAIN_METRICS_API_KEY\" -H 'Content-Type: application/json' -H 'Accept: application/json' -H 'User-Agent: chain-metrics/{version}' --data-raw '{{\"chain\":\"{chain}\",\"start_date\":\"2024-01-01\",\"end_date\":\"2024-01-02\",\"includes\":\"quote\"}}'\n",
            stub.url
        )
    };
    assert_eq!(run.stdout, line("ETHEREUM") + &line("OPTIMISM"));
    assert!(stub.seen().is_empty(), "--dry-run sent a request");

    let curl = Command::new("bash")
        .args(["-c", run.stdout.lines().next().unwrap()])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .env("CHAIN_METRICS_API_KEY", KEY)
        .output()
        .expect("bash runs");
    assert_eq!(String::from_utf8_lossy(&curl.stdout), r#"{"data":[]}"#, "{curl:?}");
    // What curl sent is what chain-metrics itself sends.
    env.set("CHAIN_METRICS_API_KEY", KEY);
    let real = env.run(&["social", "-c", "eth", "-i", "quote", "-s", "2024-01-01", "-e", "2024-01-02"]);
    assert_eq!(real.code, 0, "{real:?}");
    let seen = stub.seen();
    assert_eq!(seen.len(), 2);
    for header in ["x-api-key", "content-type", "accept", "user-agent"] {
        assert_eq!(seen[0].headers.get(header), seen[1].headers.get(header), "{header}");
    }
    assert_eq!(seen[0].headers["x-api-key"], KEY);
    assert_eq!((&seen[0].method, &seen[0].path, &seen[0].body), (&seen[1].method, &seen[1].path, &seen[1].body));
}

#[test]
fn dry_run_follows_the_method_setting() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", "http://127.0.0.1:9");
    let run = env.run(&["--method", "get", "fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01", "--dry-run"]);
    assert!(run.stdout.starts_with("curl -sS -X GET 'http://127.0.0.1:9/api/chain-insights/fees' "), "{run:?}");
}

/// Runs the binary with stderr on a pseudo-terminal (through `script`) and stdout in a file.
fn with_stderr_on_a_terminal(url: &str, args: &str) -> String {
    let home = tempfile::tempdir().unwrap();
    let command = format!("'{}' {args} > '{}/out.csv'", common::binary().display(), home.path().display());
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .env("HOME", home.path())
        .env("CHAIN_METRICS_BASE_URL", url)
        .env("CHAIN_METRICS_API_KEY", KEY)
        .output()
        .expect("script (util-linux) is installed");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn progress_shows_on_a_terminal_only() {
    let sandbox = Sandbox::start(&[]);
    let args = "fees -c all -s 2024-01-01 -e 2024-01-02 --jobs 1";
    let terminal = with_stderr_on_a_terminal(&sandbox.url, args);
    assert_eq!(
        terminal,
        (1..=6).map(|n| format!("\rrequests: {n}/6 done")).collect::<String>() + "\r\x1b[2K"
    );
    assert_eq!(with_stderr_on_a_terminal(&sandbox.url, &format!("{args} -q")), "");
    assert_eq!(with_stderr_on_a_terminal(&sandbox.url, "fees -c eth -s 2024-01-01 -e 2024-01-02"), "", "one request: no progress");
    let piped = Env::with_service(&sandbox.url).run(&args.split(' ').collect::<Vec<_>>());
    assert_eq!((piped.code, piped.stderr.as_str()), (0, ""));
}

#[test]
fn usage_errors_are_exit_2_before_any_request() {
    let stub = Stub::always(Reply::json(200, "[]"));
    let env = Env::with_service(&stub.url);
    let days = ["-s", "2024-01-01", "-e", "2024-01-01"];
    let cases: [(&[&str], &str); 9] = [
        (&["fees", "-c", "eth,arb", "--raw"], "error: --raw prints one service body, for one chain; asked: ETHEREUM, ARBITRUM"),
        (&["fees", "-c", "all", "--raw"], "error: --raw prints one service body, for one chain; asked: ETHEREUM, ARBITRUM, BSC, OPTIMISM, BASE, POLYGON"),
        (&["report", "-c", "eth", "--raw"], "error: --raw prints one service body, and report makes three requests per chain"),
        (&["fees", "-c", "eth", "--summary", "-f", "csv"], "error: --summary works with table and markdown, not with the csv format"),
        (&["fees", "-c", "eth", "--summary", "-o", "x.json"], "error: --summary works with table and markdown, not with the json format"),
        (&["fees", "-c", "eth", "--merge"], "error: the following required arguments were not provided:"),
        (&["fees", "-c", "eth", "--merge", "-o", "x.md"], "error: --merge works with csv, tsv, json and ndjson, not with the markdown format"),
        (&["fees", "-c", "eth", "--no-header", "-f", "json"], "error: --no-header works with csv and tsv, not with the json format"),
        (&["--sandbox", "fees", "-c", "eth", "--dry-run"], "error: --dry-run prints commands for a service that outlives the run; --sandbox lasts only one run"),
    ];
    for (args, first_line) in cases {
        let run = env.run(&[args, &days[..]].concat());
        assert_eq!((run.code, run.error_line()), (2, first_line), "{args:?}");
        assert_eq!(run.stdout, "");
    }
    assert!(stub.seen().is_empty());
    assert_eq!(std::fs::read_dir(env.home.path()).unwrap().count(), 0, "no file was written");
}
