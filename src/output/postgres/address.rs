//! A PostgreSQL target as `psql` reads it: libpq's URI (`postgresql://[user[:password]@][host]
//! [:port]/dbname[?param=value&...]`), completed from libpq's environment (`PGHOST`, `PGPORT`,
//! `PGUSER`, `PGDATABASE`, `PGPASSWORD`, `PGSSLMODE`, ...) and its password file, and shown
//! with the password masked.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::uri::{masked, split, Parts};
use crate::error::Failure;
use crate::system::foreign;

/// Where libpq looks for a server when no host is named (Debian's socket folder, then the
/// upstream default).
const SOCKET_FOLDERS: [&str; 2] = ["/var/run/postgresql", "/tmp"];

/// The port of PostgreSQL.
const DEFAULT_PORT: u16 = 5432;

/// A host to connect to: a name or address over TCP, or a Unix socket's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Host {
    Tcp(String),
    Socket(PathBuf),
}

/// libpq's `sslmode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SslMode {
    Disable,
    Allow,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    fn parse(text: &str) -> Option<SslMode> {
        Some(match text {
            "disable" => SslMode::Disable,
            "allow" => SslMode::Allow,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            _ => return None,
        })
    }
}

/// Where the password came from: one in the URI gets a warning (`ps` shows it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PasswordFrom {
    Uri,
    Environment,
    PasswordFile,
}

/// Everything a connection needs, resolved once from the URI, the environment and the
/// password file.
#[derive(Clone)]
pub(crate) struct Address {
    /// The URI as given, the password masked: what every message shows.
    pub shown: String,
    pub(super) hosts: Vec<Host>,
    pub(super) port: u16,
    pub(super) user: String,
    pub(super) password: Option<(String, PasswordFrom)>,
    pub(super) dbname: String,
    pub(super) sslmode: SslMode,
    pub(super) sslrootcert: Option<PathBuf>,
    pub(super) application_name: Option<String>,
    pub(super) connect_timeout: Option<Duration>,
}

impl std::fmt::Debug for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

/// The parameters libpq's URI takes that this tool reads.
const KNOWN: [&str; 10] = [
    "host",
    "port",
    "user",
    "password",
    "dbname",
    "sslmode",
    "sslrootcert",
    "application_name",
    "connect_timeout",
    "passfile",
];

/// Where a setting comes from, first found first: the URI's parameter, then the URI's own
/// part (user, host, database), then libpq's environment variable.
struct Sources<'a> {
    parts: Parts,
    env: &'a dyn Fn(&str) -> Option<String>,
    shown: String,
}

impl Sources<'_> {
    /// The URI parameter `name`, else `part`, else the variable `variable`.
    fn get(&self, name: &str, part: Option<&String>, variable: &str) -> Option<String> {
        let param = (self.parts.params.iter().rev()).find(|(k, _)| k == name);
        param
            .map(|(_, v)| v.clone())
            .or_else(|| part.cloned())
            .or_else(|| (self.env)(variable))
    }

    /// A usage error about the URI, shown masked.
    fn bad(&self, why: String) -> Failure {
        Failure::usage(format!("the PostgreSQL URI {}: {why}", self.shown))
    }

    fn port(&self) -> Result<u16, Failure> {
        let in_host = self.parts.hosts.iter().find_map(|(_, p)| p.clone());
        match self.get("port", in_host.as_ref(), "PGPORT") {
            Some(text) => (text.parse::<u16>().ok().filter(|p| *p > 0)).ok_or_else(|| {
                self.bad(format!(
                    "the port {} is no port number",
                    foreign::echo(&text)
                ))
            }),
            None => Ok(DEFAULT_PORT),
        }
    }

    /// The hosts (a comma list), a name starting with `/` a socket folder; libpq's default
    /// socket when none is named.
    fn hosts(&self) -> Vec<Host> {
        let named: Vec<String> = (self.parts.hosts.iter())
            .map(|(h, _)| h.clone())
            .filter(|h| !h.is_empty())
            .collect();
        let named = Some(named.join(",")).filter(|n| !n.is_empty());
        let text = self
            .get("host", named.as_ref(), "PGHOST")
            .unwrap_or_default();
        let mut hosts: Vec<Host> = (text.split(','))
            .filter(|h| !h.is_empty())
            .map(|h| match h.starts_with('/') {
                true => Host::Socket(PathBuf::from(h)),
                false => Host::Tcp(h.to_owned()),
            })
            .collect();
        if hosts.is_empty() {
            hosts.push(default_host());
        }
        hosts
    }

    fn sslmode(&self) -> Result<SslMode, Failure> {
        match self.get("sslmode", None, "PGSSLMODE") {
            Some(text) => SslMode::parse(&text).ok_or_else(|| {
                self.bad(format!(
                    "sslmode {} is none of libpq's",
                    foreign::echo(&text)
                ))
                .with_hint("sslmode is disable, allow, prefer, require, verify-ca or verify-full")
            }),
            None => Ok(SslMode::Prefer),
        }
    }

    /// libpq's: zero (or none) waits for ever; below 2 s counts as 2.
    fn connect_timeout(&self) -> Result<Option<Duration>, Failure> {
        let Some(text) = self.get("connect_timeout", None, "PGCONNECT_TIMEOUT") else {
            return Ok(None);
        };
        match text.trim().parse::<u64>() {
            Ok(0) => Ok(None),
            Ok(secs) => Ok(Some(Duration::from_secs(secs.max(2)))),
            Err(_) => Err(self.bad(format!(
                "connect_timeout {} is no number of seconds",
                foreign::echo(&text)
            ))),
        }
    }

    /// The password: the URI's, else PGPASSWORD, else the password file's line for this
    /// connection.
    fn password(
        &self,
        host: &Host,
        port: u16,
        dbname: &str,
        user: &str,
    ) -> Option<(String, PasswordFrom)> {
        let in_uri = self
            .parts
            .params
            .iter()
            .rev()
            .find(|(k, _)| k == "password");
        let in_uri = in_uri
            .map(|(_, v)| v.clone())
            .or(self.parts.password.clone());
        if let Some(password) = in_uri {
            return Some((password, PasswordFrom::Uri));
        }
        if let Some(password) = (self.env)("PGPASSWORD") {
            return Some((password, PasswordFrom::Environment));
        }
        let file = (self.get("passfile", None, "PGPASSFILE").map(PathBuf::from))
            .or_else(|| dirs::home_dir().map(|h| h.join(".pgpass")))?;
        let password = from_password_file(&file, host, port, dbname, user)?;
        Some((password, PasswordFrom::PasswordFile))
    }
}

impl Address {
    /// Reads `uri`, completing it from `env` (libpq's variables) and the password file, as
    /// `psql` does. A malformed URI or an unknown parameter is a usage error (exit 2).
    pub(crate) fn resolve(
        uri: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Address, Failure> {
        let parts = split(uri)?;
        let in_uri = (parts.params.iter())
            .filter(|(k, _)| k == "password")
            .map(|(_, v)| v)
            .chain(&parts.password);
        in_uri.for_each(|password| foreign::register_secret(password));
        let shown = masked(uri, parts.password.as_deref());
        let sources = Sources { parts, env, shown };
        if let Some((unknown, _)) =
            (sources.parts.params.iter()).find(|(k, _)| !KNOWN.contains(&k.as_str()))
        {
            return Err(sources
                .bad(format!(
                    "the parameter {} is not one this tool reads",
                    foreign::echo(unknown)
                ))
                .with_hint(format!("it reads {}", KNOWN.join(", "))));
        }
        let port = sources.port()?;
        let hosts = sources.hosts();
        let user = (sources.get("user", sources.parts.user.as_ref(), "PGUSER"))
            .or_else(os_user)
            .ok_or_else(|| sources.bad("no user name: give one in the URI or PGUSER".to_owned()))?;
        let dbname = Some(&sources.parts.dbname).and_then(|d| d.as_ref().filter(|d| !d.is_empty()));
        let dbname = (sources.get("dbname", dbname, "PGDATABASE")).unwrap_or_else(|| user.clone());
        let password = sources.password(&hosts[0], port, &dbname, &user);
        if let Some((password, _)) = &password {
            foreign::register_secret(password);
        }
        Ok(Address {
            hosts,
            port,
            password,
            sslmode: sources.sslmode()?,
            sslrootcert: sources
                .get("sslrootcert", None, "PGSSLROOTCERT")
                .map(PathBuf::from),
            application_name: sources.get("application_name", None, "PGAPPNAME"),
            connect_timeout: sources.connect_timeout()?,
            user,
            dbname,
            shown: sources.shown,
        })
    }

    /// Whether the password was written in the URI, where `ps` and shell history show it.
    pub(crate) fn password_in_uri(&self) -> bool {
        matches!(self.password, Some((_, PasswordFrom::Uri)))
    }

    /// The password, for a message's own masking (one too short to register as a secret).
    pub(super) fn password(&self) -> Option<&str> {
        self.password.as_ref().map(|(p, _)| p.as_str())
    }

    /// Where the connection goes, for `-v`: host, port, database and user (no password).
    pub(crate) fn describe(&self) -> String {
        let host = match &self.hosts[0] {
            Host::Tcp(name) => format!("{name}:{}", self.port),
            Host::Socket(folder) => format!("the socket in {}", folder.display()),
        };
        format!("database {} on {host} as {}", self.dbname, self.user)
    }
}

/// libpq's default host: the socket folder that holds a server's socket, else Debian's.
fn default_host() -> Host {
    let folder = SOCKET_FOLDERS
        .iter()
        .find(|f| Path::new(f).is_dir())
        .unwrap_or(&SOCKET_FOLDERS[1]);
    Host::Socket(PathBuf::from(folder))
}

/// The user this process runs as, libpq's default user name.
fn os_user() -> Option<String> {
    #[cfg(unix)]
    {
        let uid = nix::unistd::geteuid();
        nix::unistd::User::from_uid(uid)
            .ok()
            .flatten()
            .map(|u| u.name)
    }
    #[cfg(not(unix))]
    {
        std::env::var("USERNAME").ok()
    }
}

/// The password the password file (`~/.pgpass`, `PGPASSFILE`) holds for this connection: its
/// first line `host:port:database:user:password` that matches (`*` matches anything, `\`
/// escapes `:` and `\`). As libpq, a file others can read (not 0600 or less) is ignored.
fn from_password_file(
    file: &Path,
    host: &Host,
    port: u16,
    dbname: &str,
    user: &str,
) -> Option<String> {
    let metadata = std::fs::metadata(file).ok()?;
    if !metadata.is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if metadata.permissions().mode() & 0o077 != 0 {
            crate::system::diag::warning(format!(
                "the password file {} is readable by others (it should be 0600): it is ignored, as \
                    psql does",
                file.display()
            ));
            return None;
        }
    }
    let text = std::fs::read_to_string(file).ok()?;
    let host = match host {
        Host::Tcp(name) => name.clone(),
        Host::Socket(folder) if folder == Path::new(SOCKET_FOLDERS[0]) => "localhost".to_owned(),
        Host::Socket(folder) => folder.display().to_string(),
    };
    let port = port.to_string();
    let wanted = [host.as_str(), port.as_str(), dbname, user];
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            let fields = password_fields(line);
            let [h, p, d, u, password] = fields.as_slice() else {
                return None;
            };
            let matches = [h, p, d, u]
                .iter()
                .zip(wanted)
                .all(|(field, want)| field.as_str() == "*" || field.as_str() == want);
            matches.then(|| password.clone())
        })
}

/// A password-file line's fields: split at `:`, with `\:` and `\\` escaped.
fn password_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => fields
                .last_mut()
                .into_iter()
                .for_each(|f| f.extend(chars.next())),
            // The password is the rest of the line, colons and all.
            ':' if fields.len() < 5 => fields.push(String::new()),
            _ => fields.last_mut().into_iter().for_each(|f| f.push(c)),
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(uri: &str, env: &[(&str, &str)]) -> Result<Address, Failure> {
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let lookup = move |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        Address::resolve(uri, &lookup)
    }

    #[test]
    fn the_uri_wins_over_the_environment() {
        let env = [
            ("PGHOST", "/run/pg"),
            ("PGPORT", "6000"),
            ("PGUSER", "cron"),
            ("PGSSLMODE", "require"),
        ];
        let a = resolve(
            "postgresql://metrics@db.example:5433/team?sslmode=verify-full",
            &env,
        )
        .unwrap();
        assert_eq!(a.hosts, [Host::Tcp("db.example".into())]);
        assert_eq!(
            (a.port, a.user.as_str(), a.dbname.as_str()),
            (5433, "metrics", "team")
        );
        assert_eq!(a.sslmode, SslMode::VerifyFull);
        let b = resolve("postgresql:///metrics", &env).unwrap();
        assert_eq!(b.hosts, [Host::Socket("/run/pg".into())]);
        assert_eq!(
            (b.port, b.user.as_str(), b.dbname.as_str()),
            (6000, "cron", "metrics")
        );
        assert_eq!(b.sslmode, SslMode::Require);
        let c = resolve("postgres://%2Ftmp%2Fpg/db?user=x", &[]).unwrap();
        assert_eq!(c.hosts, [Host::Socket("/tmp/pg".into())]);
        assert_eq!(c.user, "x");
    }

    #[test]
    fn the_password_is_masked_wherever_the_uri_shows() {
        let a = resolve(
            "postgresql://u:s3cret-pass@h/db?password=other-secret&sslmode=disable",
            &[],
        )
        .unwrap();
        assert_eq!(
            a.shown,
            "postgresql://u:****@h/db?password=****&sslmode=disable"
        );
        assert!(a.password_in_uri());
        let e = resolve("postgresql://u:p%40ss-word-9@h/db?nonsense=1", &[])
            .err()
            .unwrap();
        assert!(!e.to_string().contains("p%40ss"), "{e}");
    }

    #[test]
    fn password_file_lines_match_with_stars_and_escapes() {
        assert_eq!(
            password_fields(r"h\:x:*:db:u:pa:ss"),
            ["h:x", "*", "db", "u", "pa:ss"]
        );
        assert!(resolve("postgresql://h/db?sslmode=sometimes", &[]).is_err());
        assert!(resolve("mysql://h/db", &[]).is_err());
    }
}
