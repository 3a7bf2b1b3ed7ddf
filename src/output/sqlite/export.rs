//! The SQLite export (`-o FILE.sqlite`, `.db`, `-f sqlite`): one table per command (`fees`,
//! `users`, `social`, `report`) with the csv columns, every cell TEXT (the date in ISO form,
//! each number as the exact text the service sent: never a float, and SQLite's arithmetic
//! still sums it), primary key (date, chain). Other tables in the file are left alone.

use std::io::Read;
use std::path::Path;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, OptionalExtension, MAIN_DB};

use super::write::{as_wal, quoted, table_columns, write_in_place};
use crate::error::{Exit, Failure};
use crate::fetched::Plan;
use crate::model::{Dataset, Endpoint, Row};
use crate::output::merge::{implausible, place, to_row, MergeError};
use crate::system::foreign::echo;
use crate::system::lock::LockWait;
use crate::system::{atomic, stream};

/// The first bytes of every SQLite 3 database file.
const MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// The table of a command: named after it.
pub(crate) fn table_name(plan: &Plan) -> &'static str {
    match plan.endpoints.as_slice() {
        [Endpoint::Fees] => "fees",
        [Endpoint::ActiveUsers] => "users",
        [Endpoint::OfficialAccount] => "social",
        _ => "report",
    }
}

/// The rows of `table` in the database at `path`, read as `shape` says; `Ok(None)` when there
/// is no file, an empty one, or no such table yet. Cells are read back exactly as text.
pub(crate) fn stored_rows(
    path: &Path,
    table: &str,
    shape: &Dataset,
) -> Result<Option<Vec<Row>>, MergeError> {
    let Some(conn) = open_existing(path).map_err(MergeError::Unreadable)? else {
        return Ok(None);
    };
    let read = |e: rusqlite::Error| MergeError::Unreadable(e.to_string());
    refuse_other_kind(&conn, table)?;
    let columns = table_columns(&conn, table).map_err(read)?;
    if columns.is_empty() {
        return Ok(None);
    }
    let placement = place(&columns, shape)?;
    let listed: Vec<String> = (placement.iter())
        .map(|at| at.map_or("NULL".to_owned(), |at| quoted(&columns[at])))
        .collect();
    let query = format!("SELECT {} FROM {}", listed.join(", "), quoted(table));
    let mut statement = conn.prepare(&query).map_err(read)?;
    let mut rows = statement.query([]).map_err(read)?;
    let mut stored = Vec::new();
    while let Some(row) = rows.next().map_err(read)? {
        let cells: Vec<Result<Option<String>, String>> = (0..listed.len())
            .map(|at| cell_text(row.get_ref(at).map_err(|e| e.to_string())?))
            .collect();
        // Every message names the row by its key, whichever of its cells is at fault.
        let key: Vec<Option<&str>> = (cells.iter().take(2))
            .map(|c| c.as_ref().ok().and_then(|c| c.as_deref()))
            .collect();
        let key = key_of(&key);
        let row = (cells.iter().cloned().collect::<Result<Vec<_>, String>>())
            .and_then(|cells| {
                let cells: Vec<Option<&str>> = cells.iter().map(|c| c.as_deref()).collect();
                to_row(&cells, shape)
            })
            .map_err(|why| format!("{key}: {why}"));
        let row = row.and_then(|row| match implausible(row.date) {
            Some(why) => Err(format!("the row {}: {why}", key_of_row(&row))),
            None => Ok(row),
        });
        stored.push(row.map_err(|why| MergeError::Unreadable(format!("table {table}, {why}")))?);
    }
    refuse_twice(table, &stored)?;
    Ok(Some(stored))
}

/// [`stored_rows`] for the exact oracle of tests/oracles/sqlite_merge.rs: the rows of `table`
/// in the SQLite file at `path`, read as `shape` says (as `--merge` and `render FILE` read
/// them), or why not, in words.
pub fn read_sqlite_rows(
    path: &Path,
    table: &str,
    shape: &Dataset,
) -> Result<Option<Vec<Row>>, String> {
    stored_rows(path, table, shape).map_err(|e| e.to_string())
}

/// A row's key as a message names it: `(2024-01-01, ETHEREUM)`, never a rowid.
fn key_of_row(row: &Row) -> String {
    match row.chain {
        Some(chain) => format!("({}, {chain})", row.date),
        None => format!("({})", row.date),
    }
}

/// The key of a row not yet read, from its first cells (date, and chain when there is one).
fn key_of(cells: &[Option<&str>]) -> String {
    let shown = |cell: &Option<&str>| echo(cell.unwrap_or("NULL"));
    format!(
        "the row ({})",
        (cells.iter().take(2))
            .map(shown)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// A table without our primary key (made by another program) may hold a key twice: which row
/// is meant cannot be told, so it is refused, as a text file is.
fn refuse_twice(table: &str, rows: &[Row]) -> Result<(), MergeError> {
    let mut seen = std::collections::HashSet::new();
    match rows.iter().find(|row| !seen.insert((row.date, row.chain))) {
        Some(row) => Err(MergeError::Unreadable(format!(
            "table {table} holds the key {} twice: remove one of those rows",
            key_of_row(row)
        ))),
        None => Ok(()),
    }
}

/// A view (or an index) of that name cannot take rows: a merge into a recursive view would
/// never end.
fn refuse_other_kind(conn: &Connection, table: &str) -> Result<(), MergeError> {
    let kind: Option<String> = conn
        .query_row(
            "SELECT type FROM sqlite_schema WHERE name = ?1",
            [table],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| MergeError::Unreadable(e.to_string()))?;
    match kind.filter(|k| k != "table") {
        Some(kind) => Err(MergeError::Unreadable(format!(
            "{table} is a {kind} there, not a table: its rows cannot be changed in place; write the export to another file"
        ))),
        None => Ok(()),
    }
}

/// Before a plain `-o` (no `--merge`) replaces `table`'s rows: the database must be one we can
/// open, and a table of that name must be a table with this run's columns (a table of one
/// chain, made before tables named their chains, is made again).
pub(crate) fn check_plain(path: &Path, table: &str, shape: &Dataset) -> Result<(), MergeError> {
    let Some(conn) = open_existing(path).map_err(MergeError::Unreadable)? else {
        return Ok(());
    };
    refuse_other_kind(&conn, table)?;
    let columns = table_columns(&conn, table).map_err(|e| MergeError::Unreadable(e.to_string()))?;
    match place(&columns, shape) {
        Err(mismatch) if !columns.is_empty() && !mismatch.no_chain => Err(mismatch.into()),
        _ => Ok(()),
    }
}

/// A cell as the text a csv would hold: TEXT as stored, whole numbers as written, NULL a gap.
/// A float or a blob cannot be read back exactly.
fn cell_text(value: ValueRef<'_>) -> Result<Option<String>, String> {
    match value {
        ValueRef::Null => Ok(None),
        ValueRef::Integer(n) => Ok(Some(n.to_string())),
        ValueRef::Text(text) => std::str::from_utf8(text)
            .map(|t| Some(t.to_owned()))
            .map_err(|_| "a cell is not UTF-8 text".to_owned()),
        ValueRef::Real(x) => Err(format!(
            "the cell {x} is a floating-point number (REAL), which cannot be read back exactly; store such cells as text, e.g. UPDATE the table SET the column = CAST(it AS TEXT) WHERE typeof(it) = 'real', and check their digits"
        )),
        ValueRef::Blob(_) => Err("a cell is a blob, not text".to_owned()),
    }
}

/// Writes `data` as `table`'s rows at `path` (`replace`: the table's other rows go): in
/// place, in one transaction, in an existing database (its other tables, indexes and
/// triggers stay), else as a new file in WAL mode, written atomically.
pub(crate) fn store(
    path: &Path,
    table: &str,
    data: &Dataset,
    replace: bool,
    wait: LockWait,
) -> anyhow::Result<()> {
    let failed = |why: String| {
        Failure::new(
            Exit::Output,
            format!("cannot write {}: {why}", path.display()),
        )
    };
    match open_existing(path).map_err(failed)? {
        Some(mut conn) => Ok(write_in_place(&mut conn, path, table, data, replace, wait)?),
        None => {
            let mut conn = Connection::open_in_memory().map_err(|e| failed(e.to_string()))?;
            write_in_place(&mut conn, path, table, data, true, wait)?;
            let bytes = conn.serialize(MAIN_DB).map_err(|e| failed(e.to_string()))?;
            atomic::write_atomically(path, &as_wal(bytes.to_vec()))
        }
    }
}

/// The database at `path`, opened for writing; `None` when there is no file or an empty one
/// (a new database is written whole). Anything but a regular SQLite file is refused.
fn open_existing(path: &Path) -> Result<Option<Connection>, String> {
    if stream::own_descriptor(path).is_some() {
        return Err(not_a_file("one of this run's own streams"));
    }
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    if !metadata.is_file() {
        return Err(not_a_file(stream::kind_of(&metadata)));
    }
    if metadata.len() == 0 {
        return Ok(None);
    }
    refuse_foreign_journal(path)?;
    let mut head = [0u8; 16];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head));
    if read.is_err() || &head != MAGIC {
        return Err("it is not a SQLite database; it is not replaced: write the table to a .sqlite file of its own, or remove this one".into());
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| e.to_string())?;
    // Another program (a reader such as Datasette) may hold it for a moment.
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(|e| e.to_string())?;
    Ok(Some(conn))
}

/// A journal or WAL file beside the database that another user made would be rolled into it
/// when it is opened: refused before that, the file left as it is.
fn refuse_foreign_journal(path: &Path) -> Result<(), String> {
    #[cfg(unix)]
    for suffix in ["-journal", "-wal"] {
        use std::os::unix::fs::MetadataExt;
        let mut beside = path.as_os_str().to_owned();
        beside.push(suffix);
        let Ok(metadata) = std::fs::symlink_metadata(&beside) else {
            continue;
        };
        if metadata.uid() != nix::unistd::geteuid().as_raw() {
            return Err(format!(
                "{} beside it belongs to another user, and SQLite would roll it into the database when it is opened; it is not opened: remove that file if you trust neither it nor its owner",
                std::path::Path::new(&beside).display()
            ));
        }
    }
    Ok(())
}

fn not_a_file(kind: &str) -> String {
    format!("it is {kind}, not a regular file: a SQLite database is a file that is read back and changed in place")
}

/// The table a database this tool wrote holds (named after its command), and its columns;
/// `Ok(None)` when there is no such table (nor a file).
pub(crate) fn export_table(path: &Path) -> Result<Option<(&'static str, Vec<String>)>, MergeError> {
    let Some(conn) = open_existing(path).map_err(MergeError::Unreadable)? else {
        return Ok(None);
    };
    for table in ["fees", "users", "social", "report"] {
        let columns =
            table_columns(&conn, table).map_err(|e| MergeError::Unreadable(e.to_string()))?;
        if !columns.is_empty() {
            return Ok(Some((table, columns)));
        }
    }
    Ok(None)
}
