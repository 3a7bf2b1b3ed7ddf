//! The command line, as clap parses it: commands, flags and their help text.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::chain::ChainArg;
use crate::config_file::MethodChoice;
use crate::dates::{parse_last, DaySpec};
use crate::model::Item;
use crate::render::Format;
use crate::sandbox::fault::Fault;

/// Daily fees, active users and official social-media activity of six blockchains.
///
/// The API key comes from CHAIN_METRICS_API_KEY or the config file, never from a flag.
/// Try it with no account: chain-metrics --sandbox fees --chain eth --last 7
#[derive(Debug, Parser)]
#[command(name = "chain-metrics", version, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Service address, e.g. https://metrics.example/v2 [env: CHAIN_METRICS_BASE_URL]
    #[arg(long, global = true, value_name = "URL")]
    pub base_url: Option<String>,

    /// Profile of the config file to use [env: CHAIN_METRICS_PROFILE]
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,

    /// Config file [env: CHAIN_METRICS_CONFIG] [default: ~/.config/chain-metrics/config.toml]
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Run against the built-in sandbox (synthetic data, no account needed)
    #[arg(long, global = true)]
    pub sandbox: bool,

    /// Seconds a request may take in all, connecting and reading the body included [default: 30]
    #[arg(long, global = true, value_name = "SECS")]
    pub timeout: Option<f64>,

    /// Seconds to wait for the service to accept the connection [default: 10]
    #[arg(long, global = true, value_name = "SECS")]
    pub connect_timeout: Option<f64>,

    /// Further attempts after a transient failure [default: 3]
    #[arg(long, global = true, value_name = "N")]
    pub retries: Option<u32>,

    /// Requests in flight at once [default: 8]
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(usize))]
    pub jobs: Option<usize>,

    /// HTTP method: auto sends POST and falls back to GET on 405. For `sandbox`: the methods it
    /// accepts (post or get only; both/auto: either)
    #[arg(long, global = true, value_name = "METHOD")]
    pub method: Option<MethodChoice>,

    /// Show requests and timings on stderr (the key masked)
    #[arg(short, long, global = true)]
    pub verbose: bool,

    /// Print errors only
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// When to use colour (NO_COLOR, CLICOLOR=0 and CLICOLOR_FORCE are honoured under auto)
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
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

    /// The supported chains and their aliases
    Chains(ChainsArgs),

    /// Run the built-in reference service on loopback, with synthetic data
    #[command(
        after_help = "The global --method post|get makes the sandbox accept only that method (405 for the other).\n\nExamples:\n  chain-metrics sandbox --listen 127.0.0.1:8080 --key test-key\n  CHAIN_METRICS_BASE_URL=http://127.0.0.1:8080 CHAIN_METRICS_API_KEY=test-key chain-metrics fees -c eth --last 7"
    )]
    Sandbox(SandboxArgs),
}

#[derive(Debug, Args)]
pub struct QueryArgs {
    /// Chain(s): a name, alias or EVM chain id; repeat or comma-separate; `all` for every chain
    #[arg(short, long = "chain", value_name = "CHAIN", required = true, value_delimiter = ',', value_parser = ChainArg::parse)]
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

    /// Output format [default: table on a terminal, csv otherwise]
    #[arg(short, long, value_name = "FMT")]
    pub format: Option<Format>,

    /// Split the range into windows of N days, fetched concurrently and stitched in order
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub chunk_days: Option<u32>,
}

#[derive(Debug, Args)]
pub struct SocialArgs {
    #[command(flatten)]
    pub query: QueryArgs,

    /// Metrics, comma-separated, in the column order wanted [default: reply,retweet,tweet,quote]
    #[arg(short, long = "include", value_name = "ITEMS", value_delimiter = ',', value_parser = Item::parse)]
    pub includes: Vec<Item>,
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
}
