//! config path, show, get, set and unset end to end: real files, their modes, comments kept,
//! bad values refused with the file untouched.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::support::files::names;
use crate::support::{Env, KEY};
use snapbox::str;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn path_follows_the_flag_the_environment_and_the_default() {
    let mut env = Env::new();
    env.cmd("config path")
        .stdout(format!("{}\n", env.config_path().display()))
        .run();
    env.set("CHAIN_METRICS_CONFIG", "/etc/cm.toml");
    assert_eq!(env.cmd("config path").run().stdout, "/etc/cm.toml\n");
    env.cmd("--config /tmp/flag.toml config path")
        .stdout("/tmp/flag.toml\n")
        .run();
}

/// On every Unix, macOS too: $XDG_CONFIG_HOME when absolute, else ~/.config (never
/// ~/Library/Application Support).
#[test]
fn the_default_file_is_in_xdg_config_home_else_dot_config() {
    let mut env = Env::new();
    let home = env.home.path().to_owned();
    env.set("XDG_CONFIG_HOME", "");
    let expected = home.join(".config/chain-metrics/config.toml");
    assert_eq!(
        env.cmd("config path").run().stdout,
        format!("{}\n", expected.display())
    );
    env.set("XDG_CONFIG_HOME", "relative/dir");
    assert_eq!(
        env.cmd("config path").run().stdout,
        format!("{}\n", expected.display())
    );
    env.set("XDG_CONFIG_HOME", "/srv/xdg");
    assert_eq!(
        env.cmd("config path").run().stdout,
        "/srv/xdg/chain-metrics/config.toml\n"
    );
}

#[test]
fn set_creates_a_private_folder_and_file() {
    let env = Env::new();
    env.cmd("config set base_url https://metrics.example/v2/")
        .stdout("")
        .stderr(format!(
            "base_url = https://metrics.example/v2/ in config file {}\n",
            env.config_path().display()
        ))
        .run();
    assert_eq!(
        read(&env.config_path()),
        "base_url = \"https://metrics.example/v2/\"\n"
    );
    assert_eq!(mode(&env.config_dir()), 0o700);
    assert_eq!(mode(&env.config_path()), 0o600);
    assert_eq!(names(&env.config_dir()), ["config.toml"]);
}

#[test]
fn set_and_unset_keep_comments_and_layout() {
    let env = Env::with_config(
        "# chain-metrics, by hand\n\ntimeout   = 30   # seconds, the link is slow\nmethod = \"auto\"\n\n# staging has its own box\n[profiles.staging]\nbase_url = \"https://staging.example\"\n",
    );
    env.cmd("config set timeout 2.5")
        .stderr_contains("timeout = 2.5 in config file")
        .run();
    env.cmd("config set retries 0")
        .stderr_contains("retries = 0 in config file")
        .run();
    env.cmd("--profile staging config set method GET")
        .stderr_contains("method = get in profile staging of config file")
        .run();
    env.cmd("--profile qa config set jobs 2")
        .stderr(format!(
            "jobs = 2 in profile qa of config file {}\n",
            env.config_path().display()
        ))
        .run();
    env.cmd("config unset method")
        .stderr_contains("removed method from config file")
        .run();
    assert_eq!(
        read(&env.config_path()),
        "# chain-metrics, by hand\n\ntimeout   = 2.5   # seconds, the link is slow\nretries = 0\n\n# staging has its own box\n[profiles.staging]\nbase_url = \"https://staging.example\"\nmethod = \"get\"\n\n[profiles.qa]\njobs = 2\n"
    );
    assert_eq!(names(&env.config_dir()), ["config.toml"]);
}

#[test]
fn bad_values_exit_2_and_leave_the_file_untouched() {
    let before = "# keep me\ntimeout = 30\n";
    let env = Env::with_config(before);
    let cases: [(&[&str], &str); 13] = [
        (&["timeout", "soon"], "error: invalid value 'soon' for timeout: expected a number of seconds from 0.001 to 86400"),
        (&["timeout", "0"], "error: invalid value '0' for timeout: expected at least 0.001 seconds (a millisecond)"),
        // Past a day, and far past it where the clock overflows: every later query panicked.
        (&["timeout", "1e19"], "error: invalid value '1e19' for timeout: expected at most 86400 seconds (a day)"),
        (&["connect_timeout", "86401"], "error: invalid value '86401' for connect_timeout: expected at most 86400 seconds (a day)"),
        (&["api_key_command_timeout", "1e300"], "error: invalid value '1e300' for api_key_command_timeout: expected at most 86400 seconds (a day)"),
        (&["jobs", "0"], "error: invalid value '0' for jobs: expected a whole number from 1 to 64"),
        (&["jobs", "65"], "error: invalid value '65' for jobs: expected a whole number from 1 to 64"),
        (&["retries", "-1"], "error: invalid value '-1' for retries: expected a whole number from 0 to 100"),
        (&["retries", "4294967296"], "error: invalid value '4294967296' for retries: expected a whole number from 0 to 100"),
        (&["chunk_days", "36601"], "error: invalid value '36601' for chunk_days: expected a whole number from 1 to 36600"),
        (&["method", "put"], "error: invalid value 'put' for method: expected auto, post or get"),
        (&["allow_http", "yes"], "error: invalid value 'yes' for allow_http: expected true or false"),
        (&["base_url", "metrics.example"], "error: invalid value 'metrics.example' for base_url: 'metrics.example' has no scheme: start it with https:// (or http:// to loopback)"),
    ];
    for (args, error) in cases {
        env.cmd_args(&[&["config", "set"], args].concat())
            .code(2)
            .error_line(error)
            .run();

        assert_eq!(read(&env.config_path()), before, "{args:?}");
    }
    env.cmd("config set base_url http://metrics.example").code(2).error_line("error: invalid value 'http://metrics.example' for base_url: refusing plain http to metrics.example: the API key would travel in clear; use https, or set allow_http = true in the config file").run();
    let run = env.cmd("config set apikey x").code(2).run();
    assert!(
        run.error_line()
            .starts_with("error: invalid value 'apikey' for '<KEY>'"),
        "{run:?}"
    );
    assert_eq!(read(&env.config_path()), before);
    // With allow_http set, the same URL is taken.
    env.cmd("config set allow_http true")
        .stderr_contains("allow_http = true in config file")
        .run();
    env.cmd("config set base_url http://metrics.example")
        .stderr_contains("base_url = http://metrics.example in config file")
        .run();
}

#[test]
fn the_key_is_never_taken_as_an_argument() {
    let env = Env::new();
    env.cmd("config set api_key sk-from-argv-123456").code(2).stderr(str![[r#"
error: config set api_key is refused: a key given as an argument is left in the shell history and the process list
hint: store it with: chain-metrics auth login (it reads the key from a hidden prompt or stdin)

"#]]).run();
    assert!(!env.config_path().exists());
}

#[test]
fn an_invalid_file_is_not_edited() {
    let before = "timeout = 30\napikey = \"x\"\n";
    let env = Env::with_config(before);
    env.cmd("config set retries 1").code(3).error_line(format!(
            "error: config file {}: line 2: unknown field `apikey`, expected one of `base_url`, `api_key`, `api_key_command`, `api_key_command_timeout`, `allow_http`, `ca_bundle`, `timeout`, `connect_timeout`, `retries`, `jobs`, `method`, `chunk_days`, `cache`, `cache_settle_days`, `strict`, `format`, `color`, `decimals`, `chains`, `profiles`",
            env.config_path().display()
        )).run();
    assert_eq!(read(&env.config_path()), before);
}

#[test]
fn get_reads_the_profile_then_the_top_level_and_never_prints_the_key() {
    let env = Env::with_config(&format!(
        "timeout = 30\napi_key = \"{KEY}\"\n\n[profiles.p]\ntimeout = 2.5\nbase_url = \"https://p.example\"\n"
    ));
    let get = |args: &[&str]| env.cmd_args(&[&["config", "get"], args].concat());
    assert_eq!(get(&["timeout"]).run().stdout, "30\n");
    assert_eq!(
        env.cmd("--profile p config get timeout").run().stdout,
        "2.5\n"
    );
    assert_eq!(
        env.cmd("--profile p config get base_url").run().stdout,
        "https://p.example\n"
    );
    assert_eq!(
        env.cmd("--profile p config get api_key").run().stdout,
        "****51d4\n"
    );
    get(&["base_url"]).code(3).stderr(format!(
            "error: base_url is not set in config file {}\nhint: set it with: chain-metrics config set base_url VALUE\n",
            env.config_path().display()
        ))
        .run();
}

#[test]
fn unset_of_a_missing_key_changes_nothing() {
    let env = Env::with_config("timeout = 30\n");
    env.cmd("config unset jobs")
        .stderr(format!(
            "jobs was not set in config file {}; nothing changed\n",
            env.config_path().display()
        ))
        .run();
    env.cmd("config unset timeout")
        .stderr_contains("removed timeout from config file")
        .run();
    assert_eq!(read(&env.config_path()), "");
}

#[test]
fn show_lists_every_setting_with_its_source() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_API_KEY", KEY);
    env.set("CHAIN_METRICS_PROFILE", "work");
    env.write_config(
        "base_url = \"https://top.example\"\nretries = 5\njobs = 2\nchunk_days = 90\n\n[profiles.work]\nbase_url = \"https://work.example\"\njobs = 4\n",
    );
    let path = env.config_path().display().to_string();
    let w = path.len();
    let line =
        |name: &str, value: &str, source: &str| format!("{name:<23}  {value:<w$}  ({source})\n");
    let expected = [
        line("config file", &path, "default"),
        line("profile", "work", "environment CHAIN_METRICS_PROFILE"),
        line(
            "base_url",
            "https://work.example",
            "config file, profile work",
        ),
        line("api_key", "****51d4", "environment CHAIN_METRICS_API_KEY"),
        line("api_key_command_timeout", "60", "default"),
        line("allow_http", "false", "default"),
        format!("{:<23}  {:<w$}  (-)\n", "ca_bundle", "(not set)"),
        line("timeout", "9", "flag --timeout"),
        line("connect_timeout", "10", "default"),
        line("retries", "5", "config file"),
        line("jobs", "4", "config file, profile work"),
        line("method", "auto", "default"),
        line("chunk_days", "90", "config file"),
        line("cache", "false", "default"),
        line("cache_settle_days", "7", "default"),
        line("strict", "false", "default"),
        line("format", "(table on a terminal, else csv)", "default"),
        line("color", "auto", "default"),
        line("decimals", "2", "default"),
        format!("{:<23}  {:<w$}  (-)\n", "chains", "(not set)"),
    ]
    .concat();
    env.cmd("--timeout 9 config show")
        .stdout(expected)
        .stderr("")
        .run();
}

#[test]
fn a_file_others_can_read_gets_a_warning_with_the_fix() {
    let env = Env::with_config("timeout = 30\n");
    let path = env.config_path();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    env.cmd("config get timeout").stderr(format!(
            "warning: other users can read or change config file {0} (mode 0644); fix it with: chmod 600 {0}\n",
            path.display()
        )).run();
    // Queries warn too; -q keeps to errors.
    env.cmd("--sandbox fees -c eth --last 1")
        .stderr_contains("warning: other users can read")
        .run();
    assert_eq!(env.cmd("-q config get timeout").run().stderr, "");
    // Any write leaves the file private again.
    env.cmd("config set retries 1")
        .stderr_contains("retries = 1 in config file")
        .run();
    assert_eq!(mode(&path), 0o600);
    assert_eq!(env.cmd("config get timeout").run().stderr, "");
}

#[test]
fn a_symlinked_file_is_edited_where_it_points() {
    let env = Env::new();
    let dotfiles = env.home.path().join("dotfiles");
    std::fs::create_dir(&dotfiles).unwrap();
    let real = dotfiles.join("cm.toml");
    std::fs::write(&real, "# shared\n").unwrap();
    std::fs::create_dir_all(env.config_dir()).unwrap();
    std::os::unix::fs::symlink(&real, env.config_path()).unwrap();
    env.cmd("config set jobs 3")
        .stderr_contains("jobs = 3 in config file")
        .run();
    assert!(std::fs::symlink_metadata(env.config_path())
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(read(&real), "# shared\njobs = 3\n");
    assert_eq!(names(&dotfiles), ["cm.toml"]);
    // A file of comments only keeps them on top when a profile is added too.
    std::fs::write(&real, "# shared\n\n").unwrap();
    env.cmd("--profile x config set jobs 3")
        .stderr_contains("jobs = 3 in profile x of config file")
        .run();
    assert_eq!(read(&real), "# shared\n\n[profiles.x]\njobs = 3\n");
}

#[test]
fn config_refuses_sandbox() {
    Env::new().cmd("--sandbox config show").code(2).error_line("error: --sandbox does not apply to config: the sandbox makes a fresh key for each query command").run();
}
