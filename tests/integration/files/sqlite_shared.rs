//! Cron grade: the SQLite export as a database others read and change. A merge upserts in
//! place (the user's indexes, triggers and other tables stay); a key held twice, a view, a
//! same-name table with other columns and another user's journal are refused before any
//! request, the file byte for byte as it was; an open reader does not block the writer.

use std::ffi::OsStr;
use std::os::unix::fs::MetadataExt;

use crate::support::files::names;
use crate::support::{empty_service, sandbox_env, Env, Run, Running, Sandbox};

const DAY: &str = "fees -c eth -s 2024-01-02 -e 2024-01-02 -o m.db";

fn sqlite3(env: &Env, sql: &str) -> Run {
    let args = ["-csv", "-header", "m.db", sql];
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    env.program("sqlite3", &args).any_stderr().run()
}

/// `sql` on m.db gives `expected` (csv with a header) through the sqlite3 CLI.
#[track_caller]
fn assert_query(env: &Env, sql: &str, expected: &str) {
    assert_eq!(sqlite3(env, sql).stdout, expected, "{sql}");
}

/// The fees table of m.db holds `count` rows, as the sqlite3 CLI counts them.
#[track_caller]
fn assert_rows(env: &Env, count: usize) {
    assert_query(
        env,
        "SELECT count(*) AS n FROM fees",
        &format!("n\n{count}\n"),
    );
}

/// The sqlite3 CLI in the middle of a read transaction on m.db for `secs` seconds (begun
/// half a second ago), as a dashboard holds one.
fn reading(env: &Env, secs: u32) -> Running {
    let script = format!(
        "{{ echo 'BEGIN; SELECT count(*) FROM fees;'; sleep {secs}; echo 'COMMIT;'; }} | sqlite3 m.db"
    );
    let reader = env.shell(&script).any_stdout().spawn();
    std::thread::sleep(std::time::Duration::from_millis(500));
    reader
}

/// The sandbox, and an environment whose m.db this tool wrote with ETHEREUM's 2024-01-01.
fn written_by_the_tool() -> (Sandbox, Env) {
    let (sandbox, env) = sandbox_env(&[]);
    env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-01 -o m.db")
        .run();
    (sandbox, env)
}

/// The sandbox, and an environment whose m.db another program made with `sql`.
fn made_by_another_program(sql: &str) -> (Sandbox, Env) {
    let (sandbox, env) = sandbox_env(&[]);
    sqlite3(&env, sql);
    (sandbox, env)
}

fn bytes(env: &Env) -> Vec<u8> {
    std::fs::read(env.home.path().join("m.db")).unwrap()
}

#[test]
fn a_merge_keeps_the_users_indexes_triggers_and_tables() {
    let (_sandbox, env) = written_by_the_tool();
    sqlite3(
        &env,
        "CREATE INDEX by_chain ON fees (chain); CREATE TABLE seen (n INTEGER); \
         CREATE TRIGGER counted AFTER INSERT ON fees BEGIN INSERT INTO seen VALUES (1); END;",
    );
    env.cmd(&format!("{DAY} --merge")).run();
    assert_query(&env, "SELECT type, name FROM sqlite_schema ORDER BY name", "type,name\nindex,by_chain\ntrigger,counted\ntable,fees\ntable,seen\nindex,sqlite_autoindex_fees_1\n");
    assert_query(
        &env,
        "SELECT date, chain FROM fees ORDER BY date",
        "date,chain\n2024-01-01,ETHEREUM\n2024-01-02,ETHEREUM\n",
    );
    assert_query(&env, "SELECT count(*) AS n FROM seen", "n\n1\n");
    // A new file is in WAL mode: readers never block the writer.
    assert_query(&env, "PRAGMA journal_mode", "journal_mode\nwal\n");
    assert_eq!(names(env.home.path()), ["m.db"]);
}

#[test]
fn what_a_merge_would_corrupt_is_refused_before_any_request() {
    let (stub, env) = empty_service();
    let cases = [
        (
            "CREATE TABLE fees (date TEXT, chain TEXT, fees TEXT); \
             INSERT INTO fees VALUES ('2024-01-01', 'ETHEREUM', '1'), ('2024-01-01', 'ETHEREUM', '2');",
            "--merge",
            "error: m.db cannot be merged: table fees holds the key (2024-01-01, ETHEREUM) twice: remove one of those rows; the file is left as it was",
        ),
        (
            "CREATE TABLE t (date TEXT, chain TEXT, fees TEXT); CREATE VIEW fees AS SELECT * FROM t;",
            "--merge",
            "error: m.db cannot be merged: fees is a view there, not a table: its rows cannot be changed in place; write the export to another file; the file is left as it was",
        ),
        (
            "CREATE TABLE fees (day TEXT, price REAL);",
            "",
            "error: m.db has the columns day,price but this command writes date,chain,fees (day, price: not written by this command with these flags): not merged; the file is left as it was",
        ),
        (
            "CREATE TABLE fees (date TEXT, chain TEXT, fees); INSERT INTO fees VALUES ('2024-01-01', 'ETHEREUM', 1.5);",
            "--merge",
            "error: m.db cannot be merged: table fees, the row ('2024-01-01', 'ETHEREUM'): the cell 1.5 is a floating-point number (REAL), which cannot be read back exactly; store such cells as text, e.g. UPDATE the table SET the column = CAST(it AS TEXT) WHERE typeof(it) = 'real', and check their digits; the file is left as it was",
        ),
    ];
    for (schema, merge, error) in cases {
        let _ = std::fs::remove_file(env.home.path().join("m.db"));
        sqlite3(&env, schema);
        let before = bytes(&env);
        env.cmd(&format!("{DAY} {merge}"))
            .code(9)
            .error_line(error)
            .any_stderr()
            .run();
        assert_eq!(bytes(&env), before, "{error}");
    }
    assert!(stub.seen().is_empty(), "a request was sent first");
}

#[test]
fn a_journal_another_user_made_is_refused_and_the_file_left_as_it_was() {
    let (_sandbox, env) = written_by_the_tool();
    let before = bytes(&env);
    let journal = env.home.path().join("m.db-journal");
    std::fs::write(&journal, b"not ours").unwrap();
    let me = std::fs::metadata(env.home.path()).unwrap().uid();
    if std::os::unix::fs::chown(&journal, Some(me + 4242), None).is_err() {
        return; // Only root can give a file away; the check needs another owner.
    }
    env.cmd(&format!("{DAY} --merge"))
        .code(9)
        .error_line_like(format!("error: m.db cannot be merged: m.db-journal belongs to user id {0}, not to you (user id {me}{1}) nor to root (mode 0644): another user's file is not used, since it could steer this run or take what it writes; SQLite would roll that file beside it into the database when it is opened, so it is not opened: remove that file if you trust neither it nor its owner; the file is left as it was", me + 4242, if me == 0 { " (root)" } else { "[..]" }))
        .run();
    assert_eq!(bytes(&env), before);
    assert_eq!(std::fs::read(&journal).unwrap(), b"not ours");
}

/// A new database too: a WAL another user left at its name would become its content.
#[test]
fn a_new_database_beside_another_user_s_wal_is_refused_before_any_request() {
    let stub = crate::support::Stub::always(crate::support::Reply::json(200, "[]"));
    let env = crate::support::Env::with_service(&stub.url);
    let wal = env.home.path().join("new.sqlite-wal");
    std::fs::write(&wal, b"their frames").unwrap();
    if std::os::unix::fs::chown(&wal, Some(65534), None).is_err() {
        return; // Only root can give a file away; the check needs another owner.
    }
    env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-01 -o new.sqlite")
        .code(9)
        .error_line_like("error: cannot write new.sqlite: new.sqlite-wal belongs to user id 65534 (nobody)[..]SQLite would roll that file beside it into the database when it is opened, so it is not opened[..]")
        .any_stderr()
        .run();
    assert!(!env.home.path().join("new.sqlite").exists());
    assert!(stub.seen().is_empty(), "a request was sent first");
}

#[test]
fn an_open_reader_does_not_block_the_merge() {
    let (_sandbox, env) = written_by_the_tool();
    // A dashboard in the middle of a read transaction, for longer than the merge takes.
    let reader = reading(&env, 4);
    let started = std::time::Instant::now();
    env.cmd(&format!("--lock-timeout 10 {DAY} --merge")).run();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "the merge waited for the reader"
    );
    reader.finish();
    assert_rows(&env, 2);
}

#[test]
fn a_writer_kept_waiting_by_another_program_says_so_and_gives_up_at_the_lock_timeout() {
    // A database another program made, in the default rollback-journal mode, where an open
    // read transaction does hold the writer up.
    let (_sandbox, env) = made_by_another_program(
        "CREATE TABLE fees (date TEXT NOT NULL, chain TEXT NOT NULL, fees TEXT, PRIMARY KEY (date, chain));",
    );
    let before = bytes(&env);
    let reader = reading(&env, 5);
    env.cmd(&format!("--lock-timeout 1.5 {DAY} --merge"))
        .code(9)
        .stderr(
            "note: waiting for another program that has m.db open (up to 1.5 s, --lock-timeout)\n\
             error: another program still had m.db locked after 1.5 s; not written; the database is left as it was\n\
             hint: close the program holding it (sqlite3, DuckDB, Datasette, a dashboard in a transaction), or wait longer with --lock-timeout SECS\n",
        )
        .run();
    reader.finish();
    assert_eq!(bytes(&env), before);
    let reader = reading(&env, 3);
    env.cmd(&format!("--lock-timeout 20 {DAY} --merge"))
        .stderr(
            "note: waiting for another program that has m.db open (up to 20 s, --lock-timeout)\n",
        )
        .run();
    reader.finish();
    assert_rows(&env, 1);
}

#[test]
fn a_plain_write_over_an_old_one_chain_table_makes_its_indexes_and_triggers_again() {
    // A table as round 3 wrote it for one chain (no `chain` column, `date` the key), with the
    // user's index and trigger.
    let (_sandbox, env) = made_by_another_program(
        "CREATE TABLE fees (date TEXT NOT NULL, fees TEXT, PRIMARY KEY (date)); \
         INSERT INTO fees VALUES ('2024-01-01', '1'); \
         CREATE INDEX by_fees ON fees (fees); CREATE TABLE seen (n INTEGER); \
         CREATE TRIGGER counted AFTER INSERT ON fees BEGIN INSERT INTO seen VALUES (1); END;",
    );
    env.cmd(DAY).run();
    assert_query(
        &env,
        "SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name",
        "type,name\nindex,by_fees\ntrigger,counted\ntable,fees\ntable,seen\n",
    );
    assert_query(
        &env,
        "SELECT date, chain FROM fees",
        "date,chain\n2024-01-02,ETHEREUM\n",
    );
    // The trigger, made again, fired for the row the write inserted.
    assert_query(&env, "SELECT count(*) AS n FROM seen", "n\n1\n");
}
