//! The command line, as clap parses it: commands, flags and their help text.

pub mod completion;

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum, ValueHint};
use clap_complete::{ArgValueCandidates, ArgValueCompleter};

use crate::model::chain::ChainArg;
use crate::model::dates::{parse_last, DaySpec};
use crate::model::SocialMetric;
use crate::render::Format;
use crate::sandbox::fault::Fault;
use crate::settings::config_edit::ConfigKey;
use crate::settings::config_file::MethodChoice;
use crate::settings::defaults;
use completion::Shell;

/// Daily fees, active users and official social-media activity of six blockchains.
// `--help` must fit in 40 lines, so it is the one-line-per-option layout: no long_about, and no
// option whose possible values carry help (either would switch clap to its long layout).
#[derive(Debug, Parser)]
#[command(
    name = "chain-metrics",
    version,
    max_term_width = 100,
    after_help = "The API key comes from CHAIN_METRICS_API_KEY or the config file, never from a flag.\n\nExamples:\n  chain-metrics --sandbox fees --chain eth --last 7\n  chain-metrics users --chain eth,arb --start 2024-01-01 --end 2024-01-31 > users.csv\n  chain-metrics social --chain op --include tweet,reply --last 4w --format json"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Service address, path prefix kept [env: CHAIN_METRICS_BASE_URL]
    #[arg(long, global = true, value_name = "URL", value_hint = ValueHint::Url)]
    pub base_url: Option<String>,

    /// Profile of the config file to use [env: CHAIN_METRICS_PROFILE]
    #[arg(long, global = true, value_name = "NAME", add = ArgValueCandidates::new(completion::profiles))]
    pub profile: Option<String>,

    /// Config file (see FILES in the man page) [env: CHAIN_METRICS_CONFIG]
    #[arg(long, global = true, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub config: Option<PathBuf>,

    /// Run against the built-in sandbox (synthetic data, no account needed)
    #[arg(long, global = true)]
    pub sandbox: bool,

    // The defaults in these help lines come from `settings::defaults`, as the run uses them.
    #[arg(long, global = true, value_name = "SECS", value_parser = parse_seconds,
          help = format!("Seconds one whole request may take, body included [default: {}]", defaults::TIMEOUT_SECS))]
    pub timeout: Option<f64>,

    #[arg(long, global = true, value_name = "SECS", value_parser = parse_seconds,
          help = format!("Seconds to get connected [default: {}]", defaults::CONNECT_TIMEOUT_SECS))]
    pub connect_timeout: Option<f64>,

    #[arg(long, global = true, value_name = "N",
          help = format!("Further attempts after a transient failure [default: {}]", defaults::RETRIES))]
    pub retries: Option<u32>,

    #[arg(long, global = true, value_name = "N", value_parser = parse_jobs,
          help = format!("Requests in flight at once [default: {}]", defaults::JOBS))]
    pub jobs: Option<usize>,

    /// HTTP method: auto (POST; GET after a 405), post, get [default: auto]
    #[arg(
        long,
        global = true,
        value_name = "METHOD",
        hide_possible_values = true
    )]
    pub method: Option<MethodChoice>,

    /// Show requests and timings on stderr (the key masked)
    #[arg(short, long, global = true)]
    pub verbose: bool,

    /// Print errors only
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Colour: auto (honours NO_COLOR), always, never [default: auto]
    #[arg(
        long,
        global = true,
        value_name = "WHEN",
        default_value = "auto",
        hide_default_value = true,
        hide_possible_values = true
    )]
    pub color: ColorChoice,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Daily transaction fees collected on a chain
    #[command(
        after_help = "Examples:\n  chain-metrics fees --chain eth --last 7\n  chain-metrics fees -c eth,arb -s 2024-01-01 -e 2024-01-31 -f csv > fees.csv"
    )]
    Fees(QueryArgs),

    /// Daily active users on a chain
    #[command(
        after_help = "Examples:\n  chain-metrics users --chain base --last 4w\n  chain-metrics users --chain all --start 2024-06-01 --format json"
    )]
    Users(QueryArgs),

    /// Daily activity of the chain's official social-media account
    #[command(
        after_help = "Examples:\n  chain-metrics social --chain op --last 30\n  chain-metrics social -c eth -i tweet,reply -s 2024-01-01 -e 2024-01-31"
    )]
    Social(SocialArgs),

    /// Fees, active users and social activity side by side, one row per date
    #[command(
        after_help = "Examples:\n  chain-metrics report --chain eth --last 7\n  chain-metrics report -c eth,arb --wide -i tweet --last 30 -f markdown"
    )]
    Report(SocialArgs),

    /// The supported chains and their aliases
    #[command(
        after_help = "Examples:\n  chain-metrics chains\n  chain-metrics chains --format json"
    )]
    Chains(ChainsArgs),

    /// Store, check or remove the API key: login | status | logout
    #[command(
        subcommand,
        after_help = "Examples:\n  chain-metrics auth login\n  chain-metrics auth status --format json\n  chain-metrics auth logout --profile ci"
    )]
    Auth(AuthCommand),

    /// Read or change the config file: path | show | get KEY | set KEY VALUE | unset KEY
    #[command(
        subcommand,
        after_help = "Examples:\n  chain-metrics config set base_url https://metrics.example.com/v2\n  chain-metrics config set timeout 60 --profile staging\n  chain-metrics config show"
    )]
    Config(ConfigCommand),

    /// Run the built-in reference service on loopback, with synthetic data
    #[command(
        after_help = "The global --method post|get makes the sandbox accept only that method (405 for the other).\nWithout --key it makes up a key and prints the `export` line that points the other commands at it.\n\nExamples:\n  chain-metrics sandbox --listen 127.0.0.1:8080 --key test-key\n  chain-metrics sandbox --listen 127.0.0.1:0 --latency 200 --fail-rate 0.1"
    )]
    Sandbox(SandboxArgs),

    /// Print a completion script for bash, zsh, fish, powershell or elvish
    #[command(
        after_help = "Examples:\n  chain-metrics completions bash > ~/.local/share/bash-completion/completions/chain-metrics\n  chain-metrics completions fish > ~/.config/fish/completions/chain-metrics.fish"
    )]
    Completions(CompletionsArgs),
}

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Store the API key, read from a hidden prompt (or one line of stdin), after checking it
    ///
    /// It goes to the selected profile (--profile) of the config file (--config), created 0600.
    #[command(
        after_help = "Examples:\n  chain-metrics auth login\n  printf '%s\\n' \"$KEY\" | chain-metrics auth login --profile ci --no-verify"
    )]
    Login(LoginArgs),

    /// Where the API key comes from, and whether the service accepts it (exit 4 if not)
    #[command(
        after_help = "Examples:\n  chain-metrics auth status\n  chain-metrics auth status --format json --no-verify"
    )]
    Status(StatusArgs),

    /// Remove the stored API key from the selected profile (other settings stay)
    #[command(
        after_help = "Examples:\n  chain-metrics auth logout\n  chain-metrics auth logout --profile ci"
    )]
    Logout,
}

#[derive(Debug, Args)]
pub struct LoginArgs {
    /// Store the key without asking the service whether it accepts it
    #[arg(long)]
    pub no_verify: bool,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Do not ask the service: only say where the key comes from
    #[arg(long)]
    pub no_verify: bool,

    /// Output format
    #[arg(short, long, value_name = "FMT", default_value = "text")]
    pub format: StatusFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatusFormat {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the config file's path
    #[command(
        after_help = "Examples:\n  chain-metrics config path\n  chain-metrics config path --config ./team.toml"
    )]
    Path,

    /// Print the effective settings, each with where it comes from (the key redacted)
    #[command(
        after_help = "Examples:\n  chain-metrics config show\n  chain-metrics config show --profile staging"
    )]
    Show,

    /// Print a value stored in the file: the selected profile's, else the top level's
    #[command(
        after_help = "Examples:\n  chain-metrics config get base_url\n  chain-metrics config get timeout --profile staging"
    )]
    Get {
        /// The setting to read
        #[arg(value_name = "KEY")]
        key: ConfigKey,
    },

    /// Store a value in the selected profile (or the top level), checked first
    #[command(
        after_help = "Examples:\n  chain-metrics config set base_url https://metrics.example.com/v2\n  chain-metrics config set method get --profile staging"
    )]
    Set {
        /// The setting to store
        #[arg(value_name = "KEY")]
        key: ConfigKey,
        /// Its new value, checked before the file is touched
        #[arg(value_name = "VALUE", allow_hyphen_values = true)]
        value: String,
    },

    /// Remove a value from the selected profile (or the top level)
    #[command(
        after_help = "Examples:\n  chain-metrics config unset timeout\n  chain-metrics config unset retries --profile staging"
    )]
    Unset {
        /// The setting to remove
        #[arg(value_name = "KEY")]
        key: ConfigKey,
    },
}

#[derive(Debug, Args)]
pub struct QueryArgs {
    /// Chain(s): a name, alias or EVM chain id; repeat or comma-separate; `all` for every chain
    #[arg(short, long = "chain", value_name = "CHAIN", required = true, value_delimiter = ',', value_parser = ChainArg::parse, add = ArgValueCompleter::new(completion::chains))]
    pub chains: Vec<ChainArg>,

    /// First day: YYYY-MM-DD, today or yesterday (UTC)
    #[arg(short, long, value_name = "DAY", value_parser = DaySpec::parse, required_unless_present = "last")]
    pub start: Option<DaySpec>,

    /// Last day, inclusive [default: yesterday, the last complete UTC day]
    #[arg(short, long, value_name = "DAY", value_parser = DaySpec::parse)]
    pub end: Option<DaySpec>,

    /// The N days ending at --end: 30, 30d or 4w
    #[arg(long, value_name = "N", value_parser = parse_last, conflicts_with = "start")]
    pub last: Option<u32>,

    /// Output format [default: from --output's extension, else table on a terminal, csv otherwise]
    #[arg(short, long, value_name = "FMT")]
    pub format: Option<Format>,

    /// Write to FILE atomically instead of stdout (.csv .tsv .json .ndjson/.jsonl .md set the format)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// With --output: upsert into the existing file by (date, chain), by date with --wide
    #[arg(long, requires = "output")]
    pub merge: bool,

    /// One column per chain (per chain and metric for social and report)
    #[arg(long)]
    pub wide: bool,

    /// csv/tsv: leave out the header row
    #[arg(long, conflicts_with = "merge")]
    pub no_header: bool,

    /// table/markdown: add total, mean, min and max rows
    #[arg(long)]
    pub summary: bool,

    /// Print the service's body unchanged (one chain, one request; not for report)
    #[arg(long, conflicts_with_all = ["format", "merge", "wide", "no_header", "summary", "chunk_days"])]
    pub raw: bool,

    /// Print the equivalent curl command lines and send nothing (needs no key)
    #[arg(long, conflicts_with_all = ["output", "raw"])]
    pub dry_run: bool,

    /// Split the range into windows of N days, fetched concurrently and stitched in order
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub chunk_days: Option<u32>,
}

#[derive(Debug, Args)]
pub struct SocialArgs {
    #[command(flatten)]
    pub query: QueryArgs,

    /// Metrics, comma-separated, in the column order wanted [default: reply,retweet,tweet,quote]
    #[arg(short, long = "include", value_name = "ITEMS", value_delimiter = ',', value_parser = SocialMetric::parse, add = ArgValueCandidates::new(completion::includes))]
    pub includes: Vec<SocialMetric>,
}

#[derive(Debug, Args)]
pub struct ChainsArgs {
    /// Output format [default: table on a terminal, csv otherwise]
    #[arg(short, long, value_name = "FMT")]
    pub format: Option<Format>,
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Address to listen on (port 0 picks a free port; the URL is printed on stdout)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// API key the sandbox accepts [default: a fresh random key, printed on stderr]
    #[arg(long, value_name = "KEY", hide_env_values = true)]
    pub key: Option<String>,

    /// Delay before each answer, in milliseconds
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub latency: u64,

    /// Share of requests answered 500, from 0 to 1
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_rate)]
    pub fail_rate: f64,

    /// Misbehave on purpose (repeatable): latency:MS, CODE[:RETRY_AFTER] (503, 429:1,
    /// 503:date+2), reset, cut, html, wrong-type, huge, range-cap:DAYS, chunked; NAME@N shows
    /// it on the first N attempts only
    #[arg(long = "fault", value_name = "FAULT", value_parser = Fault::parse)]
    pub faults: Vec<Fault>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// A number of seconds a `Duration` can hold: positive and finite.
fn parse_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| std::time::Duration::try_from_secs_f64(*s).is_ok_and(|d| !d.is_zero()))
        .ok_or_else(|| format!("'{text}' is not a positive number of seconds"))
}

fn parse_jobs(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("'{text}' is not a number of requests of at least 1"))
}

fn parse_rate(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|p| (0.0..=1.0).contains(p))
        .ok_or_else(|| format!("'{text}' is not a share between 0 and 1"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    /// clap prints an argument's environment value in `--help` unless told not to: a key in
    /// the environment must never reach the help text.
    #[test]
    fn no_environment_value_is_shown_in_help() {
        use clap::CommandFactory;
        fn check(command: &clap::Command) {
            for arg in command.get_arguments() {
                assert!(
                    arg.get_env().is_none() || arg.is_hide_env_values_set(),
                    "{} --{:?} shows its environment value in --help",
                    command.get_name(),
                    arg.get_long()
                );
            }
            command.get_subcommands().for_each(check);
        }
        check(&Cli::command());
    }
}
