//! Results a script can trust: `--error-format json` (one object on stderr), `--keep-going`
//! over several chains (the chains that succeeded written, a warning per failed chain, the
//! failure's exit code) and `--json-numbers string`.

use snapbox::str;

use crate::support::{Env, Reply, Stub, TWO_DAYS};

/// ETHEREUM's fees for two days; ARBITRUM fails with `status` and a JSON error body.
fn one_chain_fails(status: u16) -> Stub {
    Stub::start(move |seen| {
        if seen.body.contains("ARBITRUM") {
            return Reply::json(status, r#"{"error":"arbitrum is resting"}"#);
        }
        Reply::json(
            200,
            r#"[{"date":"2024-01-01","fees":9007199254740993},{"date":"2024-01-02","fees":0.1}]"#,
        )
    })
}

#[test]
fn error_format_json_is_one_object_with_endpoint_chain_status_and_service_message() {
    let stub = one_chain_fails(404);
    let env = Env::with_service(&stub.url);
    let run = env
        .cmd(&format!("fees -c arb --error-format json {TWO_DAYS}"))
        .code(5)
        .stdout("")
        .run();
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let error: serde_json::Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(
        error,
        serde_json::json!({
            "error": "the service rejected the request: POST /api/chain-insights/fees for ARBITRUM answered HTTP 404 Not Found: arbitrum is resting",
            "exit": 5,
            "class": "request_rejected",
            "endpoint": "/api/chain-insights/fees",
            "chain": "ARBITRUM",
            "status": 404,
            "service_message": "arbitrum is resting",
            "hint": "check the base URL's path: the endpoint paths are appended to it, so a missing or extra prefix (such as /v2) answers 404",
        })
    );
}

#[test]
fn error_format_json_covers_usage_and_configuration_errors() {
    let env = Env::new();
    let run = env
        .cmd("fees --error-format json -c eth --last 2x")
        .code(2)
        .run();
    let error: serde_json::Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(error["class"], "usage");
    assert_eq!(error["exit"], 2);
    assert_eq!(
        error["error"],
        "invalid value '2x' for '--last <N>': '2x' is not a span: expected days (30, 30d), weeks (4w), months (3m), quarters (2q) or years (1y)"
    );
    let run = env
        .cmd("fees -c eth --last 2 --error-format=JSON")
        .code(3)
        .run();
    let error: serde_json::Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(
        (&error["class"], &error["error"], &error["endpoint"]),
        (
            &serde_json::json!("config"),
            &serde_json::json!("no service address is set"),
            &serde_json::Value::Null
        )
    );
}

#[test]
fn keep_going_writes_the_chains_that_succeeded_and_exits_with_the_failure() {
    let stub = one_chain_fails(503);
    let env = Env::with_service(&stub.url);
    let line = format!("fees -c eth,arb --retries 0 -f csv {TWO_DAYS}");
    let failed = "POST /api/chain-insights/fees for ARBITRUM answered HTTP 503 Service Unavailable: arbitrum is resting (no retries)";
    let run = env
        .cmd(&format!("{line} --keep-going"))
        .code(6)
        .stdout("date,chain,fees\n2024-01-01,ETHEREUM,9007199254740993\n2024-01-02,ETHEREUM,0.1\n")
        .error_line(format!(
            "warning: --keep-going: ARBITRUM is left out: the service failed: {failed}"
        ))
        .run();
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines[1], format!("error: the service failed: {failed}"));
    // Without --keep-going nothing is written.
    env.cmd(&line).code(6).stdout("").run();
}

#[test]
fn keep_going_with_every_chain_failing_writes_nothing() {
    let stub = Stub::always(Reply::json(404, r#"{"error":"no"}"#));
    let env = Env::with_service(&stub.url);
    env.cmd(&format!("fees -c eth,arb --keep-going -f csv {TWO_DAYS}"))
        .code(5)
        .stdout("")
        .error_line_like(
            "error: the service rejected the request: POST /api/chain-insights/fees for ETHEREUM[..]",
        )
        .run();
}

#[test]
fn json_numbers_string_keeps_every_digit_for_jq() {
    let stub = one_chain_fails(404);
    let env = Env::with_service(&stub.url);
    env.cmd(&format!(
        "fees -c eth -f json --json-numbers string {TWO_DAYS}"
    ))
    .stdout(str![[r#"
[
  {"date":"2024-01-01","fees":"9007199254740993"},
  {"date":"2024-01-02","fees":"0.1"}
]

"#]])
    .run();
    env.cmd(&format!(
        "fees -c eth -f csv --json-numbers string {TWO_DAYS}"
    ))
    .code(2)
    .error_line("error: --json-numbers string works with json and ndjson, not with the csv format")
    .run();
}
