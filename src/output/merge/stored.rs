//! The rows a `--merge` (or `--resume`) target already holds, read as this run's columns
//! (matched by name). Every file a merge writes has a chain column, one chain included, so a
//! later run for another chain cannot take its rows; a file of one chain written before that
//! (no chain column) is read only when `--file-chain` names its chain, and gains the column.
//! Also how a merge target is opened (a regular file only) and why one is refused, which the
//! check before any request shares.

use std::fs::File;
use std::io::{self, Seek};
use std::path::{Path, PathBuf};

use super::columns;
use super::file::read_rows;
use super::rows::MergeError;
use super::table;
use crate::error::{Exit, Failure};
use crate::model::{Chain, Dataset, Period, Row};
use crate::render::{Format, JsonNumbers};
use crate::system::{atomic, foreign, stream};

/// A merge target, and how this run reads it.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub path: &'a Path,
    pub format: Format,
    /// The table of a SQLite file.
    pub table: &'static str,
    /// The chains asked, in order.
    pub chains: &'a [Chain],
    pub by: Period,
    /// `--file-chain`: the chain a file without a chain column holds, as its owner says.
    pub file_chain: Option<Chain>,
    /// `--json-numbers`: the style the file's numbers must have.
    pub numbers: JsonNumbers,
}

/// What a merge target holds.
pub(crate) struct Stored {
    /// Its rows; those of a file without a chain column carry the chain `--file-chain` names.
    pub rows: Vec<Row>,
    /// The chain a file without a chain column is taken as (`--file-chain`).
    pub taken_as: Option<Chain>,
}

/// The rows stored at the target (in its table, for a SQLite file), read as `shape` (this
/// run's columns, matched by name); `None` when there is no file yet. A file with other
/// columns is refused as a merge is, and so is one that does not say which chain it holds,
/// unless `--file-chain` says it.
pub(crate) fn stored(target: Target, shape: &Dataset) -> Result<Option<Stored>, Failure> {
    let path = target.path;
    let file = match target.format {
        Format::Sqlite => None,
        _ => match open_old(path)? {
            Some(file) => Some(file),
            None => return Ok(None),
        },
    };
    // A second read (as a file of one chain) starts again from the start of the same file.
    let read = |shape: &Dataset| match &file {
        Some(file) => (from_start(file))
            .and_then(|()| read_rows(file, target.format, shape, Some(target.numbers)))
            .map(Some),
        None => table::stored_rows(path, target.table, shape),
    };
    let one = Dataset {
        chain_column: false,
        columns: shape.columns.clone(),
        rows: Vec::new(),
    };
    let (rows, taken_as) = match (read(shape), target.file_chain) {
        (Ok(rows), _) => (rows, None),
        (Err(MergeError::ColumnsDiffer(m)), Some(chain)) if m.no_chain => {
            let rows = read(&one).map_err(|problem| refusal(target, &one, problem))?;
            (rows, Some(chain))
        }
        // A file of one chain with no rows (a header alone) holds nothing to mistake.
        (Err(MergeError::ColumnsDiffer(m)), None) if m.no_chain => match read(&one) {
            Ok(rows) if rows.as_ref().is_none_or(Vec::is_empty) => (rows, None),
            _ => return Err(refusal(target, shape, MergeError::ColumnsDiffer(m))),
        },
        (Err(problem), _) => return Err(refusal(target, shape, problem)),
    };
    let Some(mut rows) = rows else {
        return Ok(None);
    };
    if let (None, Some(named)) = (taken_as, target.file_chain) {
        contradicted(target.path, &rows, named)?;
    }
    if let Some(chain) = taken_as {
        rows.iter_mut().for_each(|row| row.chain = Some(chain));
    }
    Ok(Some(Stored { rows, taken_as }))
}

/// `--file-chain` names the chain of a file without a chain column: for a file whose chain
/// column says another, it is a usage error, not a flag silently ignored.
fn contradicted(path: &Path, rows: &[Row], named: Chain) -> Result<(), Failure> {
    let Some(other) = rows.iter().filter_map(|r| r.chain).find(|c| *c != named) else {
        return Ok(());
    };
    Err(Failure::usage(format!(
        "--file-chain {named} contradicts {}: its chain column holds {other}'s rows",
        path.display()
    ))
    .with_hint("--file-chain is only for a file without a chain column; leave it out"))
}

fn from_start(mut file: &File) -> Result<(), MergeError> {
    file.rewind().map_err(MergeError::Read)
}

/// The old file, opened to be read as a stream; `None` when there is none yet (see
/// [`regular_file`]).
fn open_old(path: &Path) -> Result<Option<File>, Failure> {
    let Some(real) = regular_file(path)? else {
        return Ok(None);
    };
    match File::open(&real) {
        Ok(file) => Ok(Some(file)),
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
            format!(
                "is {kind}, not a regular file: --merge reads the old rows back and replaces \
                the file"
            ),
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

/// Before a plain `-o` into an existing database: its table of that name takes this run's
/// rows (see [`table::check_plain`]).
pub(crate) fn check_database(target: Target, shape: &Dataset) -> Result<(), Failure> {
    table::check_plain(target.path, target.table, shape).map_err(|problem| match problem {
        MergeError::Unreadable(why) => Failure::new(
            Exit::Output,
            format!("cannot write {}: {why}", target.path.display()),
        ),
        columns => refusal(target, shape, columns),
    })
}

/// Why the file cannot take the fresh rows, as the user sees it: what differs, and a hint
/// by what it is.
fn refusal(target: Target, fresh: &Dataset, problem: MergeError) -> Failure {
    let path = target.path;
    match problem {
        MergeError::ColumnsDiffer(mismatch) => failure(
            path,
            format!(
                "has the columns {} but this command writes {} ({}): not merged",
                foreign::cut(&mismatch.found, usize::MAX),
                fresh.header().join(","),
                mismatch.why
            ),
        )
        .with_hint(columns::hint(&mismatch, target.chains)),
        MergeError::Unreadable(why) => failure(
            path,
            format!("cannot be merged: {}", foreign::cut(&why, usize::MAX)),
        ),
        MergeError::Read(e) => failure(path, format!("cannot read it to merge: {e}")),
    }
}

pub(super) fn failure(path: &Path, message: String) -> Failure {
    Failure::new(
        Exit::Output,
        format!("{} {message}; the file is left as it was", path.display()),
    )
}
