//! The one reader of the process environment: every variable the tool honours, read once.

/// The API key.
pub const ENV_KEY: &str = "CHAIN_METRICS_API_KEY";
/// The service address.
pub const ENV_BASE_URL: &str = "CHAIN_METRICS_BASE_URL";
/// The profile of the config file.
pub const ENV_PROFILE: &str = "CHAIN_METRICS_PROFILE";
/// The config file.
pub const ENV_CONFIG: &str = "CHAIN_METRICS_CONFIG";
/// Where the response cache's folder goes (the XDG base directory spec).
pub const ENV_XDG_CACHE_HOME: &str = "XDG_CACHE_HOME";

/// Every variable the tool reads; nothing else in the process environment matters to it.
const HONOURED: &[&str] = &[
    ENV_KEY,
    ENV_BASE_URL,
    ENV_PROFILE,
    ENV_CONFIG,
    ENV_XDG_CACHE_HOME,
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
];

/// A snapshot of the variables the tool honours; an empty value counts as unset.
#[derive(Clone, Debug, Default)]
pub struct Environment {
    values: Vec<(&'static str, String)>,
}

impl Environment {
    pub fn from_process() -> Environment {
        Environment::from_pairs(
            HONOURED
                .iter()
                .filter_map(|&name| std::env::var(name).ok().map(|value| (name, value))),
        )
    }

    /// An environment holding exactly these variables.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (&'static str, String)>) -> Environment {
        Environment {
            values: pairs.into_iter().filter(|(_, v)| !v.is_empty()).collect(),
        }
    }

    /// The variable's value, if it is set and not empty.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value as an owned string, paired with the variable's name for [`super::Source::Env`].
    pub(super) fn named(&self, name: &'static str) -> Option<(String, &'static str)> {
        self.get(name).map(|v| (v.to_owned(), name))
    }
}
