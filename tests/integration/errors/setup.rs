//! Configuration errors (exit 3): no address or key, a config file that does not parse or holds
//! the wrong kind of value, plain http to another host, an environment variable that is not
//! UTF-8 or is empty; and Ctrl-C at the key prompt (exit 130).

use super::fees;
use crate::support::{sandbox_env, Env, Sandbox, KEY};

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
    let path = env.config_path();
    fees(&env, &[])
        .code(3)
        .error_line_like(format!(
            "error: config file {}: line 5: unknown field `api-key`, expected one of[..]",
            path.display()
        ))
        .run();
    env.write_config("timeout = [\n");
    fees(&env, &[])
        .code(3)
        .error_line(format!(
            "error: config file {}: line 1: unclosed array, expected `]`",
            path.display()
        ))
        .run();
    env.cmd("--config /nonexistent/cm.toml fees -c eth --last 1")
        .code(3)
        .error_line_like("error: cannot read config file /nonexistent/cm.toml: [..]")
        .run();
}

#[test]
fn plain_http_to_another_host_is_refused_unless_allowed() {
    let env = Env::with_service("http://metrics.example:8080/v1");
    fees(&env, &[]).code(3).error_line("error: base URL from environment CHAIN_METRICS_BASE_URL: refusing plain http to metrics.example: the API key would travel in clear; use https, or set allow_http = true in the config file").run();
}

#[test]
fn an_empty_key_variable_and_a_wrong_kind_in_the_config_file_are_named() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", "https://metrics.example")
        .set("CHAIN_METRICS_API_KEY", "");
    let fees = ["fees", "-c", "eth", "--last", "2"];
    env.cmd_args(&fees)
        .code(3)
        .error_line("error: CHAIN_METRICS_API_KEY is set but empty, and no other API key is set")
        .run();

    env.cmd("auth status")
        .code(3)
        .error_line("error: CHAIN_METRICS_API_KEY is set but empty, and no other API key is set")
        .run();

    let path = env.config_path();
    let cases = [
        (
            "retries = 1e11",
            "line 1: retries: expected a whole number from 0 to 100, found floating point `1e11`",
        ),
        (
            "timeout = \"abc\"",
            "line 1: timeout: expected a number of seconds from 0.001 to 86400, found a string",
        ),
        (
            "[profiles.p]\nallow_http = 1",
            "line 2: allow_http: expected true or false, found integer `1`",
        ),
    ];
    for (text, why) in cases {
        env.write_config(&format!("{text}\n"));
        let line = format!("error: config file {}: {why}", path.display());
        env.cmd_args(&fees).code(3).error_line(line.as_str()).run();
    }
}

#[test]
fn a_variable_that_is_not_utf8_is_named() {
    let (_sandbox, env) = sandbox_env(&[]);
    for name in [
        "CHAIN_METRICS_PROFILE",
        "CHAIN_METRICS_API_KEY",
        "CHAIN_METRICS_BASE_URL",
    ] {
        env.shell(&format!(
            "{name}=$'pro\\xff' chain-metrics fees -c eth --last 2"
        )).code(3).stderr(format!("error: the environment variable {name} is not UTF-8 text\nhint: set it to the text you meant, or unset it\n")).run();
    }
}

#[test]
fn ctrl_c_at_the_key_prompt_exits_130() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &sandbox.url);
    let prompt = "API key (input hidden): ";
    let run = env.cmd("auth login").typing(prompt, "\x03").code(130).run();
    assert!(!run.stdout.contains("error"), "{run:?}");
    assert!(!env.config_path().exists());
}
