//! The fault matrix: each sandbox fault against each command family (fees, users, social),
//! asserting the exit code, the first error line, the attempts the sandbox saw, and that
//! nothing partial reached the output.

use crate::support::{Env, Sandbox};

/// A command family: its arguments, its endpoint path, and its value in the last record of
/// 2024-01-01..2024-01-03 for ETHEREUM with the field the wrong-type fault turns into a string.
struct Family {
    command: &'static str,
    path: &'static str,
    wrong_field: &'static str,
    last_value: &'static str,
}

const FAMILIES: [Family; 3] = [
    Family {
        command: "fees",
        path: "/api/chain-insights/fees",
        wrong_field: "fees",
        last_value: "821920.42",
    },
    Family {
        command: "users",
        path: "/api/chain-insights/active_users",
        wrong_field: "active_users",
        last_value: "472251",
    },
    Family {
        command: "social",
        path: "/api/social-metrics/official-account",
        wrong_field: "reply",
        last_value: "8",
    },
];

/// What a run under one fault did.
struct Outcome {
    code: i32,
    error_line: String,
    hint: Option<String>,
    attempts: usize,
    url: String,
}

/// Runs `family` against a sandbox showing `fault`, with 2 retries and a 0.5 s total timeout.
fn run(family: &Family, fault: &str) -> Outcome {
    let sandbox = Sandbox::start(&["--fault", fault]);
    let env = Env::with_service(&sandbox.url);
    let args = [
        "--retries",
        "2",
        "--timeout",
        "0.5",
        family.command,
        "-c",
        "eth",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-03",
    ];
    let run = env.run(&args);
    // Nothing partial: a failed run prints no data. (With --output, the lead's merge extends
    // this to "an existing output file is byte-identical afterwards".)
    assert_eq!(run.stdout, "", "{fault} {}: {run:?}", family.command);
    let hint = run
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("hint: "))
        .map(str::to_owned);
    Outcome {
        code: run.code,
        error_line: run.error_line().to_owned(),
        hint,
        attempts: sandbox.attempts(),
        url: sandbox.url.clone(),
    }
}

#[test]
fn service_unavailable_is_retried_then_exit_6() {
    for family in &FAMILIES {
        let out = run(family, "503:0");
        assert_eq!((out.code, out.attempts), (6, 3), "{}", family.command);
        assert_eq!(out.error_line, format!("error: the service failed: POST {} for ETHEREUM answered HTTP 503 Service Unavailable: synthetic failure (fault 503) (after 2 retries)", family.path));
        assert_eq!(
            out.hint.as_deref(),
            Some("try again later, or raise --retries")
        );
    }
}

#[test]
fn too_many_requests_is_retried_then_exit_6() {
    for family in &FAMILIES {
        let out = run(family, "429:0");
        assert_eq!((out.code, out.attempts), (6, 3), "{}", family.command);
        assert_eq!(out.error_line, format!("error: the service failed: POST {} for ETHEREUM answered HTTP 429 Too Many Requests: synthetic failure (fault 429) (after 2 retries)", family.path));
    }
}

#[test]
fn a_retry_after_beyond_60_seconds_fails_at_once() {
    for family in &FAMILIES {
        let out = run(family, "429:120");
        assert_eq!((out.code, out.attempts), (6, 1), "{}", family.command);
        assert_eq!(out.error_line, format!("error: the service failed: POST {} for ETHEREUM answered HTTP 429 Too Many Requests: synthetic failure (fault 429) (the service asked to wait 120 s before retrying, longer than the 60 s this tool waits)", family.path));
        assert_eq!(
            out.hint.as_deref(),
            Some("try again once the service's wait is over")
        );
    }
}

#[test]
fn a_reset_connection_is_retried_then_exit_7() {
    for family in &FAMILIES {
        let out = run(family, "reset");
        assert_eq!((out.code, out.attempts), (7, 3), "{}", family.command);
        // Whether the RST lands while connecting or after is a race the client may see
        // either way; both are network failures that name the reset.
        let start = format!(
            "error: POST {} for ETHEREUM at {}{}: ",
            family.path, out.url, family.path
        );
        let reason = out.error_line.strip_prefix(&start).unwrap_or_default();
        assert!(
            [
                "the connection broke (Connection reset by peer (os error 104)) (3 attempts)",
                "cannot connect (Connection reset by peer (os error 104)) (3 attempts)"
            ]
            .contains(&reason),
            "{}",
            out.error_line
        );
    }
}

#[test]
fn a_body_cut_short_is_retried_then_exit_7() {
    for family in &FAMILIES {
        let out = run(family, "cut");
        assert_eq!((out.code, out.attempts), (7, 3), "{}", family.command);
        assert_eq!(
            out.error_line,
            format!("error: POST {} for ETHEREUM at {}{}: the response body was cut short (unexpected EOF during chunk size line) (3 attempts)", family.path, out.url, family.path)
        );
    }
}

#[test]
fn a_slow_service_times_out_per_attempt_then_exit_7() {
    for family in &FAMILIES {
        let out = run(family, "latency:5000");
        assert_eq!((out.code, out.attempts), (7, 3), "{}", family.command);
        assert_eq!(
            out.error_line,
            format!(
                "error: POST {} for ETHEREUM at {}{}: timed out after 0.5 s (3 attempts)",
                family.path, out.url, family.path
            )
        );
        assert_eq!(
            out.hint.as_deref(),
            Some("raise --timeout (seconds for a whole request), or ask for fewer days per request with --chunk-days N")
        );
    }
}

#[test]
fn an_html_page_is_not_data_exit_8_without_retry() {
    for family in &FAMILIES {
        let out = run(family, "html");
        assert_eq!((out.code, out.attempts), (8, 1), "{}", family.command);
        assert_eq!(out.error_line, format!("error: POST {} for ETHEREUM answered content-type text/html; charset=utf-8, not JSON: an HTML page titled \"Down for maintenance\"", family.path));
    }
}

#[test]
fn a_wrong_typed_field_is_named_with_its_record_exit_8() {
    for family in &FAMILIES {
        let out = run(family, "wrong-type");
        assert_eq!((out.code, out.attempts), (8, 1), "{}", family.command);
        assert_eq!(out.error_line, format!("error: POST {} for ETHEREUM answered something that is not the documented shape (content-type application/json): record 2: field {}: expected a number, found a string \"{}\"", family.path, family.wrong_field, family.last_value));
    }
}

#[test]
fn a_huge_body_is_refused_without_retry_exit_8() {
    for family in &FAMILIES {
        let out = run(family, "huge");
        assert_eq!((out.code, out.attempts), (8, 1), "{}", family.command);
        assert_eq!(
            out.error_line,
            format!("error: POST {} for ETHEREUM at {}{}: the response is larger than 64 MiB, the most this tool reads", family.path, out.url, family.path)
        );
    }
}

#[test]
fn a_range_cap_is_refused_without_retry_and_the_hint_names_chunk_days() {
    for family in &FAMILIES {
        let out = run(family, "range-cap:2");
        assert_eq!((out.code, out.attempts), (5, 1), "{}", family.command);
        assert_eq!(out.error_line, format!("error: the service rejected the request: POST {} for ETHEREUM answered HTTP 400 Bad Request: date range too long: 3 days asked, at most 2 days per request", family.path));
        assert_eq!(out.hint.as_deref(), Some("the request asked for 3 days; split the range into shorter windows with --chunk-days N (e.g. --chunk-days 1)"));
    }
}

#[test]
fn other_client_errors_are_never_retried() {
    for family in &FAMILIES {
        let out = run(family, "404");
        assert_eq!((out.code, out.attempts), (5, 1), "{}", family.command);
        assert_eq!(out.error_line, format!("error: the service rejected the request: POST {} for ETHEREUM answered HTTP 404 Not Found: synthetic failure (fault 404)", family.path));
        assert_eq!(out.hint, None);
    }
}

#[test]
fn transient_faults_that_clear_are_ridden_out() {
    let expected = [
        "date,fees\n2024-01-01,879768.88\n2024-01-02,826665.76\n2024-01-03,821920.42\n",
        "date,active_users\n2024-01-01,414059\n2024-01-02,458588\n2024-01-03,472251\n",
        "date,reply,retweet,tweet,quote\n2024-01-01,0,0,2,0\n2024-01-02,0,7,5,0\n2024-01-03,8,0,6,0\n",
    ];
    for fault in ["503:0@2", "429:0@1", "reset@2", "cut@1", "latency:5000@1"] {
        for (family, csv) in FAMILIES.iter().zip(expected) {
            let sandbox = Sandbox::start(&["--fault", fault]);
            let run = Env::with_service(&sandbox.url).run(&[
                "--retries",
                "2",
                "--timeout",
                "0.5",
                family.command,
                "-c",
                "eth",
                "-s",
                "2024-01-01",
                "-e",
                "2024-01-03",
            ]);
            assert_eq!(
                (run.code, run.stdout.as_str()),
                (0, csv),
                "{fault}: {run:?}"
            );
            assert_eq!(run.stderr, "", "{fault}");
            let faulty: usize = fault
                .rsplit_once('@')
                .map(|(_, n)| n.parse().unwrap())
                .unwrap();
            assert_eq!(sandbox.attempts(), faulty + 1, "{fault} {}", family.command);
        }
    }
}
