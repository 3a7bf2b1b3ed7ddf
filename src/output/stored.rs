//! The rows a `--merge` (or `--resume`) target already holds, read as this run's columns, or
//! as the same columns but for `chain`: a job that grows from one chain to several (`-c eth`,
//! then `-c eth,arb`) keeps its file, which gains a chain column, and a run for one chain of a
//! file with several gives its rows that chain. Also how a merge target is opened (a regular
//! file only) and why one is refused, which the check before any request shares.

use std::io;
use std::path::{Path, PathBuf};

use super::merge_file::{read_rows, MergeError};
use super::sqlite;
use crate::error::{Exit, Failure};
use crate::model::{Chain, Dataset, Row};
use crate::render::Format;
use crate::system::{atomic, foreign, stream};

/// What a merge target holds.
pub(super) struct Stored {
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
pub(super) fn stored(
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
pub(super) fn with_chain_column(
    mut fresh: Dataset,
    file_has_it: bool,
    chain_order: &[Chain],
) -> Dataset {
    if file_has_it && !fresh.chain_column {
        fresh.chain_column = true;
        let chain = chain_order.first().copied();
        fresh.rows.iter_mut().for_each(|row| row.chain = chain);
    }
    fresh
}

/// The old file's text, read once; `None` when there is none yet (see [`regular_file`]).
fn read_old(path: &Path) -> Result<Option<String>, Failure> {
    let Some(real) = regular_file(path)? else {
        return Ok(None);
    };
    match std::fs::read_to_string(&real) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(failure(path, format!("cannot read it to merge: {e}"))),
    }
}

/// The regular file `path` ends at, `None` when there is none yet. Anything else is refused
/// before it is opened: reading a FIFO, or this run's own stdout, would wait forever; a link
/// another user planted in a shared folder is not followed.
pub(super) fn regular_file(path: &Path) -> Result<Option<PathBuf>, Failure> {
    let not_a_file = |kind: &str| {
        failure(
            path,
            format!("is {kind}, not a regular file: --merge reads the old rows back and replaces the file"),
        )
        .with_hint("merge into a regular file, or leave out --merge to write to it as a stream")
    };
    if stream::own_descriptor(path).is_some() {
        return Err(not_a_file("one of this run's own streams"));
    }
    let real = atomic::final_target(path).map_err(|refused| {
        let failure = failure(path, format!("cannot be read to merge: {}", refused.error));
        match refused.hint {
            Some(hint) => failure.with_hint(hint),
            None => failure,
        }
    })?;
    match std::fs::metadata(&real) {
        Ok(metadata) if !metadata.is_file() => Err(not_a_file(stream::kind_of(&metadata))),
        Ok(_) => Ok(Some(real)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(failure(path, format!("cannot read it to merge: {e}"))),
    }
}

/// Why the file cannot take the fresh rows, as the user sees it.
fn refusal(path: &Path, fresh: &Dataset, problem: MergeError) -> Failure {
    match problem {
        MergeError::ColumnsDiffer(found) => failure(
            path,
            format!(
                "has the columns {} but this command writes {}: not merged",
                foreign::cut(&found, usize::MAX),
                fresh.header().join(",")
            ),
        )
        .with_hint("merge only the same command with the same chains, --include and --wide; or write to another file"),
        MergeError::Unreadable(why) => failure(path, format!("cannot be merged: {}", foreign::cut(&why, usize::MAX))),
    }
}

pub(super) fn failure(path: &Path, message: String) -> Failure {
    Failure::new(
        Exit::Output,
        format!("{} {message}; the file is left as it was", path.display()),
    )
}
