//! Errors from the service and the run's own output (exit 4 to 9), each with its exact error
//! line and hint: a rejected key, a rejected request, a failing, unreachable or slow service,
//! an undocumented answer, an unwritable stdout.

use super::fees;
use crate::support::{argv, TWO_DAYS};
use crate::support::{sandbox_env, Env, Reply, Sandbox, Stub, KEY};
use snapbox::str;

#[test]
fn a_rejected_key_exits_4_with_the_service_message() {
    let (_sandbox, mut env) = sandbox_env(&[]);
    env.set("CHAIN_METRICS_API_KEY", "wrong-key-000000");
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
    fees(&Env::with_service(&once.url), &["--retries", "0"])
        .code(6)
        .error_line_like("[..]HTTP 500 Internal Server Error: boom (no retries)")
        .run();
    assert_eq!(once.seen().len(), 1);
}

/// A `Retry-After` past any wait the tool makes (past u64 seconds, or a date centuries
/// ahead) ends the run at once with exit 6: not waited for, not retried as if it were absent.
#[test]
fn a_retry_after_past_any_wait_fails_at_once() {
    let cases = [
        ("99999999999999999999999999", "over 18446744073709551615 s"),
        ("Fri, 31 Dec 9999 23:59:59 GMT", "[..] s"),
    ];
    for (header, wait) in cases {
        let stub =
            Stub::always(Reply::new(503, "text/plain", "busy").header("retry-after", header));
        fees(&Env::with_service(&stub.url), &["--retries", "3"])
            .code(6)
            .error_line_like(format!("error: the service failed: POST /api/chain-insights/fees for ETHEREUM answered HTTP 503 Service Unavailable: busy (the service asked to wait {wait} before retrying, longer than the 60 s this tool waits)"))
            .run();
        assert_eq!(stub.seen().len(), 1, "Retry-After: {header} was retried");
    }
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
        .error_line_like(format!("error: POST /api/chain-insights/fees for ETHEREUM at {url}/api/chain-insights/fees: cannot connect ([..]"))
        .run();
    assert_eq!(
        run.stderr.lines().nth(1),
        Some("hint: check the base URL and your connection")
    );
}

#[test]
fn a_slow_service_exits_7_naming_the_limit() {
    let sandbox = Sandbox::start(&["--latency", "3000"]);
    let env = Env::with_service(&sandbox.url);
    fees(&env, &["--retries", "0", "--timeout", "0.3"])
        .code(7)
        .error_line_like("[..]: timed out after 0.3 s")
        .run();
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
    Env::with_service(&stub.url)
        .cmd_args(&[&["users", "-c", "eth"], &argv(TWO_DAYS)[..]].concat())
        .code(8)
        .error_line_like("[..]record 0: field active_users: expected a whole number, at least 0 (a count), found 12.5")
        .run();
}

/// `--help` and `--version` into a full disk fail as any output does, not with a silent 0; a
/// closed pipe stays the quiet end (`--help | head -1`).
#[test]
fn help_and_version_into_a_full_disk_exit_9() {
    let env = Env::new();
    for line in ["--help", "--version", "-V", "fees --help", "config -h"] {
        env.cmd(line)
            .stdout_to("/dev/full")
            .code(9)
            .stderr("error: cannot write to stdout: No space left on device (os error 28)\n")
            .run();
    }
    env.shell("chain-metrics --help | head -1; echo \"help ${PIPESTATUS[0]}\"")
        .stdout("Daily fees, active users and official social-media activity of six blockchains\nhelp 0\n")
        .run();
}

#[test]
fn an_unwritable_stdout_exits_9() {
    let (_sandbox, env) = sandbox_env(&[]);
    env.cmd_args(&[&["fees", "-c", "eth"], &argv(TWO_DAYS)[..]].concat())
        .stdout_to("/dev/full")
        .code(9)
        .stderr("error: cannot write to stdout: No space left on device (os error 28)\n")
        .run();
}

#[test]
fn a_rejected_key_from_the_environment_is_to_be_fixed_there() {
    let (_sandbox, mut env) = sandbox_env(&[]);
    env.set("CHAIN_METRICS_API_KEY", "revoked-key-00009999");
    env.cmd("auth status").code(4).stdout_contains("accepted     no\n").stderr(str![[r#"
error: the service rejected the API key: POST /api/chain-insights/fees for ETHEREUM answered HTTP 401 Unauthorized: invalid API key
hint: the key came from the environment variable CHAIN_METRICS_API_KEY, which outranks any stored key: correct it, or unset it (auth login changes nothing while it is set)

"#]]).run();
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
