//! Resolves every setting from flag, environment, profile, config top level and default into
//! one plain value, [`Settings`]: after resolving, no command looks at the flags or the
//! environment again.

mod base_url;
mod cache;
mod config;
mod environment;
mod key_command;
mod keys;
mod libpq;
pub(crate) mod limits;
mod loopback;
mod output;
mod precedence;
mod profiles;
mod proxy;
mod secret;
mod terminal;
mod trust;
mod tuning;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use reqwest::Url;

pub use base_url::check_base_url;
pub(crate) use base_url::outside_ascii;
use base_url::{check_service_url, PlainHttp};
pub(crate) use base_url::{hide_passwords, shown_url, without_credentials};
pub use config::plain;
pub use config::{parse as parse_config_file, FileSettings};
pub(crate) use config::{ConfigDocument, ConfigLocation};
pub(crate) use environment::Environment;
use environment::ENV_SOURCE_DATE_EPOCH;
pub use environment::{ENV_BASE_URL, ENV_CA_BUNDLE, ENV_CONFIG, ENV_KEY, ENV_PROFILE};
pub use keys::ConfigKey;
pub(crate) use keys::{ColorChoice, MethodChoice};
pub(crate) use libpq::LibpqEnvironment;
pub(crate) use output::OutputDefaults;
pub(crate) use precedence::{Source, Sourced, Switch};
pub(crate) use proxy::ProxyChoice;
pub(crate) use secret::{register_environment_key, ApiKey, MASK};
pub(crate) use terminal::{clap_color, stderr_color, Terminal};
pub(crate) use trust::TrustSources;
pub(crate) use trust::{bundle_certificates, not_read, read_bundle_file};
pub(crate) use tuning::defaults;

use crate::error::{Failure, Result};
use crate::system::lock::LockWait;
use precedence::{first_given, from_layers, named, pick, Layer};

/// The command line's setting flags as plain values: cli fills this from its arguments, so
/// that settings never reads clap's types.
#[derive(Clone, Debug, Default)]
pub(crate) struct Flags {
    pub base_url: Option<String>,
    pub profile: Option<String>,
    pub config: Option<PathBuf>,
    pub ca_bundle: Option<PathBuf>,
    /// `--allow-http` or `--no-allow-http`, if either was given.
    pub allow_http: Switch,
    pub sandbox: bool,
    pub timeout: Option<f64>,
    pub connect_timeout: Option<f64>,
    pub retries: Option<u32>,
    pub jobs: Option<usize>,
    pub lock_timeout: Option<f64>,
    pub method: Option<MethodChoice>,
    pub verbose: bool,
    /// `--color`, if given (else the colour variables, then config `color`).
    pub color: Option<keys::ColorChoice>,
}

/// Config `strict` (the query flag `--strict` is added by the command).
fn strict(layers: &[Layer], sources: &mut precedence::Sources) -> bool {
    sources.take(ConfigKey::Strict, pick(None, layers, |l| l.strict, false))
}

/// `--lock-timeout` (checked by its parser), else the default.
fn lock_timeout(flags: &Flags) -> Duration {
    flags
        .lock_timeout
        .and_then(|secs| limits::seconds(secs).ok())
        .unwrap_or(Duration::from_secs_f64(defaults::LOCK_TIMEOUT_SECS))
}

/// How the key is obtained: as text, or by running a command (only when needed).
#[derive(Clone, Debug)]
pub(crate) enum KeySetting {
    Key(ApiKey),
    Command(String),
}

/// Whether a command reads the config file's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileUse {
    /// Read it; a selected profile must exist in it.
    Read,
    /// Read it; a missing file, or a selected profile missing from it, reads as empty (`auth
    /// login` creates them).
    ReadNewProfileOk,
    /// Only locate it: commands that edit the file, or need none of it, still work when it is
    /// broken, so that `config set` can mend it.
    LocateOnly,
}

/// The resolved settings of one run.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub config: ConfigLocation,
    pub profile: Option<Sourced<String>>,
    pub base_url: Option<Sourced<String>>,
    pub key: Option<Sourced<KeySetting>>,
    /// `CHAIN_METRICS_API_KEY` is set but empty (or blank): said when no key is found.
    pub key_var_empty: bool,
    pub allow_http: bool,
    /// Where the certificates to trust come from, besides the platform's store.
    pub trust: TrustSources,
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
    /// The response cache: on or off by config, the settle rule, the file.
    pub cache: cache::CacheSettings,
    /// Config `strict`: a query whose result lacks asked values exits 10 (`--strict` also).
    pub strict: bool,
    /// Config `format`, `decimals`, `chains` for a query's missing flags; the colour choice.
    pub output: OutputDefaults,
    /// How long to wait for another run's lock on a file this run changes.
    pub lock_timeout: Duration,
    /// Where each of the plain settings above came from, by config key, for `config show`.
    pub sources: BTreeMap<keys::ConfigKey, Source>,
    /// Problems worth a warning that do not stop the run (a config file others can read).
    pub warnings: Vec<String>,
    /// `--sandbox`: run against the built-in sandbox instead of the configured service.
    pub sandbox: bool,
    /// `--verbose`: request lines on stderr.
    pub verbose: bool,
    /// Whether stdout gets colour: `--color`, then NO_COLOR / CLICOLOR_FORCE / CLICOLOR, then
    /// config `color`, then whether it is a terminal.
    pub color: bool,
    /// What the terminal is, asked once per run.
    pub terminal: Terminal,
    /// `SOURCE_DATE_EPOCH` as set: the time an svg or html page says it was made, fixed so
    /// that a page can be made again byte for byte.
    pub source_date_epoch: Option<String>,
    /// The proxy variables, as read once.
    proxies: proxy::ProxyEnvironment,
    /// libpq's variables, for `-o postgresql://...`.
    pub libpq: LibpqEnvironment,
}

impl Settings {
    /// Resolves the `flags` (and `--chunk-days`, a query flag) against the environment and,
    /// as `file` says, the config file; colour against the `terminal`, asked once per run.
    pub(crate) fn resolve(
        flags: &Flags,
        chunk_days: Option<u32>,
        file: FileUse,
        terminal: Terminal,
    ) -> Result<Settings> {
        let env = Environment::from_process().map_err(|e| {
            Failure::config(e).with_hint("set it to the text you meant, or unset it")
        })?;
        let mut settings = Settings::resolve_in(&env, flags, chunk_days, file)?;
        settings.color = terminal::stdout_color(settings.output.color, terminal);
        settings.terminal = terminal;
        Ok(settings)
    }

    /// The settings from `env` alone (no colour: [`Settings::resolve`] asks the terminal).
    pub(crate) fn resolve_in(
        env: &Environment,
        flags: &Flags,
        chunk_days: Option<u32>,
        file_use: FileUse,
    ) -> Result<Settings> {
        let config = ConfigLocation::find(flags.config.as_deref(), env)?;
        let file = match file_use {
            FileUse::LocateOnly => FileSettings::default(),
            FileUse::Read => config.load()?,
            FileUse::ReadNewProfileOk => config.load_or_new()?,
        };
        let profile = first_given(
            named(flags.profile.clone(), "--profile"),
            env.named(ENV_PROFILE),
            &[],
            |_| None,
        );
        let layers = profiles::layers(&file, profile.as_ref(), &config, file_use)?;
        let base_url = first_given(
            named(flags.base_url.clone(), "--base-url"),
            env.named(ENV_BASE_URL),
            &layers,
            |l| l.base_url.clone(),
        );
        let mut tuning = tuning::resolve(flags, chunk_days, &layers)?;
        let cache = cache::resolve(env, &layers, &mut tuning.sources)?;
        let output = output::resolve(flags.color, env, &layers, &mut tuning.sources)?;
        let warnings = match file_use {
            FileUse::LocateOnly => Vec::new(),
            _ => config.permission_warning().into_iter().collect(),
        };
        Ok(Settings {
            profile,
            base_url,
            key: key_setting(env, &layers),
            key_var_empty: env.is_blank(ENV_KEY),
            allow_http: tuning.allow_http,
            trust: trust::sources(env, flags, &layers, &config),
            timeout: tuning.timeout,
            connect_timeout: tuning.connect_timeout,
            retries: tuning.retries,
            jobs: tuning.jobs,
            method: tuning.method,
            key_command_timeout: tuning.key_command_timeout,
            chunk_days: tuning.chunk_days,
            cache,
            strict: strict(&layers, &mut tuning.sources),
            output,
            lock_timeout: lock_timeout(flags),
            sources: tuning.sources.0,
            warnings,
            config,
            sandbox: flags.sandbox,
            verbose: flags.verbose,
            color: false,
            terminal: Terminal::default(),
            source_date_epoch: env.get(ENV_SOURCE_DATE_EPOCH).map(str::to_owned),
            proxies: proxy::ProxyEnvironment::from(env),
            libpq: LibpqEnvironment::from(env),
        })
    }

    /// How a run that changes a file waits for another run's lock on it.
    pub(crate) fn lock_wait(&self) -> LockWait {
        LockWait {
            limit: self.lock_timeout,
        }
    }

    /// The service address, checked: a URL, http(s), and plain http only to loopback.
    pub(crate) fn service_url(&self) -> Result<Url> {
        let Some(base) = &self.base_url else {
            let hint = format!(
                "set {ENV_BASE_URL}, --base-url URL or base_url in {}; or try --sandbox, which \
                needs no account",
                self.config.path.display()
            );
            return Err(Failure::config("no service address is set").with_hint(hint));
        };
        let refused_for_run =
            self.sources.get(&ConfigKey::AllowHttp) == Some(&Source::Flag("--no-allow-http"));
        let plain = match (self.allow_http, refused_for_run) {
            (true, _) => PlainHttp::Allowed,
            (false, true) => PlainHttp::RefusedForRun,
            (false, false) => PlainHttp::Off,
        };
        check_service_url(&base.value, plain)
            .map_err(|e| Failure::config(format!("base URL from {}: {e}", base.source)))
    }

    /// The proxy for requests to `target` (exit 3 if its variable is not a usable proxy URL).
    pub(crate) fn proxy_for(&self, target: &Url) -> Result<Option<ProxyChoice>> {
        self.proxies.proxy_for(target)
    }

    /// The API key, running `api_key_command` if that is where it comes from; checked to be
    /// long enough to mask and sendable in a header.
    pub(crate) fn api_key(&self) -> Result<ApiKey> {
        let key = self.find_key()?;
        key.check().map_err(|e| {
            let source = self
                .key
                .as_ref()
                .map(|k| k.source.to_string())
                .unwrap_or_default();
            Failure::config(format!("{e} (key from {source})"))
        })?;
        Ok(key)
    }

    /// The global flags a hint's command line repeats (` --config FILE --profile NAME`): the
    /// config file and profile this run used, unless they are the defaults. Without them,
    /// following the hint would read or change another file.
    pub(crate) fn again(&self) -> String {
        again(
            &self.config,
            self.profile.as_ref().map(|p| p.value.as_str()),
        )
    }

    /// Why there is no key: none is set, or the variable is there but empty (`export
    /// CHAIN_METRICS_API_KEY=$UNSET_SECRET` in a CI job).
    pub(crate) fn no_key(&self) -> String {
        match self.key_var_empty {
            true => format!("{ENV_KEY} is set but empty, and no other API key is set"),
            false => "no API key is set".into(),
        }
    }

    fn find_key(&self) -> Result<ApiKey> {
        match &self.key {
            None => Err(Failure::config(self.no_key()).with_hint(format!(
                "store one with: chain-metrics{} auth login; or set {ENV_KEY}, or api_key_command \
                in {}; or try --sandbox, which needs no account",
                self.again(),
                self.config.path.display()
            ))),
            Some(Sourced { value, source }) => match value {
                KeySetting::Key(key) => Ok(key.clone()),
                KeySetting::Command(command) => key_command::run(command, self.key_command_timeout)
                    .map_err(|e| {
                        Failure::config(format!("api_key_command from {source} ({command}) {e}"))
                    }),
            },
        }
    }
}

/// The key: from the environment, else the first layer with `api_key` or `api_key_command`.
fn key_setting(env: &Environment, layers: &[Layer]) -> Option<Sourced<KeySetting>> {
    if let Some(key) = env.get(ENV_KEY).and_then(ApiKey::new) {
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

/// ` --config FILE` unless the file is the default one, then ` --profile NAME` when one is
/// selected: what a hint's command line needs to act on the same settings.
pub(super) fn again(config: &ConfigLocation, profile: Option<&str>) -> String {
    let quote = |word: &str| crate::system::shell::quote(word).into_owned();
    let mut words = String::new();
    if !matches!(config.source, Source::Default) {
        let path = config.path.display().to_string();
        words.push_str(&format!(" --config {}", quote(&path)));
    }
    if let Some(name) = profile {
        words.push_str(&format!(" --profile {}", quote(name)));
    }
    words
}
