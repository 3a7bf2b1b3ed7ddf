//! A PostgreSQL target as `psql` reads it: libpq's URI (`postgresql://[user[:password]@][host]
//! [:port][,...]/dbname[?param=value&...]`), completed from libpq's environment (handed over by
//! the settings: `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`, `PGSSLMODE`, ...)
//! and its password file, and shown with the password masked.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::params;
use super::passfile::PasswordFile;
pub(super) use super::server::{Host, PasswordFrom, Server};
use super::service;
pub(crate) use super::tls::{ClientCert, SslMode};
use super::uri::{masked, split, Parts};
use crate::error::Failure;
use crate::settings::LibpqEnvironment;
use crate::system::foreign;

/// Where libpq looks for a server when no host is named (Debian's socket folder, then the
/// upstream default). The first is the one Debian's libpq was built with, which its password
/// file matches as `localhost`.
const SOCKET_FOLDERS: [&str; 2] = ["/var/run/postgresql", "/tmp"];

/// The port of PostgreSQL.
const DEFAULT_PORT: u16 = 5432;

/// Everything a connection needs, resolved once from the URI, the environment and the
/// password file.
#[derive(Clone)]
pub(crate) struct Address {
    /// The URI as given, the password masked: what every message shows.
    pub shown: String,
    /// The servers, in the order libpq tries them: the first that connects is written to.
    pub(super) servers: Vec<Server>,
    pub(super) user: String,
    pub(super) dbname: String,
    pub(super) sslmode: SslMode,
    pub(super) sslrootcert: Option<PathBuf>,
    pub(super) client_cert: Option<ClientCert>,
    pub(super) application_name: Option<String>,
    /// `options`: command-line options for the server (`-c name=value`).
    pub(super) options: Option<String>,
    pub(super) connect_timeout: Option<Duration>,
}

impl std::fmt::Debug for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

/// A host list's entry: its name (or socket folder), its `hostaddr`, its port.
type Named = (Option<String>, Option<String>, Option<String>);

/// Where a setting comes from, first found first: the URI's parameter, then the URI's own
/// part (user, host, port, database), then libpq's variable.
struct Sources<'a> {
    parts: Parts,
    /// The service file's entry that `service` (or PGSERVICE) names.
    service: Vec<(String, String)>,
    env: &'a LibpqEnvironment,
    shown: String,
}

impl Sources<'_> {
    /// The URI parameter `name`, else `part`, else the service's, else its variable.
    fn get(&self, name: &str, part: Option<&String>) -> Option<String> {
        let param = (self.parts.params.iter().rev()).find(|(k, _)| k == name);
        (param.map(|(_, v)| v.clone()))
            .or_else(|| part.cloned())
            .or_else(|| {
                self.service
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.clone())
            })
            .or_else(|| self.env.get(name).map(str::to_owned))
    }

    /// The service's entry, when the URI or PGSERVICE names one; its parameters checked as
    /// the URI's are.
    fn read_service(&mut self) -> Result<(), Failure> {
        let Some(name) = self.get("service", None) else {
            return Ok(());
        };
        let file = self.get("servicefile", None).map(PathBuf::from);
        let entry = service::entry(&name, file, self.env).map_err(|why| self.bad(why))?;
        let shown = format!("{} (service {})", self.shown, foreign::echo(&name));
        params::check(&entry, &LibpqEnvironment::default(), &shown)?;
        self.service = entry;
        Ok(())
    }

    /// A usage error about the URI, shown masked.
    fn bad(&self, why: String) -> Failure {
        Failure::usage(format!("the PostgreSQL URI {}: {why}", self.shown))
    }

    /// The host list (host names or socket folders, `hostaddr`s, ports), each list a comma
    /// list as libpq takes it: ports and addresses one per host, or one port for all.
    fn named(&self) -> Result<Vec<Named>, Failure> {
        let uri_hosts = (self.parts.hosts.iter().any(|(h, _)| !h.is_empty()))
            .then(|| (self.parts.hosts.iter().map(|(h, _)| h.as_str())).collect::<Vec<_>>())
            .map(|names| names.join(","));
        let uri_ports = (self.parts.hosts.iter().any(|(_, p)| p.is_some())).then(|| {
            let ports = self.parts.hosts.iter();
            (ports.map(|(_, p)| p.clone().unwrap_or_default())).collect::<Vec<_>>()
        });
        let list = |text: Option<String>| -> Vec<Option<String>> {
            let text = text.unwrap_or_default();
            match text.is_empty() {
                true => Vec::new(),
                false => text
                    .split(',')
                    .map(|t| Some(t.trim().to_owned()).filter(|t| !t.is_empty()))
                    .collect(),
            }
        };
        let hosts = list(self.get("host", uri_hosts.as_ref()));
        let addrs = list(self.get("hostaddr", None));
        let ports = list(self.get("port", uri_ports.map(|p| p.join(",")).as_ref()));
        let count = hosts.len().max(addrs.len()).max(1);
        if !hosts.is_empty() && !addrs.is_empty() && hosts.len() != addrs.len() {
            return Err(self.bad(format!(
                "{} hosts and {} hostaddr values do not pair up",
                hosts.len(),
                addrs.len()
            )));
        }
        if ports.len() > 1 && ports.len() != count {
            return Err(self.bad(format!(
                "{} ports for {count} hosts: give one port, or one per host",
                ports.len()
            )));
        }
        let at = |list: &[Option<String>], i: usize| match list.len() {
            1 => list[0].clone(),
            _ => list.get(i).cloned().flatten(),
        };
        let named = (0..count).map(|i| {
            (
                hosts.get(i).cloned().flatten(),
                addrs.get(i).cloned().flatten(),
                at(&ports, i),
            )
        });
        Ok(named.collect())
    }

    /// One server of the list, its password left to [`Sources::passwords`].
    fn server(&self, (name, addr, port): &Named) -> Result<Server, Failure> {
        let port = match port {
            Some(text) => (text.parse::<u16>().ok().filter(|p| *p > 0)).ok_or_else(|| {
                self.bad(format!(
                    "the port {} is no port number",
                    foreign::echo(text)
                ))
            })?,
            None => DEFAULT_PORT,
        };
        let hostaddr = match addr {
            Some(text) => Some(text.parse::<IpAddr>().map_err(|_| {
                self.bad(format!(
                    "hostaddr {} is no numeric IP address",
                    foreign::echo(text)
                ))
                .with_hint("hostaddr takes an address (127.0.0.1, ::1); a name goes in host")
            })?),
            None => None,
        };
        let host = match (name, hostaddr) {
            (Some(folder), Some(_)) if folder.starts_with('/') => {
                return Err(self.bad(format!(
                    "hostaddr goes with a host name, and {} is a socket folder",
                    foreign::echo(folder)
                )))
            }
            (Some(folder), None) if folder.starts_with('/') => Host::Socket(folder.into()),
            (Some(name), _) => Host::Tcp(name.clone()),
            (None, Some(addr)) => Host::Tcp(addr.to_string()),
            (None, None) => default_host(),
        };
        Ok(Server {
            host,
            hostaddr,
            port,
            password: None,
        })
    }

    /// The password, for each server: the URI's, else PGPASSWORD, else the password file's
    /// first line matching that server (its host as named, else its hostaddr, else
    /// `localhost`), as libpq.
    fn passwords(&self, servers: &mut [Server], named: &[Named], dbname: &str, user: &str) {
        let in_uri = (self.parts.params.iter().rev()).find(|(k, _)| k == "password");
        let in_uri = (in_uri.map(|(_, v)| v.clone())).or(self.parts.password.clone());
        let elsewhere = (self.service.iter().find(|(k, _)| k == "password"))
            .map(|(_, v)| v.as_str())
            .or(self.env.get("password"));
        let given = match (in_uri, elsewhere) {
            (Some(password), _) => Some((password, PasswordFrom::Uri)),
            (None, Some(password)) => Some((password.to_owned(), PasswordFrom::Environment)),
            (None, None) => None,
        };
        if let Some(given) = given {
            servers
                .iter_mut()
                .for_each(|s| s.password = Some(given.clone()));
            return;
        }
        let file = (self.get("passfile", None).map(PathBuf::from))
            .or_else(|| self.env.home.as_ref().map(|h| h.join(".pgpass")));
        let Some(file) = file.as_deref().and_then(PasswordFile::read) else {
            return;
        };
        for (server, (name, addr, _)) in servers.iter_mut().zip(named) {
            let host = name.as_deref().or(addr.as_deref());
            let found = file.password(host, SOCKET_FOLDERS[0], server.port, dbname, user);
            server.password = found.map(|p| (p, PasswordFrom::PasswordFile));
        }
    }

    fn sslmode(&self) -> Result<SslMode, Failure> {
        match self.get("sslmode", None) {
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
        let Some(text) = self.get("connect_timeout", None) else {
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

    /// The client certificate: `sslcert` and `sslkey` (or their variables), else libpq's
    /// `~/.postgresql/postgresql.crt` when there (its key beside it).
    fn client_cert(&self) -> Result<Option<ClientCert>, Failure> {
        let home = self.env.home.as_ref().map(|h| h.join(".postgresql"));
        let at_home = |file: &str| home.as_ref().map(|h| h.join(file));
        let cert = (self.get("sslcert", None).map(PathBuf::from))
            .or_else(|| at_home("postgresql.crt").filter(|f| f.is_file()));
        let key = self.get("sslkey", None).map(PathBuf::from);
        match (cert, key) {
            (Some(cert), key) => Ok(Some(ClientCert {
                cert,
                key: key
                    .or_else(|| at_home("postgresql.key"))
                    .unwrap_or_default(),
            })),
            (None, Some(_)) => {
                Err(self
                    .bad("sslkey names a client key, and no sslcert its certificate".to_owned()))
                .map_err(|f| f.with_hint("give sslcert too (or PGSSLCERT)"))
            }
            (None, None) => Ok(None),
        }
    }
}

impl Address {
    /// Reads `uri`, completing it from `env` (libpq's variables) and the password file, as
    /// `psql` does. A malformed URI, or a parameter (or variable) of libpq's this tool does
    /// not read, is a usage error (exit 2).
    pub(crate) fn resolve(uri: &str, env: &LibpqEnvironment) -> Result<Address, Failure> {
        let parts = split(uri)?;
        let in_uri = (parts.params.iter())
            .filter(|(k, _)| k == "password")
            .map(|(_, v)| v)
            .chain(&parts.password);
        in_uri.for_each(|password| foreign::register_secret(password));
        let shown = masked(uri, parts.password.as_deref());
        let mut sources = Sources {
            parts,
            service: Vec::new(),
            env,
            shown,
        };
        params::check(&sources.parts.params, env, &sources.shown)?;
        sources.read_service()?;
        let named = sources.named()?;
        let mut servers =
            (named.iter().map(|n| sources.server(n))).collect::<Result<Vec<_>, _>>()?;
        let user = (sources.get("user", sources.parts.user.as_ref()))
            .or_else(|| env.os_user.clone())
            .ok_or_else(|| sources.bad("no user name: give one in the URI or PGUSER".to_owned()))?;
        let dbname = Some(&sources.parts.dbname).and_then(|d| d.as_ref().filter(|d| !d.is_empty()));
        let dbname = (sources.get("dbname", dbname)).unwrap_or_else(|| user.clone());
        sources.passwords(&mut servers, &named, &dbname, &user);
        for (password, _) in servers.iter().filter_map(|s| s.password.as_ref()) {
            foreign::register_secret(password);
        }
        let application_name = (sources.get("application_name", None))
            .or_else(|| sources.get("fallback_application_name", None));
        Ok(Address {
            servers,
            sslmode: sources.sslmode()?,
            sslrootcert: sources.get("sslrootcert", None).map(PathBuf::from),
            client_cert: sources.client_cert()?,
            application_name,
            options: sources.get("options", None),
            connect_timeout: sources.connect_timeout()?,
            user,
            dbname,
            shown: sources.shown,
        })
    }

    /// Whether the password was written in the URI, where `ps` and shell history show it.
    pub(crate) fn password_in_uri(&self) -> bool {
        (self.servers.iter()).any(|s| matches!(s.password, Some((_, PasswordFrom::Uri))))
    }

    /// The passwords, for a message's own masking (one too short to register as a secret).
    pub(super) fn passwords(&self) -> impl Iterator<Item = &str> {
        (self.servers.iter()).filter_map(|s| s.password.as_ref().map(|(p, _)| p.as_str()))
    }

    /// Where the connection goes, for `-v`: the servers in the order tried, the database and
    /// the user (no password).
    pub(crate) fn describe(&self) -> String {
        self.describe_on(&self.servers)
    }

    /// The database on `servers`, as the user: how a message names where it was.
    pub(super) fn describe_on(&self, servers: &[Server]) -> String {
        let hosts: Vec<String> = servers.iter().map(Server::describe).collect();
        format!(
            "database {} on {} as {}",
            self.dbname,
            hosts.join(" or "),
            self.user
        )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Environment;

    fn resolve(uri: &str, env: &[(&'static str, &str)]) -> Result<Address, Failure> {
        let pairs = env.iter().map(|(k, v)| (*k, v.to_string()));
        let env = Environment::from_pairs(pairs.chain([("PGPASSFILE", "/nonexistent".into())]));
        Address::resolve(uri, &LibpqEnvironment::from(&env))
    }

    fn hosts(a: &Address) -> Vec<(Host, u16)> {
        a.servers.iter().map(|s| (s.host.clone(), s.port)).collect()
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
        );
        let a = a.unwrap();
        assert_eq!(hosts(&a), [(Host::Tcp("db.example".into()), 5433)]);
        assert_eq!((a.user.as_str(), a.dbname.as_str()), ("metrics", "team"));
        assert_eq!(a.sslmode, SslMode::VerifyFull);
        let b = resolve("postgresql:///metrics", &env).unwrap();
        assert_eq!(hosts(&b), [(Host::Socket("/run/pg".into()), 6000)]);
        assert_eq!((b.user.as_str(), b.dbname.as_str()), ("cron", "metrics"));
        assert_eq!(b.sslmode, SslMode::Require);
        let c = resolve("postgres://%2Ftmp%2Fpg/db?user=x", &[]).unwrap();
        assert_eq!(hosts(&c), [(Host::Socket("/tmp/pg".into()), 5432)]);
        assert_eq!(c.user, "x");
    }

    #[test]
    fn every_host_has_its_port_and_hostaddr() {
        let a = resolve("postgresql://u@a:5433,b,[::1]:6000/db", &[]).unwrap();
        let tcp = |h: &str, p| (Host::Tcp(h.into()), p);
        assert_eq!(
            hosts(&a),
            [tcp("a", 5433), tcp("b", 5432), tcp("::1", 6000)]
        );
        let b = resolve(
            "postgresql://u@/db?host=a,b&hostaddr=10.0.0.1,10.0.0.2&port=7",
            &[],
        );
        let b = b.unwrap();
        assert_eq!(hosts(&b), [tcp("a", 7), tcp("b", 7)]);
        assert_eq!(b.servers[1].hostaddr, Some("10.0.0.2".parse().unwrap()));
        let c = resolve("postgresql://u@/db", &[("PGHOSTADDR", "127.0.0.1")]).unwrap();
        assert_eq!(hosts(&c), [tcp("127.0.0.1", 5432)]);
        for bad in [
            "postgresql://u@a,b/db?port=1,2,3",
            "postgresql://u@a,b/db?hostaddr=10.0.0.1",
            "postgresql://u@a/db?hostaddr=db.example",
        ] {
            assert!(resolve(bad, &[]).is_err(), "{bad}");
        }
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
    fn libpq_parameters_not_read_are_refused_by_name() {
        let said = |uri: &str, env: &[(&'static str, &str)]| {
            let e = resolve(uri, env).err().unwrap();
            format!("{e} / {}", e.hint.clone().unwrap_or_default())
        };
        let keep = said("postgresql://h/db?keepalives=1", &[]);
        assert!(
            keep.contains("libpq's parameter 'keepalives' is one this tool does not"),
            "{keep}"
        );
        let service = said(
            "postgresql://h/db?service=team&servicefile=/nonexistent",
            &[],
        );
        assert!(
            service.contains("no service file defines the service 'team' (looked in /nonexistent"),
            "{service}"
        );
        let nonsense = said("postgresql://h/db?nonsense=1", &[]);
        assert!(
            nonsense.contains("'nonsense' is no parameter of libpq's"),
            "{nonsense}"
        );
        let env = said("postgresql://h/db", &[("PGSSLCRL", "/etc/crl.pem")]);
        assert!(
            env.contains("PGSSLCRL is set (libpq's parameter sslcrl)"),
            "{env}"
        );
        assert!(env.contains("unset PGSSLCRL"), "{env}");
        assert!(resolve("postgresql://h/db?sslmode=sometimes", &[]).is_err());
        assert!(resolve("mysql://h/db", &[]).is_err());
        let ok = "postgresql://h/db?options=-c%20x%3D1&fallback_application_name=f&sslcert=/c";
        let a = resolve(ok, &[]).unwrap();
        assert_eq!(a.options.as_deref(), Some("-c x=1"));
        assert_eq!(a.application_name.as_deref(), Some("f"));
    }
}
