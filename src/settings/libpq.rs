//! libpq's environment (`PGHOST`, `PGPORT`, `PGUSER`, ...), read by the one environment reader
//! and handed to the PostgreSQL export as plain values: the export reads no variable itself.

use std::path::PathBuf;

use super::environment::{Environment, LIBPQ_VARIABLES};

/// libpq's environment of this run, as plain values.
#[derive(Clone, Default)]
pub(crate) struct LibpqEnvironment {
    /// The variables set to something: (the parameter it stands for, the variable, its value).
    values: Vec<(&'static str, &'static str, String)>,
    /// The home folder, where `~/.pgpass` and `~/.postgresql/` are.
    pub home: Option<PathBuf>,
    /// The user this process runs as: libpq's default user name.
    pub os_user: Option<String>,
}

impl std::fmt::Debug for LibpqEnvironment {
    /// The variables' names alone: PGPASSWORD's value is a secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.values.iter().map(|(_, v, _)| *v).collect();
        f.debug_struct("LibpqEnvironment")
            .field("set", &names)
            .finish()
    }
}

impl LibpqEnvironment {
    /// libpq's variables as `env` holds them.
    pub(crate) fn from(env: &Environment) -> LibpqEnvironment {
        let values = (LIBPQ_VARIABLES.iter())
            .filter_map(|&(variable, parameter)| {
                (env.get(variable)).map(|value| (parameter, variable, value.to_owned()))
            })
            .collect();
        LibpqEnvironment {
            values,
            home: dirs::home_dir(),
            os_user: os_user(env),
        }
    }

    /// libpq's variables as the process holds them now, where the settings could not be
    /// resolved (their failure is said later, after the flags' usage errors).
    pub(crate) fn from_process() -> LibpqEnvironment {
        let env = Environment::from_process().unwrap_or_default();
        LibpqEnvironment::from(&env)
    }

    /// The value of the variable that stands for the connection parameter `parameter`.
    pub(crate) fn get(&self, parameter: &str) -> Option<&str> {
        self.set(parameter).map(|(_, value)| value)
    }

    /// The variable set for `parameter`, and its value.
    pub(crate) fn set(&self, parameter: &str) -> Option<(&'static str, &str)> {
        (self.values.iter())
            .find(|(p, _, _)| *p == parameter)
            .map(|(_, variable, value)| (*variable, value.as_str()))
    }

    /// Every variable set: (the parameter it stands for, the variable).
    pub(crate) fn variables(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.values.iter().map(|(p, v, _)| (*p, *v))
    }
}

/// The user this process runs as, libpq's default user name.
fn os_user(env: &Environment) -> Option<String> {
    #[cfg(unix)]
    {
        let _ = env;
        let uid = nix::unistd::geteuid();
        (nix::unistd::User::from_uid(uid).ok().flatten()).map(|u| u.name)
    }
    #[cfg(not(unix))]
    {
        env.get(super::environment::ENV_WINDOWS_USER)
            .map(str::to_owned)
    }
}
