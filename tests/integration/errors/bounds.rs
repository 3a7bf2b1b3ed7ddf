//! Every number a user sets is bounded where it enters (past the bounds a timer overflowed or a
//! run never ended): a flag out of bounds is a usage error (exit 2) naming the bound, a config
//! file value a configuration error (exit 3); the sandbox's waits too.

use super::all_refused;
use crate::support::{empty_service, Env, DAY_ARGS};

const OVER_A_DAY: &str = "is more than a day (86400 seconds)";

/// (flag as clap names it, value, why it is refused).
const FLAGS_OUT_OF_BOUNDS: [(&str, &str, &str); 11] = [
    ("--timeout <SECS>", "1e19", OVER_A_DAY),
    // Within what a Duration holds, but an Instant that far ahead overflows.
    ("--timeout <SECS>", "9.3e18", OVER_A_DAY),
    ("--timeout <SECS>", "86400.5", OVER_A_DAY),
    ("--connect-timeout <SECS>", "inf", OVER_A_DAY),
    ("--lock-timeout <SECS>", "1e19", OVER_A_DAY),
    ("--timeout <SECS>", "NaN", "is not a number of seconds"),
    (
        "--timeout <SECS>",
        "1e-10",
        "is less than 0.001 seconds (a millisecond), the shortest wait",
    ),
    (
        "--retries <N>",
        "4294967296",
        "is not a number of retries from 0 to 100",
    ),
    (
        "--jobs <N>",
        "65",
        "is not a number of requests from 1 to 64",
    ),
    (
        "--chunk-days <N>",
        "4294967295",
        "is not a number of days from 1 to 36600",
    ),
    (
        "--chunk-days <N>",
        "0",
        "is not a number of days from 1 to 36600",
    ),
];

#[test]
fn flags_out_of_bounds_are_exit_2_naming_the_value() {
    let (stub, env) = empty_service();
    for (flag, value, why) in FLAGS_OUT_OF_BOUNDS {
        let name = flag.split(' ').next().unwrap();
        env.cmd_args(&[&DAY_ARGS[..], &[name, value]].concat())
            .code(2)
            .error_line(format!(
                "error: invalid value '{value}' for '{flag}': '{value}' {why}"
            ))
            .run();
    }
    assert!(stub.seen().is_empty());
    // The largest value each takes still runs.
    env.cmd_args(
        &[
            &DAY_ARGS[..],
            &["--timeout", "86400", "--retries", "100", "--jobs", "64"],
        ]
        .concat(),
    )
    .stderr_contains("warning: ETHEREUM fees: no data for 2024-01-01")
    .run();
}

#[test]
fn config_file_values_out_of_bounds_are_exit_3_before_any_request() {
    let (stub, env) = empty_service();
    let cases = [
        ("timeout = 1e19", "error: timeout 1e19 from config file is more than a day (86400 seconds)"),
        ("timeout = 9.3e18", "error: timeout 9.3e18 from config file is more than a day (86400 seconds)"),
        ("connect_timeout = 86401", "error: connect_timeout 86401 from config file is more than a day (86400 seconds)"),
        ("api_key_command_timeout = 1e300", "error: api_key_command_timeout 1e300 from config file is more than a day (86400 seconds)"),
        ("timeout = -1", "error: timeout -1 from config file is less than 0.001 seconds (a millisecond), the shortest wait"),
        ("retries = 1000", "error: retries 1000 from config file is out of bounds: expected from 0 to 100"),
        ("jobs = 100000", "error: jobs 100000 from config file is out of bounds: expected from 1 to 64"),
        ("[profiles.p]\nchunk_days = 99999", "error: chunk_days 99999 from config file, profile p is out of bounds: expected from 1 to 36600"),
    ];
    for (text, error) in cases {
        env.write_config(&format!("{text}\n"));
        let profile: &[&str] = match text.starts_with('[') {
            true => &["--profile", "p"],
            false => &[],
        };
        env.cmd_args(&[profile, &DAY_ARGS[..]].concat())
            .code(3)
            .error_line(error)
            .run();
    }
    assert!(stub.seen().is_empty());
}

#[test]
fn sandbox_waits_are_bounded_too() {
    let cases = [
        (&["--latency", "86400001"][..], "error: invalid value '86400001' for '--latency <MS>': '86400001' is not a number of milliseconds from 0 to 86400000 (a day)"),
        (&["--fault", "latency:18446744073709551615"], "error: invalid value 'latency:18446744073709551615' for '--fault <FAULT>': bad fault 'latency:18446744073709551615': latency needs milliseconds, at most 86400000; expected one of"),
        (&["--fault", "503:date+18446744073709551615"], "error: invalid value '503:date+18446744073709551615' for '--fault <FAULT>': bad fault '503:date+18446744073709551615': 'date+18446744073709551615' is not a Retry-After: seconds or date+SECONDS, at most 86400; expected one of"),
    ];
    for (args, error) in cases {
        let run = Env::new()
            .cmd_args(&[&["sandbox", "--listen", "127.0.0.1:0"], args].concat())
            .code(2)
            .run();
        assert!(run.error_line().starts_with(error), "{}", run.error_line());
    }
}

#[test]
fn limits_say_the_bound_that_was_crossed() {
    let cases: [(&[&str], &str); 4] = [
        (&["--last", "0"], "error: invalid value '0' for '--last <N>': '0' is zero days: --last takes at least 1 day"),
        (&["--last", "99999999999"], "error: invalid value '99999999999' for '--last <N>': '99999999999' is more than 100 years: --last takes at most 36600 days"),
        (&["--last", "2", "--timeout", "1e-10"], "error: invalid value '1e-10' for '--timeout <SECS>': '1e-10' is less than 0.001 seconds (a millisecond), the shortest wait"),
        (&["--last", "2", "--timeout", "soon"], "error: invalid value 'soon' for '--timeout <SECS>': 'soon' is not a number of seconds"),
    ];
    all_refused(&cases, &["fees", "-c", "eth"], &[]);
}
