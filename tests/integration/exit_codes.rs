//! Every exit code of CLI.md §5 that the query commands can give, with its exact error line.

use crate::support::{sandbox_env, Cmd, Env, Reply, Sandbox, Stub, KEY};

const DAYS: [&str; 4] = ["-s", "2024-01-01", "-e", "2024-01-02"];

fn fees<'e>(env: &'e Env, extra: &[&str]) -> Cmd<'e> {
    env.cmd_args(&[&["fees", "-c", "eth"], &DAYS[..], extra].concat())
}

#[test]
fn usage_errors_exit_2_before_any_request() {
    let stub = Stub::always(Reply::json(200, "[]"));
    let env = Env::with_service(&stub.url);
    let cases: [(&[&str], &str); 9] = [
        (&["fees", "-c", "solana", "--last", "2"], "error: invalid value 'solana' for '--chain <CHAIN>': unknown chain 'solana': expected one of ETHEREUM, ARBITRUM, BSC, OPTIMISM, BASE, POLYGON, an alias or chain id (see `chain-metrics chains`), or all"),
        (&["fees", "-c", "eth,", "--last", "2"], "error: invalid value '' for '--chain <CHAIN>': a chain is empty (a stray comma?): separate chains with single commas, as in eth,arb"),
        (&["fees", "-c", "eth", "-s", "2024-02-30"], "error: invalid value '2024-02-30' for '--start <DAY>': '2024-02-30' is not a day of the calendar (or YYYY-MM for a month, today, yesterday)"),
        (&["fees", "-c", "eth", "-s", "2024-01-01", "-e", "01/02/2024"], "error: invalid value '01/02/2024' for '--end <DAY>': '01/02/2024' is not a date: expected YYYY-MM-DD (or YYYY-MM for a month, today, yesterday)"),
        (&["fees", "-c", "eth", "-s", "2024-01-05", "-e", "2024-01-04"], "error: the start 2024-01-05 is after the end 2024-01-04: give --start on or before --end"),
        (&["social", "-c", "eth", "--last", "2", "-i", "tweet,likes"], "error: invalid value 'likes' for '--include <ITEMS>': unknown include 'likes': expected reply, retweet, tweet or quote"),
        (&["fees", "-c", "eth", "--last", "0"], "error: invalid value '0' for '--last <N>': '0' is zero days: --last takes at least 1 day"),
        (&["fees", "-c", "eth", "--last", "3", "--start", "2024-01-01"], "error: the argument '--last <N>' cannot be used with '--start <DAY>'"),
        (&["fees", "--last", "3"], "error: the following required arguments were not provided:"),
    ];
    for (args, line) in cases {
        env.cmd_args(args).code(2).error_line(line).stdout("").run();
    }
    assert!(stub.seen().is_empty(), "a usage error sent a request");
    env.cmd("fees -c eth")
        .code(2)
        .stderr_contains("--start <DAY>")
        .run();
}

#[test]
fn missing_key_or_address_exit_3_and_point_at_the_sandbox() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_API_KEY", KEY);
    let run = fees(&env, &[])
        .code(3)
        .error_line("error: no service address is set")
        .stderr_contains("try --sandbox, which needs no account")
        .run();
    assert!(run
        .stderr
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("hint: set CHAIN_METRICS_BASE_URL, --base-url URL or base_url in "));

    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", "https://metrics.example");
    fees(&env, &[])
        .code(3)
        .error_line("error: no API key is set")
        .stderr_contains("try --sandbox, which needs no account")
        .run();
}

#[test]
fn a_bad_config_file_exits_3_naming_the_key_and_line() {
    let env = Env::with_service("http://127.0.0.1:9");
    env.write_config(
        "timeout = 5\n\n[profiles.work]\nbase_url = \"https://w.example\"\napi-key = \"x\"\n",
    );
    let run = fees(&env, &[]).code(3).run();
    let path = env.config_path();
    assert!(
        run.error_line().starts_with(&format!(
            "error: config file {}: line 5: unknown field `api-key`, expected one of",
            path.display()
        )),
        "{}",
        run.stderr
    );
    env.write_config("timeout = [\n");
    fees(&env, &[])
        .code(3)
        .error_line(format!(
            "error: config file {}: line 1: unclosed array, expected `]`",
            path.display()
        ))
        .run();
    let missing = env
        .cmd("--config /nonexistent/cm.toml fees -c eth --last 1")
        .code(3)
        .run();
    assert!(
        missing
            .error_line()
            .starts_with("error: cannot read config file /nonexistent/cm.toml: "),
        "{}",
        missing.stderr
    );
}

#[test]
fn plain_http_to_another_host_is_refused_unless_allowed() {
    let env = Env::with_service("http://metrics.example:8080/v1");
    fees(&env, &[]).code(3).error_line("error: base URL from environment CHAIN_METRICS_BASE_URL: refusing plain http to metrics.example: the API key would travel in clear; use https, or set allow_http = true in the config file").run();
}

#[test]
fn a_rejected_key_exits_4_with_the_service_message() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &sandbox.url)
        .set("CHAIN_METRICS_API_KEY", "wrong-key-000000");
    let run = fees(&env, &[]).code(4).error_line("error: the service rejected the API key: POST /api/chain-insights/fees for ETHEREUM answered HTTP 401 Unauthorized: invalid API key").run();
    assert_eq!(run.stderr.lines().nth(1), Some("hint: the key came from environment CHAIN_METRICS_API_KEY; check it, or set another in CHAIN_METRICS_API_KEY"));
    assert!(!run.stderr.contains("wrong-key-000000"));
}

#[test]
fn a_service_that_echoes_the_key_never_gets_it_printed() {
    let stub = Stub::always(Reply::json(
        403,
        &format!(r#"{{"error":"key {KEY} is revoked"}}"#),
    ));
    fees(&Env::with_service(&stub.url), &[]).code(4).error_line("error: the service rejected the API key: POST /api/chain-insights/fees for ETHEREUM answered HTTP 403 Forbidden: key **** is revoked").run();
}

#[test]
fn a_rejected_request_exits_5_whatever_the_error_body() {
    let cases = [
        (
            Reply::json(400, r#"{"message":"missing parameter: chain"}"#),
            "HTTP 400 Bad Request: missing parameter: chain",
        ),
        (
            Reply::json(
                422,
                r#"{"detail":[{"loc":["body","end_date"],"msg":"range too long"}]}"#,
            ),
            "HTTP 422 Unprocessable Entity: range too long",
        ),
        (
            Reply::new(404, "text/plain", "no such\nroute"),
            "HTTP 404 Not Found: no such route",
        ),
        (
            Reply::new(
                400,
                "text/html",
                "<html><head><title>Bad Request</title></head><body><h1>nginx</h1></body></html>",
            ),
            "HTTP 400 Bad Request: an HTML page titled \"Bad Request\"",
        ),
    ];
    for (reply, tail) in cases {
        let stub = Stub::always(reply);
        fees(&Env::with_service(&stub.url), &[]).code(5).error_line(format!("error: the service rejected the request: POST /api/chain-insights/fees for ETHEREUM answered {tail}")).run();
        assert_eq!(stub.seen().len(), 1, "a 4xx is never retried");
    }
}

#[test]
fn a_failing_service_exits_6_after_the_retries() {
    let stub = Stub::always(
        Reply::new(
            503,
            "text/html",
            "<html><title>503 Service Unavailable</title></html>",
        )
        .header("retry-after", "0"),
    );
    fees(&Env::with_service(&stub.url), &["--retries", "2"]).code(6).error_line("error: the service failed: POST /api/chain-insights/fees for ETHEREUM answered HTTP 503 Service Unavailable: an HTML page titled \"503 Service Unavailable\" (after 2 retries)").run();
    assert_eq!(stub.seen().len(), 3);
    let once = Stub::always(Reply::json(500, r#"{"error":"boom"}"#));
    let run = fees(&Env::with_service(&once.url), &["--retries", "0"])
        .code(6)
        .run();
    assert!(
        run.error_line()
            .ends_with("HTTP 500 Internal Server Error: boom (no retries)"),
        "{}",
        run.stderr
    );
    assert_eq!(once.seen().len(), 1);
}

#[test]
fn an_unreachable_service_exits_7() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}");
    let run = fees(&Env::with_service(&url), &["--retries", "0"])
        .code(7)
        .run();
    assert!(
        run.error_line().starts_with(&format!("error: POST /api/chain-insights/fees for ETHEREUM at {url}/api/chain-insights/fees: cannot connect (")),
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stderr.lines().nth(1),
        Some("hint: check the base URL and your connection")
    );
}

#[test]
fn a_slow_service_exits_7_naming_the_limit() {
    let sandbox = Sandbox::start(&["--latency", "3000"]);
    let run = fees(
        &Env::with_service(&sandbox.url),
        &["--retries", "0", "--timeout", "0.3"],
    )
    .code(7)
    .run();
    assert!(
        run.error_line().ends_with(": timed out after 0.3 s"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_undocumented_answer_exits_8_naming_what_is_wrong() {
    let cases = [
        (Reply::json(200, r#"[{"date":"2024-01-01","fees":1.5},{"date":"2024-01-02","fees":"2.5"}]"#), " (content-type application/json): record 1: field fees: expected a number, found a string \"2.5\""),
        (Reply::json(200, r#"{"data":[]}"#), " (content-type application/json): expected an array of records, found an object"),
        (Reply::new(200, "application/json", "<html>maintenance</html>"), " (content-type application/json): the body is not JSON (expected value at line 1 column 1)"),
    ];
    for (reply, tail) in cases {
        let stub = Stub::always(reply);
        fees(&Env::with_service(&stub.url), &[]).code(8).error_line(format!("error: POST /api/chain-insights/fees for ETHEREUM answered something that is not the documented shape{tail}")).stdout("").run();
    }
    let stub = Stub::always(Reply::json(
        200,
        r#"[{"date":"2024-01-01","active_users":12.5}]"#,
    ));
    let run = Env::with_service(&stub.url)
        .cmd_args(&[&["users", "-c", "eth"], &DAYS[..]].concat())
        .code(8)
        .run();
    assert!(
        run.error_line()
            .ends_with("record 0: field active_users: expected a whole number, at least 0 (a count), found 12.5"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_unwritable_stdout_exits_9() {
    let (_sandbox, env) = sandbox_env(&[]);
    env.cmd_args(&[&["fees", "-c", "eth"], &DAYS[..]].concat())
        .stdout_to("/dev/full")
        .code(9)
        .stderr("error: cannot write to stdout: No space left on device (os error 28)\n")
        .run();
}

#[test]
fn help_never_shows_the_key() {
    let (_sandbox, env) = sandbox_env(&[]);
    for args in [
        &["--help"][..],
        &["fees", "--help"],
        &["social", "--help"],
        &["sandbox", "--help"],
        &["-h"],
    ] {
        env.cmd_args(args)
            .stdout_contains("Usage: chain-metrics")
            .run();
    }
    fees(&env, &["--verbose"])
        .stderr_contains("x-api-key: ****")
        .run();
}

#[test]
fn whatever_the_service_echoes_the_key_and_control_characters_never_reach_the_terminal() {
    let cases = [
        Reply::new(200, "text/plain", format!("unknown key {KEY}")),
        Reply::new(503, "text/html", format!("<title>Denied {KEY}</title>")),
        Reply::json(302, "").header(
            "location",
            &format!("https://other.example/login?key={KEY}"),
        ),
        Reply::json(200, &format!(r#"[{{"date":"{KEY}","fees":1}}]"#)),
        Reply::json(
            422,
            "{\"message\":\"bad \\u001b]0;pwned\\u0007 \\u001b[2J\"}",
        ),
    ];
    for reply in cases {
        let stub = Stub::always(reply);
        // Env::run fails the test if the key is anywhere in stdout or stderr.
        let run = fees(&Env::with_service(&stub.url), &["--retries", "0"])
            .any_outcome()
            .run();
        assert_ne!(run.code, 0);
        assert!(
            !run.stderr.contains('\x1b') && !run.stderr.contains('\x07'),
            "{:?}",
            run.stderr
        );
    }
}
