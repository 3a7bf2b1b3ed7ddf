//! A SQLite export read back, for `--merge`, `--resume` and `render FILE`: a command's table
//! read as this run's columns (matched by name), every cell the exact text stored; a view, or
//! a table that holds a key twice, is refused.

use std::path::Path;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension};

use super::columns;
use super::rows::{implausible, to_row, MergeError};
use crate::model::{Dataset, Endpoint, Row};
use crate::output::sqlite::{open_existing, quoted, table_columns};
use crate::system::foreign::echo;

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
    let placement = columns::place(&columns, shape)?;
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

/// `stored_rows` for the exact oracle of tests/oracles/sqlite_merge.rs: the rows of `table`
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
            "{table} is a {kind} there, not a table: its rows cannot be changed in place; write \
            the export to another file"
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
    match columns::place(&columns, shape) {
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
            "the cell {x} is a floating-point number (REAL), which cannot be read back exactly; \
            store such cells as text, e.g. UPDATE the table SET the column = CAST(it AS TEXT) \
            WHERE typeof(it) = 'real', and check their digits"
        )),
        ValueRef::Blob(_) => Err("a cell is a blob, not text".to_owned()),
    }
}

/// The tables of the database at `path`, by name, each with its columns; empty when there is
/// no file or an empty one. The ones this tool writes are named after their command.
pub(crate) fn tables_of(path: &Path) -> Result<Vec<(String, Vec<String>)>, MergeError> {
    let Some(conn) = open_existing(path).map_err(MergeError::Unreadable)? else {
        return Ok(Vec::new());
    };
    let read = |e: rusqlite::Error| MergeError::Unreadable(e.to_string());
    let mut statement = conn
        .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' \
            ORDER BY name",
        )
        .map_err(read)?;
    let names = statement.query_map([], |row| row.get::<_, String>(0));
    let names: Vec<String> = names.and_then(Iterator::collect).map_err(read)?;
    (names.into_iter())
        .map(|name| Ok((table_columns(&conn, &name).map_err(read)?, name)))
        .map(|table| table.map(|(columns, name)| (name, columns)))
        .collect()
}

/// The names of the tables this tool writes (one per command), in the order of the commands.
pub(crate) fn export_table_names() -> [&'static str; 4] {
    let [fees, users, social] = Endpoint::ALL.map(Endpoint::command);
    [fees, users, social, "report"]
}
