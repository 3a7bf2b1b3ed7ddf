//! Edits of the config file that keep the user's comments and layout, with every value checked
//! by the rules the resolver applies when it reads it back.

use clap::ValueEnum;
use toml_edit::{DocumentMut, Item, Table, TableLike, Value};

use super::comments;
use super::file::{self, ConfigLocation};
use crate::error::{Exit, Failure, Result};
use crate::model::ChainArg;
pub(super) use crate::settings::keys::{ColorChoice, ConfigKey, MethodChoice};
use crate::settings::trust::bundle_certificates;
use crate::settings::{check_base_url, limits};
use crate::system::lock::{FileLock, LockWait};

impl ConfigKey {
    /// The TOML value for `text`, or why it is refused. `allow_http` is what the file says
    /// where the value would go, for checking a `base_url`.
    pub fn value(self, text: &str, allow_http: bool) -> Result<Value, String> {
        let text = text.trim();
        match self {
            ConfigKey::BaseUrl => check_base_url(text, allow_http).map(|_| Value::from(text)),
            ConfigKey::ApiKey => Err(
                "the key is not taken as an argument: it would be left in the \
                shell history and in the process list"
                    .into(),
            ),
            ConfigKey::ApiKeyCommand if text.is_empty() => Err("expected a shell command".into()),
            ConfigKey::ApiKeyCommand => Ok(Value::from(text)),
            ConfigKey::CaBundle if text.is_empty() => Err("expected the path of a PEM file".into()),
            ConfigKey::CaBundle => ca_bundle(text),
            ConfigKey::AllowHttp | ConfigKey::Cache | ConfigKey::Strict => match text {
                "true" => Ok(Value::from(true)),
                "false" => Ok(Value::from(false)),
                _ => Err(format!("expected {}", self.expected())),
            },
            ConfigKey::Timeout | ConfigKey::ConnectTimeout | ConfigKey::ApiKeyCommandTimeout => {
                seconds(text)
            }
            ConfigKey::Retries => whole(self, text, limits::RETRIES),
            ConfigKey::Jobs => whole(self, text, limits::JOBS),
            ConfigKey::ChunkDays => whole(self, text, limits::CHUNK_DAYS),
            ConfigKey::CacheSettleDays => whole(self, text, limits::CACHE_SETTLE_DAYS),
            ConfigKey::Method => MethodChoice::from_str(text, true)
                .ok()
                .and_then(|m| m.to_possible_value())
                .map(|m| Value::from(m.get_name()))
                .ok_or_else(|| "expected auto, post or get".into()),
            ConfigKey::Color => ColorChoice::from_str(text, true)
                .map(|c| Value::from(c.name()))
                .map_err(|_| "expected auto, always or never".into()),
            ConfigKey::Decimals => whole(self, text, limits::DECIMALS),
            ConfigKey::Chains => chains(text),
            // Which names are formats is render's to say: `config set` checks that first.
            ConfigKey::Format if text.is_empty() => Err("expected a format's name".into()),
            ConfigKey::Format => Ok(Value::from(text.to_ascii_lowercase())),
        }
    }
}

/// Chains as `--chain` takes them, each checked, stored as typed (`eth,arb`).
fn chains(text: &str) -> Result<Value, String> {
    for item in text.split(',') {
        ChainArg::parse(item)?;
    }
    Ok(Value::from(text))
}

/// A CA bundle as `config set` stores it: a readable PEM file holding a certificate, by its
/// absolute path (a relative one would be read from the config file's folder, not from the
/// folder the user typed it in).
fn ca_bundle(text: &str) -> Result<Value, String> {
    let path = std::path::absolute(text).map_err(|e| format!("cannot find '{text}': {e}"))?;
    bundle_certificates(&path)?;
    let absolute = path
        .to_str()
        .ok_or_else(|| format!("{} is not UTF-8 text", path.display()))?;
    Ok(Value::from(absolute))
}

fn seconds(text: &str) -> Result<Value, String> {
    let value: f64 = text.parse().unwrap_or(f64::NAN);
    limits::seconds(value).map_err(|why| why.expected().to_owned())?;
    // `30` stays an integer in the file, as a person would write it.
    Ok(match text.parse::<i64>() {
        Ok(whole) => Value::from(whole),
        Err(_) => Value::from(value),
    })
}

fn whole(key: ConfigKey, text: &str, bounds: limits::Count) -> Result<Value, String> {
    bounds
        .parse(text)
        .map(|n| Value::from(i64::from(n)))
        .ok_or_else(|| format!("expected {}", key.expected()))
}

/// The config file as a format-preserving document, and where it lives.
pub(crate) struct ConfigDocument {
    pub location: ConfigLocation,
    doc: DocumentMut,
    /// Held by a document read for editing, until it is dropped after the save.
    _lock: Option<FileLock>,
}

impl ConfigDocument {
    /// Reads the file for editing; a missing file is an empty document (the first write
    /// creates it), an invalid one is refused as the resolver would refuse it.
    pub(crate) fn load(location: ConfigLocation) -> Result<ConfigDocument> {
        let text = location.read_text(true)?;
        let invalid = |e: String| {
            Failure::config(format!("config file {}: {e}", location.path.display()))
                .with_hint("fix or remove that line, then try again")
        };
        file::parse(&text).map_err(invalid)?;
        let doc = text
            .parse::<DocumentMut>()
            .map_err(|e| invalid(e.to_string()))?;
        Ok(ConfigDocument {
            location,
            doc,
            _lock: None,
        })
    }

    /// Reads the file for an edit under its lock, held until the document is dropped, so
    /// that an edit by another run between this read and the save cannot be lost.
    pub(crate) fn edit(location: ConfigLocation, wait: LockWait) -> Result<ConfigDocument> {
        let lock = location.lock(wait)?;
        let doc = ConfigDocument::load(location)?;
        Ok(ConfigDocument {
            _lock: Some(lock),
            ..doc
        })
    }

    /// The table a profile (or, without one, the top level) keeps its keys in, if present.
    fn table(&self, profile: Option<&str>) -> Option<&dyn TableLike> {
        let root: &dyn TableLike = self.doc.as_table();
        match profile {
            None => Some(root),
            Some(name) => root
                .get("profiles")?
                .as_table_like()?
                .get(name)?
                .as_table_like(),
        }
    }

    fn table_mut(&mut self, profile: Option<&str>) -> &mut dyn TableLike {
        let root = self.doc.as_table_mut();
        let Some(name) = profile else { return root };
        // A new `profiles` table stays implicit, so only `[profiles.NAME]` headers appear.
        let mut profiles = Table::new();
        profiles.set_implicit(true);
        let profiles = root
            .entry("profiles")
            .or_insert(Item::Table(profiles))
            .as_table_like_mut()
            .expect("the strict parse made `profiles` a table");
        profiles
            .entry(name)
            .or_insert(Item::Table(Table::new()))
            .as_table_like_mut()
            .expect("the strict parse made each profile a table")
    }

    /// The value stored under `key` in exactly that table.
    pub(crate) fn get(&self, profile: Option<&str>, key: ConfigKey) -> Option<&Value> {
        self.table(profile)?.get(key.name())?.as_value()
    }

    /// Whether plain http is allowed where a value would go: the profile, else the top level.
    pub(crate) fn allow_http(&self, profile: Option<&str>) -> bool {
        let lookup = |p| self.get(p, ConfigKey::AllowHttp).and_then(Value::as_bool);
        profile
            .and_then(|p| lookup(Some(p)))
            .or_else(|| lookup(None))
            .unwrap_or(false)
    }

    /// Sets `key`, keeping the key's spacing and the comments around a value it replaces.
    pub(crate) fn set(&mut self, profile: Option<&str>, key: ConfigKey, mut value: Value) {
        // A file of nothing but comments holds them as trailing text, which would end up
        // below the first entry; they move above it, where the user wrote them.
        let header = match self.doc.as_table().is_empty() {
            true => self.doc.trailing().as_str().unwrap_or("").to_owned(),
            false => String::new(),
        };
        let table = self.table_mut(profile);
        match table.get_mut(key.name()).and_then(Item::as_value_mut) {
            Some(old) => {
                *value.decor_mut() = old.decor().clone();
                *old = value;
            }
            None => {
                table.insert(key.name(), Item::Value(value));
            }
        }
        if !header.is_empty() {
            self.doc.set_trailing("");
            let root = self.doc.as_table_mut();
            match profile {
                None => root
                    .key_mut(key.name())
                    .map(|mut k| k.leaf_decor_mut().set_prefix(header)),
                Some(name) => root
                    .get_mut("profiles")
                    .and_then(|p| p.get_mut(name))
                    .and_then(Item::as_table_mut)
                    .map(|t| t.decor_mut().set_prefix(header)),
            };
        }
    }

    /// Removes `key` from that table; false if it was not there.
    /// The comment lines above it stay in the file.
    pub(crate) fn remove(&mut self, profile: Option<&str>, key: ConfigKey) -> bool {
        if self.get(profile, key).is_none() {
            return false;
        }
        comments::remove_keeping_comments(&mut self.doc, profile, key.name())
            || self.table_mut(profile).remove(key.name()).is_some()
    }

    /// Writes the document back atomically, after checking it still reads as a valid config.
    pub(crate) fn save(&self) -> Result<()> {
        let text = self.doc.to_string();
        file::parse(&text).map_err(|e| {
            Failure::new(
                Exit::Internal,
                format!("an edit would make the config file invalid ({e}); nothing was written"),
            )
        })?;
        self.location.write_private(&text)
    }
}

/// A stored value as `config get` prints it: strings without quotes, numbers as the loader
/// reads them (`1_000` is 1000, `1e3` is 1000), which `config set` takes back.
pub fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => text.value().clone(),
        Value::Integer(n) => n.value().to_string(),
        Value::Float(x) => x.value().to_string(),
        Value::Boolean(b) => b.value().to_string(),
        _ => value.clone().decorated("", "").to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_as_the_resolver_reads_them() {
        let ok = |key: ConfigKey, text| plain(&key.value(text, false).unwrap());
        assert_eq!(ok(ConfigKey::Timeout, "30"), "30");
        assert_eq!(ok(ConfigKey::Timeout, "2.5"), "2.5");
        assert_eq!(ok(ConfigKey::ConnectTimeout, "0.5"), "0.5");
        assert_eq!(ok(ConfigKey::Method, "POST"), "post");
        assert_eq!(ok(ConfigKey::Method, "both"), "auto");
        assert_eq!(ok(ConfigKey::Retries, "0"), "0");
        assert_eq!(ok(ConfigKey::AllowHttp, "true"), "true");
        assert_eq!(ok(ConfigKey::Cache, "false"), "false");
        assert_eq!(ok(ConfigKey::CacheSettleDays, "14"), "14");
        let bad = |key: ConfigKey, text| key.value(text, false).unwrap_err();
        for (key, text, why) in [
            (
                ConfigKey::Timeout,
                "0",
                "expected at least 0.001 seconds (a millisecond)",
            ),
            (
                ConfigKey::Timeout,
                "-1",
                "expected at least 0.001 seconds (a millisecond)",
            ),
            (ConfigKey::Jobs, "0", "expected a whole number from 1 to 64"),
            (
                ConfigKey::Retries,
                "1.5",
                "expected a whole number from 0 to 100",
            ),
            (
                ConfigKey::Timeout,
                "1e19",
                "expected at most 86400 seconds (a day)",
            ),
            (ConfigKey::Method, "put", "expected auto, post or get"),
            (ConfigKey::AllowHttp, "yes", "expected true or false"),
            (ConfigKey::Cache, "on", "expected true or false"),
            (
                ConfigKey::CacheSettleDays,
                "0",
                "expected a whole number from 1 to 36600",
            ),
        ] {
            assert_eq!(bad(key, text), why, "{} {text}", key.name());
        }
        assert!(
            bad(ConfigKey::BaseUrl, "http://metrics.example").starts_with("refusing plain http")
        );
        assert!(ConfigKey::BaseUrl
            .value("http://metrics.example", true)
            .is_ok());
    }

    #[test]
    fn key_names_are_the_names_clap_accepts() {
        for key in ConfigKey::value_variants() {
            assert_eq!(key.to_possible_value().unwrap().get_name(), key.name());
        }
    }
}
