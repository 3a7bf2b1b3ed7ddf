//! The command line, as clap parses it: commands, flags and their help text.

mod analysis;
mod calendar;
mod candidates;
mod commands;
mod completion;
mod help_text;
mod inherited;
pub mod manual;
mod needed;
mod query;
mod short_help;
mod suggest;
mod version;

pub(crate) use analysis::AnalysisArgs;
pub(crate) use calendar::CalendarArgs;
pub(crate) use commands::{
    AuthCommand, CacheCommand, ChainsArgs, CompletionsArgs, ConfigCommand, LoginArgs, ManArgs,
    RenderArgs, SandboxArgs, StatusArgs, StatusFormat,
};
pub(crate) use completion::answer_if_asked;
pub use completion::{globals_acting_under, write_script, Shell};
pub(crate) use inherited::parse;
pub(crate) use query::{missing_chain, QueryArgs, SocialArgs};
pub(crate) use version::asked_alone as version_asked;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueHint};
use clap_complete::ArgValueCandidates;

use crate::settings::MethodChoice;
use crate::settings::{defaults, limits};
use crate::settings::{Flags, Switch};

// The command line: the global flags and one command. No doc comment: clap would read it as the
// description, which is `help_text::ABOUT` (a query builds only its own command, `needed.rs`).
// `--help` must fit on one screen, so it is the one-line-per-option layout: no long_about, and no
// option whose possible values carry help (either would switch clap to its long layout).
#[derive(Debug, Parser)]
#[command(
    name = "chain-metrics",
    about = help_text::ABOUT,
    version,
    long_version = version::long(),
    max_term_width = 100,
    after_help = help_text::CLI
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
    #[arg(help_heading = "Connection", long, global = true, value_name = "URL",
          value_hint = ValueHint::Url)]
    pub base_url: Option<String>,

    /// Plain http to any host, the key in clear [config: allow_http]
    #[arg(help_heading = "Connection", long, global = true)]
    pub allow_http: bool,

    /// Plain http to loopback only for this run, whatever config allow_http says
    #[arg(
        help_heading = "Connection",
        long,
        global = true,
        conflicts_with = "allow_http"
    )]
    pub no_allow_http: bool,

    /// Profile of the config file to use [env: CHAIN_METRICS_PROFILE]
    #[arg(help_heading = "Settings", long, global = true, value_name = "NAME",
          add = ArgValueCandidates::new(completion::profiles))]
    pub profile: Option<String>,

    /// Config file (see FILES in the man page) [env: CHAIN_METRICS_CONFIG]
    #[arg(help_heading = "Settings", long, global = true, value_name = "FILE",
          value_hint = ValueHint::FilePath)]
    pub config: Option<PathBuf>,

    /// Extra CA certificates (PEM) to trust [env: CHAIN_METRICS_CA_BUNDLE]
    #[arg(help_heading = "Connection", long, global = true, value_name = "FILE",
          value_hint = ValueHint::FilePath)]
    pub ca_bundle: Option<PathBuf>,

    /// Run against the built-in sandbox (synthetic data, no account needed)
    #[arg(help_heading = "Connection", long, global = true)]
    pub sandbox: bool,

    // The defaults in these help lines come from `settings::defaults`, as the run uses them.
    #[arg(help_heading = "Connection", long, global = true, value_name = "SECS",
          value_parser = parse_seconds,
          help = format!("Seconds one whole request may take, body included [default: {}]",
                         defaults::TIMEOUT_SECS))]
    pub timeout: Option<f64>,

    #[arg(help_heading = "Connection", long, global = true, value_name = "SECS",
          value_parser = parse_seconds,
          help = format!("Seconds to get connected [default: {}]",
                         defaults::CONNECT_TIMEOUT_SECS))]
    pub connect_timeout: Option<f64>,

    #[arg(help_heading = "Connection", long, global = true, value_name = "N",
          value_parser = parse_retries,
          help = format!("Further attempts after a transient failure [default: {}]",
                         defaults::RETRIES))]
    pub retries: Option<u32>,

    #[arg(help_heading = "Connection", long, global = true, value_name = "N",
          value_parser = parse_jobs,
          help = format!("Requests in flight at once [default: {}]",
                         defaults::JOBS))]
    pub jobs: Option<usize>,

    #[arg(help_heading = "Settings", long, global = true, value_name = "SECS",
          value_parser = parse_seconds,
          help = format!("Seconds to wait while another run changes the same file [default: {}]",
                         defaults::LOCK_TIMEOUT_SECS))]
    pub lock_timeout: Option<f64>,

    /// HTTP method: auto (POST; GET after a 405), post, get [default: auto]
    #[arg(
        help_heading = "Connection",
        long,
        global = true,
        value_name = "METHOD",
        hide_possible_values = true,
        ignore_case = true
    )]
    pub method: Option<MethodChoice>,

    /// Show requests and timings on stderr (the key masked)
    #[arg(help_heading = "Messages", short, long, global = true)]
    pub verbose: bool,

    /// Print errors only
    #[arg(
        help_heading = "Messages",
        short,
        long,
        global = true,
        conflicts_with = "verbose"
    )]
    pub quiet: bool,

    /// Colour: auto (honours NO_COLOR), always, never [default: auto]
    #[arg(
        help_heading = "Messages",
        long,
        global = true,
        value_name = "WHEN",
        hide_possible_values = true
    )]
    pub color: Option<ColorChoice>,

    /// Stderr as text, or json: one object a line [default: text]
    #[arg(help_heading = "Messages", long, global = true, value_name = "FMT")]
    #[arg(hide_possible_values = true, ignore_case = true)]
    pub error_format: Option<crate::report::ErrorFormat>,
}

pub(crate) use crate::settings::ColorChoice;

impl Cli {
    /// How errors and every other stderr line are written (`--error-format`, any command).
    pub fn error_format(&self) -> crate::report::ErrorFormat {
        self.global.error_format.unwrap_or_default()
    }
}

/// The setting flags, handed to settings as plain values: every field is named (no `..`), so a
/// global flag added fails to compile here until it is handed on or said to be decided elsewhere.
impl From<&GlobalArgs> for Flags {
    fn from(g: &GlobalArgs) -> Flags {
        let GlobalArgs {
            base_url,
            allow_http,
            no_allow_http,
            profile,
            config,
            ca_bundle,
            sandbox,
            timeout,
            connect_timeout,
            retries,
            jobs,
            lock_timeout,
            method,
            verbose,
            // Decided once at startup, before any settings (`diag::start`).
            quiet: _,
            color,
            error_format: _,
        } = g;
        Flags {
            base_url: base_url.clone(),
            profile: profile.clone(),
            config: config.clone(),
            ca_bundle: ca_bundle.clone(),
            allow_http: Switch::new(*allow_http, *no_allow_http),
            sandbox: *sandbox,
            timeout: *timeout,
            connect_timeout: *connect_timeout,
            retries: *retries,
            jobs: *jobs,
            lock_timeout: *lock_timeout,
            method: *method,
            verbose: *verbose,
            color: *color,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    // `--per-user` is parsed everywhere (and refused with a hint but under report), and shown
    // only where it works. A query runs with only its own command built (`needed.rs`, which
    // builds these four the same way; a test compares the two).
    #[command(about = help_text::FEES_ABOUT, after_help = help_text::FEES,
              override_usage = help_text::FEES_USAGE, mut_arg("per_user", |a| a.hide(true)))]
    Fees(QueryArgs),

    #[command(about = help_text::USERS_ABOUT, after_help = help_text::USERS,
              override_usage = help_text::USERS_USAGE, mut_arg("per_user", |a| a.hide(true)))]
    Users(QueryArgs),

    #[command(about = help_text::SOCIAL_ABOUT, after_help = help_text::SOCIAL,
              override_usage = help_text::SOCIAL_USAGE, mut_arg("per_user", |a| a.hide(true)))]
    Social(SocialArgs),

    #[command(about = help_text::REPORT_ABOUT, after_help = help_text::REPORT,
              override_usage = help_text::REPORT_USAGE)]
    Report(SocialArgs),

    /// The supported chains and their aliases
    #[command(after_help = help_text::CHAINS)]
    Chains(ChainsArgs),

    /// Store, check or remove the API key: login | status | logout
    #[command(subcommand, after_help = help_text::AUTH)]
    Auth(AuthCommand),

    /// Read or change the config file: path | show | get | set | unset | profiles
    #[command(subcommand, after_help = help_text::CONFIG)]
    Config(ConfigCommand),

    /// The local response cache of settled days: path | stats | clear [--before DAY]
    #[command(subcommand, after_help = help_text::CACHE)]
    Cache(CacheCommand),

    /// Draw a file this tool wrote (csv, json, sqlite...) as svg, html or a chart, offline
    #[command(after_help = help_text::RENDER)]
    Render(RenderArgs),

    /// Run the built-in reference service on loopback, with synthetic data
    #[command(after_help = help_text::SANDBOX)]
    Sandbox(SandboxArgs),

    /// Print a completion script for bash, zsh, fish, powershell or elvish
    #[command(after_help = help_text::COMPLETIONS)]
    Completions(CompletionsArgs),

    /// Print the man page of the tool or of a command, in roff
    // Hidden from the command list, which must fit one 48-line screen;
    // docs/completion-and-man-pages.md,
    // the README and `completions --help` name it.
    #[command(after_help = help_text::MAN, hide = true)]
    Man(ManArgs),
}

/// A number of seconds, from a millisecond to a day (a far longer one overflows the clock).
fn parse_seconds(text: &str) -> Result<f64, String> {
    let value = text.trim().parse::<f64>().unwrap_or(f64::NAN);
    limits::seconds(value)
        .map(|_| value)
        .map_err(|why| format!("'{text}' {}", why.phrase()))
}

fn parse_retries(text: &str) -> Result<u32, String> {
    counted(limits::RETRIES, "retries", text)
}

fn parse_jobs(text: &str) -> Result<usize, String> {
    counted(limits::JOBS, "requests", text).map(|n| n as usize)
}

pub(super) fn parse_decimals(text: &str) -> Result<u32, String> {
    counted(limits::DECIMALS, "decimals", text)
}

pub(super) fn parse_rolling(text: &str) -> Result<u32, String> {
    counted(limits::ROLLING_ROWS, "rows", text)
}

fn parse_chunk_days(text: &str) -> Result<u32, String> {
    counted(limits::CHUNK_DAYS, "days", text)
}

/// A whole number within `bounds`, or why not: "'65' is not a number of requests from 1 to 64".
fn counted(bounds: limits::Count, what: &str, text: &str) -> Result<u32, String> {
    bounds
        .parse(text)
        .ok_or_else(|| format!("'{text}' is not a number of {what} {}", bounds.span()))
}

/// Milliseconds of sandbox delay, at most a day like every other wait.
fn parse_milliseconds(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|ms| *ms as f64 <= limits::MAX_SECONDS * 1000.0)
        .ok_or_else(|| {
            format!("'{text}' is not a number of milliseconds from 0 to 86400000 (a day)")
        })
}

fn parse_rate(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|p| (0.0..=1.0).contains(p))
        .ok_or_else(|| format!("'{text}' is not a share between 0 and 1"))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::settings::{Environment, FileUse, Settings};

    /// The defaults a run uses are the ones `--help` names.
    #[test]
    fn help_names_the_defaults_the_run_uses() {
        let cli = <Cli as clap::Parser>::try_parse_from([
            "chain-metrics",
            "--config",
            "/nonexistent.toml",
            "chains",
        ])
        .unwrap();
        let s = Settings::resolve_in(
            &Environment::default(),
            &Flags::from(&cli.global),
            None,
            FileUse::LocateOnly,
        )
        .unwrap();
        let help = <Cli as clap::CommandFactory>::command()
            .render_help()
            .to_string();
        let line = |flag: &str| {
            help.lines()
                .find(|l| l.trim_start().starts_with(flag))
                .unwrap_or_else(|| panic!("{flag} in --help"))
                .to_owned()
        };
        let secs = |d: Duration| format!("[default: {}]", d.as_secs_f64());
        assert!(line("--timeout").ends_with(&secs(s.timeout)));
        assert!(line("--connect-timeout").ends_with(&secs(s.connect_timeout)));
        assert!(line("--retries").ends_with(&format!("[default: {}]", s.retries)));
        assert!(line("--jobs").ends_with(&format!("[default: {}]", s.jobs)));
        assert!(line("--lock-timeout").ends_with(&secs(s.lock_timeout)));
        assert_eq!(s.timeout, Duration::from_secs(30));
        assert_eq!((s.retries, s.jobs), (3, 8));
    }

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
