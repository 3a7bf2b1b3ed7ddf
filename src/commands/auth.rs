//! `auth login | status | logout`: store the API key, say where it comes from and whether the
//! service accepts it, remove it.

use std::io::{BufRead, ErrorKind, IsTerminal, Read, Write};

use serde_json::json;

use super::config::{place, profile};
use crate::cli::{AuthCommand, LoginArgs, StatusArgs, StatusFormat};
use crate::error::{Exit, Failure, Result};
use crate::fetched::Request;
use crate::model::Chain;
use crate::model::Endpoint;
use crate::model::{today_utc, DayRange};
use crate::output::write_stdout;
use crate::settings::limits::MAX_KEY_BYTES;
use crate::settings::shown_url;
use crate::settings::ApiKey;
use crate::settings::{ConfigDocument, ConfigKey};
use crate::settings::{FileUse, KeySetting, Settings, Source, Sourced, ENV_KEY};
use crate::system::{diag, interrupt};

/// How `command` reads the config file: `login` checks the key against the configured
/// service, where a profile it is about to create may not exist yet; `logout` only edits it.
pub(super) fn file_use(command: &AuthCommand) -> FileUse {
    match command {
        AuthCommand::Login(args) if args.no_verify => FileUse::LocateOnly,
        AuthCommand::Login(_) => FileUse::ReadNewProfileOk,
        AuthCommand::Status(_) => FileUse::Read,
        AuthCommand::Logout => FileUse::LocateOnly,
    }
}

pub(super) fn run(command: &AuthCommand, settings: &Settings) -> anyhow::Result<()> {
    match command {
        AuthCommand::Login(args) => login(settings, args),
        AuthCommand::Status(args) => status(settings, args),
        AuthCommand::Logout => logout(settings),
    }
}

/// Whether the key comes from `CHAIN_METRICS_API_KEY`, which outranks any stored key.
fn key_in_environment(settings: &Settings) -> bool {
    settings
        .key
        .as_ref()
        .is_some_and(|k| k.source == Source::Env(ENV_KEY))
}

fn login(settings: &Settings, args: &LoginArgs) -> anyhow::Result<()> {
    // A broken config file is refused before the user types the key, not after; the file is
    // read again for the edit, under its lock, once the key is in hand.
    ConfigDocument::load(settings.config.clone())?;
    let profile = profile(settings);
    let key = read_key()?;
    if !args.no_verify {
        verify_before_storing(settings, &key)?;
    }
    let mut doc = ConfigDocument::edit(settings.config.clone(), settings.lock_wait())?;
    doc.set(profile.as_deref(), ConfigKey::ApiKey, key.expose().into());
    doc.save()?;
    let checked = if args.no_verify {
        "not checked"
    } else {
        "the service accepted it"
    };
    diag::status(format!(
        "stored the API key {} in {} ({checked})",
        key.redacted(),
        place(&doc, profile.as_deref())
    ));
    if key_in_environment(settings) {
        diag::warning(format!(
            "{ENV_KEY} is set in this environment and takes precedence over the stored key"
        ));
    }
    Ok(())
}

/// Checks the key with the configured service; a failure says the key was not stored.
fn verify_before_storing(settings: &Settings, key: &ApiKey) -> Result<()> {
    let url = settings.service_url().map_err(|failure| {
        failure.with_hint(format!(
            "set the address first (chain-metrics{} config set base_url \
            URL), or store the key unchecked with --no-verify",
            settings.again()
        ))
    })?;
    verify(settings, url, key).map_err(|failure| {
        let hint = match failure.exit {
            Exit::KeyRejected => "check the key and run auth login again",
            _ => "to store the key without checking it, add --no-verify",
        };
        Failure::new(
            failure.exit,
            format!("{}; the key was not stored", failure.message),
        )
        .with_hint(hint)
    })
}

/// The key from a hidden prompt on a terminal, else the first line of stdin (scripts, CI).
fn read_key() -> Result<ApiKey> {
    let text = if std::io::stdin().is_terminal() {
        let _echo_off = interrupt::echo_off();
        rpassword::prompt_password("API key (input hidden): ").map_err(|e| {
            // The prompt reads Ctrl-C itself and raises SIGINT after: stop now, as the
            // signal's handler would, rather than race it with a read error.
            if e.kind() == ErrorKind::Interrupted {
                interrupt::stop();
            }
            Failure::usage(format!("cannot read the key from the terminal: {e}"))
        })?
    } else {
        // A key is one short line: at most `MAX_KEY_BYTES` of it are read, so that an endless
        // stream (`yes | chain-metrics auth login`) is refused rather than held in memory.
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .take(MAX_KEY_BYTES as u64 + 1)
            .read_line(&mut line)
            .map_err(|e| Failure::usage(format!("cannot read the key from stdin: {e}")))?;
        if line.len() > MAX_KEY_BYTES {
            return Err(Failure::usage(format!(
                "the first line of stdin is longer than {MAX_KEY_BYTES} bytes, far more than a key"
            ))
            .with_hint(
                "pipe in the key alone: printf '%s\\n' \"$KEY\" | chain-metrics auth login",
            ));
        }
        line
    };
    let key = ApiKey::new(&text).ok_or_else(|| {
        Failure::usage("no API key was given").with_hint(
            "type it at the prompt, or pipe it in: printf '%s\\n' \"$KEY\" | chain-metrics auth \
            login",
        )
    })?;
    key.check_length().map_err(Failure::config)?;
    key.check_header().map_err(Failure::usage)?;
    Ok(key)
}

/// Asks for one day of ETHEREUM fees, the smallest request that needs a valid key.
fn verify(settings: &Settings, url: reqwest::Url, key: &ApiKey) -> Result<()> {
    let client = super::client(settings, url, key.clone(), None)?;
    let yesterday = today_utc().pred_opt().expect("today has a day before it");
    let request = Request {
        endpoint: Endpoint::Fees,
        chain: Chain::Ethereum,
        range: DayRange {
            start: yesterday,
            end: yesterday,
        },
        includes: None,
    };
    client.fetch_dropped(&request)
}

fn status(settings: &Settings, args: &StatusArgs) -> anyhow::Result<()> {
    let Some(setting) = &settings.key else {
        let hint = format!(
            "store one with: chain-metrics{} auth login (or set CHAIN_METRICS_API_KEY)",
            settings.again()
        );
        return Err(Failure::config(settings.no_key()).with_hint(hint).into());
    };
    let key = settings.api_key()?;
    let mut rejected = None;
    let accepted = if args.no_verify {
        None
    } else {
        match verify(settings, settings.service_url()?, &key) {
            Ok(()) => Some(true),
            Err(failure) if failure.exit == Exit::KeyRejected => {
                rejected = Some(failure);
                Some(false)
            }
            Err(failure) => return Err(failure.into()),
        }
    };
    let report = status_report(settings, setting, &key, accepted);
    write_stdout(|out| match args.format {
        StatusFormat::Json => writeln!(out, "{report:#}"),
        StatusFormat::Text => write_status_text(out, &report),
    })?;
    match rejected {
        Some(failure) => Err(failure.with_hint(rejected_hint(setting, settings)).into()),
        None => Ok(()),
    }
}

/// What to do about a rejected key: store another, unless it comes from the environment,
/// which outranks whatever `auth login` stores.
fn rejected_hint(setting: &Sourced<KeySetting>, settings: &Settings) -> String {
    match &setting.source {
        Source::Env(name) => format!(
            "the key came from the environment variable {name}, which \
            outranks any stored key: correct it, or unset it (auth login changes nothing while it \
            is set)"
        ),
        source => format!(
            "the key came from {source}; store another with: chain-metrics{} auth \
            login",
            settings.again()
        ),
    }
}

/// What `auth status` says, as JSON; the text form is written from it.
fn status_report(
    settings: &Settings,
    setting: &Sourced<KeySetting>,
    key: &ApiKey,
    accepted: Option<bool>,
) -> serde_json::Value {
    let command = match &setting.value {
        KeySetting::Command(command) => Some(command.as_str()),
        KeySetting::Key(_) => None,
    };
    json!({
        "key": key.redacted(),
        "source": setting.source.to_string(),
        "profile": match &setting.source { Source::Profile(name) => Some(name), _ => None },
        "api_key_command": command,
        "config_file": settings.config.path.display().to_string(),
        "base_url": settings.base_url.as_ref().map(|b| shown_url(&b.value)),
        "accepted": accepted,
    })
}

fn write_status_text(out: &mut dyn Write, report: &serde_json::Value) -> std::io::Result<()> {
    let text = |name: &str| report[name].as_str().unwrap_or("(not set)").to_owned();
    let source = match report["api_key_command"].as_str() {
        Some(command) => format!("api_key_command `{command}` in {}", text("source")),
        None => text("source"),
    };
    let accepted = match report["accepted"].as_bool() {
        Some(true) => "yes",
        Some(false) => "no",
        None => "not checked (--no-verify)",
    };
    writeln!(out, "key          {}", text("key"))?;
    writeln!(out, "source       {source}")?;
    writeln!(out, "config file  {}", text("config_file"))?;
    writeln!(out, "service      {}", text("base_url"))?;
    writeln!(out, "accepted     {accepted}")
}

fn logout(settings: &Settings) -> anyhow::Result<()> {
    let mut doc = ConfigDocument::edit(settings.config.clone(), settings.lock_wait())?;
    let profile = profile(settings);
    let place = place(&doc, profile.as_deref());
    if doc.remove(profile.as_deref(), ConfigKey::ApiKey) {
        doc.save()?;
        diag::status(format!("removed the API key from {place}"));
    } else {
        diag::status(format!("no API key is stored in {place}; nothing changed"));
    }
    if doc
        .get(profile.as_deref(), ConfigKey::ApiKeyCommand)
        .is_some()
    {
        diag::note(format!(
            "api_key_command stays in {place}; remove it with: chain-metrics config \
            unset api_key_command"
        ));
    }
    if key_in_environment(settings) {
        diag::warning(format!(
            "{ENV_KEY} is still set in this environment, and is used before any stored key"
        ));
    }
    Ok(())
}
