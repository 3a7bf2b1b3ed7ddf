//! Secrets beyond the key: a password in the base URL is masked wherever
//! the URL shows, a key command that overruns is ended with everything it started, and `--raw`
//! never prints a key the service echoes.

use crate::support::{Env, Reply, Sandbox, Stub, DAY_ARGS, KEY};

/// The sandbox's URL with a user and password in it: `http://ann:s3cret-pw@127.0.0.1:PORT`.
fn with_password(url: &str) -> String {
    url.replacen("http://", "http://ann:s3cret-pw@", 1)
}

fn assert_no_password(run: &crate::support::Run) {
    assert!(
        !run.stdout.contains("s3cret") && !run.stderr.contains("s3cret"),
        "the password shows: {run:?}"
    );
}

#[test]
fn verbose_and_dry_run_mask_the_password_of_the_base_url() {
    let sandbox = Sandbox::start(&[]);
    let url = with_password(&sandbox.url);
    let shown = sandbox.url.replacen("http://", "http://ann:****@", 1);
    let mut env = Env::with_service(&sandbox.url);
    env.set("CHAIN_METRICS_BASE_URL", &url);
    let run = env
        .cmd_args(&[&["-v"], &DAY_ARGS[..]].concat())
        .stderr_contains("* POST ")
        .run();
    assert_no_password(&run);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        format!("* POST {shown}/api/chain-insights/fees headers: x-api-key: ****, content-type, accept, user-agent; body {{\"chain\":\"ETHEREUM\",\"start_date\":\"2024-01-01\",\"end_date\":\"2024-01-01\"}}")
    );
    let dry = env.cmd_args(&[&DAY_ARGS[..], &["--dry-run"]].concat()).stdout(format!("curl -sS -u 'ann' -X POST '{}/api/chain-insights/fees' -H \"X-API-Key: $CHAIN_METRICS_API_KEY\" -H 'Content-Type: application/json' -H 'Accept: application/json' -H 'User-Agent: chain-metrics/{}' --data-raw '{{\"chain\":\"ETHEREUM\",\"start_date\":\"2024-01-01\",\"end_date\":\"2024-01-01\"}}'\n", sandbox.url, env!("CARGO_PKG_VERSION"))).run();
    assert_no_password(&dry);
}

#[test]
fn errors_mask_the_password_of_the_base_url() {
    // A port nothing listens on: the connection is refused.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut env = Env::new();
    env.set("CHAIN_METRICS_API_KEY", KEY).set(
        "CHAIN_METRICS_BASE_URL",
        &format!("http://ann:s3cret-pw@127.0.0.1:{port}"),
    );
    let run = env
        .cmd_args(&[&["--retries", "0"], &DAY_ARGS[..]].concat())
        .code(7)
        .error_line(format!("error: POST /api/chain-insights/fees for ETHEREUM at http://ann:****@127.0.0.1:{port}/api/chain-insights/fees: cannot connect (Connection refused (os error 111))")).run();
    assert_no_password(&run);

    env.set("CHAIN_METRICS_BASE_URL", "ftp://ann:s3cret-pw@127.0.0.1/");
    let run = env.cmd_args(&DAY_ARGS).code(3).error_line("error: base URL from environment CHAIN_METRICS_BASE_URL: 'ftp://ann:****@127.0.0.1/' has scheme ftp: expected https (or http to loopback)").run();
    assert_no_password(&run);

    // A `/` typed raw in the password: the URL does not parse, so it is masked whole.
    env.cmd("config set base_url https://ann:pa/s3cret@h")
        .code(2)
        .error_line(
            "error: invalid value '****' for base_url: '****' is not a URL (invalid port number)",
        )
        .run();
}

#[test]
fn config_and_auth_status_mask_the_password_of_the_base_url() {
    let sandbox = Sandbox::start(&[]);
    let url = with_password(&sandbox.url);
    let shown = sandbox.url.replacen("http://", "http://ann:****@", 1);
    let mut env = Env::new();
    env.set("CHAIN_METRICS_API_KEY", KEY);
    let set = env
        .cmd(&format!("config set base_url {url}"))
        .stderr(format!(
            "base_url = {shown} in config file {}\n",
            env.config_path().display()
        ))
        .run();
    assert_no_password(&set);

    env.cmd("config get base_url")
        .stdout(format!("{shown}\n").as_str())
        .run();
    let show = env.cmd("config show").run();
    assert_no_password(&show);
    assert!(
        show.stdout
            .contains(&format!("base_url                 {shown}  ")),
        "{show:?}"
    );
    let status = env
        .cmd("auth status")
        .stdout_contains(&format!("\nservice      {shown}\n"))
        .run();
    assert_no_password(&status);

    // The stored URL keeps its password: it is what the client sends.
    let stored = std::fs::read_to_string(env.config_path()).unwrap();
    assert_eq!(stored, format!("base_url = \"{url}\"\n"));
}

/// Whether process `pid` has ended (a zombie waiting for its parent has).
fn ended(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
    }
}

#[test]
fn a_key_command_that_overruns_is_ended_with_everything_it_started() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &sandbox.url);
    env.write_config(
        "api_key_command = \"sh -c 'sleep 30 & echo $! > \\\"$HOME/pids\\\"; (sleep 30; echo late) & echo $! >> \\\"$HOME/pids\\\"; sleep 30'\"\napi_key_command_timeout = 0.5\n",
    );
    env.cmd_args(&DAY_ARGS).code(3).error_line(r#"error: api_key_command from config file (sh -c 'sleep 30 & echo $! > "$HOME/pids"; (sleep 30; echo late) & echo $! >> "$HOME/pids"; sleep 30') did not finish within 0.5 s"#).run();
    let pids = std::fs::read_to_string(env.home.path().join("pids")).unwrap();
    let started: Vec<&str> = pids.split_whitespace().collect();
    assert_eq!(started.len(), 2, "{pids}");
    for _ in 0..200 {
        if started.iter().all(|pid| ended(pid)) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("what the key command started still runs: {started:?}");
}

#[test]
fn raw_masks_a_key_the_service_echoes() {
    let body = format!(r#"[{{"date":"2024-01-01","fees":1,"you_sent":"{KEY}"}}]"#);
    let stub = Stub::always(Reply::json(200, &body));
    Env::with_service(&stub.url)
        .cmd_args(&[&DAY_ARGS[..], &["--raw"]].concat())
        .stdout(concat!(
            r#"[{"date":"2024-01-01","fees":1,"you_sent":"****"}]"#,
            "\n"
        ))
        .stderr("warning: the service echoed the API key in its answer; --raw shows it as ****\n")
        .run();
}

/// A key command that asks for a passphrase on the terminal, as password managers do, and
/// prints the key when it is `sesame`.
fn passphrase_env(sandbox: &Sandbox) -> Env {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &sandbox.url);
    std::fs::write(env.home.path().join("key.txt"), KEY).unwrap();
    // A pipeline needs a shell: a script of the user's, named with its interpreter.
    std::fs::write(
        env.home.path().join("ask.sh"),
        "printf 'Passphrase: ' >&2; stty -echo; read p; stty echo; [ \"$p\" = sesame ] && cat \"$HOME/key.txt\"\n",
    )
    .unwrap();
    env.write_config("api_key_command = \"sh ~/ask.sh\"\napi_key_command_timeout = 10\n");
    env
}

#[test]
fn a_key_command_in_its_own_group_can_still_ask_on_the_terminal() {
    let sandbox = Sandbox::start(&[]);
    let env = passphrase_env(&sandbox);
    env.cmd("auth status")
        .typing("Passphrase: ", "sesame")
        .stdout_contains("\r\naccepted     yes\r\n")
        .run();
}

/// The command dies with the terminal's echo off: the runner checks that it is on again.
#[test]
fn ctrl_c_at_the_key_command_prompt_stops_the_run_with_130() {
    let sandbox = Sandbox::start(&[]);
    let env = passphrase_env(&sandbox);
    env.cmd_args(&DAY_ARGS)
        .typing("Passphrase: ", "\x03")
        .code(130)
        .run();
    assert!(sandbox.requests().is_empty());
}

#[test]
fn a_password_hides_when_the_scheme_is_forgotten() {
    // `ann:pw@host`: without `://` the URL parses as scheme `ann`; the password still hides.
    let url = "bob:hunter2pw@127.0.0.1:46827";
    let mut env = Env::new();
    env.set("CHAIN_METRICS_API_KEY", KEY);
    let hint =
        "'bob:****@127.0.0.1:46827' has no scheme: start it with https:// (or http:// to loopback)";
    let hidden = |run: crate::support::Run| {
        assert!(!format!("{run:?}").contains("hunter2pw"), "{run:?}");
    };
    let flag = env.cmd_args(&[&["--base-url", url], &DAY_ARGS[..]].concat());
    let line = format!("error: base URL from flag --base-url: {hint}");
    hidden(flag.code(3).error_line(line).run());
    let set = env.cmd(&format!("config set base_url {url}"));
    let line = format!("error: invalid value 'bob:****@127.0.0.1:46827' for base_url: {hint}");
    hidden(set.code(2).error_line(line).run());
    env.write_config(&format!("base_url = \"{url}\"\n"));
    let line = format!("error: base URL from config file: {hint}");
    hidden(env.cmd_args(&DAY_ARGS).code(3).error_line(line).run());
    for args in ["config get base_url", "config show", "auth status"] {
        hidden(env.cmd(args).any_outcome().run());
    }
    env.set("CHAIN_METRICS_BASE_URL", url);
    let line = format!("error: base URL from environment CHAIN_METRICS_BASE_URL: {hint}");
    hidden(env.cmd_args(&DAY_ARGS).code(3).error_line(line).run());
}

#[test]
fn a_key_in_the_base_url_s_path_is_masked_by_dry_run_config_show_and_every_message() {
    let stub = Stub::always(Reply::json(503, r#"{"error":"down"}"#));
    let mut env = Env::with_service(&stub.url);
    let url = format!("{}/tenant/{KEY}/", stub.url);
    env.set("CHAIN_METRICS_BASE_URL", &url);
    // Every run's outputs are checked for the key by the builder itself.
    env.cmd_args(&[&DAY_ARGS[..], &["--dry-run"]].concat())
        .stdout_contains("/tenant/****/api/")
        .run();
    env.cmd("config show")
        .stdout_contains("/tenant/****/")
        .run();
    env.cmd_args(&[&["-v", "--retries", "0"], &DAY_ARGS[..]].concat())
        .code(6)
        .stderr_contains("/tenant/****/api/")
        .run();
}

#[test]
fn an_unquoted_numeric_api_key_is_not_echoed_by_the_parse_error() {
    let env = Env::with_config("api_key = 918273645546372819\n");
    env.cmd("config show")
        .code(3)
        .stderr(format!(
            "error: config file {}: line 1: api_key: expected a string in quotes\n",
            env.config_path().display()
        ))
        .run();
}

#[test]
fn a_run_holding_the_key_writes_no_core_dump() {
    // A slow answer keeps the run alive while its limits are read.
    let stub = Stub::start(|_| {
        std::thread::sleep(std::time::Duration::from_millis(1500));
        Reply::json(200, r#"[{"date":"2024-01-01","fees":1}]"#)
    });
    let env = Env::with_service(&stub.url);
    let running = env.cmd_args(&DAY_ARGS).any_stdout().spawn();
    let limits = format!("/proc/{}/limits", running.child.id());
    let started = std::time::Instant::now();
    let line = loop {
        let text = std::fs::read_to_string(&limits).unwrap_or_default();
        let line = text
            .lines()
            .find(|l| l.starts_with("Max core file size"))
            .map(str::to_owned);
        match line {
            Some(l)
                // The hard limit: the soft one is often 0 already.
                if l.split_whitespace().nth(5) == Some("0") || started.elapsed().as_secs() > 1 =>
            {
                break l
            }
            _ => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    };
    running.finish();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&words[4..6], ["0", "0"], "{line}");
    let page = concat!(env!("CARGO_MANIFEST_DIR"), "/man/chain-metrics.1");
    let page = std::fs::read_to_string(page).unwrap();
    assert!(
        page.contains("writes no core dump"),
        "the man page does not say so"
    );
}
