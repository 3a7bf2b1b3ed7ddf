//! The TOML config file: where it lives, what keys it may hold, and reading it strictly.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Failure, Result};
use crate::settings::{Environment, Source, ENV_CONFIG};
use crate::system::foreign;
use crate::system::ownership::{self, NotRead};

use crate::settings::keys::{ColorChoice, ConfigKey, MethodChoice};

/// The settings a config file may hold, at its top level and in each `[profiles.NAME]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileSettings {
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub api_key_command: Option<String>,
    /// Seconds `api_key_command` may take (default 60).
    pub api_key_command_timeout: Option<f64>,
    pub allow_http: Option<bool>,
    /// Extra CA certificates (PEM); a relative path is taken from the config file's folder.
    pub ca_bundle: Option<PathBuf>,
    pub timeout: Option<f64>,
    pub connect_timeout: Option<f64>,
    pub retries: Option<u32>,
    pub jobs: Option<usize>,
    pub method: Option<MethodChoice>,
    pub chunk_days: Option<u32>,
    /// Use the response cache without `--cache`.
    pub cache: Option<bool>,
    /// Days before today from which a day is settled and served from the cache.
    pub cache_settle_days: Option<u32>,
    /// Exit 10 when a query's result lacks asked values, without `--strict`.
    pub strict: Option<bool>,
    /// The output format of a query written to stdout, without `--format` (its name, checked
    /// by the query and by `config set`: the formats are render's).
    pub format: Option<String>,
    /// `--color` when not given.
    pub color: Option<ColorChoice>,
    /// `--decimals` when not given.
    pub decimals: Option<u32>,
    /// `--chain` when not given: chains comma-separated, as `--chain` takes them.
    pub chains: Option<String>,
    /// Only at the top level.
    pub profiles: Option<BTreeMap<String, FileSettings>>,
}

/// Where the config file is, and whether the user named it (then it must exist).
#[derive(Clone, Debug)]
pub(crate) struct ConfigLocation {
    pub path: PathBuf,
    /// `--config`, `CHAIN_METRICS_CONFIG`, or the default place.
    pub source: Source,
}

impl ConfigLocation {
    /// `--config`, else `CHAIN_METRICS_CONFIG`, else `<user config dir>/chain-metrics/config.toml`.
    pub(crate) fn find(flag: Option<&Path>, env: &Environment) -> Result<ConfigLocation> {
        if let Some(path) = flag {
            return Ok(ConfigLocation {
                path: path.to_owned(),
                source: Source::Flag("--config"),
            });
        }
        if let Some(path) = env.get(ENV_CONFIG) {
            return Ok(ConfigLocation {
                path: path.into(),
                source: Source::Env(ENV_CONFIG),
            });
        }
        let dir = user_config_dir(env).ok_or_else(|| {
            Failure::config("cannot tell where the user config folder is (HOME is not set)")
                .with_hint("set HOME or XDG_CONFIG_HOME, or name a file with --config FILE")
        })?;
        Ok(ConfigLocation {
            path: dir.join("chain-metrics").join("config.toml"),
            source: Source::Default,
        })
    }

    /// Reads the file; a default file that does not exist reads as empty.
    pub(crate) fn load(&self) -> Result<FileSettings> {
        self.read(self.source == Source::Default)
    }

    /// Reads the file, one that does not exist as empty wherever it is: `auth login` creates it.
    pub(crate) fn load_or_new(&self) -> Result<FileSettings> {
        self.read(true)
    }

    fn read(&self, missing_ok: bool) -> Result<FileSettings> {
        let text = self.read_text(missing_ok)?;
        parse(&text)
            .map_err(|e| Failure::config(format!("config file {}: {e}", self.path.display())))
    }

    /// The file's text, read only when it is trusted (see `system::ownership`): whoever can
    /// write it chooses `api_key_command`, which runs as the user. A missing file reads as
    /// empty when `missing_ok`.
    pub(crate) fn read_text(&self, missing_ok: bool) -> Result<String> {
        let shown = self.path.display();
        match ownership::read_trusted(&self.path, MAX_CONFIG_BYTES) {
            Ok(bytes) => String::from_utf8(bytes)
                .map_err(|_| Failure::config(format!("config file {shown}: it is not UTF-8 text"))),
            Err(NotRead::Io(e)) if e.kind() == std::io::ErrorKind::NotFound && missing_ok => {
                Ok(String::new())
            }
            Err(NotRead::Untrusted(refused)) => {
                Err(
                    Failure::config(format!("config file {}", refused.why)).with_hint(format!(
                        "{}; or name another with --config FILE",
                        refused.hint
                    )),
                )
            }
            Err(e) => Err(Failure::config(format!(
                "cannot read config file {shown}: {e}"
            ))),
        }
    }
}

/// More than any config file of settings and profiles: a larger one (or `/dev/zero`) is
/// refused rather than read into memory.
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// `$XDG_CONFIG_HOME`, else `~/.config`, on every Unix, macOS included (as gh and git do: not
/// `~/Library/Application Support`); Windows keeps its own folder (`%APPDATA%`).
fn user_config_dir(env: &Environment) -> Option<PathBuf> {
    if cfg!(unix) {
        // A relative XDG_CONFIG_HOME is invalid by the XDG spec: ignored.
        let xdg = env.get("XDG_CONFIG_HOME").map(PathBuf::from);
        xdg.filter(|p| p.is_absolute())
            .or_else(|| dirs::home_dir().map(|home| home.join(".config")))
    } else {
        dirs::config_dir()
    }
}

/// Parses config text; errors are one line that names the line number and the offending key.
/// What `config set` could not edit in place (toml_edit's reading: an integer past 64 bits)
/// is refused here too, so that a run never uses a file the config commands call invalid.
pub fn parse(text: &str) -> Result<FileSettings, String> {
    // The words quote the file (a key, a profile's name, a value): shown as foreign text.
    checked(text).map_err(|why| foreign::cut(&why, usize::MAX))
}

fn checked(text: &str) -> Result<FileSettings, String> {
    let settings: FileSettings =
        toml::from_str(text).map_err(|e| one_line(text, e.message(), e.span()))?;
    if let Err(e) = text.parse::<toml_edit::DocumentMut>() {
        return Err(one_line(text, e.message(), e.span()));
    }
    for (name, profile) in settings.profiles.iter().flatten() {
        if profile.profiles.is_some() {
            return Err(format!("profile {name}: profiles cannot be nested"));
        }
    }
    // A value `config set` refuses is refused here too, by the same rule (an empty command).
    let profiles = settings.profiles.iter().flatten();
    let layers = std::iter::once((None, &settings)).chain(profiles.map(|(n, p)| (Some(n), p)));
    for (profile, layer) in layers {
        let at = || profile.map_or(String::new(), |name| format!("profile {name}: "));
        let command = layer.api_key_command.as_deref();
        if let Some(Err(why)) = command.map(|c| ConfigKey::ApiKeyCommand.value(c, false)) {
            return Err(format!("{}api_key_command: {why}", at()));
        }
        // So are chains `--chain` would refuse (their names are the model's, not a format's).
        if let Some(Err(why)) = layer
            .chains
            .as_deref()
            .map(|c| ConfigKey::Chains.value(c, false))
        {
            return Err(format!("{}chains: {why}", at()));
        }
    }
    Ok(settings)
}

/// A profile given a plain value (`[profiles]` then `foo = 1`): serde's words name a Rust
/// type (`expected struct FileSettings`); said instead with the key's full name. `before` is
/// the text above the line, whose last `[table]` header the key is in.
fn not_a_table(before: &str, key: &str) -> String {
    let table = before
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix('[')?.strip_suffix(']'))
        .map(|t| format!("{}.", t.trim()))
        .unwrap_or_default();
    format!(
        "{table}{} must be a table of settings (a profile is written [profiles.NAME])",
        key.trim()
    )
}

/// A parse error as one line naming the line and the key it is on.
fn one_line(text: &str, message: &str, span: Option<std::ops::Range<usize>>) -> String {
    let message = without_values(&message.trim().replace('\n', " "));
    let Some(span) = span else {
        return message;
    };
    let start = span.start.min(text.len());
    let line = text[..start].matches('\n').count() + 1;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let key = text[line_start..]
        .split(['=', '\n'])
        .next()
        .unwrap_or_default();
    let written = text.get(span).unwrap_or_default().trim();
    if message.ends_with("expected struct FileSettings") {
        return format!("line {line}: {}", not_a_table(&text[..line_start], key));
    }
    format!("line {line}: {}", in_user_words(&message, key, written))
}

/// A wrong kind of value said with the key and what it takes: serde names Rust types
/// (`invalid type: floating point `1e11`, expected u32`), which the user never wrote.
fn in_user_words(message: &str, key: &str, written: &str) -> String {
    let key = key
        .trim()
        .rsplit('.')
        .next()
        .unwrap_or_default()
        .trim_matches('"');
    let found = ["invalid type: ", "invalid value: "]
        .iter()
        .find_map(|start| message.strip_prefix(start)?.split_once(", expected"));
    let Some(expected) = ConfigKey::from_name(key).map(ConfigKey::expected) else {
        return message.to_owned();
    };
    // toml's own words for a choice (`method`) given a number or a list.
    if message == "wanted string or table" {
        return format!("{key}: expected {expected}");
    }
    // A number as written (`1e11`, not serde's `100000000000.0`); a string never: it may be a
    // key put on the wrong line.
    let number = ["floating point `", "integer `"]
        .iter()
        .find_map(|kind| found?.0.strip_prefix(kind).map(|_| kind));
    match (found, number) {
        // The key itself, written without quotes: never echoed, not even a number.
        (Some(_), _) if key == ConfigKey::ApiKey.name() => {
            format!("{key}: expected {expected}")
        }
        (Some(_), Some(kind)) => format!("{key}: expected {expected}, found {kind}{written}`"),
        (Some((found, _)), None) => format!("{key}: expected {expected}, found {found}"),
        (None, _) => message.to_owned(),
    }
}

/// A parse message with the offending value left out: serde quotes it (`invalid type: string
/// "..."`, ``unknown variant `...` ``), and it may be an API key put on the wrong line.
fn without_values(message: &str) -> String {
    let cut = |message: &str, open: &str, close: &str, instead: &str| match message.find(open) {
        Some(start) => match message[start + open.len()..].find(close) {
            Some(len) => format!(
                "{}{instead}{}",
                &message[..start],
                &message[start + open.len() + len + close.len()..]
            ),
            None => message.to_owned(),
        },
        None => message.to_owned(),
    };
    let message = cut(message, "string \"", "\", expected", "a string, expected");
    cut(
        &message,
        "unknown variant `",
        "`, expected",
        "unknown value, expected",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_that_is_no_table_is_said_so() {
        assert_eq!(
            parse("[profiles]\nfoo = 1\n").unwrap_err(),
            "line 2: profiles.foo must be a table of settings (a profile is written \
            [profiles.NAME])"
        );
    }

    /// The file reader takes every key `config set` writes, under the same name, and says
    /// what each key expects in the same words.
    #[test]
    fn every_config_key_is_a_file_setting() {
        for key in ConfigKey::ALL {
            let sample = match key {
                ConfigKey::AllowHttp | ConfigKey::Cache | ConfigKey::Strict => "true",
                ConfigKey::Method => "\"get\"",
                ConfigKey::Color => "\"always\"",
                ConfigKey::Chains => "\"eth,arb\"",
                ConfigKey::Timeout
                | ConfigKey::ConnectTimeout
                | ConfigKey::ApiKeyCommandTimeout => "2.5",
                ConfigKey::Retries
                | ConfigKey::Jobs
                | ConfigKey::ChunkDays
                | ConfigKey::Decimals
                | ConfigKey::CacheSettleDays => "3",
                _ => "\"text\"",
            };
            let text = format!(
                "{} = {sample}\n[profiles.p]\n{} = {sample}\n",
                key.name(),
                key.name()
            );
            assert!(parse(&text).is_ok(), "{text}");
            let other_kind = if sample.starts_with('"') {
                "1"
            } else {
                "\"x\""
            };
            let wrong = format!("{} = {other_kind}\n", key.name());
            let message = parse(&wrong).unwrap_err();
            assert!(
                message.contains(&key.expected()),
                "{}: {message}",
                key.name()
            );
        }
    }

    #[test]
    fn an_empty_key_command_is_refused_as_config_set_refuses_it() {
        for (text, refusal) in [
            ("api_key_command = \"\"\n", "api_key_command"),
            (
                "[profiles.ci]\napi_key_command = \"  \"\n",
                "profile ci: api_key_command",
            ),
        ] {
            let expected = format!("{refusal}: expected a shell command");
            assert_eq!(parse(text).unwrap_err(), expected);
        }
        assert!(parse("api_key_command = \"pass show cm\"\n").is_ok());
    }

    #[test]
    fn reads_top_level_and_profiles() {
        let text = "base_url = \"https://a.example\"\nmethod = \"get\"\ntimeout = \
            2.5\n\n[profiles.work]\napi_key_command = \"pass show cm\"\nretries = 0\n";
        let s = parse(text).unwrap();
        assert_eq!(s.base_url.as_deref(), Some("https://a.example"));
        assert_eq!(s.method, Some(MethodChoice::Get));
        assert_eq!(s.timeout, Some(2.5));
        let work = &s.profiles.unwrap()["work"];
        assert_eq!(work.api_key_command.as_deref(), Some("pass show cm"));
        assert_eq!(work.retries, Some(0));
    }

    #[test]
    fn unknown_keys_are_named_with_their_line() {
        let err = parse("base_url = \"https://a\"\napikey = \"x\"\n").unwrap_err();
        assert!(err.starts_with("line 2: unknown field `apikey`"), "{err}");
        let err = parse("[profiles.p]\n\nbase = 1\n").unwrap_err();
        assert!(err.starts_with("line 3: unknown field `base`"), "{err}");
        for (text, expected) in [
            (
                "timeout = \"slow\"\n",
                "line 1: timeout: expected a number of seconds from 0.001 to 86400, found a string",
            ),
            (
                "[profiles.p]\nretries = 1e11\n",
                "line 2: retries: expected a whole number from 0 to 100, found floating point \
                `1e11`",
            ),
            (
                "profiles.p.retries = 99999999999\n",
                "line 1: retries: expected a whole number from 0 to 100, found integer \
                `99999999999`",
            ),
            (
                "api_key = 123456789012345678\n",
                "line 1: api_key: expected a string in quotes",
            ),
            (
                "method = \"sk-12345\"\n",
                "line 1: unknown value, expected one of `auto`, `post`, `get`",
            ),
        ] {
            assert_eq!(parse(text).unwrap_err(), expected);
        }
        let err = parse("base_url = \n").unwrap_err();
        assert!(err.starts_with("line 1: "), "{err}");
        let err = parse("[profiles.a.profiles.b]\n").unwrap_err();
        assert_eq!(err, "profile a: profiles cannot be nested");
    }
}
