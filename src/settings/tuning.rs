//! The settings that tune a run (timeouts, retries, jobs, method, chunking), each from its flag,
//! the config file or its default, validated where it enters.

use std::time::Duration;

use super::keys::ConfigKey;
use super::keys::MethodChoice;
use super::precedence::{first_given, named, pick, Layer, Sources};
use super::Flags;
use super::{limits, Sourced};
use crate::error::{Failure, Result};

/// Every built-in default, in one place; `--help` names them from here (a test ties the two).
pub(crate) mod defaults {
    use std::time::Duration;

    /// Days before today (UTC) from which a day is settled, unless `cache_settle_days` says.
    pub(crate) const CACHE_SETTLE_DAYS: u32 = 7;
    /// How long an `api_key_command` may run.
    pub(crate) const KEY_COMMAND_LIMIT: Duration = Duration::from_secs(60);
    /// Seconds one whole request may take.
    pub(crate) const TIMEOUT_SECS: f64 = 30.0;
    /// Seconds to get connected.
    pub(crate) const CONNECT_TIMEOUT_SECS: f64 = 10.0;
    /// Further attempts after a transient failure.
    pub(crate) const RETRIES: u32 = 3;
    /// Requests in flight at once.
    pub(crate) const JOBS: usize = 8;
    /// Seconds to wait for another run's lock on a file being changed.
    pub(crate) const LOCK_TIMEOUT_SECS: f64 = 30.0;
}

/// The tuning settings, and where each came from.
pub(super) struct Tuning {
    pub allow_http: bool,
    pub timeout: Duration,
    pub connect_timeout: Duration,
    pub retries: u32,
    pub jobs: usize,
    pub method: MethodChoice,
    pub key_command_timeout: Duration,
    pub chunk_days: Option<u32>,
    pub sources: Sources,
}

pub(super) fn resolve(flags: &Flags, chunk_days: Option<u32>, layers: &[Layer]) -> Result<Tuning> {
    let mut sources = Sources::default();
    let (timeout, connect_timeout, key_command_timeout) = timeouts(flags, layers, &mut sources)?;
    let flag = named(flags.jobs, "--jobs");
    let jobs = pick(flag, layers, |l| l.jobs, defaults::JOBS);
    within(ConfigKey::Jobs, limits::JOBS, &jobs)?;
    let chunk_days = first_given(named(chunk_days, "--chunk-days"), None, layers, |l| {
        l.chunk_days
    });
    if let Some(days) = &chunk_days {
        within(ConfigKey::ChunkDays, limits::CHUNK_DAYS, days)?;
    }
    let flag = named(flags.retries, "--retries");
    let retries = pick(flag, layers, |l| l.retries, defaults::RETRIES);
    within(ConfigKey::Retries, limits::RETRIES, &retries)?;
    let flag = named(flags.method, "--method");
    let method = pick(flag, layers, |l| l.method, MethodChoice::Auto);
    Ok(Tuning {
        allow_http: sources.take(ConfigKey::AllowHttp, allow_http(flags, layers)),
        timeout,
        connect_timeout,
        retries: sources.take(ConfigKey::Retries, retries),
        jobs: sources.take(ConfigKey::Jobs, jobs),
        method: sources.take(ConfigKey::Method, method),
        key_command_timeout,
        chunk_days: chunk_days.map(|c| sources.take(ConfigKey::ChunkDays, c)),
        sources,
    })
}

/// `--allow-http` or `--no-allow-http` for this run, else config `allow_http`, else off.
fn allow_http(flags: &Flags, layers: &[Layer]) -> Sourced<bool> {
    let names = ["--allow-http", "--no-allow-http"];
    (flags.allow_http).resolve(names, || pick(None, layers, |l| l.allow_http, false))
}

/// `timeout`, `connect_timeout` and `api_key_command_timeout`, each a positive duration.
fn timeouts(
    flags: &Flags,
    layers: &[Layer],
    sources: &mut Sources,
) -> Result<(Duration, Duration, Duration)> {
    let mut secs = |key: ConfigKey, setting: Sourced<f64>| {
        let checked = seconds(key, setting.clone());
        sources.take(key, setting);
        checked
    };
    let flag = named(flags.timeout, "--timeout");
    let setting = pick(flag, layers, |l| l.timeout, defaults::TIMEOUT_SECS);
    let timeout = secs(ConfigKey::Timeout, setting)?;
    let flag = named(flags.connect_timeout, "--connect-timeout");
    let default = defaults::CONNECT_TIMEOUT_SECS;
    let setting = pick(flag, layers, |l| l.connect_timeout, default);
    let connect_timeout = secs(ConfigKey::ConnectTimeout, setting)?;
    // Config only: no flag sets it.
    let default = defaults::KEY_COMMAND_LIMIT.as_secs_f64();
    let setting = pick(None, layers, |l| l.api_key_command_timeout, default);
    let key_command_timeout = secs(ConfigKey::ApiKeyCommandTimeout, setting)?;
    Ok((timeout, connect_timeout, key_command_timeout))
}

/// Seconds as a positive duration of at most a day, or a configuration error naming the
/// setting and where it came from.
fn seconds(key: ConfigKey, value: Sourced<f64>) -> Result<Duration> {
    limits::seconds(value.value).map_err(|why| {
        // 1e19 as written, not as twenty digits.
        let shown = match value.value.abs() < 1e15 {
            true => value.value.to_string(),
            false => format!("{:e}", value.value),
        };
        Failure::config(format!(
            "{} {shown} from {} {}",
            key.name(),
            value.source,
            why.phrase()
        ))
        .with_hint(why.expected())
    })
}

/// A whole-number setting within its bounds, or a configuration error naming it.
pub(super) fn within<T: Copy + TryInto<u64>>(
    key: ConfigKey,
    bounds: limits::Count,
    setting: &Sourced<T>,
) -> Result<()> {
    let (value, source) = (
        setting.value.try_into().unwrap_or(u64::MAX),
        &setting.source,
    );
    match bounds.check(value) {
        Some(_) => Ok(()),
        None => Err(Failure::config(format!(
            "{} {value} from {source} is out of bounds: expected {}",
            key.name(),
            bounds.span()
        ))),
    }
}
