//! The checked-in completion scripts, loaded into real bash, zsh and fish, complete what they
//! should: the shell runs the script, the script runs the real binary found on PATH.
//!
//! bash: the function `complete -p chain-metrics` names is called the way readline calls it.
//! zsh: an interactive zsh under zpty gets the line and a TAB (shells/complete.zsh), with
//! the script installed in $fpath as `_chain-metrics`, the first TAB of the session. Its
//! compinit reads a dump of $fpath made once per test run (`zsh_dump`), as a user's does.
//! fish: `complete -C LINE`, fish's own "what would TAB offer here".
//!
//! Each line is its own test in each shell's module: a zsh session takes a while to start, so
//! the cases run in parallel rather than one after the other.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::support::Env;

const CHAINS: &str = "1 10 137 42161 56 8453 all arb arbitrum base bnb bsc eth ethereum matic op optimism pol polygon";
const GLOBAL_FLAGS: &str =
    "--allow-http --base-url --ca-bundle --color --config --connect-timeout --error-format --help --jobs --lock-timeout --method --no-allow-http --profile --quiet --retries --sandbox --timeout --verbose";

#[derive(Clone, Copy, Debug)]
pub(crate) enum Shell {
    Bash,
    Zsh,
    Fish,
}

/// A HOME with a config file holding two profiles, and another config file beside it.
pub(crate) fn home() -> Env {
    let env = Env::with_config(
        "base_url = \"http://127.0.0.1:9\"\n\n[profiles.work]\nretries = 1\n\n[profiles.staging]\njobs = 2\n",
    );
    std::fs::write(env.home.path().join("other.toml"), "[profiles.other]\n").unwrap();
    env
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// compinit's dump of the completion functions in `completions/` and zsh's own $fpath, made
/// afresh once per test run (from the scripts as they are now), then read by every zsh: a
/// scan of $fpath takes most of a zsh's start, and the cases run side by side.
fn zsh_dump() -> &'static Path {
    static DUMP: OnceLock<PathBuf> = OnceLock::new();
    DUMP.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let dump = dir.join("zcompdump");
        // Made beside it, then renamed: a zsh of another test run never reads half a dump.
        let fresh = dir.join(format!("zcompdump.{}", std::process::id()));
        let script = "fpath=($1 $fpath); autoload -U compinit && compinit -u -d $2";
        Env::new()
            .program(
                "zsh",
                &[
                    "-f".as_ref(),
                    "-c".as_ref(),
                    script.as_ref(),
                    "zsh".as_ref(),
                    repo().join("completions").as_os_str(),
                    fresh.as_os_str(),
                ],
            )
            .run();
        std::fs::rename(&fresh, &dump).unwrap();
        dump
    })
}

/// What a TAB after `line` offers in `shell`, sorted.
pub(crate) fn complete(shell: Shell, env: &Env, line: &str) -> Vec<String> {
    let completions = repo().join("completions");
    let shells = repo().join("tests/integration/shells");
    let run = match shell {
        Shell::Bash => env.program(
            "bash",
            &[
                shells.join("complete.bash").as_os_str(),
                completions.join("chain-metrics.bash").as_os_str(),
                line.as_ref(),
            ],
        ),
        // `timeout` only guards against a hung pty; it is no assertion about time.
        Shell::Zsh => env.program(
            "timeout",
            &[
                "120".as_ref(),
                "zsh".as_ref(),
                "-f".as_ref(),
                shells.join("complete.zsh").as_os_str(),
                completions.as_os_str(),
                line.as_ref(),
                zsh_dump().as_os_str(),
            ],
        ),
        Shell::Fish => env.program(
            "fish",
            &[
                "--no-config".as_ref(),
                "-c".as_ref(),
                "source $argv[1]; complete -C $argv[2]".as_ref(),
                completions.join("chain-metrics.fish").as_os_str(),
                OsStr::new(line),
            ],
        ),
    }
    .run();
    // fish prints `value<TAB>description`.
    let mut offered: Vec<String> = run
        .stdout
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_owned())
        .collect();
    offered.sort();
    offered
}

/// A TAB after `line` offers exactly the space-separated `expected` (in any order).
fn check(shell: Shell, line: &str, expected: &str) {
    let mut expected: Vec<&str> = expected.split(' ').collect();
    expected.sort();
    let offered = complete(shell, &home(), line);
    assert_eq!(offered, expected, "{shell:?}: {line:?}");
}

fn subcommands_and_global_flags_at_the_top_and_after_a_subcommand(shell: Shell) {
    let env = home();
    let mut top: Vec<&str> =
        "auth cache chains completions config fees help render report sandbox social users --version"
            .split(' ')
            .chain(GLOBAL_FLAGS.split(' '))
            .collect();
    top.sort();
    let mut fees: Vec<&str> = "--by --cache --chain --change --chunk-days --cumulative --decimals --dry-run --end --file-chain --format --json-numbers --keep-going --last --merge --month --no-cache --no-header --no-strict --output --per-day --quarter --raw --refresh --resume --resume-overlap --rolling --scale --share --sort --start --strict --summary --table --top --wide --year"
        .split(' ')
        .chain(GLOBAL_FLAGS.split(' '))
        .collect();
    fees.sort();
    assert_eq!(complete(shell, &env, "chain-metrics "), top, "{shell:?}");
    assert_eq!(
        complete(shell, &env, "chain-metrics fees --"),
        fees,
        "{shell:?}"
    );
}

fn a_broken_config_file_offers_no_profiles_and_no_error(shell: Shell) {
    let env = home();
    std::fs::write(env.home.path().join("bad.toml"), "profiles = 3\n").unwrap();
    let offered = complete(shell, &env, "chain-metrics --config bad.toml --profile ");
    assert_eq!(offered, Vec::<String>::new(), "{shell:?}");
}

/// On an empty word clap offers the flags too; the values of the key are all there, and
/// nothing else but flags.
fn config_set_offers_the_values_of_its_key(shell: Shell) {
    let env = home();
    for (key, values) in [
        ("strict", &["false", "true"][..]),
        ("method", &["auto", "get", "post"]),
    ] {
        let offered = complete(shell, &env, &format!("chain-metrics config set {key} "));
        let (flags, others): (Vec<&String>, Vec<&String>) =
            offered.iter().partition(|o| o.starts_with("--"));
        assert_eq!(others, values, "{shell:?}: {offered:?}");
        assert!(
            flags.iter().any(|f| *f == "--profile"),
            "{shell:?}: {offered:?}"
        );
    }
}

/// One test per line typed so far, each checking every candidate a TAB should offer for it.
macro_rules! case_tests {
    ($shell:expr; $($name:ident: $line:literal => $expected:expr,)*) => {
        $(
            #[test]
            fn $name() {
                check($shell, $line, $expected);
            }
        )*
    };
}

/// The lines, and what a TAB offers after each, in every shell.
macro_rules! cases {
    ($shell:expr) => {
        case_tests! { $shell;
        command_f: "chain-metrics f" => "fees",
        command_s: "chain-metrics s" => "sandbox social",
        flag_ch: "chain-metrics fees --ch" => "--chain --change --chunk-days",
        flag_in: "chain-metrics social --in" => "--include",
        chains: "chain-metrics fees --chain " => CHAINS,
        second_chain: "chain-metrics fees --chain eth,a" => "eth,arb eth,arbitrum",
        after_a_comma_the_chains_not_given_and_never_all: "chain-metrics fees --chain eth,arb," => "eth,arb,10 eth,arb,137 eth,arb,56 eth,arb,8453 eth,arb,base eth,arb,bnb eth,arb,bsc eth,arb,matic eth,arb,op eth,arb,optimism eth,arb,pol eth,arb,polygon",
        a_second_chain_flag_offers_the_chains_not_given: "chain-metrics fees -c 1 -c " => "10 137 42161 56 8453 arb arbitrum base bnb bsc matic op optimism pol polygon",
        file_chain_is_one_chain_never_all: "chain-metrics fees --file-chain a" => "arb arbitrum",
        third_chain_after_short_flag: "chain-metrics users -c eth,arb,po" => "eth,arb,pol eth,arb,polygon",
        chains_in_upper_case: "chain-metrics fees --chain ETH,A" => "ETH,ARB ETH,ARBITRUM",
        sort_columns: "chain-metrics fees --sort " => "date fees",
        sort_columns_of_chains_and_measures: "chain-metrics report -c eth,arb --change --sort f" => "fees fees_change fees_change_pct",
        sort_columns_of_the_wide_shape: "chain-metrics users --wide -c eth,op --sort " => "ETHEREUM OPTIMISM date",
        sort_columns_of_the_includes_by_month: "chain-metrics social -c op -i tweet --by month --sort " => "date days tweet",
        sort_direction: "chain-metrics fees --rolling 7 --sort fees_rolling_7:" => "fees_rolling_7:asc fees_rolling_7:desc",
        last_forms: "chain-metrics fees --last " => "1m 1q 1y 30 365 3m 4w 7 90",
        last_units_after_a_number: "chain-metrics fees --last 12" => "12 12d 12m 12q 12w 12y",
        config_set_method: "chain-metrics config set method p" => "post",
        config_set_color: "chain-metrics config set color a" => "always auto",
        config_set_format_for_stdout: "chain-metrics config set format s" => "svg",
        config_set_chains_after_a_comma: "chain-metrics config set chains eth,o" => "eth,op eth,optimism",
        config_set_ca_bundle_a_file: "chain-metrics config set ca_bundle oth" => "other.toml",
        include_items: "chain-metrics social --include " => "quote reply retweet tweet",
        second_include_item: "chain-metrics social -c op --include reply,t" => "reply,tweet",
        formats: "chain-metrics fees --format " => "chart csv html json markdown ndjson postgres sqlite svg table tsv",
        chains_format_j: "chain-metrics chains --format j" => "json",
        colors: "chain-metrics fees --color " => "always auto never",
        methods: "chain-metrics users --method " => "auto get post",
        profiles: "chain-metrics --profile " => "staging work",
        profile_after_a_subcommand: "chain-metrics fees -c eth --profile w" => "work",
        profiles_of_another_config_file: "chain-metrics --config other.toml fees --profile " => "other",
        completions_f: "chain-metrics completions f" => "fish",
        completions_p: "chain-metrics completions p" => "powershell",
        }
    };
}

/// A module of tests for one shell: every case, and the two checks above.
macro_rules! shell_tests {
    ($module:ident, $shell:expr) => {
        mod $module {
            use super::*;

            cases!($shell);

            #[test]
            fn offers_subcommands_and_global_flags_at_the_top_and_after_a_subcommand() {
                subcommands_and_global_flags_at_the_top_and_after_a_subcommand($shell);
            }

            #[test]
            fn offers_the_values_of_the_key_after_config_set() {
                config_set_offers_the_values_of_its_key($shell);
            }

            #[test]
            fn offers_no_profiles_and_no_error_for_a_broken_config_file() {
                a_broken_config_file_offers_no_profiles_and_no_error($shell);
            }
        }
    };
}

shell_tests!(bash, Shell::Bash);
shell_tests!(zsh, Shell::Zsh);
shell_tests!(fish, Shell::Fish);
