//! The fault matrix: each sandbox fault against each command family (fees, users, social),
//! asserting the exit code, the first error line, the attempts the sandbox saw, and that
//! nothing partial reached the output; and the whole matrix as one table, the snapshot
//! snapshots/fault_matrix.txt, for a reviewer to read.
//!
//! Each fault has its own test, but every run of the matrix is made once, the first time a
//! test asks, by a few threads side by side (`matrix`): a run is mostly waiting (timeouts,
//! retries), so the matrix takes about as long as its slowest run, and the table and the
//! tests read the same runs.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::support::{assert_snapshot, Env, Sandbox};

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

/// The faults of the matrix: the first 11 fail every run, the last 5 clear after `@N` faulty
/// attempts, which the 2 retries ride out.
const FAULTS: [&str; 16] = [
    "503:0",
    "429:0",
    "429:120",
    "reset",
    "cut",
    "latency:5000",
    "html",
    "wrong-type",
    "huge",
    "range-cap:2",
    "404",
    "503:0@2",
    "429:0@1",
    "reset@2",
    "cut@1",
    "latency:5000@1",
];

/// How many runs of the matrix go on at once.
const WORKERS: usize = 6;

/// What a run under one fault did.
struct Outcome {
    fault: &'static str,
    command: &'static str,
    code: i32,
    stdout: String,
    stderr: String,
    attempts: usize,
    url: String,
}

impl Outcome {
    fn error_line(&self) -> &str {
        self.stderr.lines().next().unwrap_or("")
    }

    fn hint(&self) -> Option<&str> {
        self.stderr.lines().find_map(|l| l.strip_prefix("hint: "))
    }

    /// Nothing partial: a failed run prints no data. (With --output, the lead's merge extends
    /// this to "an existing output file is byte-identical afterwards".)
    fn assert_no_output(&self) {
        assert_eq!(
            self.stdout, "",
            "{} {}: {}",
            self.fault, self.command, self.stderr
        );
    }
}

/// Runs `family` against a sandbox showing `fault`, with 2 retries. The total timeout is 0.5 s
/// for the latency faults, which are about it; the others get 10 s, and `huge` a minute, so
/// that a slow machine (64 MiB from a debug build, many runs at once, on a shared machine)
/// never turns them into timeouts.
fn run(family: &'static Family, fault: &'static str) -> Outcome {
    let sandbox = Sandbox::start(&["--fault", fault]);
    let env = Env::with_service(&sandbox.url);
    let timeout = match fault {
        _ if fault.starts_with("latency:") => "0.5",
        "huge" => "60",
        _ => "10",
    };
    let args = [
        "--retries",
        "2",
        "--timeout",
        timeout,
        family.command,
        "-c",
        "eth",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-03",
    ];
    let run = env.cmd_args(&args).any_outcome().run();
    Outcome {
        fault,
        command: family.command,
        code: run.code,
        stdout: run.stdout,
        stderr: run.stderr,
        attempts: sandbox.attempts(),
        url: sandbox.url.clone(),
    }
}

/// Every fault against every family, in the order of FAULTS then FAMILIES; made once.
fn matrix() -> &'static [Outcome] {
    static MATRIX: OnceLock<Vec<Outcome>> = OnceLock::new();
    MATRIX.get_or_init(|| {
        let jobs: Vec<(&Family, &str)> = FAULTS
            .iter()
            .flat_map(|fault| FAMILIES.iter().map(move |family| (family, *fault)))
            .collect();
        let next = AtomicUsize::new(0);
        let done: Mutex<Vec<(usize, Outcome)>> = Mutex::default();
        std::thread::scope(|scope| {
            for _ in 0..WORKERS {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some((family, fault)) = jobs.get(i) else {
                        break;
                    };
                    let outcome = run(family, fault);
                    done.lock().unwrap().push((i, outcome));
                });
            }
        });
        let mut done = done.into_inner().unwrap();
        done.sort_by_key(|(i, _)| *i);
        done.into_iter().map(|(_, outcome)| outcome).collect()
    })
}

/// The runs under `fault`, one per family in the order of FAMILIES.
fn under(fault: &'static str) -> impl Iterator<Item = (&'static Family, &'static Outcome)> {
    let outcomes = matrix().iter().filter(move |o| o.fault == fault);
    FAMILIES.iter().zip(outcomes)
}

/// A fault that fails every run: each family prints nothing, exits `code` after `attempts`
/// attempts, and its first line of stderr is `line` (made from the family and the run: the
/// endpoint's path, the sandbox's address); its hint is `hint` where the test names one.
fn assert_fails(
    fault: &'static str,
    (code, attempts): (i32, usize),
    line: impl Fn(&Family, &Outcome) -> String,
    hint: Option<&str>,
) {
    for (family, out) in under(fault) {
        out.assert_no_output();
        assert_eq!(
            (out.code, out.attempts),
            (code, attempts),
            "{}",
            family.command
        );
        assert_eq!(out.error_line(), line(family, out));
        if hint.is_some() {
            assert_eq!(out.hint(), hint, "{}", family.command);
        }
    }
}

#[test]
fn service_unavailable_is_retried_then_exit_6() {
    assert_fails(
        "503:0",
        (6, 3),
        |family, _| {
            format!("error: the service failed: POST {} for ETHEREUM answered HTTP 503 Service Unavailable: synthetic failure (fault 503) (after 2 retries)", family.path)
        },
        Some("try again later, or raise --retries"),
    );
}

#[test]
fn too_many_requests_is_retried_then_exit_6() {
    assert_fails(
        "429:0",
        (6, 3),
        |family, _| {
            format!("error: the service failed: POST {} for ETHEREUM answered HTTP 429 Too Many Requests: synthetic failure (fault 429) (after 2 retries)", family.path)
        },
        None,
    );
}

#[test]
fn a_retry_after_beyond_60_seconds_fails_at_once() {
    assert_fails(
        "429:120",
        (6, 1),
        |family, _| {
            format!("error: the service failed: POST {} for ETHEREUM answered HTTP 429 Too Many Requests: synthetic failure (fault 429) (the service asked to wait 120 s before retrying, longer than the 60 s this tool waits)", family.path)
        },
        Some("try again once the service's wait is over"),
    );
}

#[test]
fn a_reset_connection_is_retried_then_exit_7() {
    for (family, out) in under("reset") {
        out.assert_no_output();
        assert_eq!((out.code, out.attempts), (7, 3), "{}", family.command);
        // Whether the RST lands while connecting or after is a race the client may see
        // either way; both are network failures that name the reset.
        let start = format!(
            "error: POST {} for ETHEREUM at {}{}: ",
            family.path, out.url, family.path
        );
        let reason = out.error_line().strip_prefix(&start).unwrap_or_default();
        assert!(
            [
                "the connection broke (Connection reset by peer (os error 104)) (3 attempts)",
                "cannot connect (Connection reset by peer (os error 104)) (3 attempts)"
            ]
            .contains(&reason),
            "{}",
            out.error_line()
        );
    }
}

#[test]
fn a_body_cut_short_is_retried_then_exit_7() {
    assert_fails(
        "cut",
        (7, 3),
        |family, out| {
            format!("error: POST {} for ETHEREUM at {}{}: the response body was cut short (unexpected EOF during chunk size line) (3 attempts)", family.path, out.url, family.path)
        },
        None,
    );
}

#[test]
fn a_slow_service_times_out_per_attempt_then_exit_7() {
    assert_fails(
        "latency:5000",
        (7, 3),
        |family, out| format!("error: POST {} for ETHEREUM at {}{}: timed out after 0.5 s (3 attempts)", family.path, out.url, family.path),
        Some("raise --timeout (seconds for a whole request), or ask for fewer days per request with --chunk-days N"),
    );
}

#[test]
fn an_html_page_is_not_data_exit_8_without_retry() {
    assert_fails(
        "html",
        (8, 1),
        |family, _| {
            format!("error: POST {} for ETHEREUM answered content-type text/html; charset=utf-8, not JSON: an HTML page titled \"Down for maintenance\"", family.path)
        },
        None,
    );
}

#[test]
fn a_wrong_typed_field_is_named_with_its_record_exit_8() {
    assert_fails(
        "wrong-type",
        (8, 1),
        |family, _| {
            format!("error: POST {} for ETHEREUM answered something that is not the documented shape (content-type application/json): record 2: field {}: expected a number, found a string \"{}\"", family.path, family.wrong_field, family.last_value)
        },
        None,
    );
}

#[test]
fn a_huge_body_is_refused_without_retry_exit_8() {
    assert_fails(
        "huge",
        (8, 1),
        |family, out| {
            format!("error: POST {} for ETHEREUM at {}{}: the response is larger than 64 MiB, the most this tool reads", family.path, out.url, family.path)
        },
        None,
    );
}

#[test]
fn a_range_cap_is_refused_without_retry_and_the_hint_names_chunk_days() {
    assert_fails(
        "range-cap:2",
        (5, 1),
        |family, _| format!("error: the service rejected the request: POST {} for ETHEREUM answered HTTP 400 Bad Request: date range too long: 3 days asked, at most 2 days per request", family.path),
        Some("the request asked for 3 days and the service takes at most 2: split the range with --chunk-days 2 (or chunk_days = 2 in the config file)"),
    );
}

#[test]
fn other_client_errors_are_never_retried() {
    assert_fails(
        "404",
        (5, 1),
        |family, _| format!("error: the service rejected the request: POST {} for ETHEREUM answered HTTP 404 Not Found: synthetic failure (fault 404)", family.path),
        Some("check the base URL's path: the endpoint paths are appended to it, so a missing or extra prefix (such as /v2) answers 404"),
    );
}

/// Each family's output over the three days, when a fault clears.
const RIDDEN_OUT: [&str; 3] = [
    "date,fees\n2024-01-01,879768.88\n2024-01-02,826665.76\n2024-01-03,821920.42\n",
    "date,active_users\n2024-01-01,414059\n2024-01-02,458588\n2024-01-03,472251\n",
    "date,reply,retweet,tweet,quote\n2024-01-01,0,0,2,0\n2024-01-02,0,7,5,0\n2024-01-03,8,0,6,0\n",
];

/// A fault that clears after `@N` faulty attempts is ridden out: every family succeeds, says
/// only how many requests were retried and why (`retried`), and the
/// sandbox saw N + 1 attempts.
fn assert_ridden_out(fault: &'static str, retried: &str) {
    for ((family, run), csv) in under(fault).zip(RIDDEN_OUT) {
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (0, csv),
            "{fault}: {}",
            run.stderr
        );
        assert_eq!(run.stderr, retried, "{fault}");
        let faulty: usize = fault
            .rsplit_once('@')
            .map(|(_, n)| n.parse().unwrap())
            .unwrap();
        assert_eq!(run.attempts, faulty + 1, "{fault} {}", family.command);
    }
}

#[test]
fn service_unavailable_twice_is_ridden_out() {
    assert_ridden_out(
        "503:0@2",
        "warning: 1 request retried (2 retries): 503 x2\n",
    );
}

#[test]
fn too_many_requests_once_is_ridden_out() {
    assert_ridden_out("429:0@1", "warning: 1 request retried (1 retry): 429 x1\n");
}

#[test]
fn a_connection_reset_twice_is_ridden_out() {
    assert_ridden_out(
        "reset@2",
        "warning: 1 request retried (2 retries): connection failed x2\n",
    );
}

#[test]
fn a_body_cut_short_once_is_ridden_out() {
    assert_ridden_out(
        "cut@1",
        "warning: 1 request retried (1 retry): cut short x1\n",
    );
}

#[test]
fn a_slow_answer_once_is_ridden_out() {
    assert_ridden_out(
        "latency:5000@1",
        "warning: 1 request retried (1 retry): timeout x1\n",
    );
}

/// The matrix as one table: per fault and family, the exit code, the attempts and the first
/// line of stderr, with the sandbox's address as [SANDBOX]. Whether a reset lands while
/// connecting or after is a race, so the snapshot leaves that word open with `[..]`.
#[test]
fn the_matrix_as_one_table() {
    let mut table = String::from("fault           command  exit  attempts  first line of stderr\n");
    for out in matrix() {
        let line = match out.error_line() {
            "" => "(nothing)".to_owned(),
            line => line.replace(&out.url, "[SANDBOX]"),
        };
        table.push_str(&format!(
            "{:<15} {:<8} {:>4}  {:>8}  {line}\n",
            out.fault, out.command, out.code, out.attempts
        ));
    }
    assert_eq!(matrix().len(), FAULTS.len() * FAMILIES.len());
    assert_snapshot("fault_matrix.txt", &table, &[]);
}
