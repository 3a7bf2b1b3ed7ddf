//! One server of a target's host list: a host name or socket folder, its address and port,
//! and the password that goes with it.

use std::net::IpAddr;
use std::path::PathBuf;

/// A host to connect to: a name or address over TCP, or a Unix socket's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Host {
    Tcp(String),
    Socket(PathBuf),
}

/// Where the password came from: one in the URI gets a warning (`ps` shows it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PasswordFrom {
    Uri,
    Environment,
    PasswordFile,
}

/// One server of the URI's host list, tried in turn as libpq tries them.
#[derive(Clone)]
pub(super) struct Server {
    pub(super) host: Host,
    /// `hostaddr`: the address connected to; `host` then names it (TLS, the password file).
    pub(super) hostaddr: Option<IpAddr>,
    pub(super) port: u16,
    /// The URI's or PGPASSWORD, else the password file's line for this server.
    pub(super) password: Option<(String, PasswordFrom)>,
}

impl Server {
    /// The server, for `-v` and messages: host and port, or the socket's folder.
    pub(super) fn describe(&self) -> String {
        match (&self.host, self.hostaddr) {
            (Host::Tcp(name), Some(addr)) if *name != addr.to_string() => {
                format!("{name} ({addr}):{}", self.port)
            }
            (Host::Tcp(name), _) => format!("{name}:{}", self.port),
            (Host::Socket(folder), _) => format!("the socket in {}", folder.display()),
        }
    }
}
