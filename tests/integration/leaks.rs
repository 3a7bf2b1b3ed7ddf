//! The API key never shows: in `--verbose` traces, errors, help, config errors, and in the
//! recorded output of every run of every integration test.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::support::{transcripts_dir, Env, Reply, Sandbox, Stub, KEY};
use clap::CommandFactory;

const RANGE: [&str; 6] = ["-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01"];

/// Every way a test runs the binary goes through tests/integration/support, which checks and
/// records each output; a test file spawning it another way must hand what it printed to
/// `check_output`.
#[test]
fn only_support_runs_the_binary() {
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut offenders = Vec::new();
    let files = [tests.clone(), tests.join("integration")]
        .into_iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap());
    for entry in files {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            // Launching the binary by hand is allowed only with the output checked and recorded.
            let checked = text.contains("check_output(");
            for pattern in ["cargo_bin", "binary()", ".command()"] {
                if text.contains(pattern) && !checked && !path.ends_with("leaks.rs") {
                    offenders.push(format!(
                        "{} uses {pattern} without check_output",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "run the binary through support::Env (run, cmd), or pass what it printed to support::check_output (they check every output for the key): {offenders:?}"
    );
}

/// Scans what every integration test binary recorded so far (each rewrites its own file when
/// it runs): stdout and stderr of all their runs, and the sandboxes' stderr.
#[test]
fn no_recorded_output_of_any_test_run_holds_the_key() {
    let sandbox = Sandbox::start(&[]);
    let run = Env::with_service(&sandbox.url).run(&["-v", "fees", "-c", "eth", "--last", "2"]);
    assert_eq!(run.code, 0, "{run:?}");
    drop(sandbox);
    let mut scanned = 0;
    for entry in std::fs::read_dir(transcripts_dir()).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains(KEY),
            "the key is in the recorded output {}",
            path.display()
        );
        scanned += text.matches("\n$ ").count() + usize::from(text.starts_with("$ "));
    }
    assert!(scanned >= 2, "only {scanned} runs were recorded");
}

#[test]
fn verbose_shows_requests_retries_and_timings_with_the_key_masked() {
    let calls = AtomicUsize::new(0);
    let stub = Stub::start(move |_| match calls.fetch_add(1, Ordering::SeqCst) {
        0 => Reply::new(503, "text/plain", "busy").header("retry-after", "0"),
        _ => Reply::json(200, r#"[{"date":"2024-01-01","fees":1}]"#),
    });
    let env = Env::with_service(&stub.url);
    let run = env.run(&[&["-v", "--retries", "1", "fees"], &RANGE[..]].concat());
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "date,fees\n2024-01-01,1\n");
    let request = format!(
        "* POST {}/api/chain-insights/fees headers: x-api-key: ****, content-type, accept, user-agent; body {{\"chain\":\"ETHEREUM\",\"start_date\":\"2024-01-01\",\"end_date\":\"2024-01-01\"}}",
        stub.url
    );
    let retry = format!(
        "* retry 1 of 1 in 0 ms: POST {}/api/chain-insights/fees: HTTP 503 Service Unavailable (ETHEREUM fees, 2024-01-01)",
        stub.url
    );
    let expected = [
        request.as_str(),
        "* HTTP 503 Service Unavailable in _ ms, 4 bytes (ETHEREUM fees, 2024-01-01)",
        retry.as_str(),
        request.as_str(),
        "* HTTP 200 OK in _ ms, 32 bytes (ETHEREUM fees, 2024-01-01)",
    ];
    assert_eq!(without_timings(&run.stderr), expected);
}

/// The stderr lines with each response time replaced by `_`: timings vary, their place does not.
fn without_timings(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .map(|line| match (line.find(" in "), line.find(" ms, ")) {
            (Some(a), Some(b)) if line.starts_with("* HTTP ") && a < b => {
                format!("{} in _{}", &line[..a], &line[b..])
            }
            _ => line.to_owned(),
        })
        .collect()
}

#[test]
fn a_service_echoing_the_key_has_it_scrubbed_from_errors() {
    let body = format!(r#"{{"error":"key {KEY} is not valid"}}"#);
    let stub = Stub::always(Reply::json(401, &body));
    let run = Env::with_service(&stub.url).run(&[&["fees"], &RANGE[..]].concat());
    assert_eq!(run.code, 4, "{run:?}");
    assert_eq!(
        run.error_line(),
        "error: the service rejected the API key: POST /api/chain-insights/fees for ETHEREUM answered HTTP 401 Unauthorized: key **** is not valid"
    );
    let stub = Stub::always(Reply::new(
        400,
        "text/plain",
        format!("bad request from {KEY}"),
    ));
    let run = Env::with_service(&stub.url).run(&[&["users"], &RANGE[..]].concat());
    assert_eq!(run.code, 5, "{run:?}");
    assert_eq!(
        run.error_line(),
        "error: the service rejected the request: POST /api/chain-insights/active_users for ETHEREUM answered HTTP 400 Bad Request: bad request from ****"
    );
}

#[test]
fn help_never_shows_the_key_even_when_every_variable_holds_it() {
    let mut env = Env::new();
    for name in [
        "CHAIN_METRICS_API_KEY",
        "CHAIN_METRICS_BASE_URL",
        "CHAIN_METRICS_PROFILE",
        "CHAIN_METRICS_CONFIG",
    ] {
        env.set(name, KEY);
    }
    let mut paths = vec![Vec::new()];
    let mut i = 0;
    while i < paths.len() {
        let mut command = chain_metrics::Cli::command();
        for name in &paths[i] {
            command = command.find_subcommand(name).unwrap().clone();
        }
        for sub in command.get_subcommands() {
            paths.push([paths[i].clone(), vec![sub.get_name().to_owned()]].concat());
        }
        i += 1;
    }
    assert!(paths.len() >= 14, "{paths:?}");
    for path in &paths {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        for flag in ["--help", "-h"] {
            // Env::run fails the test if the key is anywhere in the output.
            let run = env.run(&[&args[..], &[flag]].concat());
            assert_eq!(run.code, 0, "{args:?} {flag}: {run:?}");
        }
    }
}

#[test]
fn api_key_command_failures_name_the_command_and_never_echo_its_output() {
    let env = Env::new();
    std::fs::write(env.home.path().join("key.txt"), format!("{KEY}\n")).unwrap();
    let sandbox = Sandbox::start(&[]);
    let config = |command: &str| {
        env.write_config(&format!(
            "base_url = \"{}\"\napi_key_command_timeout = 0.3\napi_key_command = '{command}'\n",
            sandbox.url
        ))
    };
    config(r#"cat "$HOME/key.txt""#);
    let run = env.run(&[&["fees"], &RANGE[..]].concat());
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "date,fees\n2024-01-01,879768.88\n");

    config(r#"cat "$HOME/key.txt"; exit 1"#);
    let run = env.run(&[&["fees"], &RANGE[..]].concat());
    assert_eq!(run.code, 3, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: api_key_command from config file (cat \"$HOME/key.txt\"; exit 1) failed (exit status: 1)\n"
    );

    config(r#"cat "$HOME/key.txt"; exec sleep 10"#);
    let run = env.run(&[&["fees"], &RANGE[..]].concat());
    assert_eq!(run.code, 3, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: api_key_command from config file (cat \"$HOME/key.txt\"; exec sleep 10) did not finish within 0.3 s\n"
    );
}

#[test]
fn config_errors_never_quote_the_value() {
    let env = Env::new();
    env.write_config(&format!("timeout = \"{KEY}\"\n"));
    let run = env.run(&["config", "show"]);
    assert_eq!(run.code, 3, "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "error: config file {}: line 1: timeout: expected a number of seconds from 0.001 to 86400, found a string\n",
            env.config_path().display()
        )
    );
    env.write_config(&format!("method = \"{KEY}\"\n"));
    let run = env.run(&["config", "show"]);
    assert_eq!(run.code, 3, "{run:?}");
}

#[test]
fn a_key_that_cannot_be_a_header_is_a_configuration_error() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", "http://127.0.0.1:9");
    env.set("CHAIN_METRICS_API_KEY", &format!("{KEY}\u{1}"));
    let run = env.run(&[&["fees"], &RANGE[..]].concat());
    assert_eq!(run.code, 3, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: the API key holds characters that cannot be sent in an HTTP header (control characters or non-ASCII) (key from environment CHAIN_METRICS_API_KEY)\n"
    );
}

#[test]
fn dry_run_names_the_variable_never_the_key() {
    let env = Env::with_service("https://metrics.example/v2");
    for command in ["fees", "report"] {
        let run = env.run(&[&[command, "--dry-run", "-v"], &RANGE[..]].concat());
        assert_eq!(run.code, 0, "{run:?}");
        assert!(
            run.stdout.contains("X-API-Key: $CHAIN_METRICS_API_KEY"),
            "{}",
            run.stdout
        );
    }
}
