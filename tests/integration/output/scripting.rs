//! Results a script can trust: `--error-format json` (one object on stderr), `--keep-going`
//! over several chains (the chains that succeeded written, a warning per failed chain, the
//! failure's exit code) and `--json-numbers string`.

use snapbox::str;

use crate::cli::generated::manual::JQ_EXAMPLE;
use crate::support::{sandbox_env, Env, Reply, Stub, TWO_DAYS};

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
            "level": "error",
            "message": "the service rejected the request: POST /api/chain-insights/fees for ARBITRUM answered HTTP 404 Not Found: arbitrum is resting",
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
        error["message"],
        "invalid value '2x' for '--last <N>': '2x' is not a span: expected days (30, 30d), weeks (4w), months (3m), quarters (2q) or years (1y)"
    );
    let run = env
        .cmd("fees -c eth --last 2 --error-format=JSON")
        .code(3)
        .run();
    let error: serde_json::Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(
        (&error["class"], &error["message"], &error["endpoint"]),
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
            "warning: --keep-going: ARBITRUM is left out (service_failed): \
             the service failed: {failed}"
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
    let run = env
        .cmd(&format!("fees -c eth,arb --keep-going -f csv {TWO_DAYS}"))
        .code(5)
        .stdout("")
        .any_stderr()
        .run();
    let lines: Vec<&str> = run.stderr.lines().collect();
    // Every failed chain is named, with its class; the first failure is the error.
    for (at, chain) in ["ETHEREUM", "ARBITRUM"].iter().enumerate() {
        let warning = format!("warning: --keep-going: {chain} is left out (request_rejected): ");
        assert!(lines[at].starts_with(&warning), "{run:?}");
    }
    let error =
        "error: the service rejected the request: POST /api/chain-insights/fees for ETHEREUM";
    assert!(lines[2].starts_with(error), "{run:?}");
    let json = env
        .cmd(&format!(
            "--error-format json fees -c eth,arb --keep-going -f csv {TWO_DAYS}"
        ))
        .code(5)
        .any_stderr()
        .run();
    let named: Vec<_> = objects(&json.stderr)
        .iter()
        .filter(|l| l["level"] == "warning")
        .map(|l| (l["chain"].clone(), l["class"].clone()))
        .collect();
    let class = serde_json::json!("request_rejected");
    let chains = [serde_json::json!("ETHEREUM"), serde_json::json!("ARBITRUM")];
    assert_eq!(named, chains.map(|c| (c, class.clone())));
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

/// `line` run in `env`, exiting `code` with some rows on stdout (a failure that keeps going):
/// every line of its stderr, each parsed as one JSON object.
#[track_caller]
fn failed_lines(env: &Env, line: &str, code: i32) -> Vec<serde_json::Value> {
    let run = env.cmd(line).code(code).any_stdout().run();
    objects(&run.stderr)
}

/// Every line of `stderr` parsed as one JSON object, each with a `level` and a `message`.
fn objects(stderr: &str) -> Vec<serde_json::Value> {
    let object = |line: &str| {
        let value: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let level = value["level"].as_str();
        let levels = ["error", "warning", "note", "hint", "verbose"];
        assert!(level.is_some_and(|l| levels.contains(&l)), "level: {line}");
        assert!(value["message"].is_string(), "message: {line}");
        value
    };
    stderr.lines().map(object).collect()
}

#[test]
fn error_format_json_is_global_before_or_after_any_command() {
    let env = Env::new();
    for line in [
        "--error-format json fees -c eth --last 2",
        "fees -c eth --last 2 --error-format json",
    ] {
        let run = env.cmd(line).code(3).run();
        assert_eq!(objects(&run.stderr)[0]["class"], "config", "{line}");
    }
    // A command that never asks the service: every stderr line is still an object.
    let run = env
        .cmd("--error-format json config set timeout 7")
        .any_stderr()
        .run();
    let lines = objects(&run.stderr);
    assert_eq!(lines[0]["level"], "note", "{}", run.stderr);
    // What clap lists under its message is part of it.
    let run = env.cmd("--error-format json fees -c eth").code(2).run();
    assert_eq!(
        objects(&run.stderr)[0]["message"],
        "the following required arguments were not provided: <--start <DAY>|--last <N>|--resume|--month <YYYY-MM>|--quarter <YYYYQn>|--year <YYYY>>"
    );
    let cases = [
        (
            "--error-format json config gett",
            None,
            "some similar subcommands exist: 'set', 'get'",
        ),
        (
            "auth --error-format json logot",
            None,
            "some similar subcommands exist: 'login', 'logout'",
        ),
        ("cache stats --error-format json -f svg", Some("csv"), ""),
        (
            "chains --formt csv --error-format json",
            None,
            "a similar argument exists: '--format'",
        ),
        (
            "--error-format json completions fsh",
            Some("fish"),
            "a similar value exists: 'fish'",
        ),
    ];
    for (line, value, tip) in cases {
        let run = env.cmd(line).code(2).run();
        let error = &objects(&run.stderr)[0];
        assert_eq!(error["class"], "usage", "{line}");
        if !tip.is_empty() {
            assert_eq!(error["tip"], tip, "{line}");
        }
        if let Some(value) = value {
            let values = error["possible_values"].as_array().unwrap();
            assert!(
                values.contains(&serde_json::json!(value)),
                "{line}: {error}"
            );
        }
    }
}

#[test]
fn keep_going_in_json_lists_every_failed_chain_with_class_status_and_message() {
    let stub = Stub::start(|seen| match seen.body.contains("ETHEREUM") {
        true => Reply::json(
            200,
            r#"[{"date":"2024-01-01","fees":1},{"date":"2024-01-02","fees":2}]"#,
        ),
        false if seen.body.contains("ARBITRUM") => Reply::json(503, r#"{"error":"resting"}"#),
        false => Reply::json(404, r#"{"error":"unknown"}"#),
    });
    let env = Env::with_service(&stub.url);
    let line = "--error-format json fees -c eth,arb,base --retries 0 -f csv --keep-going";
    let lines = failed_lines(&env, &format!("{line} {TWO_DAYS}"), 6);
    let left_out: Vec<_> = lines
        .iter()
        .filter(|l| l["level"] == "warning")
        .map(|l| (l["chain"].clone(), l["class"].clone(), l["status"].clone()))
        .collect();
    assert_eq!(
        left_out,
        [
            (
                serde_json::json!("ARBITRUM"),
                serde_json::json!("service_failed"),
                serde_json::json!(503)
            ),
            (
                serde_json::json!("BASE"),
                serde_json::json!("request_rejected"),
                serde_json::json!(404)
            ),
        ]
    );
    // The failure is the warning's `reason`: an `error` member would read as the run's error.
    assert!(lines[0]["reason"].as_str().unwrap().contains("resting"));
    assert_eq!(lines[0].get("error"), None, "{}", lines[0]);
    let error = lines.last().unwrap();
    assert_eq!(
        (&error["level"], &error["class"]),
        (&"error".into(), &"service_failed".into())
    );
}

#[test]
fn in_json_mode_the_final_error_has_a_level_and_a_message_as_every_line_does() {
    let stub = one_chain_fails(503);
    let env = Env::with_service(&stub.url);
    let line = format!("fees -c eth,arb --retries 0 -f csv --keep-going {TWO_DAYS}");
    let levels = |quiet: &str| {
        let lines = failed_lines(&env, &format!("--error-format json {quiet}{line}"), 6);
        let last = lines.last().unwrap().clone();
        let levels: Vec<String> = lines.iter().map(|l| l["level"].to_string()).collect();
        (levels.join(" "), last)
    };
    let (all, error) = levels("");
    assert_eq!(all, r#""warning" "error""#);
    assert_eq!(error["exit"], 6, "{error}");
    assert!(error["message"]
        .as_str()
        .unwrap()
        .starts_with("the service failed: "));
    // -q keeps the error only, an object as in every run.
    assert_eq!(levels("-q ").0, r#""error""#);
}

#[test]
fn strict_in_json_names_each_missing_value_as_data() {
    let stub = Stub::start(|_| Reply::json(200, r#"[{"date":"2024-01-01","fees":1.5}]"#));
    let env = Env::with_service(&stub.url);
    let line = format!("fees -c eth -f csv --strict --error-format json {TWO_DAYS}");
    let lines = failed_lines(&env, &line, 10);
    assert_eq!(lines[0]["level"], "warning");
    let error = lines.last().unwrap();
    assert_eq!(error["class"], "incomplete");
    assert_eq!(
        error["missing"],
        serde_json::json!([{"chain": "ETHEREUM", "metric": "fees", "days": ["2024-01-02"]}])
    );
}

#[test]
fn the_man_pages_jq_example_prints_the_days_strict_found_missing() {
    let day = chrono::Utc::now().date_naive() - chrono::Days::new(3);
    let gap = format!("gap:arb:{day}..{day}");
    let (_sandbox, env) = sandbox_env(&["--fault", &gap]);
    env.shell(JQ_EXAMPLE)
        .stdout(format!("ARBITRUM fees: {day}\n"))
        .run();
}

#[test]
fn in_json_mode_every_stderr_line_is_an_object_whatever_the_run_says() {
    let day = chrono::Utc::now().date_naive() - chrono::Days::new(2);
    let gap = format!("gap:eth:{day}..{day}");
    let (_sandbox, env) = sandbox_env(&["--fault", "503@1", "--fault", &gap]);
    let run = env
        .cmd("--error-format json fees -c eth,arb --last 5 --chunk-days 2 -v --strict --decimals 3 -o f.csv")
        .code(10)
        .run();
    let lines = objects(&run.stderr);
    let levels: std::collections::BTreeSet<&str> =
        lines.iter().filter_map(|l| l["level"].as_str()).collect();
    // -v lines, the data warning, the --decimals note, the retries' note; then the verdict.
    for level in ["verbose", "warning", "note"] {
        assert!(levels.contains(level), "{level} in {}", run.stderr);
    }
    assert!(run.stderr.contains("retried"), "{}", run.stderr);
    let error = lines.last().unwrap();
    assert_eq!(
        (&error["level"], &error["class"]),
        (&"error".into(), &"incomplete".into())
    );
    assert!(
        error["message"].as_str().unwrap().starts_with("--strict: "),
        "{error}"
    );
    // The data warning says its series and days as data too.
    let warning = lines.iter().find(|l| l["level"] == "warning").unwrap();
    assert_eq!(
        (&warning["series"], &warning["days"]),
        (
            &serde_json::json!([{"chain": "ETHEREUM", "metric": "fees"}]),
            &serde_json::json!([day.to_string()])
        )
    );
    // A command that only reads the config and asks the service: its stderr too.
    let status = env
        .cmd("--error-format json auth status")
        .any_stdout()
        .run();
    objects(&status.stderr);
    assert!(!status.stdout.is_empty());
}

#[test]
fn a_range_ending_today_warns_that_today_is_not_over_and_strict_calls_it_partial() {
    let (_sandbox, env) = sandbox_env(&[]);
    let today = chrono::Utc::now().date_naive();
    let warning = format!(
        "warning: the range ends today, {today}, which is not over (UTC): its values are partial"
    );
    env.cmd("fees -c eth --last 2 -e today")
        .any_stdout()
        .stderr_contains(&warning)
        .run();
    env.cmd("fees -c eth --last 2 -e today --strict")
        .code(10)
        .any_stdout()
        .stderr_contains(&format!(
            "{today} (today, UTC) is not over, so its values are partial"
        ))
        .run();
    // The default end, yesterday, is over: no word.
    env.cmd("fees -c eth --last 2 --strict")
        .any_stdout()
        .stderr("")
        .run();
}

#[test]
fn merging_into_a_file_written_with_no_header_names_the_flag() {
    let (_sandbox, env) = sandbox_env(&[]);
    let range = "-s 2024-01-01 -e 2024-01-02";
    env.cmd(&format!("fees -c eth {range} --no-header -o f.csv"))
        .run();
    env.cmd(&format!("fees -c eth {range} -o f.csv --merge"))
        .code(9)
        .stderr_contains(
            "hint: its first line is a row, not a header: it was written with --no-header",
        )
        .run();
}
