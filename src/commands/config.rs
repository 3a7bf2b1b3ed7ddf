//! `config path | show | get | set | unset`: the config file, read and edited in place.

use super::{note, resolve_settings};
use crate::cli::{ConfigCommand, GlobalArgs};
use crate::error::{Failure, Result};
use crate::output::write_stdout;
use crate::settings::config_edit::{plain, ConfigDocument, ConfigKey};
use crate::settings::secret::ApiKey;
use crate::settings::{FileUse, KeySetting, Settings};

pub fn run(global: &GlobalArgs, command: &ConfigCommand) -> anyhow::Result<()> {
    // Reading commands see the file as every command does (strictly, an unknown profile
    // refused, warnings shown); editing ones only locate it, so that `set` can mend a broken one.
    let file = match command {
        ConfigCommand::Show | ConfigCommand::Get { .. } => FileUse::Read,
        _ => FileUse::LocateOnly,
    };
    let settings = resolve_settings(global, None, file)?;
    refuse_sandbox(&settings, "config")?;
    match command {
        ConfigCommand::Path => {
            write_stdout(|out| writeln!(out, "{}", settings.config.path.display()))
        }
        ConfigCommand::Show => show(&settings),
        ConfigCommand::Get { key } => get(&settings, *key),
        ConfigCommand::Set { key, value } => set(&settings, *key, value),
        ConfigCommand::Unset { key } => unset(&settings, *key),
    }
}

/// `--sandbox` makes its own service and key for one query: it has no meaning here, and
/// silently ignoring it would leave the user believing it did something.
pub(crate) fn refuse_sandbox(settings: &Settings, command: &str) -> Result<()> {
    if settings.sandbox {
        return Err(Failure::usage(format!(
            "--sandbox does not apply to {command}: the sandbox makes a fresh key for each query command"
        ))
        .with_hint("try: chain-metrics --sandbox fees --chain eth --last 7"));
    }
    Ok(())
}

/// The profile commands write to: `--profile`, else `CHAIN_METRICS_PROFILE`, else none.
pub(crate) fn profile(settings: &Settings) -> Option<String> {
    settings.profile.as_ref().map(|p| p.value.clone())
}

/// Where a write goes, named for messages: `config file F` or `profile P of config file F`.
pub(crate) fn place(doc: &ConfigDocument, profile: Option<&str>) -> String {
    let file = doc.location.path.display();
    match profile {
        Some(name) => format!("profile {name} of config file {file}"),
        None => format!("config file {file}"),
    }
}

fn get(settings: &Settings, key: ConfigKey) -> anyhow::Result<()> {
    let doc = ConfigDocument::load(settings.config.clone())?;
    let profile = profile(settings);
    let value = profile
        .as_deref()
        .and_then(|p| doc.get(Some(p), key))
        .or_else(|| doc.get(None, key))
        .ok_or_else(|| {
            Failure::config(format!(
                "{} is not set in {}",
                key.name(),
                place(&doc, profile.as_deref())
            ))
            .with_hint(format!(
                "set it with: chain-metrics config set {} VALUE",
                key.name()
            ))
        })?;
    let text = match key {
        // The key itself is never printed, even on request: it would land in a terminal's
        // scrollback or a CI log.
        ConfigKey::ApiKey => ApiKey::new(&plain(value)).map_or("****".into(), |k| k.redacted()),
        _ => plain(value),
    };
    write_stdout(|out| writeln!(out, "{text}"))
}

fn set(settings: &Settings, key: ConfigKey, text: &str) -> anyhow::Result<()> {
    if key == ConfigKey::ApiKey {
        return Err(Failure::usage(
            "config set api_key is refused: a key given as an argument is left in the shell history and the process list",
        )
        .with_hint("store it with: chain-metrics auth login (it reads the key from a hidden prompt or stdin)")
        .into());
    }
    let mut doc = ConfigDocument::load(settings.config.clone())?;
    let profile = profile(settings);
    let value = key
        .value(text, doc.allow_http(profile.as_deref()))
        .map_err(|why| {
            Failure::usage(format!("invalid value '{text}' for {}: {why}", key.name()))
        })?;
    let shown = plain(&value);
    doc.set(profile.as_deref(), key, value);
    doc.save()?;
    note(
        settings,
        &format!(
            "{} = {shown} in {}",
            key.name(),
            place(&doc, profile.as_deref())
        ),
    );
    Ok(())
}

fn unset(settings: &Settings, key: ConfigKey) -> anyhow::Result<()> {
    let mut doc = ConfigDocument::load(settings.config.clone())?;
    let profile = profile(settings);
    let place = place(&doc, profile.as_deref());
    if doc.remove(profile.as_deref(), key) {
        doc.save()?;
        note(settings, &format!("removed {} from {place}", key.name()));
    } else {
        note(
            settings,
            &format!("{} was not set in {place}; nothing changed", key.name()),
        );
    }
    Ok(())
}

fn show(settings: &Settings) -> anyhow::Result<()> {
    let rows = show_rows(settings);
    let width = rows
        .iter()
        .map(|(_, value, _)| value.chars().count())
        .max()
        .unwrap_or(0);
    write_stdout(|out| {
        for (name, value, source) in &rows {
            writeln!(out, "{name:<23}  {value:<width$}  ({source})")?;
        }
        Ok(())
    })
}

/// One row per setting: its config key, its value as shown (the key redacted), its source.
fn show_rows(s: &Settings) -> Vec<(&'static str, String, String)> {
    let config_source = &s.config.source;
    let missing = if s.config.path.exists() {
        ""
    } else {
        " (no such file yet)"
    };
    let unset = || ("(not set)".to_owned(), "-".to_owned());
    let sourced = |key: &str, value: String| (value, s.sources[key].to_string());
    let (profile, profile_source) = s.profile.as_ref().map_or_else(
        || ("(none)".into(), "-".into()),
        |p| (p.value.clone(), p.source.to_string()),
    );
    let (base_url, base_source) = s
        .base_url
        .as_ref()
        .map_or_else(unset, |b| (b.value.clone(), b.source.to_string()));
    let (key, key_source) = s.key.as_ref().map_or_else(unset, |k| {
        let shown = match &k.value {
            KeySetting::Key(key) => key.redacted(),
            KeySetting::Command(command) => format!("from api_key_command `{command}`"),
        };
        (shown, k.source.to_string())
    });
    let seconds = |d: std::time::Duration| d.as_secs_f64().to_string();
    let rows = [
        (
            "config file",
            (
                format!("{}{missing}", s.config.path.display()),
                config_source.to_string(),
            ),
        ),
        ("profile", (profile, profile_source)),
        ("base_url", (base_url, base_source)),
        ("api_key", (key, key_source)),
        (
            "api_key_command_timeout",
            sourced("api_key_command_timeout", seconds(s.key_command_timeout)),
        ),
        (
            "allow_http",
            sourced("allow_http", s.allow_http.to_string()),
        ),
        ("timeout", sourced("timeout", seconds(s.timeout))),
        (
            "connect_timeout",
            sourced("connect_timeout", seconds(s.connect_timeout)),
        ),
        ("retries", sourced("retries", s.retries.to_string())),
        ("jobs", sourced("jobs", s.jobs.to_string())),
        (
            "method",
            sourced("method", format!("{:?}", s.method).to_lowercase()),
        ),
        (
            "chunk_days",
            s.chunk_days
                .map_or_else(unset, |days| sourced("chunk_days", days.to_string())),
        ),
    ];
    rows.into_iter()
        .map(|(name, (value, source))| (name, value, source))
        .collect()
}
