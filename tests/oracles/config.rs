//! Config TOML: for every key a file the loader accepts sets (at the top level or in a
//! profile), what `config get` prints is taken back by `config set`, and what `config set`
//! stores loads as the same value. The loader is the file's parser and the checks the
//! resolver makes of each value when a run uses it (a URL, bounds), restated here. `api_key`
//! is left out (`config set` never takes it), and so is `ca_bundle`, which `config set` stores
//! as an absolute path (CLI.md §2). `config set` trims what it is given, as every reader of
//! a string setting does (a URL parser, the shell), so strings are compared trimmed.

use chain_metrics::{check_base_url, config_text, parse_config_file, seconds, ConfigKey};
use chain_metrics::{CACHE_SETTLE_DAYS, CHUNK_DAYS, JOBS, RETRIES};
use toml_edit::{DocumentMut, Item, TableLike};

use super::Input;

pub fn check(data: &[u8]) -> Result<(), String> {
    let text = Input::new(data).text();
    if parse_config_file(&text).is_err() {
        return Ok(());
    }
    let doc: DocumentMut = text
        .parse()
        .map_err(|e| format!("the loader accepts what toml_edit refuses: {e}"))?;
    let top = doc.as_table() as &dyn TableLike;
    let http = |table: &dyn TableLike| table.get("allow_http").and_then(|i| i.as_bool());
    check_table(top, http(top).unwrap_or(false), "top level")?;
    let profiles = top.get("profiles").and_then(Item::as_table_like);
    for (name, profile) in profiles.into_iter().flat_map(|p| p.iter()) {
        let Some(profile) = profile.as_table_like() else {
            return Err(format!(
                "the loader accepts profile {name}, which is no table"
            ));
        };
        let allow_http = http(profile).or(http(top)).unwrap_or(false);
        check_table(profile, allow_http, &format!("profile {name}"))?;
    }
    Ok(())
}

fn check_table(table: &dyn TableLike, allow_http: bool, place: &str) -> Result<(), String> {
    let skipped = [ConfigKey::ApiKey, ConfigKey::CaBundle];
    for key in ConfigKey::ALL.into_iter().filter(|k| !skipped.contains(k)) {
        let Some(value) = table.get(key.name()).and_then(Item::as_value) else {
            continue;
        };
        if !resolver_takes(key, value, allow_http) {
            continue;
        }
        let shown = config_text(value);
        let stored = key.value(&shown, allow_http).map_err(|why| {
            format!(
                "{place}: config get prints {} as {shown:?}, which config set refuses: {why}",
                key.name()
            )
        })?;
        let written = format!("{} = {stored}\n", key.name());
        parse_config_file(&written).map_err(|why| {
            format!("{place}: config set stores {written:?}, which the loader refuses: {why}")
        })?;
        let before = format!("{} = {value}\n", key.name());
        let (loaded, before) = (load(&written)?, load(&before)?);
        if loaded != before {
            return Err(format!(
                "{place}: {} was {before}, config set stores {loaded}",
                key.name()
            ));
        }
    }
    Ok(())
}

/// Whether a run would use the value: the resolver's own checks, restated.
fn resolver_takes(key: ConfigKey, value: &toml_edit::Value, allow_http: bool) -> bool {
    let count = |bounds: chain_metrics::Count| {
        value
            .as_integer()
            .and_then(|n| u64::try_from(n).ok())
            .and_then(|n| bounds.check(n))
            .is_some()
    };
    let secs = value.as_float().or(value.as_integer().map(|n| n as f64));
    match key {
        ConfigKey::BaseUrl => value
            .as_str()
            .is_some_and(|url| check_base_url(url, allow_http).is_ok()),
        ConfigKey::Timeout | ConfigKey::ConnectTimeout | ConfigKey::ApiKeyCommandTimeout => {
            secs.is_some_and(|s| seconds(s).is_ok())
        }
        ConfigKey::Retries => count(RETRIES),
        ConfigKey::Jobs => count(JOBS),
        ConfigKey::ChunkDays => count(CHUNK_DAYS),
        ConfigKey::CacheSettleDays => count(CACHE_SETTLE_DAYS),
        _ => true,
    }
}

/// What the loader makes of a one-key file: strings around spaces, as their readers take them.
fn load(text: &str) -> Result<String, String> {
    let settings = parse_config_file(text).map_err(|why| format!("{text:?}: {why}"))?;
    let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    Ok(match table.values().next() {
        Some(toml::Value::String(s)) => format!("{:?}", s.trim()),
        _ => format!("{settings:?}"),
    })
}
