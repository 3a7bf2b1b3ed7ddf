//! Cron grade: the SQLite export, read back by the sqlite3 CLI and DuckDB (a
//! Python venv that .ci/test makes: CHAIN_METRICS_TEST_PYTHON names its interpreter).

use std::ffi::OsStr;

use snapbox::str;

use crate::support::files::{read, write};
use crate::support::tools::venv_python;
use crate::support::{Env, Run, Sandbox};

const RANGE: [&str; 4] = ["-s", "2024-01-01", "-e", "2024-01-03"];

/// `sqlite3 -csv -header FILE SQL` in the test's home.
fn sqlite3(env: &Env, file: &str, sql: &str) -> Run {
    let args = ["-csv", "-header", file, sql];
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    env.program("sqlite3", &args).run()
}

#[test]
fn a_table_per_command_with_the_csv_columns_as_exact_text() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let fees = [&["fees", "-c", "eth,arb"], &RANGE[..]].concat();
    let csv = env.cmd_args(&fees).run();
    env.cmd_args(&[&fees[..], &["-o", "metrics.sqlite"]].concat())
        .stdout("")
        .run();
    let users = [
        &[
            "users",
            "-c",
            "base",
            "-f",
            "sqlite",
            "-o",
            "metrics.sqlite",
        ],
        &RANGE[..],
    ];
    env.cmd_args(&users.concat()).run();
    let back = sqlite3(&env, "metrics.sqlite", "SELECT * FROM fees ORDER BY rowid");
    assert_eq!(back.stdout, csv.stdout);
    let schema = sqlite3(
        &env,
        "metrics.sqlite",
        "SELECT sql FROM sqlite_schema WHERE type = 'table' ORDER BY name",
    );
    assert_eq!(
        schema.stdout,
        "sql\n\"CREATE TABLE \"\"fees\"\" (\"\"date\"\" TEXT NOT NULL, \"\"chain\"\" TEXT NOT NULL, \"\"fees\"\" TEXT, PRIMARY KEY (\"\"date\"\", \"\"chain\"\"))\"\n\"CREATE TABLE \"\"users\"\" (\"\"date\"\" TEXT NOT NULL, \"\"chain\"\" TEXT NOT NULL, \"\"active_users\"\" TEXT, PRIMARY KEY (\"\"date\"\", \"\"chain\"\"))\"\n"
    );
    // Stored as text, never a float; SQLite's arithmetic still sums it.
    let sums = sqlite3(
        &env,
        "metrics.sqlite",
        "SELECT chain, typeof(fees) AS type, round(sum(fees), 2) AS total FROM fees GROUP BY chain ORDER BY chain",
    );
    assert_eq!(
        sums.stdout,
        "chain,type,total\nARBITRUM,text,198504.23\nETHEREUM,text,2528355.06\n"
    );
    let users_csv = env
        .cmd_args(&[&["users", "-c", "base"], &RANGE[..]].concat())
        .run();
    // A table names its chain, one chain too: the csv's columns with `chain` after `date`.
    let users = sqlite3(&env, "metrics.sqlite", "SELECT * FROM users ORDER BY date");
    assert_eq!(
        users.stdout,
        users_csv
            .stdout
            .replace("date,", "date,chain,")
            .replace("-01,", "-01,BASE,")
            .replace("-02,", "-02,BASE,")
            .replace("-03,", "-03,BASE,")
    );
}

#[test]
fn merge_upserts_in_place_and_keeps_the_other_tables() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let fees = |range: [&str; 4], extra: &[&str]| {
        let args = [&["fees", "-c", "eth", "-o", "m.db"], &range[..], extra].concat();
        env.cmd_args(&args).run()
    };
    fees(["-s", "2024-01-01", "-e", "2024-01-02"], &[]);
    let other = [
        "users",
        "-c",
        "op",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-01",
        "-o",
        "m.db",
    ];
    env.cmd_args(&other).run();
    sqlite3(
        &env,
        "m.db",
        "UPDATE fees SET fees = '1.50' WHERE date = '2024-01-01'",
    );
    sqlite3(
        &env,
        "m.db",
        "UPDATE fees SET fees = '9' WHERE date = '2024-01-02'",
    );
    fees(["-s", "2024-01-02", "-e", "2024-01-03"], &["--merge"]);
    let back = sqlite3(&env, "m.db", "SELECT * FROM fees ORDER BY date");
    assert_eq!(
        back.stdout,
        "date,chain,fees\n2024-01-01,ETHEREUM,1.50\n2024-01-02,ETHEREUM,826665.76\n2024-01-03,ETHEREUM,821920.42\n"
    );
    let users = sqlite3(&env, "m.db", "SELECT count(*) AS n FROM users");
    assert_eq!(users.stdout, "n\n1\n");
    assert_eq!(crate::support::files::names(env.home.path()), ["m.db"]);
}

#[test]
fn a_table_with_other_columns_is_refused_and_left_as_it_was() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let first = [&["fees", "-c", "eth,arb", "-o", "f.sqlite"], &RANGE[..]].concat();
    env.cmd_args(&first).run();
    let before = std::fs::read(env.home.path().join("f.sqlite")).unwrap();
    let sent = sandbox.requests().len();
    let narrower = [
        &["fees", "-c", "eth", "-o", "f.sqlite", "--merge", "--wide"],
        &RANGE[..],
    ];
    env.cmd_args(&narrower.concat())
        .code(9)
        .error_line("error: f.sqlite has the columns date,chain,fees but this command writes date,ETHEREUM (chain, fees: not written by this command with these flags): not merged; the file is left as it was")
        .run();
    assert_eq!(
        sandbox.requests().len(),
        sent,
        "a refused merge sent a request"
    );
    assert_eq!(
        std::fs::read(env.home.path().join("f.sqlite")).unwrap(),
        before
    );
}

#[test]
fn stdout_and_files_that_are_no_database_are_refused() {
    let env = Env::with_service("http://127.0.0.1:9");
    env.cmd_args(&[&["fees", "-c", "eth", "-f", "sqlite"], &RANGE[..]].concat())
        .code(2)
        .stderr(str![[r#"
error: the sqlite format writes a database file, which stdout cannot take
hint: give --output FILE.sqlite (or .db)

"#]])
        .run();
    let sandbox = Sandbox::start(&[]);
    let env2 = Env::with_service(&sandbox.url);
    write(&env2, "notes.db", "date,fees\n");
    env2.cmd_args(&[&["fees", "-c", "eth", "-o", "notes.db"], &RANGE[..]].concat())
        .code(9)
        .error_line("error: cannot write notes.db: it is not a SQLite database; it is not replaced: write the table to a .sqlite file of its own, or remove this one")
        .run();
    assert_eq!(read(&env2, "notes.db"), "date,fees\n");
}

/// Loads DuckDB's sqlite extension from its wheel (signature checked, as DuckDB always does)
/// and sums each chain's fees as exact decimals.
const DUCKDB_READ: &str = r#"
import os, sys, duckdb, duckdb_extension_sqlite_scanner as ext
folder = os.path.join(os.path.dirname(ext.__file__), "extensions", "v" + duckdb.__version__)
con = duckdb.connect()
con.execute("LOAD '" + os.path.join(folder, "sqlite_scanner.duckdb_extension") + "'")
con.execute("ATTACH '" + sys.argv[1] + "' AS m (TYPE sqlite)")
rows = con.execute("SELECT chain, min(typeof(fees)), sum(CAST(fees AS DECIMAL(30, 2))), count(*) FROM m.fees GROUP BY chain ORDER BY chain").fetchall()
for row in rows:
    print(*row, sep=",")
"#;

#[test]
fn duckdb_reads_the_export_back() {
    let python = venv_python();
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let args = [&["fees", "-c", "eth,arb", "-o", "m.sqlite"], &RANGE[..]].concat();
    env.cmd_args(&args).run();
    let file = env.home.path().join("m.sqlite");
    let script = [OsStr::new("-c"), OsStr::new(DUCKDB_READ), file.as_os_str()];
    env.program(python.to_str().unwrap(), &script)
        .stdout(str![[r#"
ARBITRUM,VARCHAR,198504.23,3
ETHEREUM,VARCHAR,2528355.06,3

"#]])
        .run();
}
