//! Results a script can trust: `--error-format json` (one object on stderr), `--keep-going`
//! over several chains (the chains that succeeded written, a warning per failed chain, the
//! failure's exit code) and `--json-numbers string`.

use crate::support::{Env, Reply, Stub};

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

const DAYS: [&str; 4] = ["-s", "2024-01-01", "-e", "2024-01-02"];

#[test]
fn error_format_json_is_one_object_with_endpoint_chain_status_and_service_message() {
    let stub = one_chain_fails(404);
    let env = Env::with_service(&stub.url);
    let args = [&["fees", "-c", "arb", "--error-format", "json"][..], &DAYS].concat();
    let run = env.cmd_args(&args).any_outcome().run();
    assert_eq!((run.code, run.stdout.as_str()), (5, ""));
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
        .cmd_args(&[
            "fees",
            "--error-format",
            "json",
            "-c",
            "eth",
            "--last",
            "2x",
        ])
        .any_outcome()
        .run();
    assert_eq!(run.code, 2);
    let error: serde_json::Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(error["class"], "usage");
    assert_eq!(error["exit"], 2);
    assert_eq!(
        error["error"],
        "invalid value '2x' for '--last <N>': '2x' is not a span: expected days (30, 30d), weeks (4w), months (3m), quarters (2q) or years (1y)"
    );
    let run = env
        .cmd_args(&["fees", "-c", "eth", "--last", "2", "--error-format=JSON"])
        .any_outcome()
        .run();
    assert_eq!(run.code, 3);
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
    let args = [
        &[
            "fees",
            "-c",
            "eth,arb",
            "--retries",
            "0",
            "--keep-going",
            "-f",
            "csv",
        ][..],
        &DAYS,
    ]
    .concat();
    let run = env.cmd_args(&args).any_outcome().run();
    assert_eq!(run.code, 6);
    assert_eq!(
        run.stdout,
        "date,chain,fees\n2024-01-01,ETHEREUM,9007199254740993\n2024-01-02,ETHEREUM,0.1\n"
    );
    let failed = "POST /api/chain-insights/fees for ARBITRUM answered HTTP 503 Service Unavailable: arbitrum is resting (no retries)";
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines[0],
        format!("warning: --keep-going: ARBITRUM is left out: the service failed: {failed}")
    );
    assert_eq!(lines[1], format!("error: the service failed: {failed}"));
    // Without --keep-going nothing is written.
    let run = env
        .cmd_args(
            &args
                .iter()
                .filter(|a| **a != "--keep-going")
                .copied()
                .collect::<Vec<_>>(),
        )
        .any_outcome()
        .run();
    assert_eq!((run.code, run.stdout.as_str()), (6, ""));
}

#[test]
fn keep_going_with_every_chain_failing_writes_nothing() {
    let stub = Stub::always(Reply::json(404, r#"{"error":"no"}"#));
    let env = Env::with_service(&stub.url);
    let args = [
        &["fees", "-c", "eth,arb", "--keep-going", "-f", "csv"][..],
        &DAYS,
    ]
    .concat();
    let run = env.cmd_args(&args).any_outcome().run();
    assert_eq!((run.code, run.stdout.as_str()), (5, ""));
    assert!(run.error_line().starts_with(
        "error: the service rejected the request: POST /api/chain-insights/fees for ETHEREUM"
    ));
}

#[test]
fn json_numbers_string_keeps_every_digit_for_jq() {
    let stub = one_chain_fails(404);
    let env = Env::with_service(&stub.url);
    let args = [
        &[
            "fees",
            "-c",
            "eth",
            "-f",
            "json",
            "--json-numbers",
            "string",
        ][..],
        &DAYS,
    ]
    .concat();
    let run = env.cmd_args(&args).any_outcome().run();
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout,
        "[\n  {\"date\":\"2024-01-01\",\"fees\":\"9007199254740993\"},\n  {\"date\":\"2024-01-02\",\"fees\":\"0.1\"}\n]\n"
    );
    let run = env
        .cmd_args(
            &[
                &["fees", "-c", "eth", "-f", "csv", "--json-numbers", "string"][..],
                &DAYS,
            ]
            .concat(),
        )
        .any_outcome()
        .run();
    assert_eq!(
        (run.code, run.error_line()),
        (
            2,
            "error: --json-numbers string works with json and ndjson, not with the csv format"
        )
    );
}
