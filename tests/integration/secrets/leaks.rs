//! The API key never shows: in `--verbose` traces, errors, help, config errors, and in the
//! recorded output of every run of every integration test; nor do control characters a service
//! echoes.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::support::{sandbox_env, transcripts_dir, Env, Reply, Sandbox, Stub, KEY};
use clap::CommandFactory;
use snapbox::str;

const RANGE: [&str; 6] = ["-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01"];

/// Every way a test runs the binary goes through tests/integration/support, which checks and
/// records each output; a test file anywhere below tests/ (every subfolder, read recursively)
/// spawning it another way must hand what it printed to `check_output`.
#[test]
fn only_support_runs_the_binary() {
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let support = tests.join("integration").join("support");
    let mut offenders = Vec::new();
    let files = crate::support::files::rust_files(&tests);
    assert!(
        files.iter().any(|f| f.ends_with("cache/planning.rs")),
        "{files:?}"
    );
    for path in files.iter().filter(|p| !p.starts_with(&support)) {
        let text = std::fs::read_to_string(path).unwrap();
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
    assert!(
        offenders.is_empty(),
        "run the binary through support::Env (cmd, cmd_args, shell), or pass what it printed to support::check_output (they check every output for the key): {offenders:?}"
    );
}

/// Scans what every integration test binary recorded so far (each rewrites its own file when
/// it runs): stdout and stderr of all their runs, and the sandboxes' stderr.
#[test]
fn no_recorded_output_of_any_test_run_holds_the_key() {
    let sandbox = Sandbox::start(&[]);
    Env::with_service(&sandbox.url)
        .cmd("-v fees -c eth --last 2")
        .stderr_contains("* POST ")
        .run();
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
    let run = env
        .cmd_args(&[&["-v", "--retries", "1", "fees"], &RANGE[..]].concat())
        .stdout(str![[r#"
date,fees
2024-01-01,1

"#]])
        .stderr_contains("* POST ")
        .run();
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
        "* rate limit: retry-after: 0",
        retry.as_str(),
        request.as_str(),
        "* HTTP 200 OK in _ ms, 32 bytes (ETHEREUM fees, 2024-01-01)",
        "warning: 1 request retried (1 retry): 503 x1",
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
    Env::with_service(&stub.url).cmd_args(&[&["fees"], &RANGE[..]].concat()).code(4).error_line("error: the service rejected the API key: POST /api/chain-insights/fees for ETHEREUM answered HTTP 401 Unauthorized: key **** is not valid").run();
    let stub = Stub::always(Reply::new(
        400,
        "text/plain",
        format!("bad request from {KEY}"),
    ));
    Env::with_service(&stub.url).cmd_args(&[&["users"], &RANGE[..]].concat()).code(5).error_line("error: the service rejected the request: POST /api/chain-insights/active_users for ETHEREUM answered HTTP 400 Bad Request: bad request from ****").run();
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
            env.cmd_args(&[&args[..], &[flag]].concat()).run();
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
    config("cat ~/key.txt");
    env.cmd_args(&[&["fees"], &RANGE[..]].concat())
        .stdout(str![[r#"
date,fees
2024-01-01,879768.88

"#]])
        .run();

    config(r#"sh -c "cat ~/key.txt; exit 1""#);
    env.cmd_args(&[&["fees"], &RANGE[..]].concat()).code(3).stderr("error: api_key_command from config file (sh -c \"cat ~/key.txt; exit 1\") failed (exit status: 1)\n").run();

    config(r#"sh -c "cat ~/key.txt; exec sleep 10""#);
    env.cmd_args(&[&["fees"], &RANGE[..]].concat()).code(3).stderr("error: api_key_command from config file (sh -c \"cat ~/key.txt; exec sleep 10\") did not finish within 0.3 s\n").run();
}

#[test]
fn config_errors_never_quote_the_value() {
    let env = Env::with_config(&format!("timeout = \"{KEY}\"\n"));
    env.cmd("config show").code(3).stderr(format!(
            "error: config file {}: line 1: timeout: expected a number of seconds from 0.001 to 86400, found a string\n",
            env.config_path().display()
        )).run();
    env.write_config(&format!("method = \"{KEY}\"\n"));
    env.cmd("config show").code(3).run();
}

#[test]
fn a_key_that_cannot_be_a_header_is_a_configuration_error() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", "http://127.0.0.1:9");
    env.set("CHAIN_METRICS_API_KEY", &format!("{KEY}\u{1}"));
    env.cmd_args(&[&["fees"], &RANGE[..]].concat()).code(3).stderr("error: the API key holds characters that cannot be sent in an HTTP header (control characters or non-ASCII) (key from environment CHAIN_METRICS_API_KEY)\n").run();
}

#[test]
fn dry_run_names_the_variable_never_the_key() {
    let env = Env::with_service("https://metrics.example/v2");
    for command in ["fees", "report"] {
        env.cmd_args(&[&[command, "--dry-run", "-v"], &RANGE[..]].concat())
            .stdout_contains("X-API-Key: $CHAIN_METRICS_API_KEY")
            .run();
    }
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
    env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-02 --verbose")
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
        let run = Env::with_service(&stub.url)
            .cmd("fees -c eth -s 2024-01-01 -e 2024-01-02 --retries 0")
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
