//! The connection to PostgreSQL as libpq would make it, and its errors in words, masked.

use std::error::Error as _;

use postgres::Client;

use super::address::{Address, Host, SslMode};
use super::tls::Tls;
use crate::error::{Exit, Failure};
use crate::system::foreign;

/// Connects and authenticates, as libpq would with this address: TLS as `sslmode` says (never
/// over a Unix socket). Failing, exit 9 with the server's own words (foreign text, masked).
pub(super) fn connect(address: &Address) -> Result<Client, Failure> {
    let mut config = postgres::Config::new();
    for host in &address.hosts {
        match host {
            Host::Tcp(name) => config.host(name),
            Host::Socket(folder) => config.host_path(folder),
        };
    }
    config
        .port(address.port)
        .user(&address.user)
        .dbname(&address.dbname);
    config.application_name(
        address
            .application_name
            .as_deref()
            .unwrap_or("chain-metrics"),
    );
    if let Some(password) = address.password() {
        config.password(password);
    }
    if let Some(timeout) = address.connect_timeout {
        config.connect_timeout(timeout);
    }
    let sockets_only = address.hosts.iter().all(|h| matches!(h, Host::Socket(_)));
    config.ssl_mode(match address.sslmode {
        _ if sockets_only => postgres::config::SslMode::Disable,
        SslMode::Disable => postgres::config::SslMode::Disable,
        SslMode::Allow | SslMode::Prefer => postgres::config::SslMode::Prefer,
        SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => {
            postgres::config::SslMode::Require
        }
    });
    let tls = Tls::new(address.sslmode, address.sslrootcert.as_deref()).map_err(|why| {
        Failure::new(
            Exit::Output,
            format!(
                "cannot connect to {}: {}",
                address.shown,
                shown(address, &why)
            ),
        )
    })?;
    config.connect(tls).map_err(|e| {
        Failure::new(
            Exit::Output,
            format!(
                "cannot connect to {}: {}",
                address.shown,
                words(address, &e)
            ),
        )
        .with_hint(
            "check the URI, PGHOST/PGPORT/PGUSER, and the password (PGPASSWORD or \
            ~/.pgpass); nothing was asked of the service",
        )
    })
}

/// A PostgreSQL error in words: the server's message when it sent one, else the chain of
/// causes (a refused connection, a certificate), shown as foreign text.
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

/// Foreign text with this address's password masked, whatever its length.
fn shown(address: &Address, text: &str) -> String {
    let password = address.password().unwrap_or_default().to_owned();
    foreign::shown(text, &move |t| foreign::mask_every(t, &password), 400)
}
