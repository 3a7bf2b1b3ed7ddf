//! Resolves every setting from flag, environment, profile, config top level and default.

pub mod base_url;
pub mod config_edit;
pub mod config_file;
pub mod config_store;
pub mod key_command;
pub mod secret;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use reqwest::Url;

pub use base_url::check_base_url;

use crate::error::{Failure, Result};
use crate::settings::config_file::{ConfigLocation, FileSettings, MethodChoice};
use crate::settings::secret::ApiKey;

mod precedence;

use precedence::{first_given, from_layers, named, pick, Layer, Sources};
pub use precedence::{Source, Sourced};

pub const ENV_KEY: &str = "CHAIN_METRICS_API_KEY";
pub const ENV_BASE_URL: &str = "CHAIN_METRICS_BASE_URL";
pub const ENV_PROFILE: &str = "CHAIN_METRICS_PROFILE";
pub const ENV_CONFIG: &str = "CHAIN_METRICS_CONFIG";

/// How the key is obtained: as text, or by running a command (only when needed).
#[derive(Clone, Debug)]
pub enum KeySetting {
    Key(ApiKey),
    Command(String),
}

/// What the flags say about settings (the part of the command line `resolve` reads).
#[derive(Clone, Debug, Default)]
pub struct SettingFlags {
    pub base_url: Option<String>,
    pub profile: Option<String>,
    pub config: Option<PathBuf>,
    pub timeout: Option<f64>,
    pub connect_timeout: Option<f64>,
    pub retries: Option<u32>,
    pub jobs: Option<usize>,
    pub method: Option<MethodChoice>,
    pub chunk_days: Option<u32>,
}

/// The resolved settings of one run.
#[derive(Clone, Debug)]
pub struct Settings {
    pub config: ConfigLocation,
    pub profile: Option<Sourced<String>>,
    pub base_url: Option<Sourced<String>>,
    pub key: Option<Sourced<KeySetting>>,
    pub allow_http: bool,
    /// The whole of one request: connecting, sending, and reading the body.
    pub timeout: Duration,
    /// Connecting only.
    pub connect_timeout: Duration,
    pub retries: u32,
    pub jobs: usize,
    pub method: MethodChoice,
    pub key_command_timeout: Duration,
    /// Days per request window; `None` sends the whole range at once.
    pub chunk_days: Option<u32>,
    /// Where each of the plain settings above came from, by config key, for `config show`.
    pub sources: BTreeMap<&'static str, Source>,
    /// Problems worth a warning that do not stop the run (a config file others can read).
    pub warnings: Vec<String>,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Seconds as a positive duration, or a configuration error naming the setting.
fn seconds(setting: &str, value: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| {
            Failure::config(format!(
                "{setting} {value} is not a positive number of seconds"
            ))
        })
}

impl Settings {
    pub fn resolve(flags: &SettingFlags) -> Result<Settings> {
        Settings::resolve_profile(flags, false)
    }

    /// As `resolve`, but a selected profile missing from the file reads as empty: `auth login`
    /// is how a profile gets created.
    pub fn resolve_allowing_new_profile(flags: &SettingFlags) -> Result<Settings> {
        Settings::resolve_profile(flags, true)
    }

    fn resolve_profile(flags: &SettingFlags, new_profile_ok: bool) -> Result<Settings> {
        let config = ConfigLocation::find(flags.config.as_deref(), env(ENV_CONFIG))?;
        let file = config.load()?;
        let profile = first_given(
            named(flags.profile.clone(), "--profile"),
            named(env(ENV_PROFILE), ENV_PROFILE),
            &[],
            |_| None,
        );
        let table = match &profile {
            Some(name) => find_profile(&file, &name.value, &config, new_profile_ok)?,
            None => None,
        };
        // Highest first: profile table, then top level.
        let layers: Vec<Layer> = table
            .zip(profile.as_ref())
            .map(|(t, name)| (t, Source::Profile(name.value.clone())))
            .into_iter()
            .chain([(&file, Source::File)])
            .collect();
        let base_url = first_given(
            named(flags.base_url.clone(), "--base-url"),
            named(env(ENV_BASE_URL), ENV_BASE_URL),
            &layers,
            |l| l.base_url.clone(),
        );
        let tuning = tuning(flags, &layers)?;
        Ok(Settings {
            profile,
            base_url,
            key: key_setting(&layers),
            allow_http: tuning.allow_http,
            timeout: tuning.timeout,
            connect_timeout: tuning.connect_timeout,
            retries: tuning.retries,
            jobs: tuning.jobs,
            method: tuning.method,
            key_command_timeout: tuning.key_command_timeout,
            chunk_days: tuning.chunk_days,
            sources: tuning.sources,
            warnings: config.permission_warning().into_iter().collect(),
            config,
        })
    }

    /// The service address, checked: a URL, http(s), and plain http only to loopback.
    pub fn service_url(&self) -> Result<Url> {
        let Some(base) = &self.base_url else {
            return Err(Failure::config("no service address is set")
                .with_hint(format!("set {ENV_BASE_URL}, --base-url URL or base_url in {}; or try --sandbox, which needs no account", self.config.path.display())));
        };
        check_base_url(&base.value, self.allow_http)
            .map_err(|e| Failure::config(format!("base URL from {}: {e}", base.source)))
    }

    /// The API key, running `api_key_command` if that is where it comes from; checked to be
    /// sendable in a header.
    pub fn api_key(&self) -> Result<ApiKey> {
        let key = self.find_key()?;
        key.check_header().map_err(|e| {
            let source = self
                .key
                .as_ref()
                .map(|k| k.source.to_string())
                .unwrap_or_default();
            Failure::config(format!("{e} (key from {source})"))
        })?;
        Ok(key)
    }

    fn find_key(&self) -> Result<ApiKey> {
        match &self.key {
            None => Err(Failure::config("no API key is set").with_hint(format!(
                "set {ENV_KEY}, or api_key or api_key_command in {}; or try --sandbox, which needs no account",
                self.config.path.display()
            ))),
            Some(Sourced { value: KeySetting::Key(key), .. }) => Ok(key.clone()),
            Some(Sourced { value: KeySetting::Command(command), source }) => {
                key_command::run(command, self.key_command_timeout).map_err(|e| {
                    Failure::config(format!("api_key_command from {source} ({command}) {e}"))
                })
            }
        }
    }
}

/// The settings that tune a run, and where each came from.
struct Tuning {
    allow_http: bool,
    timeout: Duration,
    connect_timeout: Duration,
    retries: u32,
    jobs: usize,
    method: MethodChoice,
    key_command_timeout: Duration,
    chunk_days: Option<u32>,
    sources: BTreeMap<&'static str, Source>,
}

/// Each tuning setting from its flag, the config file, or its default.
fn tuning(flags: &SettingFlags, layers: &[Layer]) -> Result<Tuning> {
    let mut sources = Sources::default();
    let mut secs =
        |key: &'static str, setting: Sourced<f64>| seconds(key, sources.take(key, setting));
    let timeout = secs(
        "timeout",
        pick(
            named(flags.timeout, "--timeout"),
            layers,
            |l| l.timeout,
            30.0,
        ),
    )?;
    let connect_timeout = secs(
        "connect_timeout",
        pick(
            named(flags.connect_timeout, "--connect-timeout"),
            layers,
            |l| l.connect_timeout,
            10.0,
        ),
    )?;
    let default_limit = key_command::DEFAULT_LIMIT.as_secs_f64();
    let key_command_timeout = secs(
        "api_key_command_timeout",
        pick(None, layers, |l| l.api_key_command_timeout, default_limit),
    )?;
    let jobs = pick(named(flags.jobs, "--jobs"), layers, |l| l.jobs, 8);
    let chunk_days = first_given(named(flags.chunk_days, "--chunk-days"), None, layers, |l| {
        l.chunk_days
    });
    let zero = |name: &str, source: &Source| {
        Failure::config(format!("{name} from {source} must be at least 1"))
    };
    if jobs.value == 0 {
        return Err(zero("jobs", &jobs.source));
    }
    if let Some(Sourced { value: 0, source }) = &chunk_days {
        return Err(zero("chunk_days", source));
    }
    let retries = pick(named(flags.retries, "--retries"), layers, |l| l.retries, 3);
    let method = pick(
        named(flags.method, "--method"),
        layers,
        |l| l.method,
        MethodChoice::Auto,
    );
    Ok(Tuning {
        allow_http: sources.take("allow_http", pick(None, layers, |l| l.allow_http, false)),
        timeout,
        connect_timeout,
        retries: sources.take("retries", retries),
        jobs: sources.take("jobs", jobs),
        method: sources.take("method", method),
        key_command_timeout,
        chunk_days: chunk_days.map(|c| sources.take("chunk_days", c)),
        sources: sources.0,
    })
}

/// The key: from the environment, else the first layer with `api_key` or `api_key_command`.
fn key_setting(layers: &[Layer]) -> Option<Sourced<KeySetting>> {
    if let Some(key) = env(ENV_KEY).and_then(|k| ApiKey::new(&k)) {
        return Some(Sourced {
            value: KeySetting::Key(key),
            source: Source::Env(ENV_KEY),
        });
    }
    from_layers(layers, |layer| {
        match (&layer.api_key, &layer.api_key_command) {
            (Some(key), _) => ApiKey::new(key).map(KeySetting::Key),
            (None, Some(command)) => Some(KeySetting::Command(command.clone())),
            (None, None) => None,
        }
    })
}

fn find_profile<'a>(
    file: &'a FileSettings,
    name: &str,
    config: &ConfigLocation,
    missing_ok: bool,
) -> Result<Option<&'a FileSettings>> {
    let profiles = file.profiles.as_ref();
    let found = profiles.and_then(|p| p.get(name));
    if found.is_some() || missing_ok {
        return Ok(found);
    }
    let known: Vec<&str> = profiles
        .into_iter()
        .flatten()
        .map(|(n, _)| n.as_str())
        .collect();
    let known = if known.is_empty() {
        "none".to_owned()
    } else {
        known.join(", ")
    };
    Err(Failure::config(format!(
        "profile '{name}' is not in config file {} (profiles there: {known})",
        config.path.display()
    ))
    .with_hint(format!(
        "add it with: chain-metrics --profile {name} config set KEY VALUE (or auth login)"
    )))
}
