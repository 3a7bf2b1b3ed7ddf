//! Runs one parsed command; each family of commands has its own module (the four query
//! commands share `query/`), this one holds what they share.

mod auth;
mod cache;
mod chains;
mod completions;
mod config;
mod man;
mod profiles;
mod query;
mod render;
mod sandbox;

use crate::cli::{Cli, Command, GlobalArgs, SocialArgs};
use crate::client::Roots;
use crate::error::{Exit, Failure, Result};
use crate::model::Endpoint;
use crate::settings::Terminal;
use crate::settings::{FileUse, Flags, Settings};
use crate::system::diag;

/// Runs the command, every decision about the terminal taken from `terminal`, asked once.
pub(crate) fn run(cli: Cli, terminal: Terminal) -> anyhow::Result<()> {
    let global = &cli.global;
    match &cli.command {
        Command::Fees(args) => query::run(global, terminal, args, &[Endpoint::Fees], &[]),
        Command::Users(args) => query::run(global, terminal, args, &[Endpoint::ActiveUsers], &[]),
        Command::Social(SocialArgs {
            query: args,
            includes,
        }) => {
            let social = [Endpoint::OfficialAccount];
            query::run(global, terminal, args, &social, includes)
        }
        Command::Report(SocialArgs {
            query: args,
            includes,
        }) => {
            let all = [
                Endpoint::Fees,
                Endpoint::ActiveUsers,
                Endpoint::OfficialAccount,
            ];
            query::run(global, terminal, args, &all, includes)
        }
        Command::Chains(args) => chains::run(args, terminal),
        Command::Auth(command) => auth::run(
            command,
            &of_file(global, terminal, auth::file_use(command), "auth")?,
        ),
        Command::Config(command) => {
            let file = config::file_use(command);
            config::run(command, &of_file(global, terminal, file, "config")?)
        }
        Command::Cache(command) => cache::run(command, &located(global, terminal)?, terminal),
        Command::Render(args) => render::run(args, &located(global, terminal)?, terminal),
        Command::Sandbox(args) => sandbox::run(args, &located(global, terminal)?),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
    }
}

/// The settings of a command about the config file and the key (`auth`, `config`), read as
/// `file` says; `--sandbox` is refused there.
fn of_file(
    global: &GlobalArgs,
    terminal: Terminal,
    file: FileUse,
    command: &str,
) -> Result<Settings, Failure> {
    let settings = resolve_settings(global, terminal, None, file)?;
    refuse_sandbox(&settings, command)?;
    Ok(settings)
}

/// `--sandbox` makes its own service and key for one query: it has no meaning here, and
/// silently ignoring it would leave the user believing it did something.
fn refuse_sandbox(settings: &Settings, command: &str) -> Result<(), Failure> {
    if settings.sandbox {
        return Err(Failure::usage(format!(
            "--sandbox does not apply to {command}: the sandbox makes a fresh key for each query \
            command"
        ))
        .with_hint("try: chain-metrics --sandbox fees --chain eth --last 7"));
    }
    Ok(())
}

/// Resolves the settings (see [`FileUse`]) and prints the warnings that came with them.
pub(crate) fn resolve_settings(
    global: &GlobalArgs,
    terminal: Terminal,
    chunk_days: Option<u32>,
    file: FileUse,
) -> Result<Settings, Failure> {
    settings_said(Settings::resolve(
        &Flags::from(global),
        chunk_days,
        file,
        terminal,
    ))
}

/// Settings resolved earlier, silently, and said now: their warnings printed, or their failure.
pub(crate) fn settings_said(resolved: Result<Settings, Failure>) -> Result<Settings, Failure> {
    let settings = resolved?;
    for warning in &settings.warnings {
        diag::warning(warning.as_str());
    }
    Ok(settings)
}

/// The settings of a command that reads no value of the config file, only locates it, so that a
/// broken file stops none of them: `cache` (`cache clear` still works), `render` (only the
/// colour is wanted, never a key) and `sandbox` (it serves no configured service: only the flag
/// `--method` matters).
fn located(global: &GlobalArgs, terminal: Terminal) -> Result<Settings, Failure> {
    resolve_settings(global, terminal, None, FileUse::LocateOnly)
}

/// The client for a run: the resolved settings, pointed at `base_url` with `key`. The built-in
/// sandbox's client trusts its certificate alone, and never goes through a proxy.
pub(crate) fn client(
    settings: &Settings,
    base_url: reqwest::Url,
    key: crate::settings::ApiKey,
    sandbox_cert: Option<&str>,
) -> Result<crate::client::Client, Failure> {
    let (roots, proxy) = match sandbox_cert {
        Some(pem) => (Roots::Only(pem.as_bytes().to_vec()), None),
        None => {
            let proxy = settings.proxy_for(&base_url)?;
            // The trust store is loaded only when a connection can need it.
            let tls = base_url.scheme() == "https"
                || proxy.as_ref().is_some_and(|p| p.url.scheme() == "https");
            let trust = settings.trust.clone();
            let roots = if tls {
                Roots::Platform(trust)
            } else {
                Roots::PlainHttp(trust)
            };
            (roots, proxy)
        }
    };
    crate::system::memory::small_heap();
    let options = crate::client::ClientOptions {
        roots,
        proxy,
        base_url,
        key,
        trace: trace(settings),
    };
    crate::client::Client::new(options, settings)
}

/// `--verbose`: the client's request lines on stderr, marked with `*`.
pub(crate) fn trace(settings: &Settings) -> Option<crate::client::Trace> {
    settings
        .verbose
        .then(|| std::sync::Arc::new(|line: &str| diag::verbose(line)) as crate::client::Trace)
}

/// A fresh random API key for the sandbox: 128 bits from the operating system's random source
/// (a hash of the clock is not a key).
pub(crate) fn random_key() -> Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| {
        Failure::new(
            Exit::Internal,
            format!("the system's random source failed: {e}"),
        )
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
