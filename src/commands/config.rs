//! `config path | show | get | set | unset`: the config file, read and edited in place (`config
//! profiles` lists its profiles, in `profiles.rs`).

use crate::analysis::DEFAULT_DECIMALS;
use crate::cli::ConfigCommand;
use crate::error::{Failure, Result};
use crate::model::ChainArg;
use crate::output::write_stdout;
use crate::render::Format;
use crate::settings::shown_url;
use crate::settings::{plain, ConfigDocument, ConfigKey};
use crate::settings::{ApiKey, MASK};
use crate::settings::{FileUse, KeySetting, Settings, Sourced};
use crate::system::{diag, foreign};

/// How `command` reads the config file: reading commands see it as every command does
/// (strictly, an unknown profile refused, warnings shown); editing ones only locate it, so that
/// `set` can mend a broken one.
pub(super) fn file_use(command: &ConfigCommand) -> FileUse {
    match command {
        ConfigCommand::Show | ConfigCommand::Get { .. } => FileUse::Read,
        // Listing the profiles is what to do when the one selected is not there.
        ConfigCommand::Profiles => FileUse::ReadNewProfileOk,
        _ => FileUse::LocateOnly,
    }
}

pub(super) fn run(command: &ConfigCommand, settings: &Settings) -> anyhow::Result<()> {
    match command {
        ConfigCommand::Path => {
            write_stdout(|out| writeln!(out, "{}", settings.config.path.display()))
        }
        ConfigCommand::Show => show(settings),
        ConfigCommand::Get { key } => get(settings, *key),
        ConfigCommand::Set { key, value } => set(settings, *key, value),
        ConfigCommand::Unset { key } => unset(settings, *key),
        ConfigCommand::Profiles => super::profiles::list(settings),
    }
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

/// How to set `key` where `config get` looked: in the same profile, and the key itself only
/// through `auth login` (`config set api_key` is refused).
fn set_hint(settings: &Settings, key: ConfigKey) -> String {
    let global = settings.again();
    match key {
        ConfigKey::ApiKey => format!("store it with: chain-metrics{global} auth login"),
        _ => format!(
            "set it with: chain-metrics{global} config set {} VALUE",
            key.name()
        ),
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
            .with_hint(set_hint(settings, key))
        })?;
    let text = match key {
        // The key itself is never printed, even on request: it would land in a terminal's
        // scrollback or a CI log.
        ConfigKey::ApiKey => ApiKey::new(&plain(value)).map_or(MASK.into(), |k| k.redacted()),
        // Nor is a password in a URL, for the same reason.
        _ => shown_url(&plain(value)),
    };
    write_stdout(|out| writeln!(out, "{text}"))
}

fn set(settings: &Settings, key: ConfigKey, text: &str) -> anyhow::Result<()> {
    if key == ConfigKey::ApiKey {
        return Err(Failure::usage(
            "config set api_key is refused: a key given as an argument is left in the shell \
            history and the process list",
        )
        .with_hint(format!(
            "store it with: chain-metrics{} auth login (it reads the key from a \
            hidden prompt or stdin)",
            settings.again()
        ))
        .into());
    }
    if key == ConfigKey::Format {
        check_format(text)?;
    }
    let mut doc = ConfigDocument::edit(settings.config.clone(), settings.lock_wait())?;
    let profile = profile(settings);
    let value = key
        .value(text, doc.allow_http(profile.as_deref()))
        .map_err(|why| {
            let text = shown_url(text);
            Failure::usage(format!("invalid value '{text}' for {}: {why}", key.name()))
        })?;
    let shown = shown_url(&plain(&value));
    doc.set(profile.as_deref(), key, value);
    doc.save()?;
    diag::status(format!(
        "{} = {shown} in {}",
        key.name(),
        place(&doc, profile.as_deref())
    ));
    Ok(())
}

/// Config `format` names a format `--format` takes (settings cannot tell: formats are render's).
fn check_format(text: &str) -> Result<()> {
    match Format::for_stdout(text) {
        Some(_) => Ok(()),
        None => Err(Failure::usage(format!(
            "invalid value '{}' for format: expected one of {} (the default for stdout)",
            foreign::cut(text, 80),
            Format::names(&Format::all_that(|c| !c.file_only), "or")
        ))),
    }
}

fn unset(settings: &Settings, key: ConfigKey) -> anyhow::Result<()> {
    let mut doc = ConfigDocument::edit(settings.config.clone(), settings.lock_wait())?;
    let profile = profile(settings);
    let place = place(&doc, profile.as_deref());
    if doc.remove(profile.as_deref(), key) {
        doc.save()?;
        diag::status(format!("removed {} from {place}", key.name()));
    } else {
        diag::status(format!(
            "{} was not set in {place}; nothing changed",
            key.name()
        ));
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

/// One row of `config show`: the setting's name, its value as shown, and its source.
type ShowRow = (&'static str, String, String);

/// One row per setting: its config key, its value as shown (the key redacted), its source.
fn show_rows(s: &Settings) -> Vec<ShowRow> {
    let missing = if s.config.path.exists() {
        ""
    } else {
        " (no such file yet)"
    };
    let config = format!("{}{missing}", s.config.path.display());
    let mut rows = vec![
        ("config file", config, s.config.source.to_string()),
        optional("profile", s.profile.as_ref(), "(none)", Clone::clone),
    ];
    rows.extend(
        ConfigKey::ALL
            .into_iter()
            .filter_map(|key| show_row(s, key)),
    );
    rows
}

/// The row of one config key (none for `api_key_command`, which the `api_key` row shows).
/// Every key is matched here, so a new key cannot be left out of `config show`.
fn show_row(s: &Settings, key: ConfigKey) -> Option<ShowRow> {
    let source = s.sources.get(&key).map_or("-".into(), ToString::to_string);
    let plain = |value: String| (key.name(), value, source.clone());
    let seconds = |d: std::time::Duration| plain(d.as_secs_f64().to_string());
    Some(match key {
        ConfigKey::BaseUrl => optional(key.name(), s.base_url.as_ref(), "(not set)", |url| {
            shown_url(url)
        }),
        ConfigKey::ApiKey => optional(key.name(), s.key.as_ref(), "(not set)", |key| match key {
            KeySetting::Key(key) => key.redacted(),
            KeySetting::Command(command) => format!("from api_key_command `{command}`"),
        }),
        ConfigKey::ApiKeyCommand => return None,
        ConfigKey::ApiKeyCommandTimeout => seconds(s.key_command_timeout),
        ConfigKey::AllowHttp => plain(s.allow_http.to_string()),
        ConfigKey::CaBundle => optional(
            key.name(),
            s.trust.ca_bundle.as_ref(),
            "(not set)",
            |path| path.display().to_string(),
        ),
        ConfigKey::Timeout => seconds(s.timeout),
        ConfigKey::ConnectTimeout => seconds(s.connect_timeout),
        ConfigKey::Retries => plain(s.retries.to_string()),
        ConfigKey::Jobs => plain(s.jobs.to_string()),
        ConfigKey::Method => plain(s.method.name().to_owned()),
        ConfigKey::ChunkDays => match s.chunk_days {
            Some(days) => plain(days.to_string()),
            None => (key.name(), "(not set)".into(), "-".into()),
        },
        ConfigKey::Cache => plain(s.cache.enabled.to_string()),
        ConfigKey::CacheSettleDays => plain(s.cache.settle_days.to_string()),
        ConfigKey::Strict => plain(s.strict.to_string()),
        ConfigKey::Format => match &s.output.format {
            Some(format) => (key.name(), format.value.clone(), source),
            None => (
                key.name(),
                "(table on a terminal, else csv)".into(),
                "default".into(),
            ),
        },
        ConfigKey::Color => plain(s.output.color.name().to_owned()),
        ConfigKey::Decimals => match s.output.decimals {
            Some(decimals) => plain(decimals.to_string()),
            None => (key.name(), DEFAULT_DECIMALS.to_string(), "default".into()),
        },
        ConfigKey::Chains => optional(key.name(), s.output.chains.as_ref(), "(not set)", |c| {
            let name = |arg: &ChainArg| match arg {
                ChainArg::One(chain) => chain.name(),
                ChainArg::All => "all",
            };
            c.iter().map(name).collect::<Vec<_>>().join(",")
        }),
    })
}

/// A setting that may be unset: its value and source, or `unset` and `-`.
fn optional<T>(
    name: &'static str,
    setting: Option<&Sourced<T>>,
    unset: &str,
    show: impl Fn(&T) -> String,
) -> ShowRow {
    match setting {
        Some(s) => (name, show(&s.value), s.source.to_string()),
        None => (name, unset.to_owned(), "-".to_owned()),
    }
}
