//! The rows a `--merge` (or `--resume`) target already holds, read as this run's columns, or
//! as the same columns but for `chain`: a job that grows from one chain to several (`-c eth`,
//! then `-c eth,arb`) keeps its file, which gains a chain column, and a run for one chain of a
//! file with several gives its rows that chain.

use std::path::Path;

use super::merge::{read_old, refusal};
use super::merge_file::{read_rows, MergeError};
use super::sqlite;
use crate::error::Failure;
use crate::model::{Chain, Dataset, Row};
use crate::render::Format;

/// What a merge target holds.
pub struct Stored {
    /// Its rows; those of a file without a chain column that this run asks several chains of
    /// carry the chain they are taken as.
    pub rows: Vec<Row>,
    /// Whether the file has a chain column.
    pub chain_column: bool,
    /// The chain a file without a chain column is taken as: the first chain asked, when this
    /// run asks several.
    pub taken_as: Option<Chain>,
}

/// The rows stored at `path` (in its `table`, for a SQLite file), read as `shape` (this run's
/// columns) or as `shape` but for the chain column; `None` when there is no file yet. A file
/// with other columns is refused as a merge is.
pub fn stored(
    path: &Path,
    format: Format,
    table: &str,
    shape: &Dataset,
    chain_order: &[Chain],
) -> Result<Option<Stored>, Failure> {
    let text = match format {
        Format::Sqlite => None,
        _ => match read_old(path)? {
            Some(text) => Some(text),
            None => return Ok(None),
        },
    };
    let read = |shape: &Dataset| match &text {
        Some(text) => read_rows(text, format, shape).map(Some),
        None => sqlite::stored_rows(path, table, shape),
    };
    let other = Dataset {
        chain_column: !shape.chain_column,
        columns: shape.columns.clone(),
        rows: Vec::new(),
    };
    let (rows, chain_column) = match read(shape) {
        Ok(rows) => (rows, shape.chain_column),
        Err(MergeError::ColumnsDiffer(found)) if same_names(&found, &other.header()) => {
            let rows = read(&other).map_err(|problem| refusal(path, &other, problem))?;
            (rows, other.chain_column)
        }
        Err(problem) => return Err(refusal(path, shape, problem)),
    };
    let Some(mut rows) = rows else {
        return Ok(None);
    };
    let taken_as = chain_order
        .first()
        .copied()
        .filter(|_| shape.chain_column && !chain_column);
    if let Some(chain) = taken_as {
        rows.iter_mut().for_each(|row| row.chain = Some(chain));
    }
    Ok(Some(Stored {
        rows,
        chain_column,
        taken_as,
    }))
}

/// Whether the names `found` (comma-joined, in the file's order: JSON members may come in any)
/// are those of `header`.
fn same_names(found: &str, header: &[String]) -> bool {
    let mut found: Vec<&str> = found.split(',').collect();
    let mut wanted: Vec<&str> = header.iter().map(String::as_str).collect();
    found.sort_unstable();
    wanted.sort_unstable();
    found == wanted
}

/// This run's rows, with a chain column when the file has one and this run (of one chain)
/// has none: the merged file keeps its column.
pub fn with_chain_column(mut fresh: Dataset, file_has_it: bool, chain_order: &[Chain]) -> Dataset {
    if file_has_it && !fresh.chain_column {
        fresh.chain_column = true;
        let chain = chain_order.first().copied();
        fresh.rows.iter_mut().for_each(|row| row.chain = chain);
    }
    fresh
}
