//! What the AFL++ targets of `fuzz/` found (fuzz/RESULTS.md), each kept fixed:
//! `config get` printed TOML's spelling of a number (`1_000`), which `config set` refused; a
//! run used a config file whose integer overflows, which `config get/set` call invalid; and a
//! URL whose host is not ASCII (or %-escapes a byte, or is an xn-- name) panicked a debug
//! build in the IDNA stub or the idna crate.

use crate::support::{Env, Sandbox};

#[test]
fn config_get_prints_numbers_as_the_loader_reads_them_and_config_set_takes_them_back() {
    let env = Env::with_config("timeout = 1_000\nretries = 0x3\nconnect_timeout = 5e-1\n");
    for (key, shown) in [
        ("timeout", "1000"),
        ("retries", "3"),
        ("connect_timeout", "0.5"),
    ] {
        env.cmd_args(&["config", "get", key])
            .stdout(format!("{shown}\n"))
            .run();
        env.cmd_args(&["config", "set", key, shown])
            .any_stderr()
            .run();
    }
}

#[test]
fn a_config_file_the_config_commands_cannot_edit_is_refused_by_runs_too() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    for (text, why) in [
        (
            "timeout = 1_3333333333333333333\n",
            "line 1: integer number overflowed",
        ),
        // `config set` refuses an empty command; a run took one and failed running it.
        (
            "api_key_command = \"\"\n",
            "api_key_command: expected a shell command",
        ),
    ] {
        env.write_config(text);
        let error = format!("error: config file {}: {why}", env.config_path().display());
        for args in [
            &["config", "get", "timeout"][..],
            &["fees", "-c", "eth", "--last", "1"],
        ] {
            env.cmd_args(args).code(3).error_line(error.as_str()).run();
        }
    }
    assert!(sandbox.requests().is_empty());
}

#[test]
fn urls_whose_host_is_not_ascii_are_refused_without_a_panic() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::with_service(&sandbox.url);
    for (url, why) in [
        ("https://Zé.example.com", "holds characters outside ASCII: the host must be an ASCII name (no international names) and the rest percent-encoded"),
        ("http:/O%82,1.0.1Z8080/x", "has a %-escape in its host: write the host name as it is, in ASCII"),
        ("http:/XN--NNfXXXXXXXXXXXXXXXXNNNNNNNNNhNNNNNNwwwwwwwwwwwwww313Q/x", "has an international (xn--) name as its host: the host must be an ASCII name"),
    ] {
        let error = format!("error: base URL from flag --base-url: '{url}' {why}");
        env.cmd_args(&["--base-url", url, "fees", "-c", "eth", "--last", "1"])
            .code(3)
            .error_line(error)
            .run();
    }
    // With a user part the message masks the URL whole: it is not parsed to find the password.
    for url in ["http://127.0.0.1:80@0Oé", "https://vOé\\x@i"] {
        env.cmd_args(&["--base-url", url, "fees", "-c", "eth", "--last", "1"])
            .code(3)
            .error_line("error: base URL from flag --base-url: '****' holds characters outside ASCII: the host must be an ASCII name (no international names) and the rest percent-encoded")
            .run();
    }
    // A proxy the same way: masked whole when it has a user part, shown as set when not.
    for (proxy, shown) in [
        ("http://u:p@Zé.proxy:1", "****"),
        ("http://Zé.proxy:1", "http://Zé.proxy:1"),
    ] {
        env.set("HTTPS_PROXY", proxy);
        let base = ["--base-url", "https://api.example.com"];
        env.cmd_args(&[&base[..], &["fees", "-c", "eth", "--last", "1"]].concat())
            .code(3)
            .error_line(format!("error: HTTPS_PROXY={shown} holds characters outside ASCII: the host must be an ASCII name (no international names) and the rest percent-encoded"))
            .run();
    }
    assert!(sandbox.requests().is_empty());
}
