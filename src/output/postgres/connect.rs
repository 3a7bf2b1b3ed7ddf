//! The connection to PostgreSQL as libpq would make it, and its errors in words, masked.

use std::error::Error as _;

use postgres::Client;

use super::address::{Address, Host, Server, SslMode};
use super::tls::Tls;
use crate::error::{Exit, Failure};
use crate::system::foreign;

/// A connection, and the server it reached, named for messages (no password).
pub(super) struct Connection {
    pub client: Client,
    pub server: String,
}

/// Connects and authenticates, as libpq would with this address: each server of the host list
/// in turn, with its own port and password, until one takes the connection; TLS as `sslmode`
/// says (never over a Unix socket). Failing, exit 9 with the servers' own words (foreign text,
/// masked).
pub(super) fn connect(address: &Address) -> Result<Connection, Failure> {
    let cannot = |why: String| {
        Failure::new(
            Exit::Output,
            format!("cannot connect to {}: {why}", address.shown),
        )
    };
    let rootcert = address.sslrootcert.as_deref();
    let tls = Tls::new(address.sslmode, rootcert, address.client_cert.as_ref())
        .map_err(|why| cannot(shown(address, &why)))?;
    let mut failures = Vec::new();
    for server in &address.servers {
        match config(address, server).connect(tls.clone()) {
            Ok(client) => {
                return Ok(Connection {
                    client,
                    server: address.describe_on(std::slice::from_ref(server)),
                })
            }
            Err(e) => failures.push((server.describe(), words(address, &e))),
        }
    }
    let why = match failures.as_slice() {
        [(_, why)] => why.clone(),
        _ => (failures.iter())
            .map(|(server, why)| format!("{server}: {why}"))
            .collect::<Vec<_>>()
            .join("; "),
    };
    Err(cannot(why).with_hint(
        "check the URI, PGHOST/PGPORT/PGUSER, and the password (PGPASSWORD or ~/.pgpass); \
            nothing was asked of the service",
    ))
}

/// The client's configuration for one server of the address.
fn config(address: &Address, server: &Server) -> postgres::Config {
    let mut config = postgres::Config::new();
    match &server.host {
        Host::Tcp(name) => config.host(name),
        Host::Socket(folder) => config.host_path(folder),
    };
    if let Some(addr) = server.hostaddr {
        config.hostaddr(addr);
    }
    config
        .port(server.port)
        .user(&address.user)
        .dbname(&address.dbname);
    config.application_name(
        address
            .application_name
            .as_deref()
            .unwrap_or("chain-metrics"),
    );
    if let Some(options) = &address.options {
        config.options(options);
    }
    if let Some((password, _)) = &server.password {
        config.password(password);
    }
    if let Some(timeout) = address.connect_timeout {
        config.connect_timeout(timeout);
    }
    config.ssl_mode(match address.sslmode {
        _ if matches!(server.host, Host::Socket(_)) => postgres::config::SslMode::Disable,
        SslMode::Disable => postgres::config::SslMode::Disable,
        SslMode::Allow | SslMode::Prefer => postgres::config::SslMode::Prefer,
        SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => {
            postgres::config::SslMode::Require
        }
    });
    config
}

/// A PostgreSQL error in words: the server's message when it sent one, else the chain of
/// causes (a refused connection, a certificate, a connection lost), shown as foreign text.
pub(super) fn words(address: &Address, error: &postgres::Error) -> String {
    let text = match error.as_db_error() {
        Some(db) => format!("{}: {}", db.severity(), db.message()),
        None => {
            let mut text = error.to_string();
            let mut source = error.source();
            while let Some(cause) = source {
                text.push_str(&format!(": {cause}"));
                source = cause.source();
            }
            text
        }
    };
    shown(address, &text)
}

/// Foreign text with this address's passwords masked, whatever their length.
fn shown(address: &Address, text: &str) -> String {
    let passwords: Vec<String> = address.passwords().map(str::to_owned).collect();
    let mask =
        move |t: &str| (passwords.iter()).fold(t.to_owned(), |t, p| foreign::mask_every(&t, p));
    foreign::shown(text, &mask, 400)
}
