//! The connection parameters of libpq (its `PQconninfoOptions`): those this tool reads, and
//! the rest, each refused by name (exit 2) from the URI, a service file or its variable, never
//! ignored.

use crate::error::Failure;
use crate::settings::LibpqEnvironment;
use crate::system::foreign;

/// The parameters this tool reads, in the URI or from their variables.
pub(super) const READ: [&str; 17] = [
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "passfile",
    "service",
    "servicefile",
    "options",
    "application_name",
    "fallback_application_name",
    "connect_timeout",
    "sslmode",
    "sslrootcert",
    "sslcert",
    "sslkey",
];

/// libpq's other parameters (up to PostgreSQL 18): each is refused by name.
const NOT_READ: [&str; 35] = [
    "client_encoding",
    "require_auth",
    "channel_binding",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_count",
    "tcp_user_timeout",
    "replication",
    "gssencmode",
    "sslnegotiation",
    "requiressl",
    "sslcompression",
    "sslcertmode",
    "sslpassword",
    "sslcrl",
    "sslcrldir",
    "sslsni",
    "sslkeylogfile",
    "requirepeer",
    "ssl_min_protocol_version",
    "ssl_max_protocol_version",
    "min_protocol_version",
    "max_protocol_version",
    "krbsrvname",
    "gsslib",
    "gssdelegation",
    "target_session_attrs",
    "load_balance_hosts",
    "scram_client_key",
    "scram_server_key",
    "oauth_issuer",
    "oauth_client_id",
    "oauth_client_secret",
    "oauth_scope",
];

/// Every URI parameter and libpq variable checked: one this tool does not read is a usage
/// error naming it (`shown`: the URI, masked).
pub(super) fn check(
    params: &[(String, String)],
    env: &LibpqEnvironment,
    shown: &str,
) -> Result<(), Failure> {
    let read = format!("leave it out; this tool reads {}", READ.join(", "));
    for (name, _) in params {
        if READ.contains(&name.as_str()) {
            continue;
        }
        let named = foreign::echo(name);
        let failure = match NOT_READ.contains(&name.as_str()) {
            true => Failure::usage(format!(
                "the PostgreSQL URI {shown}: libpq's parameter {named} is one this tool does \
                    not support"
            )),
            false => Failure::usage(format!(
                "the PostgreSQL URI {shown}: {named} is no parameter of libpq's"
            )),
        };
        return Err(failure.with_hint(read));
    }
    // PGSYSCONFDIR, the system service file's folder, is a variable alone.
    let refused = (env.variables()).find(|(p, _)| !READ.contains(p) && *p != "sysconfdir");
    if let Some((parameter, variable)) = refused {
        let failure = Failure::usage(format!(
            "{variable} is set (libpq's parameter {parameter}), which this tool does not support"
        ));
        return Err(failure.with_hint(format!("unset {variable} for this run")));
    }
    Ok(())
}
