//! `--merge`: reads an earlier export back, checks that it has this run's columns, and upserts
//! the fresh rows into it by (date, chain), or by date for `--wide`. Number texts are kept as
//! written: nothing goes through a float.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::file::check_head;
use super::stored::{failure, regular_file, stored, Target};
use super::upsert::upsert;
use crate::error::Failure;
use crate::model::Period;
use crate::model::{Dataset, Row};
use crate::render::Format;
use crate::system::diag::Notice;

/// How much of the file the check before any request reads: enough for any header of ours.
const HEAD_BYTES: u64 = 64 * 1024;

/// The fresh rows upserted into those of the target file (fresh only, when it does not exist
/// yet or is empty), sorted by date, then chain in the service's order (see [`upsert`]). An empty
/// fresh cell keeps the stored value: a gap is not news that the value went away. Under
/// `--by`, `tell` gets the periods the file keeps because they cover more days.
pub(crate) fn merge_into(
    target: Target,
    fresh: Dataset,
    tell: &dyn Fn(Notice),
) -> Result<Dataset, Failure> {
    let path = target.path;
    let Some(old) = stored(target, &fresh)? else {
        return Ok(upsert(Vec::new(), fresh, target.chains, target.by).0);
    };
    check_period_starts(path, &old.rows, target.by)?;
    if let Some(chain) = old.taken_as {
        tell(Notice::note(format!(
            "{} has no chain column: its rows are taken as {chain}, as --file-chain says, \
             and it is written with a chain column from now on",
            path.display()
        )));
    }
    let (merged, kept) = upsert(old.rows, fresh, target.chains, target.by);
    if !kept.is_empty() {
        tell(Notice::warning(format!(
            "{} keeps its rows for {}: this run covers fewer days of those periods; \
             to replace them, ask up to each period's last day, or write without --merge",
            path.display(),
            kept.join(", ")
        )));
    }
    Ok(merged)
}

/// Under `--by`, every stored date must start a period of that kind: rows of another period
/// (weeks in a month file) would be mixed in and double-count every total. A year file's dates
/// also start quarters and months, so that mix-up alone goes unseen.
fn check_period_starts(path: &Path, old: &[Row], by: Period) -> Result<(), Failure> {
    let Some(row) = old.iter().find(|row| by.start(row.date) != row.date) else {
        return Ok(());
    };
    let first = match by {
        Period::Week => "a Monday",
        Period::Quarter => "January, April, July or October 1",
        Period::Year => "January 1",
        _ => "the 1st of a month",
    };
    let by = by.name();
    Err(failure(
        path,
        format!(
            "has a row dated {}, not the first day of a {by} ({first}): it holds rows of another \
            period; merge with the file's own --by, or write --by {by} to another file; not merged",
            row.date
        ),
    ))
}

/// Before any request: the file must take this run's rows (`empty`: its columns, no rows). A
/// SQLite file, or a text file that fits in [`HEAD_BYTES`], is checked whole, as after the
/// fetch; of a larger one only the columns are (its first line or row object), and only when
/// they differ is it read whole (a one-chain file taking several chains): its rows are read
/// once, under the lock, by [`merge_into`].
pub(crate) fn check_before_fetch(target: Target, empty: Dataset) -> Result<(), Failure> {
    let whole = |empty: Dataset| merge_into(target, empty, &|_| {}).map(|_| ());
    let (path, format) = (target.path, target.format);
    if format == Format::Sqlite {
        return whole(empty);
    }
    let Some(real) = regular_file(path)? else {
        return Ok(());
    };
    let mut head = Vec::new();
    match File::open(&real).and_then(|f| f.take(HEAD_BYTES).read_to_end(&mut head)) {
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(failure(path, format!("cannot read it to merge: {e}"))),
    }
    if (head.len() as u64) < HEAD_BYTES {
        return whole(empty);
    }
    match check_head(&String::from_utf8_lossy(&head), format, &empty) {
        Ok(()) => Ok(()),
        Err(_) => whole(empty),
    }
}
