//! The PostgreSQL export (`-o postgresql://...`) against a real server: a throw-away cluster
//! each test starts (Debian's `postgresql` package, which .ci/test installs).

use crate::support::postgres::{tls_settings, Cluster, PASSWORD};
use crate::support::{Env, Reply, Sandbox, Stub, TestCa};

const RANGE: [&str; 4] = ["-s", "2024-01-01", "-e", "2024-01-03"];

fn args<'a>(first: &[&'a str], rest: &[&'a str]) -> Vec<&'a str> {
    [first, &RANGE[..], rest].concat()
}

/// The csv a run prints, as psql prints the table: `date|chain|value...`.
fn as_rows(csv: &str, chain: &str) -> String {
    let mut lines = csv.lines().skip(1).map(|l| {
        let (date, rest) = l.split_once(',').unwrap();
        format!("{date}|{chain}|{}\n", rest.replace(',', "|"))
    });
    lines.by_ref().collect()
}

/// `--table` into another schema, named in `-v`'s line; and the guide's Grafana query over
/// the `fees` table of [`make_then_merge_then_resume_keeps_the_table_complete_and_exact`].
fn another_schema_and_the_grafana_query(cluster: &Cluster, env: &Env, target: &str) {
    // --table: another schema's table, named in -v's line.
    cluster.sql("CREATE SCHEMA metrics");
    let run = env
        .cmd_args(&args(
            &[
                "fees",
                "-c",
                "eth",
                "-o",
                target,
                "--table",
                "metrics.daily",
                "-v",
            ],
            &[],
        ))
        .any_stderr()
        .run();
    let socket = cluster.dir.display();
    let line =
        format!("* writing to {target} (database postgres on the socket in {socket} as postgres)");
    assert!(run.stderr.contains(&line), "{}", run.stderr);
    assert_eq!(cluster.sql("SELECT count(*) FROM metrics.daily"), "3\n");
    // The Grafana query of the guide returns the rows.
    let grafana = cluster.sql(
        "SELECT date::timestamptz AS time, chain AS metric, fees AS value FROM fees ORDER BY 1",
    );
    assert_eq!(grafana.lines().count(), 10);
}

#[test]
fn make_then_merge_then_resume_keeps_the_table_complete_and_exact() {
    let sandbox = Sandbox::start(&["--fault", "gap:ETHEREUM:2024-01-02..2024-01-02"]);
    let cluster = Cluster::start();
    let env = cluster.env(&sandbox.url);
    let target = "postgresql:///postgres";
    env.cmd_args(&args(&["fees", "-c", "eth", "-o", target], &[]))
        .any_stderr()
        .run();
    let schema = cluster.sql("SELECT column_name || ' ' || data_type FROM information_schema.columns WHERE table_name = 'fees' ORDER BY ordinal_position");
    assert_eq!(schema, "date date\nchain text\nfees numeric\n");
    // The day the service had no record for is a hole: no row.
    let hole = cluster.sql("SELECT date FROM fees ORDER BY date");
    assert_eq!(hole, "2024-01-01\n2024-01-03\n");
    // A plain -o into a table that holds rows: refused, nothing asked, nothing changed.
    let before = sandbox.requests().len();
    env.cmd_args(&args(&["fees", "-c", "eth", "-o", target], &[]))
        .code(9)
        .stderr_contains("hint: add --merge")
        .run();
    assert_eq!(sandbox.requests().len(), before);
    // --merge from a sandbox without the gap fills the hole; --resume asks after the newest.
    let clean = Sandbox::start(&[]);
    let env = cluster.env(&clean.url);
    env.cmd_args(&args(
        &["fees", "-c", "eth,arb", "-o", target, "--merge"],
        &[],
    ))
    .run();
    let csv = env
        .cmd_args(&args(&["fees", "-c", "eth"], &["-f", "csv"]))
        .run();
    let stored =
        cluster.sql("SELECT date, chain, fees FROM fees WHERE chain = 'ETHEREUM' ORDER BY date");
    assert_eq!(stored, as_rows(&csv.stdout, "ETHEREUM"));
    let resume = [
        "fees",
        "-c",
        "eth,arb",
        "-o",
        target,
        "--merge",
        "--resume",
        "-e",
        "2024-01-05",
    ];
    let before = clean.ranges().len();
    env.cmd_args(&resume).run();
    assert_eq!(clean.ranges()[before..], ["2024-01-04..2024-01-05"; 2]);
    let count = cluster.sql(
        "SELECT chain, count(*), min(date), max(date) FROM fees GROUP BY chain ORDER BY chain",
    );
    assert_eq!(
        count,
        "ARBITRUM|5|2024-01-01|2024-01-05\nETHEREUM|5|2024-01-01|2024-01-05\n"
    );
    another_schema_and_the_grafana_query(&cluster, &env, target);
}

#[test]
fn exact_numbers_go_in_as_numeric_and_come_back_equal() {
    let stub = Stub::always(Reply::json(
        200,
        r#"[{"date":"2024-01-01","fees":5E+3},{"date":"2024-01-02","fees":12345678901234567890.123456789},{"date":"2024-01-03","fees":0.1},{"date":"2024-01-04","fees":-0.000000000000000000000001},{"date":"2024-01-05","fees":1e40}]"#,
    ));
    let cluster = Cluster::start();
    let env = cluster.env(&stub.url);
    let range = ["-s", "2024-01-01", "-e", "2024-01-05"];
    env.cmd_args(
        &[
            &["fees", "-c", "eth", "-o", "postgresql:///postgres"][..],
            &range,
        ]
        .concat(),
    )
    .run();
    let expected = [
        "5E+3",
        "12345678901234567890.123456789",
        "0.1",
        "-0.000000000000000000000001",
        "1e40",
    ];
    for (day, text) in expected.iter().enumerate() {
        let equal = cluster.sql(&format!(
            "SELECT fees = '{text}'::numeric FROM fees WHERE date = '2024-01-0{}'",
            day + 1
        ));
        assert_eq!(equal, "t\n", "{text}");
    }
    let sum = cluster.sql("SELECT sum(fees) FROM fees");
    assert_eq!(
        sum,
        "10000000000000000000012345678901234572890.223456788999999999999999\n"
    );
}

#[test]
fn two_merges_at_once_lose_nothing_and_the_users_index_and_view_stay() {
    let sandbox = Sandbox::start(&["--latency", "50"]);
    let cluster = Cluster::start();
    cluster.sql("CREATE TABLE fees (date date NOT NULL, chain text NOT NULL, fees numeric, PRIMARY KEY (date, chain)); CREATE INDEX by_chain ON fees (chain); CREATE VIEW eth AS SELECT date, fees FROM fees WHERE chain = 'ETHEREUM'; GRANT SELECT ON fees TO PUBLIC");
    let env = cluster.env(&sandbox.url);
    let target = "postgresql:///postgres";
    let one = env
        .cmd_args(&args(
            &["fees", "-c", "eth,bsc", "-o", target, "--merge"],
            &[],
        ))
        .spawn();
    let two = env
        .cmd_args(&args(
            &["fees", "-c", "arb,base", "-o", target, "--merge"],
            &[],
        ))
        .spawn();
    one.finish();
    two.finish();
    let count = cluster.sql("SELECT count(DISTINCT chain), count(*) FROM fees");
    assert_eq!(count, "4|12\n");
    let kept = cluster.sql("SELECT (SELECT count(*) FROM pg_indexes WHERE indexname = 'by_chain'), (SELECT count(*) FROM eth), has_table_privilege('public', 'fees', 'SELECT')");
    assert_eq!(kept, "1|3|t\n");
    // A write the server fails half-way (a user's trigger refuses a row): exit 9, the whole
    // transaction rolled back, the password never shown.
    cluster.sql("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.chain = 'POLYGON' THEN RAISE EXCEPTION 'no polygon here'; END IF; RETURN NEW; END $$; CREATE TRIGGER refuse BEFORE INSERT ON fees FOR EACH ROW EXECUTE FUNCTION refuse()");
    let run = env
        .cmd_args(&[
            "fees",
            "-c",
            "eth,polygon",
            "-o",
            target,
            "--merge",
            "-s",
            "2024-02-01",
            "-e",
            "2024-02-02",
        ])
        .code(9)
        .any_stderr()
        .run();
    assert!(
        run.stderr
            .contains("ERROR: no polygon here; nothing was written, the table is as it was"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(PASSWORD));
    assert_eq!(cluster.sql("SELECT count(*) FROM fees"), "12\n");
}

#[test]
fn every_refusal_comes_before_any_request() {
    let sandbox = Sandbox::start(&[]);
    let cluster = Cluster::start();
    let env = cluster.env(&sandbox.url);
    let target = "postgresql:///postgres";
    let refused = |setup: &str, extra: &[&str], says: &str| {
        // One of these fails, as the other kind of relation (or none) is there.
        cluster.psql("DROP VIEW fees");
        cluster.psql("DROP TABLE fees");
        cluster.sql(setup);
        let run = env
            .cmd_args(&args(&["fees", "-c", "eth", "-o", target], extra))
            .code(9)
            .any_stderr()
            .run();
        assert!(run.stderr.contains(says), "{setup}: {}", run.stderr);
    };
    refused(
        "CREATE VIEW fees AS SELECT current_date AS date, 'X'::text AS chain, 1::numeric AS fees",
        &["--merge"],
        "it is a view",
    );
    refused("CREATE TABLE fees (date date, chain text, fees numeric, note text, PRIMARY KEY (date, chain))", &["--merge"], "the column 'note'");
    refused(
        "CREATE TABLE fees (date date, chain text, fees numeric)",
        &["--merge"],
        "no primary key or unique index on (date, chain)",
    );
    refused("CREATE TABLE fees (date date, chain text, fees double precision, PRIMARY KEY (date, chain))", &["--merge"], "of type 'double precision'");
    refused("CREATE TABLE fees (date date, chain text, fees numeric, PRIMARY KEY (date, chain)); INSERT INTO fees VALUES ('2024-01-01', 'ETHEREUM', 1)", &[], "already holds rows");
    // A database that is not there, and a format that wants a URI.
    env.cmd_args(&args(
        &["fees", "-c", "eth", "-o", "postgresql:///no_such_db"],
        &[],
    ))
    .code(9)
    .stderr_contains("database \"no_such_db\" does not exist")
    .run();
    env.cmd_args(&args(
        &["fees", "-c", "eth", "-f", "postgres", "-o", "fees.csv"],
        &[],
    ))
    .code(2)
    .stderr_contains("no postgresql:// URI")
    .run();
    assert_eq!(sandbox.requests(), Vec::<String>::new());
}

#[test]
fn a_wrong_password_is_exit_9_before_any_request_and_never_shown() {
    let sandbox = Sandbox::start(&[]);
    let cluster = Cluster::start();
    let mut env = cluster.env(&sandbox.url);
    let wrong = "Wrong-pass-5521";
    env.set("PGPASSWORD", wrong);
    let run = env
        .cmd_args(&args(
            &["fees", "-c", "eth", "-o", "postgresql:///postgres", "-v"],
            &[],
        ))
        .code(9)
        .stderr_contains("password authentication failed for user \"postgres\"")
        .run();
    // In the URI: a warning that it is there, masked in every line.
    let uri = format!(
        "postgresql://postgres:{wrong}@/postgres?host={}&port={}",
        cluster.dir.display(),
        cluster.port
    );
    let run2 = env
        .cmd_args(&args(&["fees", "-c", "eth", "-o", &uri, "-v"], &[]))
        .code(9)
        .stderr_contains("warning: the PostgreSQL URI holds a password")
        .stderr_contains("postgresql://postgres:****@/postgres")
        .run();
    let dry = env
        .cmd_args(&args(&["fees", "-c", "eth", "-o", &uri, "--dry-run"], &[]))
        .code(2)
        .any_stderr()
        .run();
    for run in [&run, &run2, &dry] {
        assert!(
            !run.stdout.contains(wrong) && !run.stderr.contains(wrong),
            "{run:?}"
        );
    }
    assert_eq!(sandbox.requests(), Vec::<String>::new());
}

/// A cluster that also serves TLS on 127.0.0.1 with a certificate for `localhost` alone,
/// signed by `ca`; `ca.pem` in its folder.
fn tls_cluster(ca: &TestCa) -> Cluster {
    Cluster::start_with(|dir| tls_settings(dir, ca))
}

#[test]
fn tls_with_a_private_ca_and_verify_full() {
    let ca = TestCa::new();
    let cluster = tls_cluster(&ca);
    let sandbox = Sandbox::start(&[]);
    let env = cluster.env(&sandbox.url);
    let uri = |host: &str, mode: &str| {
        format!(
            "postgresql://{host}:{}/postgres?sslmode={mode}&sslrootcert={}",
            cluster.port,
            cluster.dir.join("ca.pem").display()
        )
    };
    fn merge(uri: &str) -> Vec<&str> {
        args(&["fees", "-c", "eth", "-o", uri, "--merge"], &[])
    }
    env.cmd_args(&merge(&uri("localhost", "verify-full"))).run();
    assert_eq!(cluster.sql("SELECT count(*) FROM fees"), "3\n");
    // The server says it used TLS for that connection.
    let ssl = cluster.sql("SELECT count(*) FROM pg_stat_ssl WHERE ssl");
    assert!(!ssl.is_empty());
    // 127.0.0.1 is not a name the certificate holds: verify-full refuses, verify-ca takes it.
    env.cmd_args(&merge(&uri("127.0.0.1", "verify-full")))
        .code(9)
        .stderr_contains("not valid for name")
        .run();
    env.cmd_args(&merge(&uri("127.0.0.1", "verify-ca"))).run();
    // Without the CA, the system's store does not know it.
    let bare = format!(
        "postgresql://localhost:{}/postgres?sslmode=verify-full",
        cluster.port
    );
    let run = env.cmd_args(&merge(&bare)).code(9).any_stderr().run();
    assert!(
        run.stderr.contains("UnknownIssuer") || run.stderr.contains("unknown issuer"),
        "{}",
        run.stderr
    );
}

/// `require` encrypts without checking the certificate (one no root vouches for, for a name it
/// does not hold); with `sslrootcert` it checks the chain, as libpq does, and still not the name.
#[test]
fn tls_require_encrypts_and_checks_the_chain_only_with_a_root_file() {
    let ca = TestCa::new();
    let cluster = tls_cluster(&ca);
    let sandbox = Sandbox::start(&[]);
    let env = cluster.env(&sandbox.url);
    let uri = format!(
        "postgresql://127.0.0.1:{}/postgres?sslmode=require",
        cluster.port
    );
    fn merge(uri: &str) -> Vec<&str> {
        args(&["fees", "-c", "eth", "-o", uri, "--merge"], &[])
    }
    env.cmd_args(&merge(&uri)).run();
    assert_eq!(cluster.sql("SELECT count(*) FROM fees"), "3\n");
    let ssl = cluster.sql("SELECT count(*) FROM pg_stat_ssl WHERE ssl");
    assert!(!ssl.is_empty());
    let checked = format!("{uri}&sslrootcert={}", cluster.dir.join("ca.pem").display());
    env.cmd_args(&merge(&checked)).run();
    let other = TestCa::new();
    std::fs::write(cluster.dir.join("other.pem"), &other.pem).unwrap();
    let wrong = format!(
        "{uri}&sslrootcert={}",
        cluster.dir.join("other.pem").display()
    );
    let run = env.cmd_args(&merge(&wrong)).code(9).any_stderr().run();
    // Another CA of the same name: its signature does not hold.
    assert!(
        run.stderr.contains("invalid peer certificate"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_role_that_may_only_upsert_merges_and_resumes_with_the_guides_grants() {
    let sandbox = Sandbox::start(&[]);
    let cluster = Cluster::start();
    cluster.sql("CREATE ROLE exporter LOGIN PASSWORD 'Exporter-pass-4410'; CREATE TABLE fees (date date NOT NULL, chain text NOT NULL, fees numeric, PRIMARY KEY (date, chain)); GRANT SELECT, INSERT, UPDATE ON fees TO exporter");
    let mut env = cluster.env(&sandbox.url);
    env.set("PGUSER", "exporter");
    env.set("PGPASSWORD", "Exporter-pass-4410");
    let target = "postgresql:///postgres";
    env.cmd_args(&args(&["fees", "-c", "eth", "-o", target, "--merge"], &[]))
        .run();
    env.cmd_args(&args(&["fees", "-c", "eth", "-o", target, "--merge"], &[]))
        .run();
    env.cmd_args(&[
        "fees",
        "-c",
        "eth",
        "-o",
        target,
        "--merge",
        "--resume",
        "-e",
        "2024-01-04",
    ])
    .run();
    let stored = cluster.sql("SELECT count(*), max(date) FROM fees");
    assert_eq!(stored, "4|2024-01-04\n");
    // --by: a period row, then a run covering fewer of its days leaves it as it was.
    cluster.sql("CREATE TABLE users (date date NOT NULL, chain text NOT NULL, days integer, active_users_avg numeric, PRIMARY KEY (date, chain)); GRANT SELECT, INSERT, UPDATE ON users TO exporter");
    let month = [
        "users", "-c", "eth", "--by", "month", "-o", target, "--merge",
    ];
    env.cmd_args(&[&month[..], &["-s", "2024-01-01", "-e", "2024-01-31"]].concat())
        .run();
    let full = cluster.sql("SELECT date, days, active_users_avg FROM users");
    env
        .cmd_args(&[&month[..], &["-s", "2024-01-01", "-e", "2024-01-10"]].concat())
        .stderr_contains("warning: users at postgresql:///postgres keeps its rows for 2024-01-01 ETHEREUM (this run has 10 days)")
        .run();
    assert_eq!(
        cluster.sql("SELECT date, days, active_users_avg FROM users"),
        full
    );
    assert!(full.starts_with("2024-01-01|31|"), "{full}");
}

#[test]
fn usage_errors_of_a_postgres_target_come_before_connecting() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let target = "postgresql://nobody@127.0.0.1:1/none";
    for (extra, says) in [
        (
            &["--raw", "-o", target][..],
            "a PostgreSQL table takes rows",
        ),
        (
            &["-o", target, "--table", "a.b.c"],
            "a table is NAME or SCHEMA.NAME",
        ),
        (
            &["-o", "fees.csv", "--table", "fees"],
            "--table names a PostgreSQL table",
        ),
        (&["-o", target, "-f", "csv"], "takes the postgres format"),
        (
            &["-o", target, "--wide"],
            "a PostgreSQL table keeps a row per date and chain",
        ),
    ] {
        let run = env
            .cmd_args(&args(&["fees", "-c", "eth"], extra))
            .code(2)
            .any_stderr()
            .run();
        assert!(run.stderr.contains(says), "{extra:?}: {}", run.stderr);
    }
    assert_eq!(sandbox.requests(), Vec::<String>::new());
}

/// The server goes away while the transaction is under way (a trigger the test makes sleeps
/// in it; the cluster is stopped at once): exit 9, the server named with the password
/// masked, and once the server is back the table is as it was.
#[test]
fn a_server_gone_in_the_middle_of_the_transaction_leaves_the_table_as_it_was() {
    let sandbox = Sandbox::start(&[]);
    let cluster = Cluster::start();
    let env = cluster.env(&sandbox.url);
    env.cmd_args(&args(
        &["fees", "-c", "eth", "-o", "postgresql:///postgres"],
        &[],
    ))
    .run();
    let table = "SELECT date, chain, fees FROM fees ORDER BY date, chain";
    let before = cluster.sql(table);
    cluster.sql("CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(120); RETURN NULL; END $$; CREATE TRIGGER slow AFTER INSERT ON fees FOR EACH STATEMENT EXECUTE FUNCTION slow()");
    let socket = cluster.dir.display();
    let uri = format!(
        "postgresql://postgres:{PASSWORD}@/postgres?host={socket}&port={}",
        cluster.port
    );
    let run = env
        .cmd_args(&[
            "fees",
            "-c",
            "eth,arb",
            "-o",
            &uri,
            "--merge",
            "-s",
            "2024-01-01",
            "-e",
            "2024-01-05",
        ])
        .code(9)
        .any_stderr()
        .spawn();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let sleeping = "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'";
    while cluster.sql(sleeping) != "1\n" {
        assert!(
            std::time::Instant::now() < deadline,
            "the run never reached the trigger"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    cluster.stop();
    let run = run.finish();
    let shown = uri.replace(PASSWORD, "****");
    let said = format!(
        "error: cannot write fees at {shown} (database postgres on the socket in {socket} as \
            postgres): "
    );
    assert!(run.stderr.contains(&said), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("; nothing was written, the table is as it was"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(PASSWORD), "{}", run.stderr);
    cluster.start_again();
    assert_eq!(cluster.sql(table), before);
}
