//! Reads an earlier export back for `--merge`, in csv, tsv, json or ndjson: exactly the
//! columns this run writes, every cell a date, a chain or a number as written, each key once.
//! One pass over the text: a record's line number is counted on from the one before.

use std::collections::HashMap;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::columns::{arrange, place, Mismatch, Placement};
use crate::model::{parse_date, today_utc};
use crate::model::{Chain, Dataset, Number, Row};
use crate::render::{Format, JsonNumbers};
use crate::system::foreign::{cut, echo};

/// What stops a merge.
#[derive(Debug)]
pub(super) enum MergeError {
    ColumnsDiffer(Mismatch),
    Unreadable(String),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MergeError::ColumnsDiffer(mismatch) => write!(f, "{mismatch}"),
            MergeError::Unreadable(why) => f.write_str(&shown(why)),
        }
    }
}

impl From<Mismatch> for MergeError {
    fn from(mismatch: Mismatch) -> MergeError {
        MergeError::ColumnsDiffer(mismatch)
    }
}

/// A file's text in a message, made safe to print (it may have come from anyone).
fn shown(text: &str) -> String {
    cut(text, usize::MAX)
}

/// The first day a row of ours can plausibly have: the first day of the year Ethereum began
/// (2015-07-30), before which no supported chain has data, so that a `--by year` row of 2015
/// passes. A date before it is a typo (`0024-01-01`) that would make `--resume` ask for
/// centuries.
const FIRST_PLAUSIBLE_DAY: chrono::NaiveDate = match chrono::NaiveDate::from_ymd_opt(2015, 1, 1) {
    Some(day) => day,
    None => chrono::NaiveDate::MIN,
};

/// Why a stored `date` cannot be: after today (UTC), which would stall `--resume` for good, or
/// before any chain had data.
pub(super) fn implausible(date: chrono::NaiveDate) -> Option<String> {
    let today = today_utc();
    if date > today {
        return Some(format!(
            "it is dated {date}, after today ({today} UTC): a typo? correct or remove that row"
        ));
    }
    (date < FIRST_PLAUSIBLE_DAY).then(|| {
        format!("it is dated {date}, before {FIRST_PLAUSIBLE_DAY}, when no supported chain had data yet: a typo? correct or remove that row")
    })
}

/// A row where the file has it (`line 3`, `row 2`), for naming it in messages.
type Placed = (String, Row);

/// The rows of a merge file's `text` with the columns of `data`, each (date, chain) once.
pub fn read_merge_file(text: &str, format: Format, data: &Dataset) -> Result<Vec<Row>, String> {
    read_rows(text, format, data, None).map_err(|e| e.to_string())
}

/// The rows of `text` read as `data`'s columns; `numbers`: the style json numbers must have
/// (a run with another style would rewrite every number of the file in its own).
pub(super) fn read_rows(
    text: &str,
    format: Format,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
) -> Result<Vec<Row>, MergeError> {
    // A spreadsheet's UTF-8 byte order mark is no part of the first column's name.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let placed = match format {
        Format::Csv => read_delimited(text, b',', true, data),
        Format::Tsv => read_delimited(text, b'\t', false, data),
        Format::Json => read_json(text, data, numbers),
        Format::Ndjson => read_ndjson(text, data, numbers),
        other => Err(MergeError::Unreadable(format!(
            "{} files cannot be merged",
            other.name()
        ))),
    }?;
    refuse_duplicates(placed)
}

/// A key written twice leaves no way to tell which row is meant: refused, naming both. A date
/// that cannot be is refused too, naming its place.
fn refuse_duplicates(placed: Vec<Placed>) -> Result<Vec<Row>, MergeError> {
    let mut seen: HashMap<(chrono::NaiveDate, Option<Chain>), usize> = HashMap::new();
    for (index, (place, row)) in placed.iter().enumerate() {
        if let Some(why) = implausible(row.date) {
            return Err(MergeError::Unreadable(format!("{place}: {why}")));
        }
        if let Some(first) = seen.insert((row.date, row.chain), index) {
            let key = match row.chain {
                Some(chain) => format!("{} {chain}", row.date),
                None => row.date.to_string(),
            };
            return Err(MergeError::Unreadable(format!(
                "it holds the key {key} twice, on {} and on {place}: remove one of them",
                placed[first].0
            )));
        }
    }
    Ok(placed.into_iter().map(|(_, row)| row).collect())
}

fn read_json(
    text: &str,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
) -> Result<Vec<Placed>, MergeError> {
    let objects: Vec<Object> = serde_json::from_str(text)
        .map_err(|e| MergeError::Unreadable(format!("not a JSON array of row objects ({e})")))?;
    let rows = objects.into_iter().enumerate();
    read_objects(
        rows.map(|(i, object)| (format!("row {}", i + 1), Ok(object))),
        data,
        numbers,
    )
}

fn read_ndjson(
    text: &str,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
) -> Result<Vec<Placed>, MergeError> {
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
        numbers,
    )
}

fn read_delimited(
    text: &str,
    delimiter: u8,
    quoting: bool,
    data: &Dataset,
) -> Result<Vec<Placed>, MergeError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .delimiter(delimiter)
        .quoting(quoting)
        .from_reader(text.as_bytes());
    let mut lines = Lines::new(text);
    let mut records = reader.records();
    let header = match records.next() {
        Some(header) => header.map_err(|e| bad_record(e, &mut lines))?,
        None => csv::StringRecord::new(),
    };
    let placement = check_header(header.iter(), data)?;
    let mut rows = Vec::new();
    for record in records {
        let record = record.map_err(|e| bad_record(e, &mut lines))?;
        let place = format!("line {}", lines.line_at(record.position()));
        let cells = arrange(&placement, &record.iter().collect::<Vec<_>>());
        let row = to_row(&cells, data)
            .map_err(|why| MergeError::Unreadable(format!("{place}: {why}")))?;
        rows.push((place, row));
    }
    Ok(rows)
}

/// Where this run's columns are in the header: matched by name, none unknown.
fn check_header<'a>(
    found: impl Iterator<Item = &'a str>,
    data: &Dataset,
) -> Result<Placement, MergeError> {
    let found: Vec<&str> = found.collect();
    Ok(place(&found, data)?)
}

fn bad_record(e: csv::Error, lines: &mut Lines) -> MergeError {
    match e.kind() {
        csv::ErrorKind::UnequalLengths {
            pos,
            expected_len,
            len,
        } => MergeError::Unreadable(format!(
            "line {}: {len} cells where the header has {expected_len}",
            lines.line_at(pos.as_ref())
        )),
        _ => MergeError::Unreadable(e.to_string()),
    }
}

/// Line numbers of records met in order, each counted on from the one before, so a file of a
/// million rows is counted once rather than once per row.
struct Lines<'a> {
    bytes: &'a [u8],
    /// The offset counted up to, and the line it is on.
    offset: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines {
            bytes: text.as_bytes(),
            offset: 0,
            line: 1,
        }
    }

    /// The line a record starts on, from its byte offset: the csv reader's own count is off
    /// with CRLF line ends, where a record's offset can point at the line end before it.
    fn line_at(&mut self, position: Option<&csv::Position>) -> usize {
        let bytes = self.bytes;
        let mut start = position.map_or(0, |p| p.byte() as usize).min(bytes.len());
        while bytes.get(start).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
            start += 1;
        }
        if start < self.offset {
            // Records come in order; were one to come back, count again from the start.
            (self.offset, self.line) = (0, 1);
        }
        self.line += bytes[self.offset..start]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        self.offset = start;
        self.line
    }
}

/// Rows from row objects, each labelled with where it is (`row 3`, `line 5`). The members
/// may come in any order (`jq -S` sorts them), but they must be exactly the columns.
fn read_objects(
    objects: impl Iterator<Item = (String, Result<Object, MergeError>)>,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
) -> Result<Vec<Placed>, MergeError> {
    let keys = data.header().len() - data.columns.len();
    objects
        .map(|(place, object)| {
            let object = object?;
            let raws = object.in_order(data)?;
            let style = other_style(&raws[keys..], numbers);
            let cells = raws
                .into_iter()
                .map(|raw| raw.map_or(Ok(None), json_cell))
                .collect::<Result<Vec<_>, _>>()
                .and_then(|cells| {
                    let cells: Vec<Option<&str>> = cells.iter().map(|c| c.as_deref()).collect();
                    to_row(&cells, data)
                });
            // A cell that is no number is named as such before the style of the others.
            let cells = cells.and_then(|row| style.map_or(Ok(row), Err));
            cells
                .map(|row| (place.clone(), row))
                .map_err(|why| MergeError::Unreadable(format!("{place}: {why}")))
        })
        .collect()
}

/// Why a row's numbers (`values`) are not written in the style `numbers`: a run in another
/// style would rewrite every number of the file in its own.
fn other_style(values: &[Option<&RawValue>], numbers: Option<JsonNumbers>) -> Option<String> {
    let numbers = numbers?;
    let written = (values.iter().flatten()).find(|raw| raw.get() != "null")?;
    let (file, flag) = match (written.get().starts_with('"'), numbers) {
        (true, JsonNumbers::Number) => ("strings", "--json-numbers string"),
        (false, JsonNumbers::String) => ("numbers", "--json-numbers number (the default)"),
        _ => return None,
    };
    Some(format!(
        "its numbers are JSON {file} ({}), and this run writes them otherwise: merge with {flag}",
        cut(written.get(), 40)
    ))
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
            let chain = Chain::from_name(name)
                .ok_or_else(|| format!("{} is not a chain name", echo(name)))?;
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
                .filter(|n| n.as_ref().is_some_and(|n| &*n.as_str() == *text))
                .ok_or_else(|| format!("{} is not a number", echo(text))),
        })
        .collect::<Result<_, _>>()?;
    Ok(Row {
        date,
        chain,
        values,
        coverage: None,
    })
}

/// The columns in the first line of a csv or tsv file, or the members of the first row of a
/// json or ndjson one, when `head` (the start of a large file) holds them whole: the check
/// made before any request, which reads no more of the file than that.
pub(super) fn check_head(head: &str, format: Format, data: &Dataset) -> Result<(), MergeError> {
    let head = head.strip_prefix('\u{feff}').unwrap_or(head);
    // Whole lines only: the last one may be cut.
    let mut lines = head.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let first = lines
        .find(|l| !l.trim().is_empty())
        .filter(|_| lines.next().is_some());
    match (format, first) {
        // Quoted names are left to the full read, which parses them.
        (Format::Csv, Some(line)) if !line.contains('"') => {
            check_header(line.split(','), data).map(|_| ())
        }
        (Format::Tsv, Some(line)) => check_header(line.split('\t'), data).map(|_| ()),
        (Format::Ndjson, Some(line)) => match serde_json::from_str::<Object>(line) {
            Ok(object) => object.in_order(data).map(|_| ()),
            Err(_) => Ok(()),
        },
        (Format::Json, _) => match first_object(head) {
            Some(object) => object.in_order(data).map(|_| ()),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// The first element of a JSON array, parsed without reading the rest.
fn first_object(head: &str) -> Option<Object> {
    struct First<'s>(&'s mut Option<Object>);
    impl<'de> Visitor<'de> for First<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an array of row objects")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            *self.0 = seq.next_element()?;
            Ok(())
        }
    }
    let mut first = None;
    let mut deserializer = serde_json::Deserializer::from_str(head);
    // The rest of the array is not read, so the end the parser expects is missing: not a fault.
    let _ = deserializer.deserialize_seq(First(&mut first));
    first
}

/// A JSON object with its members in the order written, for naming them as the file has them.
struct Object(Vec<(String, Box<RawValue>)>);

impl Object {
    /// The values in the order of `data`'s columns, matched by name (`None`: no such member).
    fn in_order(&self, data: &Dataset) -> Result<Vec<Option<&RawValue>>, MergeError> {
        let keys: Vec<&str> = self.0.iter().map(|(k, _)| k.as_str()).collect();
        let placement = place(&keys, data)?;
        Ok((placement.iter())
            .map(|at| at.map(|at| &*self.0[at].1))
            .collect())
    }
}

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
