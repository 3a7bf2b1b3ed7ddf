//! Precedence: where a setting's value comes from (flag, environment, profile, top level,
//! default), and the helpers that pick the first one given.

use super::keys::ConfigKey;
use std::collections::BTreeMap;
use std::fmt;

use crate::settings::config::FileSettings;

/// Where a setting's value came from, as `config show` and hints name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Source {
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
pub(crate) struct Sourced<T> {
    pub value: T,
    pub source: Source,
}

/// One level of the config file: the selected profile's table, or the top level.
pub(super) type Layer<'a> = (&'a FileSettings, Source);

/// The first layer that holds a setting, with its source.
pub(super) fn from_layers<T>(
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

/// The first of: the flag, the environment variable, the config file's layers.
pub(super) fn first_given<T>(
    flag: Option<(T, &'static str)>,
    env_var: Option<(T, &'static str)>,
    layers: &[Layer],
    get: impl Fn(&FileSettings) -> Option<T>,
) -> Option<Sourced<T>> {
    match (flag, env_var) {
        (Some((value, name)), _) => Some(Sourced {
            value,
            source: Source::Flag(name),
        }),
        (None, Some((value, name))) => Some(Sourced {
            value,
            source: Source::Env(name),
        }),
        (None, None) => from_layers(layers, get),
    }
}

/// The flag if given, else the config file's layers, else the default.
pub(super) fn pick<T>(
    flag: Option<(T, &'static str)>,
    layers: &[Layer],
    get: impl Fn(&FileSettings) -> Option<T>,
    default: T,
) -> Sourced<T> {
    first_given(flag, None, layers, get).unwrap_or(Sourced {
        value: default,
        source: Source::Default,
    })
}

/// Collects where each plain setting came from while handing back its value.
#[derive(Default)]
pub(super) struct Sources(pub(super) BTreeMap<ConfigKey, Source>);

impl Sources {
    pub(super) fn take<T>(&mut self, key: ConfigKey, setting: Sourced<T>) -> T {
        self.0.insert(key, setting.source);
        setting.value
    }
}

/// The value of `--name`, paired with the flag's name for [`Source::Flag`].
pub(super) fn named<T>(value: Option<T>, name: &'static str) -> Option<(T, &'static str)> {
    value.map(|v| (v, name))
}

/// An on/off flag pair of one run over a config key (`--strict`/`--no-strict`, `--cache`/
/// `--no-cache`, `--allow-http`/`--no-allow-http`): which of the two was given, if either
/// (clap lets at most one through).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Switch {
    on: bool,
    off: bool,
}

impl Switch {
    /// `--name` given (`on`), `--no-name` given (`off`).
    pub(crate) fn new(on: bool, off: bool) -> Switch {
        Switch { on, off }
    }

    /// The setting and where it came from: the flag given, named as `names` say (on, off),
    /// else `otherwise`, the config file's value or the default with its source.
    pub(crate) fn resolve(
        self,
        names: [&'static str; 2],
        otherwise: impl FnOnce() -> Sourced<bool>,
    ) -> Sourced<bool> {
        let flag = |value, name| Sourced {
            value,
            source: Source::Flag(name),
        };
        match (self.on, self.off) {
            (true, _) => flag(true, names[0]),
            (_, true) => flag(false, names[1]),
            (false, false) => otherwise(),
        }
    }
}
