//! Resolves every setting from flag, environment, profile, config top level and default.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use reqwest::Url;

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
    pub profile: Option<String>,
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
    /// Days per request window; `None` sends the whole range at once.
    pub chunk_days: Option<u32>,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

impl Settings {
    pub fn resolve(flags: &SettingFlags) -> Result<Settings> {
        let config = ConfigLocation::find(flags.config.as_deref(), env(ENV_CONFIG))?;
        let file = config.load()?;
        let profile_name = flags.profile.clone().or_else(|| env(ENV_PROFILE));
        let profile = match &profile_name {
            Some(name) => Some(find_profile(&file, name, &config)?),
            None => None,
        };
        // Highest first: profile table, then top level.
        let layers: Vec<(&FileSettings, Source)> = profile
            .map(|p| (p, Source::Profile(profile_name.clone().unwrap_or_default())))
            .into_iter()
            .chain([(&file, Source::File)])
            .collect();
        let from_file = |get: &dyn Fn(&FileSettings) -> Option<String>| {
            layers.iter().find_map(|(layer, source)| {
                get(layer).map(|value| Sourced {
                    value,
                    source: source.clone(),
                })
            })
        };

        let base_url = match (&flags.base_url, env(ENV_BASE_URL)) {
            (Some(url), _) => Some(Sourced {
                value: url.clone(),
                source: Source::Flag("--base-url"),
            }),
            (None, Some(url)) => Some(Sourced {
                value: url,
                source: Source::Env(ENV_BASE_URL),
            }),
            (None, None) => from_file(&|l| l.base_url.clone()),
        };
        let key = match env(ENV_KEY).and_then(|k| ApiKey::new(&k)) {
            Some(key) => Some(Sourced {
                value: KeySetting::Key(key),
                source: Source::Env(ENV_KEY),
            }),
            None => layers.iter().find_map(|(layer, source)| {
                let setting = match (&layer.api_key, &layer.api_key_command) {
                    (Some(key), _) => ApiKey::new(key).map(KeySetting::Key),
                    (None, Some(command)) => Some(KeySetting::Command(command.clone())),
                    (None, None) => None,
                }?;
                Some(Sourced {
                    value: setting,
                    source: source.clone(),
                })
            }),
        };
        let pick = |get: fn(&FileSettings) -> Option<f64>| layers.iter().find_map(|(l, _)| get(l));

        let timeout = seconds(
            "timeout",
            flags
                .timeout
                .or_else(|| pick(|l| l.timeout))
                .unwrap_or(30.0),
        )?;
        let connect_timeout = seconds(
            "connect_timeout",
            flags
                .connect_timeout
                .or_else(|| pick(|l| l.connect_timeout))
                .unwrap_or(10.0),
        )?;
        let chunk_days = flags
            .chunk_days
            .or_else(|| layers.iter().find_map(|(l, _)| l.chunk_days));
        if chunk_days == Some(0) {
            return Err(Failure::config("chunk_days must be at least 1"));
        }
        let retries = flags
            .retries
            .or_else(|| layers.iter().find_map(|(l, _)| l.retries))
            .unwrap_or(3);
        let jobs = flags
            .jobs
            .or_else(|| layers.iter().find_map(|(l, _)| l.jobs))
            .unwrap_or(8);
        if jobs == 0 {
            return Err(Failure::config("jobs must be at least 1"));
        }
        let method = flags
            .method
            .or_else(|| layers.iter().find_map(|(l, _)| l.method))
            .unwrap_or(MethodChoice::Auto);
        let allow_http = layers
            .iter()
            .find_map(|(l, _)| l.allow_http)
            .unwrap_or(false);

        Ok(Settings {
            profile: profile_name,
            base_url,
            key,
            allow_http,
            timeout,
            connect_timeout,
            retries,
            jobs,
            method,
            chunk_days,
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

    /// The API key, running `api_key_command` if that is where it comes from.
    pub fn api_key(&self) -> Result<ApiKey> {
        match &self.key {
            None => Err(Failure::config("no API key is set").with_hint(format!(
                "set {ENV_KEY}, or api_key or api_key_command in {}; or try --sandbox, which needs no account",
                self.config.path.display()
            ))),
            Some(Sourced { value: KeySetting::Key(key), .. }) => Ok(key.clone()),
            Some(Sourced { value: KeySetting::Command(command), source }) => {
                key_command::run(command).map_err(|e| {
                    Failure::config(format!("api_key_command from {source} ({command}) {e}"))
                })
            }
        }
    }
}

/// A positive, finite number of seconds as a duration.
fn seconds(name: &str, value: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| {
            Failure::config(format!(
                "{name} {value} is not a positive number of seconds"
            ))
        })
}

fn find_profile<'a>(
    file: &'a FileSettings,
    name: &str,
    config: &ConfigLocation,
) -> Result<&'a FileSettings> {
    let profiles = file.profiles.as_ref();
    profiles.and_then(|p| p.get(name)).ok_or_else(|| {
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
        Failure::config(format!(
            "profile '{name}' is not in config file {} (profiles there: {known})",
            config.path.display()
        ))
    })
}

/// Checks a base URL: parses, is http(s), has a host, and is https unless loopback or allowed.
pub fn check_base_url(text: &str, allow_http: bool) -> Result<Url, String> {
    let url = Url::parse(text.trim()).map_err(|e| format!("'{text}' is not a URL ({e})"))?;
    match url.scheme() {
        "https" => {}
        "http" if allow_http || is_loopback(&url) => {}
        "http" => {
            return Err(format!(
                "refusing plain http to {}: the API key would travel in clear; use https, or set allow_http = true in the config file",
                url.host_str().unwrap_or("")
            ))
        }
        other => return Err(format!("'{text}' has scheme {other}: expected https (or http to loopback)")),
    }
    if url.host_str().is_none() {
        return Err(format!("'{text}' has no host"));
    }
    Ok(url)
}

/// Whether the URL's host is this machine: 127.0.0.0/8, ::1 or localhost.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_only_to_loopback_unless_allowed() {
        assert!(check_base_url("https://metrics.example/v2/", false).is_ok());
        assert!(check_base_url("http://127.0.0.1:8080", false).is_ok());
        assert!(check_base_url("http://127.8.0.1", false).is_ok());
        assert!(check_base_url("http://[::1]:99/x", false).is_ok());
        assert!(check_base_url("http://LocalHost:1", false).is_ok());
        let err = check_base_url("http://metrics.example", false).unwrap_err();
        assert!(
            err.starts_with("refusing plain http to metrics.example"),
            "{err}"
        );
        assert!(check_base_url("http://metrics.example", true).is_ok());
        assert!(check_base_url("ftp://metrics.example", true).is_err());
        assert!(check_base_url("metrics.example", true).is_err());
    }
}
