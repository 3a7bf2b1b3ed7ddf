//! The flags of the other commands: `chains`, `auth`, `config`, `cache`, `sandbox`,
//! `completions`.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Subcommand, ValueEnum, ValueHint};
use clap_complete::ArgValueCompleter;

use super::completion::Shell;
use super::help_text;
use super::{parse_milliseconds, parse_rate};
use crate::model::{Chain, DaySpec};
use crate::render::{AxisScale, Format};
use crate::sandbox::Fault;
use crate::settings::ConfigKey;

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Store the API key, read from a hidden prompt (or one line of stdin), after checking it
    ///
    /// It goes to the selected profile (--profile) of the config file (--config), created 0600.
    #[command(after_help = help_text::AUTH_LOGIN)]
    Login(LoginArgs),

    /// Where the API key comes from, and whether the service accepts it (exit 4 if not)
    #[command(after_help = help_text::AUTH_STATUS)]
    Status(StatusArgs),

    /// Remove the stored API key from the selected profile (other settings stay)
    #[command(after_help = help_text::AUTH_LOGOUT)]
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
    #[arg(
        short,
        long,
        value_name = "FMT",
        default_value = "text",
        ignore_case = true
    )]
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
    #[command(after_help = help_text::CONFIG_PATH)]
    Path,

    /// Print the effective settings, each with where it comes from (the key redacted)
    #[command(after_help = help_text::CONFIG_SHOW)]
    Show,

    /// Print a value stored in the file: the selected profile's, else the top level's
    #[command(after_help = help_text::CONFIG_GET)]
    Get {
        /// The setting to read
        #[arg(value_name = "KEY")]
        key: ConfigKey,
    },

    /// Store a value in the selected profile (or the top level), checked first
    #[command(after_help = help_text::CONFIG_SET)]
    Set {
        /// The setting to store
        #[arg(value_name = "KEY")]
        key: ConfigKey,
        /// Its new value, checked before the file is touched
        #[arg(value_name = "VALUE", allow_hyphen_values = true,
              add = clap_complete::ArgValueCompleter::new(super::candidates::config_values))]
        value: String,
    },

    /// List the config file's profiles, the one in use marked with where it was chosen
    #[command(after_help = help_text::CONFIG_PROFILES)]
    Profiles,

    /// Remove a value from the selected profile (or the top level)
    #[command(after_help = help_text::CONFIG_UNSET)]
    Unset {
        /// The setting to remove
        #[arg(value_name = "KEY")]
        key: ConfigKey,
    },
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Print the cache file's path
    #[command(after_help = help_text::CACHE_PATH)]
    Path,

    /// Print the values kept, the file's size, and the oldest and newest day of each series
    #[command(after_help = help_text::CACHE_STATS)]
    Stats {
        /// Output format [default: table on a terminal, csv otherwise]
        #[arg(short, long, value_name = "FMT", value_parser = list_formats(), ignore_case = true)]
        format: Option<Format>,
    },

    /// Remove every cached value, or only those of days before DAY
    #[command(after_help = help_text::CACHE_CLEAR)]
    Clear {
        /// Remove only the values of days before this one: YYYY-MM-DD, today or yesterday
        #[arg(long, value_name = "DAY", value_parser = DaySpec::parse)]
        before: Option<DaySpec>,
    },
}

#[derive(Debug, Args)]
pub struct ChainsArgs {
    /// Output format [default: table on a terminal, csv otherwise]
    #[arg(short, long, value_name = "FMT", value_parser = list_formats(), ignore_case = true)]
    pub format: Option<Format>,
}

/// The formats of `chains` and `cache stats`: those that write a listing (not the charts, as a list
/// is no
/// series, nor `sqlite`, a file of daily tables).
fn list_formats() -> impl TypedValueParser<Value = Format> {
    let values = Format::all_that(|can| can.listing)
        .into_iter()
        .filter_map(|format| format.to_possible_value());
    PossibleValuesParser::new(values).try_map(|name| Format::from_str(&name, true))
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
    #[arg(long, value_name = "MS", default_value_t = 0, value_parser = parse_milliseconds)]
    pub latency: u64,

    /// Share of requests answered 500, from 0 to 1
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_rate)]
    pub fail_rate: f64,

    /// Misbehave on purpose (repeatable): latency:MS, CODE[:RETRY_AFTER] (503, 429:1,
    /// 503:date+2), reset, cut, html, wrong-type, huge, range-cap:DAYS, chunked,
    /// gap:[CHAIN:]DAY..DAY (no record for those days); NAME@N shows it on the first N attempts
    /// only
    // The --help text: `[CHAIN:]` is an optional part there, not a link.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[arg(long = "fault", value_name = "FAULT", value_parser = Fault::parse)]
    pub faults: Vec<Fault>,

    /// Serve HTTPS, with a fresh self-signed certificate
    #[arg(long)]
    pub tls: bool,

    /// Write that certificate (PEM) to FILE, for a client's --ca-bundle
    #[arg(long, value_name = "FILE", requires = "tls", value_hint = ValueHint::FilePath)]
    pub cert_out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The export to draw: a csv, tsv, json, ndjson or SQLite file chain-metrics wrote
    #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub file: PathBuf,

    /// Picture format: svg, html or chart [default: from --output's extension]
    #[arg(
        short,
        long,
        value_name = "FMT",
        ignore_case = true,
        hide_possible_values = true
    )]
    pub format: Option<Format>,

    /// Write to FILE atomically instead of stdout; its extension sets the format (.svg .html)
    #[arg(short, long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub output: Option<PathBuf>,

    /// The chain a file without a chain column holds, for the legend
    #[arg(long, value_name = "CHAIN", value_parser = super::query::one_chain,
          add = ArgValueCompleter::new(super::candidates::chains))]
    pub file_chain: Option<Chain>,

    /// svg/html: value axes from zero (linear) or in powers of ten (log), as the query's --scale
    /// [default: linear]
    #[arg(long, ignore_case = true)]
    pub scale: Option<AxisScale>,

    /// The table of a SQLite file to draw, when it holds several [default: its one table]
    #[arg(long, value_name = "NAME")]
    pub table: Option<String>,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (fees, auth login); none for the tool's own page
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,

    /// Write every page into DIR (made if missing) as chain-metrics-*.1, instead of printing one
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath, conflicts_with = "command")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_name = "SHELL", ignore_case = true)]
    pub shell: Shell,
}
