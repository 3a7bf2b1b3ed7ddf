//! The checked-in completion scripts, loaded into real bash, zsh and fish, complete what they
//! should: the shell runs the script, the script runs the real binary found on PATH.
//!
//! bash: the function `complete -p chain-metrics` names is called the way readline calls it.
//! zsh: an interactive zsh under zpty gets the line and a TAB (tests/integration/shells/complete.zsh), with
//! the script installed in $fpath as `_chain-metrics`, the first TAB of the session.
//! fish: `complete -C LINE`, fish's own "what would TAB offer here".

use crate::support;
use std::path::{Path, PathBuf};
use std::process::Command;

const CHAINS: &str = "1 10 137 42161 56 8453 all arb arbitrum base bnb bsc eth ethereum matic op optimism pol polygon";
const GLOBAL_FLAGS: &str =
    "--base-url --color --config --connect-timeout --help --jobs --method --profile --quiet --retries --sandbox --timeout --verbose";

/// A line typed so far, and every candidate a TAB should offer for it (in any order).
const CASES: &[(&str, &str)] = &[
    ("chain-metrics f", "fees"),
    ("chain-metrics s", "sandbox social"),
    ("chain-metrics fees --ch", "--chain --chunk-days"),
    ("chain-metrics social --in", "--include"),
    ("chain-metrics fees --chain ", CHAINS),
    (
        "chain-metrics fees --chain eth,a",
        "eth,all eth,arb eth,arbitrum",
    ),
    (
        "chain-metrics users -c eth,arb,po",
        "eth,arb,pol eth,arb,polygon",
    ),
    (
        "chain-metrics fees --chain ETH,A",
        "ETH,ALL ETH,ARB ETH,ARBITRUM",
    ),
    (
        "chain-metrics social --include ",
        "quote reply retweet tweet",
    ),
    (
        "chain-metrics social -c op --include reply,t",
        "reply,tweet",
    ),
    (
        "chain-metrics fees --format ",
        "chart csv json markdown ndjson table tsv",
    ),
    ("chain-metrics chains --format j", "json"),
    ("chain-metrics fees --color ", "always auto never"),
    ("chain-metrics users --method ", "auto get post"),
    ("chain-metrics --profile ", "staging work"),
    ("chain-metrics fees -c eth --profile w", "work"),
    ("chain-metrics --config other.toml fees --profile ", "other"),
    ("chain-metrics completions f", "fish"),
    ("chain-metrics completions p", "powershell"),
];

#[derive(Clone, Copy, Debug)]
enum Shell {
    Bash,
    Zsh,
    Fish,
}

/// A HOME with a config file holding two profiles, and another config file beside it.
fn home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join(".config").join("chain-metrics");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("config.toml"),
        "base_url = \"http://127.0.0.1:9\"\n\n[profiles.work]\nretries = 1\n\n[profiles.staging]\njobs = 2\n",
    )
    .unwrap();
    std::fs::write(home.path().join("other.toml"), "[profiles.other]\n").unwrap();
    home
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What a TAB after `line` offers in `shell`, sorted.
fn complete(shell: Shell, home: &Path, line: &str) -> Vec<String> {
    let completions = repo().join("completions");
    let mut command = match shell {
        Shell::Bash => {
            let mut c = Command::new("bash");
            c.arg(repo().join("tests/integration/shells/complete.bash"))
                .arg(completions.join("chain-metrics.bash"));
            c
        }
        // `timeout` only guards against a hung pty; it is no assertion about time.
        Shell::Zsh => {
            let mut c = Command::new("timeout");
            c.args(["120", "zsh", "-f"])
                .arg(repo().join("tests/integration/shells/complete.zsh"))
                .arg(&completions);
            c
        }
        Shell::Fish => {
            let mut c = Command::new("fish");
            c.args(["--no-config", "-c", "source $argv[1]; complete -C $argv[2]"])
                .arg(completions.join("chain-metrics.fish"));
            c
        }
    };
    let bin_dir = support::binary().parent().unwrap().to_owned();
    let path = std::env::join_paths(
        std::iter::once(bin_dir).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let output = command
        .arg(line)
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .current_dir(home)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {shell:?} (installed by .ci/run): {e}"));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    support::check_output(&format!("{shell:?}: {line}<TAB>"), &stdout, &stderr);
    assert!(
        output.status.success(),
        "{shell:?} failed on {line:?} ({}): {stdout}{stderr}",
        output.status
    );
    // fish prints `value<TAB>description`.
    let mut offered: Vec<String> = stdout
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_owned())
        .collect();
    offered.sort();
    offered
}

fn check(shell: Shell) {
    let home = home();
    let mut failures = Vec::new();
    for (line, expected) in CASES {
        let mut expected: Vec<&str> = expected.split(' ').collect();
        expected.sort();
        let offered = complete(shell, home.path(), line);
        if offered != expected {
            failures.push(format!(
                "{line:?}: offered {offered:?}, expected {expected:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{shell:?}:\n{}", failures.join("\n"));
}

#[test]
fn bash_completes() {
    check(Shell::Bash);
}

#[test]
fn zsh_completes_from_fpath_on_the_first_tab() {
    check(Shell::Zsh);
}

#[test]
fn fish_completes() {
    check(Shell::Fish);
}

#[test]
fn every_shell_offers_subcommands_and_global_flags_at_the_top_and_after_a_subcommand() {
    let home = home();
    let mut top: Vec<&str> =
        "auth chains completions config fees help report sandbox social users --version"
            .split(' ')
            .chain(GLOBAL_FLAGS.split(' '))
            .collect();
    top.sort();
    let mut fees: Vec<&str> = "--chain --chunk-days --dry-run --end --format --last --merge --no-header --output --raw --start --summary --wide"
        .split(' ')
        .chain(GLOBAL_FLAGS.split(' '))
        .collect();
    fees.sort();
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        assert_eq!(
            complete(shell, home.path(), "chain-metrics "),
            top,
            "{shell:?}"
        );
        assert_eq!(
            complete(shell, home.path(), "chain-metrics fees --"),
            fees,
            "{shell:?}"
        );
    }
}

#[test]
fn a_broken_config_file_offers_no_profiles_and_no_error() {
    let home = home();
    std::fs::write(home.path().join("bad.toml"), "profiles = 3\n").unwrap();
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        let offered = complete(
            shell,
            home.path(),
            "chain-metrics --config bad.toml --profile ",
        );
        assert_eq!(offered, Vec::<String>::new(), "{shell:?}");
    }
}
