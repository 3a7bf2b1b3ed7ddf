//! `--raw`, `--dry-run`, progress on a terminal only, and the usage errors of CLI.md §1.

use crate::support::{Env, Reply, Sandbox, Stub, KEY};

#[test]
fn raw_prints_the_body_byte_for_byte() {
    let body =
        "{ \"data\" : [ {\"date\":\"2024-01-01\",\"tweet\":1.0E0, \"extra\":\"\u{e9}\"} ] }\n\n";
    let stub = Stub::always(Reply::json(200, body));
    let env = Env::with_service(&stub.url);
    let args = [
        "social",
        "-c",
        "eth",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-01",
        "--raw",
    ];
    env.cmd_args(&args).stdout(body).run();

    env.cmd_args(&[&args[..], &["-o", "raw.json"]].concat())
        .run();
    assert_eq!(
        std::fs::read(env.home.path().join("raw.json")).unwrap(),
        body.as_bytes()
    );
}

#[test]
fn dry_run_prints_curl_lines_that_bash_runs_as_printed_and_sends_nothing() {
    let stub = Stub::always(Reply::json(200, r#"{"data":[]}"#));
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &format!("{}/v2/", stub.url));
    let version = env!("CARGO_PKG_VERSION");
    let line = |chain: &str| {
        format!(
            "curl -sS -X POST '{}/v2/api/social-metrics/official-account' -H \"X-API-Key: $CHAIN_METRICS_API_KEY\" -H 'Content-Type: application/json' -H 'Accept: application/json' -H 'User-Agent: chain-metrics/{version}' --data-raw '{{\"chain\":\"{chain}\",\"start_date\":\"2024-01-01\",\"end_date\":\"2024-01-02\",\"includes\":\"quote\"}}'\n",
            stub.url
        )
    };
    let run = env
        .cmd("social -c eth,op -i quote -s 2024-01-01 -e 2024-01-02 --dry-run")
        .stdout(line("ETHEREUM") + &line("OPTIMISM"))
        .run();

    assert!(stub.seen().is_empty(), "--dry-run sent a request");

    let mut shell = Env::new();
    shell.set("CHAIN_METRICS_API_KEY", KEY);
    shell
        .shell(run.stdout.lines().next().unwrap())
        .stdout(r#"{"data":[]}"#)
        .run();
    // What curl sent is what chain-metrics itself sends.
    env.set("CHAIN_METRICS_API_KEY", KEY);
    env.cmd("social -c eth -i quote -s 2024-01-01 -e 2024-01-02")
        .stderr_contains("warning: ETHEREUM official account: no data")
        .run();
    let seen = stub.seen();
    assert_eq!(seen.len(), 2);
    for header in ["x-api-key", "content-type", "accept", "user-agent"] {
        assert_eq!(
            seen[0].headers.get(header),
            seen[1].headers.get(header),
            "{header}"
        );
    }
    assert_eq!(seen[0].headers["x-api-key"], KEY);
    assert_eq!(
        (&seen[0].method, &seen[0].path, &seen[0].body),
        (&seen[1].method, &seen[1].path, &seen[1].body)
    );
}

#[test]
fn dry_run_follows_the_method_setting() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", "http://127.0.0.1:9");
    let run = env
        .cmd("--method get fees -c eth -s 2024-01-01 -e 2024-01-01 --dry-run")
        .run();
    assert!(
        run.stdout
            .starts_with("curl -sS -X GET 'http://127.0.0.1:9/api/chain-insights/fees' "),
        "{run:?}"
    );
}

/// Runs the binary with stderr on a pseudo-terminal and stdout in a file: what the terminal showed.
fn with_stderr_on_a_terminal(url: &str, args: &str) -> String {
    let env = Env::with_service(url);
    let args: Vec<&str> = args.split(' ').collect();
    let run = env
        .cmd_args(&args)
        .stdout_to(env.home.path().join("out.csv"))
        .on_terminal()
        .run();
    run.stdout
}

#[test]
fn progress_shows_on_a_terminal_only() {
    let sandbox = Sandbox::start(&[]);
    let args = "fees -c all -s 2024-01-01 -e 2024-01-02 --jobs 1";
    let terminal = with_stderr_on_a_terminal(&sandbox.url, args);
    assert_eq!(
        terminal,
        (1..=6)
            .map(|n| format!("\rrequests: {n}/6 done"))
            .collect::<String>()
            + "\r\x1b[2K"
    );
    assert_eq!(
        with_stderr_on_a_terminal(&sandbox.url, &format!("{args} -q")),
        ""
    );
    assert_eq!(
        with_stderr_on_a_terminal(&sandbox.url, "fees -c eth -s 2024-01-01 -e 2024-01-02"),
        "",
        "one request: no progress"
    );
    Env::with_service(&sandbox.url)
        .cmd_args(&args.split(' ').collect::<Vec<_>>())
        .run();
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
        (&["fees", "-c", "eth", "--summary", "-f", "chart"], "error: --summary works with table, csv, tsv, json, ndjson and markdown, not with the chart format"),
        (&["fees", "-c", "eth", "--summary", "-o", "x.json", "--merge"], "error: --summary adds rows that are no dates, and --merge keeps a file of dates"),
        (&["fees", "-c", "eth", "--merge"], "error: the following required arguments were not provided:"),
        (&["fees", "-c", "eth", "--merge", "-o", "x.md"], "error: --merge works with csv, tsv, json, ndjson and sqlite, not with the markdown format"),
        (&["fees", "-c", "eth", "--no-header", "-f", "json"], "error: --no-header works with csv and tsv, not with the json format"),
        (&["--sandbox", "fees", "-c", "eth", "--dry-run"], "error: --dry-run prints commands for a service that outlives the run; --sandbox lasts only one run"),
    ];
    for (args, first_line) in cases {
        env.cmd_args(&[args, &days[..]].concat())
            .stdout("")
            .code(2)
            .error_line(first_line)
            .run();
    }
    assert!(stub.seen().is_empty());
    assert_eq!(
        std::fs::read_dir(env.home.path()).unwrap().count(),
        0,
        "no file was written"
    );
}

#[test]
fn raw_is_one_request_so_it_refuses_chunk_days() {
    Env::with_service("http://127.0.0.1:9")
        .cmd("fees -c eth --last 60 --raw --chunk-days 30")
        .code(2)
        .error_line("error: the argument '--raw' cannot be used with '--chunk-days <N>'")
        .run();
}
