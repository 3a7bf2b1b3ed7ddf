//! auth login, status and logout end to end: the real binary, real config files, and the
//! sandbox or a scripted server on loopback checking the key.

use std::os::unix::fs::PermissionsExt;

use crate::support::{sandbox_env, Env, Reply, Sandbox, Stub, KEY};
use snapbox::str;

fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// The config file at `path` holds exactly `text`, and only its owner may read it (0600).
#[track_caller]
fn assert_private(path: &std::path::Path, text: &str) {
    assert_eq!(std::fs::read_to_string(path).unwrap(), text);
    assert_eq!(mode(path), 0o600);
}

/// An environment that knows the service's address but has no key.
fn env_for(url: &str) -> Env {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", url);
    env
}

#[test]
fn login_reads_stdin_checks_the_key_and_stores_it_in_a_private_file() {
    let sandbox = Sandbox::start(&[]);
    let env = env_for(&sandbox.url);
    let path = env.config_path();
    env.cmd("auth login")
        .stdin(&format!("{KEY}\n"))
        .stdout("")
        .stderr(format!(
            "stored the API key ****51d4 in config file {} (the service accepted it)\n",
            path.display()
        ))
        .run();

    assert_private(&path, &format!("api_key = \"{KEY}\"\n"));
    assert_eq!(mode(&env.config_dir()), 0o700);
    // The stored key is the one later commands use.
    env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-01")
        .stdout(str![[r#"
date,fees
2024-01-01,879768.88

"#]])
        .run();
}

#[test]
fn login_on_a_terminal_asks_with_a_hidden_prompt() {
    let sandbox = Sandbox::start(&[]);
    let env = env_for(&sandbox.url);
    let prompt = "API key (input hidden): ";
    let run = env.cmd("auth login").typing(prompt, KEY).run();
    // Line ends on a terminal are \r\n; a trailing blank line comes and goes with timing.
    assert_eq!(
        run.stdout.trim_end(),
        format!(
            "{prompt}\r\nstored the API key ****51d4 in config file {} (the service accepted it)",
            env.config_path().display()
        )
    );
    assert_eq!(
        std::fs::read_to_string(env.config_path()).unwrap(),
        format!("api_key = \"{KEY}\"\n")
    );
}

#[test]
fn a_rejected_key_exits_4_and_is_not_stored() {
    let sandbox = Sandbox::start(&[]);
    let env = env_for(&sandbox.url);
    env
        .cmd("auth login")
        .stdin("not-the-right-key-0000\n")
        .code(4).stderr(str![[r#"
error: the service rejected the API key: POST /api/chain-insights/fees for ETHEREUM answered HTTP 401 Unauthorized: invalid API key; the key was not stored
hint: check the key and run auth login again

"#]]).run();
    assert!(!env.config_dir().exists(), "nothing may be created");

    // An existing file stays byte for byte as it was.
    let before = "# mine\ntimeout = 5 # slow link\n";
    env.write_config(before);
    env.cmd("auth login")
        .stdin("not-the-right-key-0000\n")
        .code(4)
        .run();
    assert_eq!(std::fs::read_to_string(env.config_path()).unwrap(), before);
}

#[test]
fn the_check_is_one_day_of_ethereum_fees_with_the_key_in_its_header() {
    let stub = Stub::always(Reply::json(200, "[]"));
    let env = env_for(&stub.url);
    env.cmd("auth login")
        .stdin(&format!("  {KEY}  \n"))
        .stderr_contains("stored the API key ****51d4 in config file")
        .run();
    let seen = stub.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/api/chain-insights/fees");
    assert_eq!(seen[0].headers["x-api-key"], KEY);
    let yesterday = (chrono::Utc::now().date_naive() - chrono::Days::new(1)).to_string();
    assert_eq!(
        seen[0].body,
        format!(r#"{{"chain":"ETHEREUM","start_date":"{yesterday}","end_date":"{yesterday}"}}"#)
    );
}

#[test]
fn login_into_a_profile_of_a_named_file_keeps_what_was_there() {
    let env = Env::new();
    let file = env.home.path().join("work.toml");
    std::fs::write(
        &file,
        "# team settings\nbase_url = \"https://metrics.example\" # prod\n\n[profiles.ci]\nretries = 0\n",
    )
    .unwrap();
    let args = ["--config", file.to_str().unwrap(), "--profile", "ci"];
    let login = [&args[..], &["auth", "login", "--no-verify"]].concat();
    env.cmd_args(&login)
        .stdin(&format!("{KEY}\n"))
        .stderr(format!(
            "stored the API key ****51d4 in profile ci of config file {} (not checked)\n",
            file.display()
        ))
        .run();
    assert_private(&file, &format!("# team settings\nbase_url = \"https://metrics.example\" # prod\n\n[profiles.ci]\nretries = 0\napi_key = \"{KEY}\"\n"));

    // A new profile gets its own table; the environment's profile is honoured like the flag.
    let mut env2 = Env::new();
    env2.set("CHAIN_METRICS_CONFIG", file.to_str().unwrap());
    env2.set("CHAIN_METRICS_PROFILE", "nightly");
    env2.cmd("auth login --no-verify")
        .stdin("nightly-key-1234abcd\n")
        .stderr_contains("stored the API key ****abcd in profile nightly")
        .run();
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .ends_with("api_key = \"cm-test-key-7f3a9c2e51d4\"\n\n[profiles.nightly]\napi_key = \"nightly-key-1234abcd\"\n"));
}

#[test]
fn login_without_a_key_or_a_service_says_what_to_do() {
    let env = Env::new();
    env.cmd("auth login")
        .stdin("\n")
        .code(2)
        .stderr(str![[r#"
error: no API key was given
hint: type it at the prompt, or pipe it in: printf '%s\n' "$KEY" | chain-metrics auth login

"#]])
        .run();
    let run = env
        .cmd("auth login")
        .stdin(&format!("{KEY}\n"))
        .code(3)
        .error_line("error: no service address is set")
        .run();
    assert_eq!(
        run.stderr.lines().nth(1).unwrap(),
        "hint: set the address first (chain-metrics config set base_url URL), or store the key unchecked with --no-verify"
    );
    assert!(!env.config_path().exists());
}

#[test]
fn login_when_the_service_cannot_be_reached_stores_nothing() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = env_for(&format!("http://127.0.0.1:{port}"));
    let run = env
        .cmd("--retries 0 auth login")
        .stdin(&format!("{KEY}\n"))
        .code(7)
        .run();
    assert!(
        run.error_line().ends_with("; the key was not stored"),
        "{run:?}"
    );
    assert_eq!(
        run.stderr.lines().nth(1).unwrap(),
        "hint: to store the key without checking it, add --no-verify"
    );
    assert!(!env.config_path().exists());
}

#[test]
fn status_names_the_environment_and_the_service_verdict() {
    let (sandbox, env) = sandbox_env(&[]);
    env.cmd("auth status").stdout(format!(
            "key          ****51d4\nsource       environment CHAIN_METRICS_API_KEY\nconfig file  {}\nservice      {}\naccepted     yes\n",
            env.config_path().display(),
            sandbox.url
        )).stderr("").run();
}

#[test]
fn status_json_for_a_profile_key_the_service_rejects_exits_4() {
    let sandbox = Sandbox::start(&[]);
    let env = env_for(&sandbox.url);
    env.write_config("[profiles.old]\napi_key = \"revoked-key-00009999\"\n");
    let run = env
        .cmd("--profile old auth status --format json")
        .code(4)
        .any_stdout()
        .stderr(str![[r#"
error: the service rejected the API key: POST /api/chain-insights/fees for ETHEREUM answered HTTP 401 Unauthorized: invalid API key
hint: the key came from config file, profile old; store another with: chain-metrics --profile old auth login

"#]]).run();
    let expected = serde_json::json!({
        "key": "****9999",
        "source": "config file, profile old",
        "profile": "old",
        "api_key_command": null,
        "config_file": env.config_path().display().to_string(),
        "base_url": sandbox.url,
        "accepted": false,
    });
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&run.stdout).unwrap(),
        expected
    );
}

#[test]
fn status_runs_api_key_command_and_no_verify_asks_nothing() {
    let env = Env::new();
    std::fs::write(env.home.path().join("key.txt"), format!("{KEY}\n")).unwrap();
    env.write_config("api_key_command = \"cat ~/key.txt\"\n");
    env.cmd("auth status --no-verify").stdout(format!(
            "key          ****51d4\nsource       api_key_command `cat ~/key.txt` in config file\nconfig file  {}\nservice      (not set)\naccepted     not checked (--no-verify)\n",
            env.config_path().display()
        )).run();
}

#[test]
fn status_without_a_key_exits_3_with_what_to_do() {
    Env::new()
        .cmd("auth status")
        .code(3)
        .stderr(str![[r#"
error: no API key is set
hint: store one with: chain-metrics auth login (or set CHAIN_METRICS_API_KEY)

"#]])
        .run();
}

#[test]
fn logout_removes_only_the_key_and_keeps_comments() {
    let env = Env::new();
    let text = format!(
        "# mine\nbase_url = \"https://metrics.example\" # prod\napi_key = \"{KEY}\"\ntimeout = 5\n\n[profiles.ci]\napi_key = \"{KEY}\"\n"
    );
    env.write_config(&text);
    env.cmd("auth logout")
        .stderr(format!(
            "removed the API key from config file {}\n",
            env.config_path().display()
        ))
        .run();
    assert_eq!(
        std::fs::read_to_string(env.config_path()).unwrap(),
        format!("# mine\nbase_url = \"https://metrics.example\" # prod\ntimeout = 5\n\n[profiles.ci]\napi_key = \"{KEY}\"\n")
    );
    // Nothing left to remove: said so, file untouched.
    let before = std::fs::read_to_string(env.config_path()).unwrap();
    env.cmd("auth logout")
        .stderr(format!(
            "no API key is stored in config file {}; nothing changed\n",
            env.config_path().display()
        ))
        .run();
    assert_eq!(std::fs::read_to_string(env.config_path()).unwrap(), before);
}

#[test]
fn logout_warns_about_what_still_provides_a_key() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_API_KEY", KEY);
    env.write_config("[profiles.p]\napi_key = \"x-0000\"\napi_key_command = \"pass show cm\"\n");
    let place = format!("profile p of config file {}", env.config_path().display());
    env.cmd("--profile p auth logout").stderr(format!("removed the API key from {place}\nnote: api_key_command stays in {place}; remove it with: chain-metrics config unset api_key_command\nwarning: CHAIN_METRICS_API_KEY is still set in this environment, and is used before any stored key\n")).run();
}

#[test]
fn auth_refuses_sandbox() {
    Env::new().cmd("--sandbox auth status").code(2).error_line("error: --sandbox does not apply to auth: the sandbox makes a fresh key for each query command").run();
}

#[test]
fn login_creates_a_named_config_file_that_does_not_exist_yet() {
    let sandbox = Sandbox::start(&[]);
    for via_env in [false, true] {
        let mut env = env_for(&sandbox.url);
        let file = env.home.path().join("new.toml");
        let file_arg = file.to_str().unwrap().to_owned();
        let args = match via_env {
            true => {
                env.set("CHAIN_METRICS_CONFIG", &file_arg);
                vec!["auth", "login"]
            }
            false => vec!["--config", &file_arg, "auth", "login"],
        };
        let run = env
            .cmd_args(&args)
            .stdin(&format!("{KEY}\n"))
            .stderr_contains("stored the API key ****51d4 in config file")
            .run();
        assert_eq!(
            (run.code, run.stderr.clone()),
            (
                0,
                format!(
                    "stored the API key ****51d4 in config file {} (the service accepted it)\n",
                    file.display()
                )
            ),
            "{run:?}"
        );
        assert_private(&file, &format!("api_key = \"{KEY}\"\n"));
    }
}
