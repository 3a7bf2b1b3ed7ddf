//! `--merge`: reads an earlier export back, checks that it has this run's columns, and upserts
//! the fresh rows into it by (date, chain), or by date for `--wide`. Number texts are kept as
//! written: nothing goes through a float.

use std::fmt;
use std::io;
use std::path::Path;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::error::{Exit, Failure};
use crate::model::parse_date;
use crate::model::Chain;
use crate::model::Period;
use crate::model::{Dataset, Number, Row};
use crate::output::stored::{stored, with_chain_column};
use crate::output::upsert::upsert;
use crate::render::Format;
use crate::system::stream;

/// What stops a merge.
pub enum MergeError {
    /// The file's columns, joined with commas.
    ColumnsDiffer(String),
    Unreadable(String),
}

/// The fresh rows upserted into those of the file at `path` (fresh only, when it does not exist
/// yet or is empty), sorted by date, then chain: chains in `chain_order` first, in that order.
/// An empty fresh cell keeps the stored value: a gap is not news that the value went away.
/// Under `--by`, `warn` gets the periods the file keeps because they cover more days.
pub fn merge_into(
    path: &Path,
    format: Format,
    table: &str,
    fresh: Dataset,
    chain_order: &[Chain],
    by: Period,
    warn: &dyn Fn(&str),
) -> Result<Dataset, Failure> {
    let Some(old) = stored(path, format, table, &fresh, chain_order)? else {
        return Ok(fresh);
    };
    check_period_starts(path, &old.rows, by)?;
    if let Some(chain) = old.taken_as {
        warn(&format!(
            "note: {} has no chain column: its rows are taken as {chain}, the first chain asked, \
             and it is written with a chain column from now on",
            path.display()
        ));
    }
    let fresh = with_chain_column(fresh, old.chain_column, chain_order);
    let (merged, kept) = upsert(old.rows, fresh, chain_order, by);
    if !kept.is_empty() {
        warn(&format!(
            "warning: {} keeps its rows for {}: this run covers fewer days of those periods; \
             to replace them, ask up to each period's last day, or write without --merge",
            path.display(),
            kept.join(", ")
        ));
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
            "has a row dated {}, not the first day of a {by} ({first}): it holds rows of another period; merge with the file's own --by, or write --by {by} to another file; not merged",
            row.date
        ),
    ))
}

/// The old file's text, `None` when there is none yet. Anything but a regular file is refused
/// before it is opened: reading a FIFO, or this run's own stdout, would wait forever.
pub(super) fn read_old(path: &Path) -> Result<Option<String>, Failure> {
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
    match std::fs::metadata(path) {
        Ok(metadata) if !metadata.is_file() => return Err(not_a_file(stream::kind_of(&metadata))),
        _ => {}
    }
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(failure(path, format!("cannot read it to merge: {e}"))),
    }
}

/// Why the file cannot take the fresh rows, as the user sees it.
pub(super) fn refusal(path: &Path, fresh: &Dataset, problem: MergeError) -> Failure {
    match problem {
        MergeError::ColumnsDiffer(found) => failure(
            path,
            format!(
                "has the columns {found} but this command writes {}: not merged",
                fresh.header().join(",")
            ),
        )
        .with_hint("merge only the same command with the same chains, --include and --wide; or write to another file"),
        MergeError::Unreadable(why) => failure(path, format!("cannot be merged: {why}")),
    }
}

fn failure(path: &Path, message: String) -> Failure {
    Failure::new(
        Exit::Output,
        format!("{} {message}; the file is left as it was", path.display()),
    )
}

pub(super) fn read_rows(
    text: &str,
    format: Format,
    data: &Dataset,
) -> Result<Vec<Row>, MergeError> {
    // A spreadsheet's UTF-8 byte order mark is no part of the first column's name.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    match format {
        Format::Csv => read_delimited(text, b',', true, data),
        Format::Tsv => read_delimited(text, b'\t', false, data),
        Format::Json => {
            let objects: Vec<Object> = serde_json::from_str(text).map_err(|e| {
                MergeError::Unreadable(format!("not a JSON array of row objects ({e})"))
            })?;
            let rows = objects.into_iter().enumerate();
            read_objects(
                rows.map(|(i, object)| (format!("row {}", i + 1), Ok(object))),
                data,
            )
        }
        Format::Ndjson => {
            // Numbered as an editor shows them: blank lines count, CRLF ends one line.
            let lines = text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty());
            read_objects(
                lines.map(|(i, line)| {
                    let object = serde_json::from_str(line).map_err(|e| {
                        MergeError::Unreadable(format!("line {}: not a row object ({e})", i + 1))
                    });
                    (format!("line {}", i + 1), object)
                }),
                data,
            )
        }
        other => Err(MergeError::Unreadable(format!(
            "{} files cannot be merged",
            other.name()
        ))),
    }
}

fn read_delimited(
    text: &str,
    delimiter: u8,
    quoting: bool,
    data: &Dataset,
) -> Result<Vec<Row>, MergeError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .delimiter(delimiter)
        .quoting(quoting)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    let bad = |e: csv::Error| match e.kind() {
        csv::ErrorKind::UnequalLengths {
            pos,
            expected_len,
            len,
        } => MergeError::Unreadable(format!(
            "line {}: {len} cells where the header has {expected_len}",
            line_at(text, pos.as_ref())
        )),
        _ => MergeError::Unreadable(e.to_string()),
    };
    let header = records.next().transpose().map_err(bad)?.unwrap_or_default();
    if !header.iter().eq(data.header()) {
        return Err(MergeError::ColumnsDiffer(
            header.iter().collect::<Vec<_>>().join(","),
        ));
    }
    records
        .map(|record| {
            let record = record.map_err(bad)?;
            let line = line_at(text, record.position());
            let cells: Vec<Option<&str>> = record
                .iter()
                .map(|c| Some(c).filter(|c| !c.is_empty()))
                .collect();
            to_row(&cells, data)
                .map_err(|why| MergeError::Unreadable(format!("line {line}: {why}")))
        })
        .collect()
}

/// The line a record starts on, counted from its byte offset: the csv reader's own count is
/// off with CRLF line ends, where a record's offset can point at the line end before it.
fn line_at(text: &str, position: Option<&csv::Position>) -> usize {
    let bytes = text.as_bytes();
    let mut start = position.map_or(0, |p| p.byte() as usize).min(bytes.len());
    while bytes.get(start).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
        start += 1;
    }
    bytes[..start].iter().filter(|b| **b == b'\n').count() + 1
}

/// Rows from row objects, each labelled with where it is (`row 3`, `line 5`). The members
/// may come in any order (`jq -S` sorts them), but they must be exactly the columns.
fn read_objects(
    objects: impl Iterator<Item = (String, Result<Object, MergeError>)>,
    data: &Dataset,
) -> Result<Vec<Row>, MergeError> {
    let header = data.header();
    objects
        .map(|(place, object)| {
            let object = object?;
            let by_column: Option<Vec<&RawValue>> = header
                .iter()
                .map(|name| object.0.iter().find(|(k, _)| k == name).map(|(_, v)| &**v))
                .collect();
            let Some(raws) = by_column.filter(|_| object.0.len() == header.len()) else {
                let keys: Vec<&str> = object.0.iter().map(|(k, _)| k.as_str()).collect();
                return Err(MergeError::ColumnsDiffer(keys.join(",")));
            };
            let cells = raws
                .into_iter()
                .map(json_cell)
                .collect::<Result<Vec<_>, _>>()
                .and_then(|cells| {
                    let cells: Vec<Option<&str>> = cells.iter().map(|c| c.as_deref()).collect();
                    to_row(&cells, data)
                });
            cells.map_err(|why| MergeError::Unreadable(format!("{place}: {why}")))
        })
        .collect()
}

/// A JSON value as cell text: strings unquoted, numbers as written, `null` a gap.
fn json_cell(raw: &RawValue) -> Result<Option<String>, String> {
    match raw.get() {
        "null" => Ok(None),
        text if text.starts_with('"') => serde_json::from_str(text)
            .map(Some)
            .map_err(|e| e.to_string()),
        text => Ok(Some(text.to_owned())),
    }
}

/// One row from its cells in header order: a date, a chain when the header has one, numbers.
pub(super) fn to_row(cells: &[Option<&str>], data: &Dataset) -> Result<Row, String> {
    let date = parse_date(cells[0].unwrap_or_default())?;
    let (chain, first_value) = match data.chain_column {
        true => {
            let name = cells[1].unwrap_or_default();
            let chain =
                Chain::from_name(name).ok_or_else(|| format!("'{name}' is not a chain name"))?;
            (Some(chain), 2)
        }
        false => (None, 1),
    };
    let values = cells[first_value..]
        .iter()
        .map(|cell| match cell {
            None => Ok(None),
            Some(text) => Number::from_json_token(text)
                .map(Some)
                .filter(|n| n.as_ref().is_some_and(|n| n.as_str() == *text))
                .ok_or_else(|| format!("'{text}' is not a number")),
        })
        .collect::<Result<_, _>>()?;
    Ok(Row {
        date,
        chain,
        values,
    })
}

/// A JSON object with its members in the order written, for naming them as the file has them.
struct Object(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Object {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Object, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = Object;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a row object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(Object(members))
            }
        }
        deserializer.deserialize_map(Members)
    }
}
