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
pub(super) const ENV_XDG_CACHE_HOME: &str = "XDG_CACHE_HOME";
/// Extra CA certificates (PEM).
pub const ENV_CA_BUNDLE: &str = "CHAIN_METRICS_CA_BUNDLE";
/// The time a picture says it was made (seconds since 1970, the reproducible-builds convention).
pub(super) const ENV_SOURCE_DATE_EPOCH: &str = "SOURCE_DATE_EPOCH";

/// Every variable the settings resolve from (the locale is read apart, see [`locale`]; libpq's
/// in [`LIBPQ_VARIABLES`]); nothing else in the process environment matters to the tool.
const HONOURED: &[&str] = &[
    ENV_KEY,
    ENV_BASE_URL,
    ENV_PROFILE,
    ENV_CONFIG,
    ENV_XDG_CACHE_HOME,
    ENV_CA_BUNDLE,
    ENV_SOURCE_DATE_EPOCH,
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "XDG_CONFIG_HOME",
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
];

/// The user's name on Windows, libpq's default user there.
pub(super) const ENV_WINDOWS_USER: &str = "USERNAME";

/// The variables that name the locale, the first set deciding (POSIX): the terminal's
/// character set, read once by `Terminal::ask` before the settings are resolved.
const LOCALE_VARIABLES: [&str; 3] = ["LC_ALL", "LC_CTYPE", "LANG"];

/// The locale that decides the character set: the first of [`LOCALE_VARIABLES`] set to
/// something (bytes that are not UTF-8 taken as they come).
pub(super) fn locale() -> Option<String> {
    LOCALE_VARIABLES
        .iter()
        .filter_map(std::env::var_os)
        .find(|value| !value.is_empty())
        .map(|value| value.to_string_lossy().into_owned())
}

/// Whether TERM says the terminal is `dumb`: it shows text and nothing else.
pub(super) fn term_is_dumb() -> bool {
    std::env::var_os("TERM").is_some_and(|term| term == "dumb")
}

/// libpq's variables, each with the connection parameter it stands for (libpq's own table,
/// `PQconninfoOptions`): the export reads some and refuses the rest by name, never ignoring
/// one that is set.
pub(super) const LIBPQ_VARIABLES: [(&str, &str); 31] = [
    ("PGHOST", "host"),
    ("PGHOSTADDR", "hostaddr"),
    ("PGPORT", "port"),
    ("PGDATABASE", "dbname"),
    ("PGUSER", "user"),
    ("PGPASSWORD", "password"),
    ("PGPASSFILE", "passfile"),
    ("PGSERVICE", "service"),
    ("PGSERVICEFILE", "servicefile"),
    // The folder of the system's service file: no parameter of its own.
    ("PGSYSCONFDIR", "sysconfdir"),
    ("PGOPTIONS", "options"),
    ("PGAPPNAME", "application_name"),
    ("PGCONNECT_TIMEOUT", "connect_timeout"),
    ("PGCLIENTENCODING", "client_encoding"),
    ("PGSSLMODE", "sslmode"),
    ("PGSSLNEGOTIATION", "sslnegotiation"),
    ("PGREQUIRESSL", "requiressl"),
    ("PGSSLCOMPRESSION", "sslcompression"),
    ("PGSSLCERT", "sslcert"),
    ("PGSSLKEY", "sslkey"),
    ("PGSSLCERTMODE", "sslcertmode"),
    ("PGSSLROOTCERT", "sslrootcert"),
    ("PGSSLCRL", "sslcrl"),
    ("PGSSLCRLDIR", "sslcrldir"),
    ("PGSSLSNI", "sslsni"),
    ("PGREQUIREPEER", "requirepeer"),
    ("PGSSLMINPROTOCOLVERSION", "ssl_min_protocol_version"),
    ("PGSSLMAXPROTOCOLVERSION", "ssl_max_protocol_version"),
    ("PGGSSENCMODE", "gssencmode"),
    ("PGCHANNELBINDING", "channel_binding"),
    ("PGTARGETSESSIONATTRS", "target_session_attrs"),
];

/// The variables that choose a proxy, as curl reads them (see `proxy`).
pub(super) const PROXY_VARIABLES: [&str; 9] = [
    "https_proxy",
    "HTTPS_PROXY",
    "http_proxy",
    "HTTP_PROXY",
    "all_proxy",
    "ALL_PROXY",
    "no_proxy",
    "NO_PROXY",
    // Set under CGI, where HTTP_PROXY comes from a request header ("httpoxy"): then ignored.
    "REQUEST_METHOD",
];

/// A snapshot of the variables the tool honours; an empty value counts as unset.
#[derive(Clone, Debug, Default)]
pub(crate) struct Environment {
    values: Vec<(&'static str, String)>,
    /// The variables set to nothing, for saying so where their absence is an error.
    empty: Vec<&'static str>,
}

impl Environment {
    /// The process's variables. One of ours that is not UTF-8 text is an error naming it: read
    /// as unset, it would send the run to another service, profile or file without a word.
    /// Others (NO_COLOR...) only matter by being set, so their bytes are taken as they come.
    pub(crate) fn from_process() -> Result<Environment, String> {
        let mut pairs = Vec::new();
        let libpq = LIBPQ_VARIABLES.iter().map(|(name, _)| name);
        let names = (HONOURED.iter().chain(&PROXY_VARIABLES)).chain(libpq);
        for &name in names.chain([&ENV_WINDOWS_USER]) {
            let Some(value) = std::env::var_os(name) else {
                continue;
            };
            let value = match value.into_string() {
                Ok(text) => text,
                Err(_) if name.starts_with("CHAIN_METRICS_") => {
                    return Err(format!("the environment variable {name} is not UTF-8 text"));
                }
                Err(bytes) => bytes.to_string_lossy().into_owned(),
            };
            pairs.push((name, value));
        }
        Ok(Environment::from_pairs(pairs))
    }

    /// An environment holding exactly these variables.
    pub(crate) fn from_pairs(
        pairs: impl IntoIterator<Item = (&'static str, String)>,
    ) -> Environment {
        let (empty, values): (Vec<_>, Vec<_>) = pairs.into_iter().partition(|(_, v)| v.is_empty());
        Environment {
            values,
            empty: empty.into_iter().map(|(name, _)| name).collect(),
        }
    }

    /// Whether the variable is set, to nothing or to blanks only.
    pub(crate) fn is_blank(&self, name: &str) -> bool {
        self.empty.contains(&name) || self.get(name).is_some_and(|v| v.trim().is_empty())
    }

    /// The variable's value, if it is set and not empty.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
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
