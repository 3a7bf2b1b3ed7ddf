//! The settings' shared vocabularies, below everything that reads them: the config keys, the
//! `--method` and `--color` choices. cli, the config file reader and `config show` all take
//! their names from here.

use clap::builder::PossibleValue;
use clap::ValueEnum;
use serde::Deserialize;

use super::limits;

/// The keys a config file may set, at its top level and in each profile, in `config show`'s
/// order. Each name is written once, in [`ConfigKey::name`]; clap's values come from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConfigKey {
    BaseUrl,
    ApiKey,
    ApiKeyCommand,
    ApiKeyCommandTimeout,
    AllowHttp,
    CaBundle,
    Timeout,
    ConnectTimeout,
    Retries,
    Jobs,
    Method,
    ChunkDays,
    Cache,
    CacheSettleDays,
    Strict,
    Format,
    Color,
    Decimals,
    Chains,
}

impl ConfigKey {
    pub const ALL: [ConfigKey; 19] = [
        ConfigKey::BaseUrl,
        ConfigKey::ApiKey,
        ConfigKey::ApiKeyCommand,
        ConfigKey::ApiKeyCommandTimeout,
        ConfigKey::AllowHttp,
        ConfigKey::CaBundle,
        ConfigKey::Timeout,
        ConfigKey::ConnectTimeout,
        ConfigKey::Retries,
        ConfigKey::Jobs,
        ConfigKey::Method,
        ConfigKey::ChunkDays,
        ConfigKey::Cache,
        ConfigKey::CacheSettleDays,
        ConfigKey::Strict,
        ConfigKey::Format,
        ConfigKey::Color,
        ConfigKey::Decimals,
        ConfigKey::Chains,
    ];

    /// The key as the config file, `config get/set` and `config show` write it.
    pub fn name(self) -> &'static str {
        match self {
            ConfigKey::BaseUrl => "base_url",
            ConfigKey::ApiKey => "api_key",
            ConfigKey::ApiKeyCommand => "api_key_command",
            ConfigKey::ApiKeyCommandTimeout => "api_key_command_timeout",
            ConfigKey::AllowHttp => "allow_http",
            ConfigKey::CaBundle => "ca_bundle",
            ConfigKey::Timeout => "timeout",
            ConfigKey::ConnectTimeout => "connect_timeout",
            ConfigKey::Retries => "retries",
            ConfigKey::Jobs => "jobs",
            ConfigKey::Method => "method",
            ConfigKey::ChunkDays => "chunk_days",
            ConfigKey::Cache => "cache",
            ConfigKey::CacheSettleDays => "cache_settle_days",
            ConfigKey::Strict => "strict",
            ConfigKey::Format => "format",
            ConfigKey::Color => "color",
            ConfigKey::Decimals => "decimals",
            ConfigKey::Chains => "chains",
        }
    }

    pub fn from_name(name: &str) -> Option<ConfigKey> {
        ConfigKey::ALL.into_iter().find(|key| key.name() == name)
    }

    /// What a value of the key must be, in the user's words (`config set` and the file reader
    /// both say it).
    pub fn expected(self) -> String {
        match self {
            ConfigKey::BaseUrl => "a URL in quotes".into(),
            ConfigKey::ApiKey | ConfigKey::ApiKeyCommand => "a string in quotes".into(),
            ConfigKey::CaBundle => "a file path in quotes".into(),
            ConfigKey::AllowHttp | ConfigKey::Cache | ConfigKey::Strict => "true or false".into(),
            ConfigKey::Timeout | ConfigKey::ConnectTimeout | ConfigKey::ApiKeyCommandTimeout => {
                let (least, most) = (limits::MIN_SECONDS, limits::MAX_SECONDS);
                format!("a number of seconds from {least} to {most}")
            }
            ConfigKey::Retries => format!("a whole number {}", limits::RETRIES.span()),
            ConfigKey::Jobs => format!("a whole number {}", limits::JOBS.span()),
            ConfigKey::ChunkDays => format!("a whole number {}", limits::CHUNK_DAYS.span()),
            ConfigKey::CacheSettleDays => {
                format!("a whole number {}", limits::CACHE_SETTLE_DAYS.span())
            }
            ConfigKey::Method => "\"auto\", \"post\" or \"get\"".into(),
            ConfigKey::Format => "an output format's name in quotes (as --format takes it)".into(),
            ConfigKey::Color => "\"auto\", \"always\" or \"never\"".into(),
            ConfigKey::Decimals => format!("a whole number {}", limits::DECIMALS.span()),
            ConfigKey::Chains => "chains in quotes, comma-separated as --chain takes them".into(),
        }
    }
}

impl ValueEnum for ConfigKey {
    fn value_variants<'a>() -> &'a [Self] {
        &ConfigKey::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

/// The `--method` choice of CLI.md §3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum MethodChoice {
    /// POST, and GET for the rest of the run if the service answers 405
    #[value(alias = "both")]
    Auto,
    Post,
    Get,
}

impl MethodChoice {
    /// The choice as the user writes it (`auto`, `post`, `get`).
    pub fn name(self) -> &'static str {
        match self {
            MethodChoice::Auto => "auto",
            MethodChoice::Post => "post",
            MethodChoice::Get => "get",
        }
    }
}

/// The `--color` choice (and config `color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// The choice as the user writes it (`auto`, `always`, `never`).
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::Auto => "auto",
            ColorChoice::Always => "always",
            ColorChoice::Never => "never",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_one_name_that_reads_back() {
        for key in ConfigKey::ALL {
            assert_eq!(ConfigKey::from_name(key.name()), Some(key));
            assert_eq!(ConfigKey::from_str(key.name(), false), Ok(key));
        }
        assert_eq!(ConfigKey::from_name("profiles"), None);
    }

    #[test]
    fn method_names_are_clap_values() {
        for method in MethodChoice::value_variants() {
            let value = method.to_possible_value().unwrap();
            assert_eq!(value.get_name(), method.name());
        }
    }
}
