//! The PostgreSQL export takes libpq's files and parameters as `psql` does, against a real
//! server: the password file matched for every host of a list, `hostaddr`, a client
//! certificate where the server asks for one; libpq's parameters it does not support refused
//! by name before anything is asked.

use std::path::Path;

use crate::support::postgres::{tls_settings, Cluster};
use crate::support::{Env, Sandbox, TestCa};

/// `fees` for ETHEREUM from 2024-01-01 to 2024-01-03 (or the day `extra`'s `-e` says),
/// merged into `uri`.
fn fees_into(uri: &str, extra: &[&str]) -> Vec<String> {
    let head = [
        "fees",
        "-c",
        "eth",
        "-o",
        uri,
        "--merge",
        "-s",
        "2024-01-01",
    ];
    let end = match extra.contains(&"-e") {
        true => &[][..],
        false => &["-e", "2024-01-03"][..],
    };
    (head.iter().chain(end).chain(extra))
        .map(|a| a.to_string())
        .collect()
}

fn write_private(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
}

/// The password file's lines are read as libpq reads them: the first line that matches wins,
/// `*` matches anything, `\:` and `\\` are a colon and a backslash; each host of a list is
/// matched on its own (a dead first host's line is never sent to the second), and `hostaddr`
/// connects to an address while its line is found by the host's name.
#[test]
fn the_password_file_is_matched_for_every_host_as_libpq_matches_it() {
    let sandbox = Sandbox::start(&[]);
    let cluster = Cluster::start();
    cluster.sql(
        r#"CREATE ROLE "team:job" LOGIN PASSWORD 'Job:pass\word-7315'; GRANT CREATE ON SCHEMA public TO "team:job""#,
    );
    let mut env = Env::with_service(&sandbox.url);
    let socket = cluster.dir.display().to_string();
    let dead = format!("{socket}/none");
    let port = cluster.port;
    let file = env.home.path().join("team.pgpass");
    write_private(
        &file,
        &format!(
            "# a line for the dead first host, which the second must not get\n\
            {dead}:*:*:*:Wrong-pass-1\n\
            *:*:*:postgres:Wrong-pass-2\n\
            {socket}:{port}:postgres:team\\:job:Job\\:pass\\\\word-7315\n\
            db.invalid:{port}:*:team\\:job:Job\\:pass\\\\word-7315\n\
            *:*:*:*:Wrong-pass-3\n"
        ),
    );
    env.set("PGPASSFILE", file.to_str().unwrap());
    let uri = format!("postgresql://team%3Ajob@/postgres?host={dead},{socket}&port={port}");
    let run = env.cmd_args(&fees_into(&uri, &["-v"])).any_stderr().run();
    // The URI itself is cut where it is long (a checkout in a deep folder): its start, then
    // where it leads, whole.
    let leads = format!(
        "(database postgres on the socket in {dead} or the socket in {socket} as team:job)"
    );
    let line = run.stderr.lines().find(|l| l.starts_with("* writing to "));
    let line = line.unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(line.ends_with(&format!(" {leads}")), "{line}");
    let shown = &line["* writing to ".len()..line.len() - leads.len() - 1];
    let shown = shown.strip_suffix('…').unwrap_or(shown);
    assert!(shown.len() > 20 && uri.starts_with(shown), "{line}");
    assert!(!run.stderr.contains("Job:pass"), "{}", run.stderr);
    assert_eq!(cluster.sql("SELECT count(*) FROM fees"), "3\n");
    // hostaddr: the address connected to, the host's name the password file's key.
    let by_addr = format!(
        "postgresql://team%3Ajob@db.invalid:{port}/postgres?hostaddr=127.0.0.1&sslmode=disable"
    );
    env.cmd_args(&fees_into(&by_addr, &["-e", "2024-01-04"]))
        .run();
    let owner = "SELECT count(*), (SELECT tableowner FROM pg_tables WHERE tablename = 'fees') \
        FROM fees";
    assert_eq!(cluster.sql(owner), "4|team:job\n");
}

/// A server that asks for a client certificate (`clientcert=verify-ca`) gets the one
/// `sslcert` and `sslkey` name (or PGSSLCERT and PGSSLKEY); without one it refuses the
/// connection (exit 9, nothing asked), and a key others may read is refused as libpq does.
#[test]
fn a_client_certificate_is_sent_where_the_server_asks_for_one() {
    let ca = TestCa::new();
    let cluster = Cluster::start_with(|dir| {
        std::fs::write(
            dir.join("hba.conf"),
            "local all all scram-sha-256\n\
            hostssl all all 127.0.0.1/32 scram-sha-256 clientcert=verify-ca\n",
        )
        .unwrap();
        let file = |name: &str| dir.join(name).display().to_string();
        let mut settings = tls_settings(dir, &ca);
        settings.push(format!("ssl_ca_file={}", file("ca.pem")));
        settings.push(format!("hba_file={}", file("hba.conf")));
        settings
    });
    let sandbox = Sandbox::start(&[]);
    let mut env = cluster.env(&sandbox.url);
    let client = ca.client_leaf("postgres");
    let (cert, key) = (
        env.home.path().join("me.crt"),
        env.home.path().join("me.key"),
    );
    std::fs::write(&cert, &client.pem).unwrap();
    write_private(&key, &client.key_pem);
    let ca_file = cluster.dir.join("ca.pem");
    let uri = format!(
        "postgresql://localhost:{}/postgres?sslmode=verify-full&sslrootcert={}",
        cluster.port,
        ca_file.display()
    );
    env.cmd_args(&fees_into(&uri, &[]))
        .code(9)
        .stderr_contains("connection requires a valid client certificate")
        .run();
    assert_eq!(sandbox.requests(), Vec::<String>::new());
    let with = format!("{uri}&sslcert={}&sslkey={}", cert.display(), key.display());
    env.cmd_args(&fees_into(&with, &[])).run();
    assert_eq!(cluster.sql("SELECT count(*) FROM fees"), "3\n");
    env.set("PGSSLCERT", cert.to_str().unwrap());
    env.set("PGSSLKEY", key.to_str().unwrap());
    env.cmd_args(&fees_into(&uri, &["-e", "2024-01-04"])).run();
    assert_eq!(cluster.sql("SELECT count(*) FROM fees"), "4\n");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    env.cmd_args(&fees_into(&uri, &[]))
        .code(9)
        .stderr_contains("others may read this private key; give it mode 0600")
        .run();
}

/// libpq's parameters this tool does not support are refused by name (exit 2) before
/// connecting or asking anything, in the URI or from their variables.
#[test]
fn libpq_parameters_it_does_not_support_are_refused_by_name() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let refused = |env: &Env, uri: &str, says: &str| {
        let run = env
            .cmd_args(&fees_into(uri, &[]))
            .code(2)
            .any_stderr()
            .run();
        assert!(run.stderr.contains(says), "{uri}: {}", run.stderr);
    };
    refused(
        &env,
        "postgresql://127.0.0.1:1/db?keepalives=0",
        "libpq's parameter 'keepalives' is one this tool does not support",
    );
    refused(
        &env,
        "postgresql://127.0.0.1:1/db?sslmod=require",
        "'sslmod' is no parameter of libpq's",
    );
    let mut with_crl = Env::with_service(&sandbox.url);
    with_crl.set("PGSSLCRL", "/etc/team.crl");
    refused(
        &with_crl,
        "postgresql://127.0.0.1:1/db",
        "error: PGSSLCRL is set (libpq's parameter sslcrl), which this tool does not support\n\
            hint: unset PGSSLCRL for this run",
    );
    assert_eq!(sandbox.requests(), Vec::<String>::new());
}

/// A connection service (`service=NAME` or PGSERVICE) is read from `~/.pg_service.conf` (or
/// PGSERVICEFILE) as libpq reads it: its section's parameters fill what the URI leaves out;
/// a service no file defines, or one holding a parameter this tool does not support, is
/// refused by name (exit 2) before anything is asked.
#[test]
fn a_connection_service_fills_what_the_uri_leaves_out() {
    let sandbox = Sandbox::start(&[]);
    let cluster = Cluster::start();
    let mut env = Env::with_service(&sandbox.url);
    env.set("PGPASSWORD", crate::support::postgres::PASSWORD);
    let services = format!(
        "# the team's database\n[other]\nhost=/nowhere\n\n[team]\nhost = {}\nport={}\n\
        dbname=postgres\nuser=postgres\n[slow]\nhost=/nowhere\nkeepalives=0\n",
        cluster.dir.display(),
        cluster.port
    );
    std::fs::write(env.home.path().join(".pg_service.conf"), services).unwrap();
    env.cmd_args(&fees_into("postgresql:///?service=team", &[]))
        .run();
    assert_eq!(cluster.sql("SELECT count(*) FROM fees"), "3\n");
    // The URI's parameters win over the service's (its host is nowhere).
    let over = format!(
        "postgresql://postgres@/?service=other&host={}&port={}",
        cluster.dir.display(),
        cluster.port
    );
    env.cmd_args(&fees_into(&over, &["-e", "2024-01-04"])).run();
    assert_eq!(cluster.sql("SELECT count(*) FROM fees"), "4\n");
    env.cmd_args(&fees_into("postgresql:///?service=none", &[]))
        .code(2)
        .stderr_contains("no service file defines the service 'none'")
        .run();
    env.cmd_args(&fees_into("postgresql:///?service=slow", &[]))
        .code(2)
        .stderr_contains(
            "(service 'slow'): libpq's parameter 'keepalives' is one this tool does not support",
        )
        .run();
    env.set("PGSERVICE", "team");
    env.cmd_args(&fees_into("postgresql://", &["-e", "2024-01-05"]))
        .run();
    assert_eq!(cluster.sql("SELECT count(*) FROM fees"), "5\n");
}
