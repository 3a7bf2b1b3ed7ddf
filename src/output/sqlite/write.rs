//! Writing a table into a database others read: in place, in one transaction, so the user's
//! indexes, triggers and other tables stay; in WAL mode in a private folder, so readers
//! (sqlite3, DuckDB, a dashboard) never block the writer, and in rollback (DELETE) mode in a
//! folder others can write, where a reader would leave a `-wal` and `-shm` of their own that
//! the next write must refuse; a wait for another program said within a second and given up
//! at `--lock-timeout`.

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rusqlite::{Connection, ErrorCode, Transaction, TransactionBehavior};

use crate::error::{Exit, Failure};
use crate::model::{Dataset, Row};
use crate::system::diag;
use crate::system::lock::LockWait;

/// How long a writer waits silently before it says so.
const SILENT_WAIT: Duration = Duration::from_secs(1);

/// The byte offsets of the file format's read and write versions: 2 and 2 is WAL mode.
const FORMAT_VERSIONS: std::ops::Range<usize> = 18..20;

/// How a database keeps its journal while it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Journal {
    /// WAL: readers never block the writer, and each reader keeps a `-wal` and `-shm` beside
    /// the file while it reads (left behind by one that cannot write the folder's files).
    Wal,
    /// A rollback journal the writer removes at commit: a reader leaves nothing beside the file.
    Delete,
}

impl Journal {
    /// WAL in a private folder; in a folder someone besides the user and root can write, the
    /// side files a reader there leaves would be theirs, so no WAL.
    pub(crate) fn for_folder_of(path: &Path) -> Journal {
        match crate::system::ownership::shared_folder(path) {
            Some(_) => Journal::Delete,
            None => Journal::Wal,
        }
    }

    fn pragma(self) -> &'static str {
        match self {
            Journal::Wal => "WAL",
            Journal::Delete => "DELETE",
        }
    }

    /// A new database's bytes marked with this mode (in its header's read and write versions:
    /// 2 for WAL, 1 for a rollback journal), so that its first readers open it so.
    pub(super) fn mark(self, mut bytes: Vec<u8>) -> Vec<u8> {
        let version = match self {
            Journal::Wal => 2,
            Journal::Delete => 1,
        };
        if let Some(versions) = bytes.get_mut(FORMAT_VERSIONS) {
            versions.fill(version);
        }
        bytes
    }
}

/// Writes `data` as `table`'s rows in place, the file switched to `journal` first (best
/// effort): its key columns and this run's columns there (a new include is added), every row
/// upserted by its key; `replace`: the rows not in `data` go (a plain `-o`). A table without
/// the key columns (an old one-chain table) is made again, with the user's indexes and
/// triggers on it.
pub(super) fn write_in_place(
    conn: &mut Connection,
    path: &Path,
    table: &str,
    data: &Dataset,
    replace: bool,
    wait: LockWait,
    journal: Journal,
) -> Result<(), Failure> {
    let note = format!(
        "waiting for another program that has {} open (up to {} s, --lock-timeout)",
        path.display(),
        wait.limit.as_secs_f64()
    );
    *waiting() = Some(Waiting {
        since: Instant::now(),
        limit: wait.limit,
        note: Some(note),
    });
    // Best effort, without waiting: while another program has it open, the file keeps its
    // journal mode (and the write below waits for that program instead).
    let _ = conn.busy_handler(None);
    let _ = conn.pragma_update(None, "journal_mode", journal.pragma());
    let _ = conn.busy_handler(Some(on_busy));
    let failed = |e: rusqlite::Error| match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy) => busy(path, wait),
        _ => write_failure(path, &e.to_string()),
    };
    let transaction = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(failed)?;
    fill(&transaction, table, data, replace).map_err(failed)?;
    transaction.commit().map_err(failed)
}

/// The wait of this run's database write, for [`on_busy`] (SQLite's busy handler is a plain
/// function: it gets no context of its own).
struct Waiting {
    since: Instant,
    limit: Duration,
    /// Said once the wait passes [`SILENT_WAIT`]; `None` once said.
    note: Option<String>,
}

fn waiting() -> std::sync::MutexGuard<'static, Option<Waiting>> {
    static WAITING: Mutex<Option<Waiting>> = Mutex::new(None);
    // A poisoned lock only means a panic elsewhere; the wait's values stand.
    WAITING.lock().unwrap_or_else(|e| e.into_inner())
}

/// SQLite's busy handler: waits in short steps while another program holds the database,
/// says so after a second, and gives up at the limit.
fn on_busy(_attempts: i32) -> bool {
    let mut waiting = waiting();
    let Some(wait) = waiting.as_mut() else {
        return false;
    };
    let waited = wait.since.elapsed();
    if waited >= wait.limit {
        return false;
    }
    if waited >= SILENT_WAIT {
        if let Some(note) = wait.note.take() {
            diag::note(note);
        }
    }
    drop(waiting);
    std::thread::sleep(Duration::from_millis(20));
    true
}

/// The failure of a write that waited for another program until the limit.
fn busy(path: &Path, wait: LockWait) -> Failure {
    Failure::new(
        Exit::Output,
        format!(
            "another program still had {} locked after {} s; not written; the database is left as \
            it was",
            path.display(),
            wait.limit.as_secs_f64()
        ),
    )
    .with_hint(
        "close the program holding it (sqlite3, DuckDB, Datasette, a dashboard in a \
        transaction), or wait longer with --lock-timeout SECS",
    )
}

fn write_failure(path: &Path, why: &str) -> Failure {
    Failure::new(
        Exit::Output,
        format!(
            "cannot write {}: {why}; the database is left as it was",
            path.display()
        ),
    )
}

/// The table's rows made `data`'s, inside the transaction.
fn fill(
    transaction: &Transaction,
    table: &str,
    data: &Dataset,
    replace: bool,
) -> rusqlite::Result<()> {
    let header = data.header();
    let keys = header.len() - data.columns.len();
    let present = table_columns(transaction, table)?;
    let mut kept = Vec::new();
    if !present.is_empty() && !header[..keys].iter().all(|k| present.contains(k)) {
        kept = own_schema(transaction, table)?;
        transaction.execute(&format!("DROP TABLE {}", quoted(table)), [])?;
    }
    create(transaction, table, &header, keys)?;
    let present = table_columns(transaction, table)?;
    for missing in header.iter().filter(|h| !present.contains(h)) {
        let sql = format!(
            "ALTER TABLE {} ADD COLUMN {} TEXT",
            quoted(table),
            quoted(missing)
        );
        transaction.execute(&sql, [])?;
    }
    // A merge's `data` holds every stored row as well: only a plain write has rows to drop.
    if replace {
        transaction.execute(&format!("DELETE FROM {}", quoted(table)), [])?;
    }
    restore(transaction, &kept)?;
    upsert_rows(transaction, table, data, &header, keys)
}

/// The SQL of the user's indexes and triggers on `table`, read before an old table is made
/// again, so that they are made again on the new one.
fn own_schema(transaction: &Transaction, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement = transaction.prepare(
        "SELECT sql FROM sqlite_schema WHERE tbl_name = ?1 AND type IN ('index', 'trigger') AND \
        sql IS NOT NULL ORDER BY type, name",
    )?;
    let rows = statement.query_map([table], |row| row.get(0))?;
    rows.collect()
}

/// Makes the old table's indexes and triggers again on the new table, which has every column
/// the old one had (a table with other columns is refused before any request).
fn restore(transaction: &Transaction, kept: &[String]) -> rusqlite::Result<()> {
    for sql in kept {
        transaction.execute(sql, [])?;
    }
    Ok(())
}

/// `CREATE TABLE IF NOT EXISTS` with our columns: the key columns NOT NULL, the primary key.
fn create(
    transaction: &Transaction,
    table: &str,
    header: &[String],
    keys: usize,
) -> rusqlite::Result<()> {
    let columns: Vec<String> = (header.iter().enumerate())
        .map(|(at, name)| match at < keys {
            true => format!("{} TEXT NOT NULL", quoted(name)),
            false => format!("{} TEXT", quoted(name)),
        })
        .collect();
    let key: Vec<String> = header[..keys].iter().map(|k| quoted(k)).collect();
    let sql = format!(
        "CREATE TABLE IF NOT EXISTS {} ({}, PRIMARY KEY ({}))",
        quoted(table),
        columns.join(", "),
        key.join(", ")
    );
    transaction.execute(&sql, []).map(|_| ())
}

/// Each row updated where its key is, inserted where it is not: the table's own indexes and
/// triggers see an update or an insert, as with any other writer.
fn upsert_rows(
    transaction: &Transaction,
    table: &str,
    data: &Dataset,
    header: &[String],
    keys: usize,
) -> rusqlite::Result<()> {
    let names: Vec<String> = header.iter().map(|h| quoted(h)).collect();
    let set: Vec<String> = (names[keys..].iter().enumerate())
        .map(|(at, name)| format!("{name} = ?{}", keys + at + 1))
        .collect();
    let matching: Vec<String> = (names[..keys].iter().enumerate())
        .map(|(at, name)| format!("{name} = ?{}", at + 1))
        .collect();
    let marks: Vec<String> = (1..=header.len()).map(|n| format!("?{n}")).collect();
    let mut update = transaction.prepare(&format!(
        "UPDATE {} SET {} WHERE {}",
        quoted(table),
        match set.is_empty() {
            true => format!("{0} = {0}", names[0]),
            false => set.join(", "),
        },
        matching.join(" AND ")
    ))?;
    let mut insert = transaction.prepare(&format!(
        "INSERT INTO {} ({}) VALUES ({})",
        quoted(table),
        names.join(", "),
        marks.join(", ")
    ))?;
    for row in &data.rows {
        let values = cells(row, data.chain_column);
        if update.execute(rusqlite::params_from_iter(&values))? == 0 {
            insert.execute(rusqlite::params_from_iter(&values))?;
        }
    }
    Ok(())
}

/// The column names of `table`, in order; none when there is no such table.
pub(crate) fn table_columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement = conn.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?;
    let names = statement.query_map([table], |row| row.get::<_, String>(0))?;
    names.collect()
}

/// A row's cells as SQL values: the date and chain as text, numbers as their exact text.
pub(super) fn cells(row: &Row, chain_column: bool) -> Vec<Option<String>> {
    let mut cells = vec![Some(row.date.to_string())];
    if chain_column {
        cells.push(Some(Dataset::chain_cell(row).to_owned()));
    }
    cells.extend(
        row.values
            .iter()
            .map(|v| v.as_ref().map(|n| n.as_str().to_owned())),
    );
    cells
}

/// An SQL identifier in double quotes (column names like `ETHEREUM.fees` need them).
pub(crate) fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
