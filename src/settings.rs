//! Resolves every setting from flag, environment, profile, config top level and default.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use reqwest::Url;

pub use crate::base_url::{check_base_url, is_loopback};

use crate::config_file::{ConfigLocation, FileSettings, MethodChoice};
use crate::error::{Failure, Result};
use crate::key_command;
use crate::secret::ApiKey;

pub const ENV_KEY: &str = "CHAIN_METRICS_API_KEY";
pub const ENV_BASE_URL: &str = "CHAIN_METRICS_BASE_URL";
pub const ENV_PROFILE: &str = "CHAIN_METRICS_PROFILE";
pub const ENV_CONFIG: &str = "CHAIN_METRICS_CONFIG";

/// Where a setting's value came from, as `config show` and hints name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Flag(&'static str),
    Env(&'static str),
    Profile(String),
    File,
    Default,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Flag(flag) => write!(f, "flag {flag}"),
            Source::Env(var) => write!(f, "environment {var}"),
            Source::Profile(name) => write!(f, "config file, profile {name}"),
            Source::File => f.write_str("config file"),
            Source::Default => f.write_str("default"),
        }
    }
}

/// A value with its source.
#[derive(Clone, Debug)]
pub struct Sourced<T> {
    pub value: T,
    pub source: Source,
}

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

/// One level of the config file: the selected profile's table, or the top level.
type Layer<'a> = (&'a FileSettings, Source);

/// The first layer that holds a setting, with its source.
fn from_layers<T>(
    layers: &[Layer],
    get: impl Fn(&FileSettings) -> Option<T>,
) -> Option<Sourced<T>> {
    layers.iter().find_map(|(layer, source)| {
        get(layer).map(|value| Sourced {
            value,
            source: source.clone(),
        })
    })
}

/// The flag if given, else the config file's layers, else the default.
fn pick<T>(
    flag: Option<(T, &'static str)>,
    layers: &[Layer],
    get: impl Fn(&FileSettings) -> Option<T>,
    default: T,
) -> Sourced<T> {
    match flag {
        Some((value, name)) => Sourced {
            value,
            source: Source::Flag(name),
        },
        None => from_layers(layers, get).unwrap_or(Sourced {
            value: default,
            source: Source::Default,
        }),
    }
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
        let profile = match (&flags.profile, env(ENV_PROFILE)) {
            (Some(name), _) => Some(Sourced {
                value: name.clone(),
                source: Source::Flag("--profile"),
            }),
            (None, Some(name)) => Some(Sourced {
                value: name,
                source: Source::Env(ENV_PROFILE),
            }),
            (None, None) => None,
        };
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

        let base_url = match (&flags.base_url, env(ENV_BASE_URL)) {
            (Some(url), _) => Some(Sourced {
                value: url.clone(),
                source: Source::Flag("--base-url"),
            }),
            (None, Some(url)) => Some(Sourced {
                value: url,
                source: Source::Env(ENV_BASE_URL),
            }),
            (None, None) => from_layers(&layers, |l| l.base_url.clone()),
        };
        let key = match env(ENV_KEY).and_then(|k| ApiKey::new(&k)) {
            Some(key) => Some(Sourced {
                value: KeySetting::Key(key),
                source: Source::Env(ENV_KEY),
            }),
            None => from_layers(&layers, |layer| {
                match (&layer.api_key, &layer.api_key_command) {
                    (Some(key), _) => ApiKey::new(key).map(KeySetting::Key),
                    (None, Some(command)) => Some(KeySetting::Command(command.clone())),
                    (None, None) => None,
                }
            }),
        };

        let timeout = pick(
            flags.timeout.map(|t| (t, "--timeout")),
            &layers,
            |l| l.timeout,
            30.0,
        );
        let connect_timeout = pick(
            flags.connect_timeout.map(|t| (t, "--connect-timeout")),
            &layers,
            |l| l.connect_timeout,
            10.0,
        );
        let chunk_days = match flags.chunk_days {
            Some(days) => Some(Sourced {
                value: days,
                source: Source::Flag("--chunk-days"),
            }),
            None => from_layers(&layers, |l| l.chunk_days),
        };
        if let Some(Sourced { value: 0, source }) = &chunk_days {
            return Err(Failure::config(format!(
                "chunk_days from {source} must be at least 1"
            )));
        }
        let retries = pick(
            flags.retries.map(|r| (r, "--retries")),
            &layers,
            |l| l.retries,
            3,
        );
        let jobs = pick(flags.jobs.map(|j| (j, "--jobs")), &layers, |l| l.jobs, 8);
        if jobs.value == 0 {
            return Err(Failure::config(format!(
                "jobs from {} must be at least 1",
                jobs.source
            )));
        }
        let method = pick(
            flags.method.map(|m| (m, "--method")),
            &layers,
            |l| l.method,
            MethodChoice::Auto,
        );
        let allow_http = pick(None, &layers, |l| l.allow_http, false);
        let key_command_timeout = pick(
            None,
            &layers,
            |l| l.api_key_command_timeout,
            key_command::DEFAULT_LIMIT.as_secs_f64(),
        );
        let mut sources = BTreeMap::from([
            ("timeout", timeout.source.clone()),
            ("connect_timeout", connect_timeout.source.clone()),
            ("retries", retries.source),
            ("jobs", jobs.source),
            ("method", method.source),
            ("allow_http", allow_http.source),
            (
                "api_key_command_timeout",
                key_command_timeout.source.clone(),
            ),
        ]);
        if let Some(chunk) = &chunk_days {
            sources.insert("chunk_days", chunk.source.clone());
        }

        Ok(Settings {
            profile,
            base_url,
            key,
            allow_http: allow_http.value,
            timeout: seconds("timeout", timeout.value)?,
            connect_timeout: seconds("connect_timeout", connect_timeout.value)?,
            retries: retries.value,
            jobs: jobs.value,
            method: method.value,
            key_command_timeout: seconds("api_key_command_timeout", key_command_timeout.value)?,
            chunk_days: chunk_days.map(|c| c.value),
            sources,
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
