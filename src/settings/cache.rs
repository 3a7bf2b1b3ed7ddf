//! The response cache's settings (CLI.md §5): whether it is on, when a day is settled, and
//! where the file lives.

use std::path::PathBuf;

use super::environment::{Environment, ENV_XDG_CACHE_HOME};
use super::keys::ConfigKey;
use super::limits;
use super::precedence::{pick, Layer, Sources};
use super::tuning::{defaults, within};
use crate::error::Result;

/// The cache as configured; the query flags (`--cache`, `--no-cache`, `--refresh`) decide last.
#[derive(Clone, Debug)]
pub(crate) struct CacheSettings {
    /// Config `cache`: use it without `--cache`.
    pub enabled: bool,
    /// Config `cache_settle_days`: a day is settled once it is this many days before today.
    pub settle_days: u32,
    /// `<user cache dir>/chain-metrics/cache.sqlite3`, or why there is none (no HOME).
    pub file: std::result::Result<PathBuf, String>,
}

pub(super) fn resolve(
    env: &Environment,
    layers: &[Layer],
    sources: &mut Sources,
) -> Result<CacheSettings> {
    let enabled = sources.take(ConfigKey::Cache, pick(None, layers, |l| l.cache, false));
    let settle = pick(
        None,
        layers,
        |l| l.cache_settle_days,
        defaults::CACHE_SETTLE_DAYS,
    );
    let bounds = limits::CACHE_SETTLE_DAYS;
    within(ConfigKey::CacheSettleDays, bounds, &settle)?;
    Ok(CacheSettings {
        enabled,
        settle_days: sources.take(ConfigKey::CacheSettleDays, settle),
        file: cache_file(env),
    })
}

/// `$XDG_CACHE_HOME/chain-metrics/cache.sqlite3`, else `~/.cache/...` on every Unix (macOS
/// too, as the config file sits in `~/.config` there), and the system's cache folder on
/// Windows.
fn cache_file(env: &Environment) -> std::result::Result<PathBuf, String> {
    // The XDG spec says a relative value is to be ignored.
    let xdg = env
        .get(ENV_XDG_CACHE_HOME)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let folder = match xdg {
        Some(folder) => Some(folder),
        None if cfg!(windows) => dirs::cache_dir(),
        None => dirs::home_dir().map(|home| home.join(".cache")),
    };
    folder
        .map(|f| f.join("chain-metrics").join("cache.sqlite3"))
        .ok_or_else(|| "cannot tell where the user cache folder is (HOME is not set)".to_owned())
}
