//! Reads an earlier export back for `--merge`, in csv, tsv, json or ndjson: exactly the
//! columns this run writes, every cell a date, a chain or a number as written, each key once.
//! The file is read as a stream, one pass: a record's line number is counted on from the one
//! before, and what is kept is the rows, not the text.

use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::columns::{arrange, place, Mismatch, Placement};
use super::text::{read_text, Counted};
use crate::model::{parse_date, today_utc};
use crate::model::{Chain, Dataset, Number, Row};
use crate::render::{Format, JsonNumbers};
use crate::system::foreign::{cut, echo};

/// What stops a merge.
#[derive(Debug)]
pub(crate) enum MergeError {
    ColumnsDiffer(Mismatch),
    Unreadable(String),
    /// The file cannot be read, or is not UTF-8.
    Read(io::Error),
}

impl From<io::Error> for MergeError {
    fn from(error: io::Error) -> Self {
        MergeError::Read(error)
    }
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MergeError::ColumnsDiffer(mismatch) => write!(f, "{mismatch}"),
            MergeError::Unreadable(why) => f.write_str(&shown(why)),
            MergeError::Read(e) => write!(f, "{e}"),
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
pub(crate) fn implausible(date: chrono::NaiveDate) -> Option<String> {
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

/// The rows of a merge file read from `reader` with the columns of `data`, each (date, chain)
/// once. The file is read as a stream: what is kept is its rows, and one line or row object.
pub fn read_merge_file(
    reader: impl Read,
    format: Format,
    data: &Dataset,
) -> Result<Vec<Row>, String> {
    read_rows(reader, format, data, None).map_err(|e| e.to_string())
}

/// The rows of `reader` read as `data`'s columns; `numbers`: the style json numbers must have
/// (a run with another style would rewrite every number of the file in its own).
pub(crate) fn read_rows(
    reader: impl Read,
    format: Format,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
) -> Result<Vec<Row>, MergeError> {
    let (rows, blank) = read_text(reader, |text| match format {
        Format::Csv => read_delimited(text, b',', true, data),
        Format::Tsv => read_delimited(text, b'\t', false, data),
        Format::Json => read_json(BufReader::new(text), data, numbers),
        Format::Ndjson => read_ndjson(BufReader::new(text), data, numbers),
        other => Err(MergeError::Unreadable(format!(
            "{} files cannot be merged",
            other.name()
        ))),
    })?;
    match blank {
        true => Ok(Vec::new()),
        false => rows,
    }
}

/// The rows read so far, each key once. A key written twice leaves no way to tell which row is
/// meant, and a date that cannot be is refused too: the first such row is named once the file
/// is read through, for a fault of its syntax or cells is told first.
struct Kept {
    rows: Vec<Row>,
    /// Where each key was first met (`line 3`, `row 2`: the word, and the number).
    first: HashMap<(chrono::NaiveDate, Option<Chain>), usize>,
    word: &'static str,
    refused: Option<String>,
}

impl Kept {
    fn new(word: &'static str) -> Kept {
        Kept {
            rows: Vec::new(),
            first: HashMap::new(),
            word,
            refused: None,
        }
    }

    /// Keeps `row`, met at `at` (a line or row number).
    fn keep(&mut self, at: usize, row: Row) {
        if self.refused.is_some() {
            return;
        }
        let word = self.word;
        if let Some(why) = implausible(row.date) {
            self.refused = Some(format!("{word} {at}: {why}"));
        } else if let Some(first) = self.first.insert((row.date, row.chain), at) {
            let key = match row.chain {
                Some(chain) => format!("{} {chain}", row.date),
                None => row.date.to_string(),
            };
            self.refused = Some(format!(
                "it holds the key {key} twice, on {word} {first} and on {word} {at}: remove one of them"
            ));
        }
        self.rows.push(row);
    }

    fn rows(self) -> Result<Vec<Row>, MergeError> {
        match self.refused {
            Some(why) => Err(MergeError::Unreadable(why)),
            None => Ok(self.rows),
        }
    }
}

/// The rows of a JSON array, element by element as the parser meets them. The file's syntax
/// is judged whole before its cells, as a parse of the whole array would.
fn read_json(
    text: impl Read,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
) -> Result<Vec<Row>, MergeError> {
    let mut rows = JsonRows {
        data,
        numbers,
        kept: Kept::new("row"),
        refused: None,
    };
    let mut deserializer = serde_json::Deserializer::from_reader(text);
    (deserializer.deserialize_seq(&mut rows))
        .and_then(|()| deserializer.end())
        .map_err(|e| MergeError::Unreadable(format!("not a JSON array of row objects ({e})")))?;
    match rows.refused {
        Some(problem) => Err(problem),
        None => rows.kept.rows(),
    }
}

/// What a JSON array's elements give as they come: the rows, or the first cell refused.
struct JsonRows<'a> {
    data: &'a Dataset,
    numbers: Option<JsonNumbers>,
    kept: Kept,
    refused: Option<MergeError>,
}

impl<'de> Visitor<'de> for &mut JsonRows<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut at = 0;
        while let Some(object) = seq.next_element::<Object>()? {
            at += 1;
            if self.refused.is_some() {
                continue;
            }
            match object_row(&format!("row {at}"), &object, self.data, self.numbers) {
                Ok(row) => self.kept.keep(at, row),
                Err(problem) => self.refused = Some(problem),
            }
        }
        Ok(())
    }
}

/// The rows of an ndjson file, line by line.
fn read_ndjson(
    mut text: impl BufRead,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
) -> Result<Vec<Row>, MergeError> {
    let mut kept = Kept::new("line");
    let mut bytes = Vec::new();
    // Numbered as an editor shows them: blank lines count, CRLF ends one line.
    for at in 1.. {
        bytes.clear();
        if text
            .read_until(b'\n', &mut bytes)
            .map_err(MergeError::Read)?
            == 0
        {
            break;
        }
        let line = line_of(&bytes)?;
        if line.trim().is_empty() {
            continue;
        }
        let object = serde_json::from_str(line)
            .map_err(|e| MergeError::Unreadable(format!("line {at}: not a row object ({e})")))?;
        kept.keep(
            at,
            object_row(&format!("line {at}"), &object, data, numbers)?,
        );
    }
    kept.rows()
}

/// A line read with its end, without it (a CR only before the LF), as `str::lines` gives it.
fn line_of(bytes: &[u8]) -> Result<&str, MergeError> {
    let line = match bytes.strip_suffix(b"\n") {
        Some(line) => line.strip_suffix(b"\r").unwrap_or(line),
        None => bytes,
    };
    std::str::from_utf8(line)
        .map_err(|_| MergeError::Read(io::Error::new(io::ErrorKind::InvalidData, "not UTF-8")))
}

fn read_delimited(
    text: impl Read,
    delimiter: u8,
    quoting: bool,
    data: &Dataset,
) -> Result<Vec<Row>, MergeError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .delimiter(delimiter)
        .quoting(quoting)
        .from_reader(Counted::new(text));
    let mut record = csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => {}
        Ok(false) => record = csv::StringRecord::new(),
        Err(e) => return Err(bad_record(e, reader.get_mut())),
    }
    let placement = check_header(record.iter(), data)?;
    let mut kept = Kept::new("line");
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => return kept.rows(),
            Err(e) => return Err(bad_record(e, reader.get_mut())),
        }
        let at = reader.get_mut().line_at(record.position());
        let cells = arrange(&placement, &record.iter().collect::<Vec<_>>());
        let row = to_row(&cells, data)
            .map_err(|why| MergeError::Unreadable(format!("line {at}: {why}")))?;
        kept.keep(at, row);
    }
}

/// Where this run's columns are in the header: matched by name, none unknown.
fn check_header<'a>(
    found: impl Iterator<Item = &'a str>,
    data: &Dataset,
) -> Result<Placement, MergeError> {
    let found: Vec<&str> = found.collect();
    Ok(place(&found, data)?)
}

fn bad_record<R: Read>(e: csv::Error, lines: &mut Counted<R>) -> MergeError {
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

/// A row from a row object, met at `place` (`row 3`, `line 5`). The members may come in any
/// order (`jq -S` sorts them), but they must be exactly the columns.
fn object_row(
    place: &str,
    object: &Object,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
) -> Result<Row, MergeError> {
    let keys = data.header().len() - data.columns.len();
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
    cells.map_err(|why| MergeError::Unreadable(format!("{place}: {why}")))
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
pub(crate) fn to_row(cells: &[Option<&str>], data: &Dataset) -> Result<Row, String> {
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
    let mut deserializer = serde_json::Deserializer::from_str(head);
    // The rest of the array is not read, so the end the parser expects is missing: not a fault.
    first_element(&mut deserializer, false).0
}

/// The first element of the JSON array `deserializer` holds (`None`: it is empty), and the
/// fault of the array, if any; `whole`: the other elements are read too (and left), so that a
/// fault anywhere in the array is one.
pub(crate) fn first_element<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
    whole: bool,
) -> (Option<T>, Result<(), D::Error>) {
    struct First<T>(Option<T>, bool);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for &mut First<T> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            self.0 = seq.next_element()?;
            while self.1 && self.0.is_some() && seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(())
        }
    }
    let mut first = First(None, whole);
    let fault = deserializer.deserialize_seq(&mut first);
    (first.0, fault)
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
