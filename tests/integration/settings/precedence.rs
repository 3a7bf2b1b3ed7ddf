//! Where settings come from: flag, environment, profile, config top level, default — in that order.

use crate::support::{Cmd, Env, Reply, Stub, KEY};

const FEES: &str = r#"[{"date":"2024-01-01","fees":1}]"#;

fn fees<'e>(env: &'e Env, extra: &[&str]) -> Cmd<'e> {
    env.cmd_args(
        &[
            extra,
            &["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01"],
        ]
        .concat(),
    )
}

/// Four services, to tell which one a run talked to and with which key.
struct Services([Stub; 4]);

impl Services {
    fn start() -> Services {
        Services([(); 4].map(|_| Stub::always(Reply::json(200, FEES))))
    }

    fn url(&self, i: usize) -> &str {
        &self.0[i].url
    }

    /// The last request of the highest-numbered service asked, and the key it carried.
    fn last_hit(&self) -> (usize, String) {
        let hits: Vec<(usize, String)> = self
            .0
            .iter()
            .enumerate()
            .flat_map(|(i, s)| {
                s.seen()
                    .into_iter()
                    .map(move |seen| (i, seen.headers["x-api-key"].to_str().unwrap().to_owned()))
            })
            .collect();
        hits.last().expect("some service was asked").clone()
    }
}

#[test]
fn base_url_flag_beats_env_beats_profile_beats_top_level() {
    let services = Services::start();
    let mut env = Env::new();
    env.set("CHAIN_METRICS_API_KEY", KEY);
    env.write_config(&format!(
        "base_url = \"{}\"\n\n[profiles.work]\nbase_url = \"{}\"\n",
        services.url(0),
        services.url(1)
    ));
    let hit = |env: &Env, extra: &[&str]| {
        let before: Vec<usize> = services.0.iter().map(|s| s.seen().len()).collect();
        fees(env, extra).run();
        let after: Vec<usize> = services.0.iter().map(|s| s.seen().len()).collect();
        (0..4).find(|i| after[*i] > before[*i]).unwrap()
    };
    assert_eq!(hit(&env, &[]), 0, "top level");
    assert_eq!(hit(&env, &["--profile", "work"]), 1, "--profile");
    env.set("CHAIN_METRICS_PROFILE", "work");
    assert_eq!(hit(&env, &[]), 1, "CHAIN_METRICS_PROFILE");
    env.set("CHAIN_METRICS_BASE_URL", services.url(2));
    assert_eq!(hit(&env, &[]), 2, "environment beats profile");
    let flag = services.url(3).to_owned();
    assert_eq!(
        hit(&env, &["--base-url", &flag]),
        3,
        "flag beats environment"
    );
}

#[test]
fn key_env_beats_profile_beats_top_level_and_commands_supply_keys() {
    let services = Services::start();
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", services.url(0));
    env.write_config("api_key = \"key-from-top-level\"\n\n[profiles.ci]\napi_key_command = \"printf '  key-from-command\\\\n'\"\n");
    let key_used = |env: &Env, extra: &[&str]| {
        fees(env, extra).run();
        services.last_hit().1
    };
    assert_eq!(key_used(&env, &[]), "key-from-top-level");
    assert_eq!(key_used(&env, &["--profile", "ci"]), "key-from-command");
    env.set("CHAIN_METRICS_API_KEY", KEY);
    assert_eq!(key_used(&env, &["--profile", "ci"]), KEY);
}

/// Writes a config file at `path` naming the service at `url` and the key `key`.
fn write_service(path: &std::path::Path, url: &str, key: &str) {
    let text = format!("base_url = \"{url}\"\napi_key = \"{key}\"\n");
    std::fs::write(path, text).unwrap();
}

#[test]
fn config_file_from_flag_or_environment() {
    let services = Services::start();
    let env_file = {
        let mut env = Env::new();
        let path = env.home.path().join("elsewhere.toml");
        write_service(&path, services.url(1), "k1-000000000000");
        env.set("CHAIN_METRICS_CONFIG", path.to_str().unwrap());
        env
    };
    fees(&env_file, &[])
        .stderr_contains("warning: other users can read or change config file")
        .run();
    assert_eq!(services.last_hit(), (1, "k1-000000000000".to_owned()));

    let path = env_file.home.path().join("flag.toml");
    write_service(&path, services.url(2), "k2-000000000000");
    fees(&env_file, &["--config", path.to_str().unwrap()])
        .stderr_contains("warning: other users can read or change config file")
        .run();
    assert_eq!(services.last_hit(), (2, "k2-000000000000".to_owned()));
}

#[test]
fn an_unknown_profile_names_the_ones_there() {
    let env = Env::with_service("http://127.0.0.1:9");
    env.write_config("[profiles.work]\n[profiles.home]\n");
    fees(&env, &["--profile", "wrok"])
        .code(3)
        .error_line(format!(
            "error: profile 'wrok' is not in config file {} (profiles there: home, work)",
            env.config_path().display()
        ))
        .run();
}

#[test]
fn a_failing_key_command_exits_3_without_echoing_its_output() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", "http://127.0.0.1:9");
    env.write_config("api_key_command = \"sh -c 'echo half-a-secret; exit 4'\"\n");
    let run = fees(&env, &[]).code(3).error_line("error: api_key_command from config file (sh -c 'echo half-a-secret; exit 4') failed (exit status: 4)").run();
    assert!(!run.stderr.contains("half-a-secret\n"));
    assert!(!run.stdout.contains("half-a-secret"));
}

#[test]
fn allow_http_in_the_file_permits_plain_http() {
    // 0.0.0.0 is not loopback by name, yet connecting to it stays on this machine.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = Env::with_service(&format!("http://0.0.0.0:{port}"));
    fees(&env, &["--retries", "0"]).code(3).run();
    env.write_config("allow_http = true\n");
    fees(&env, &["--retries", "0"]).code(7).run();
    // `--no-allow-http` refuses it again for one run; `--allow-http` alone lets it connect.
    fees(&env, &["--retries", "0", "--no-allow-http"])
        .code(3)
        .run();
    std::fs::remove_file(env.config_path()).unwrap();
    fees(&env, &["--retries", "0", "--allow-http"])
        .code(7)
        .run();
}

const REFUSED: &str = "error: base URL from environment CHAIN_METRICS_BASE_URL: refusing plain http to metrics.example: the API key would travel in clear; use https, or set allow_http = true in the config file\n";

const REFUSED_FOR_RUN: &str = "error: base URL from environment CHAIN_METRICS_BASE_URL: refusing plain http to metrics.example: the API key would travel in clear; use https (--no-allow-http keeps plain http to loopback for this run)\n";

/// `fees` with --dry-run, which sends nothing, yet checks the address as a run would.
fn dry<'e>(env: &'e Env, globals: &[&str]) -> Cmd<'e> {
    let args = [globals, &["fees", "-c", "eth", "--last", "1", "--dry-run"]].concat();
    env.cmd_args(&args)
}

#[test]
fn allow_http_flags_beat_the_config_for_one_run() {
    let env = Env::with_service("http://metrics.example/v1");
    let sent = "curl -sS -X POST 'http://metrics.example/v1/api/chain-insights/fees' ";
    dry(&env, &[]).code(3).stderr(REFUSED).run();
    dry(&env, &["--allow-http"])
        .any_stdout()
        .stdout_contains(sent)
        .run();
    env.write_config("allow_http = true\n");
    dry(&env, &[]).any_stdout().stdout_contains(sent).run();
    // Refused for this run by the flag: the advice does not point back at the config file
    // that the flag has just overruled.
    dry(&env, &["--no-allow-http"])
        .code(3)
        .stderr(REFUSED_FOR_RUN)
        .run();
    // A global flag: after the command too.
    env.cmd("fees -c eth --last 1 --dry-run --no-allow-http")
        .code(3)
        .stderr(REFUSED_FOR_RUN)
        .run();
    // One or the other, as --strict/--no-strict and --cache/--no-cache.
    dry(&env, &["--allow-http", "--no-allow-http"])
        .code(2)
        .error_line("error: the argument '--allow-http' cannot be used with '--no-allow-http'")
        .run();
}

#[test]
fn config_show_names_the_allow_http_flag_as_the_source() {
    let env = Env::with_config("allow_http = true\n");
    let row = |flag: &str| {
        let run = env.cmd(&format!("{flag} config show")).any_stdout().run();
        let line = run
            .stdout
            .lines()
            .find(|l| l.starts_with("allow_http "))
            .unwrap()
            .to_owned();
        line.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert_eq!(row(""), "allow_http true (config file)");
    assert_eq!(
        row("--no-allow-http"),
        "allow_http false (flag --no-allow-http)"
    );
    assert_eq!(row("--allow-http"), "allow_http true (flag --allow-http)");
}
