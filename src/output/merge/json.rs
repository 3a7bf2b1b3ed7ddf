//! An earlier export read back in json or ndjson: row objects whose members may come in any
//! order (`jq -S` sorts them), each cell a date, a chain or a number as written, the numbers in
//! the style this run writes.

use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead, Read};

use serde::de::{
    Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::value::RawValue;

use super::columns::place;
use super::rows::{to_row, Kept, MergeError, Summaries};
use crate::model::{Dataset, Row};
use crate::render::JsonNumbers;
use crate::system::foreign::cut;

/// The rows of a JSON array, element by element as the parser meets them. The file's syntax
/// is judged whole before its cells, as a parse of the whole array would.
pub(super) fn read_json(
    text: impl Read,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
    kept: Kept,
) -> Result<(Vec<Row>, Summaries), MergeError> {
    let skipping = kept.skipping();
    let mut rows = JsonRows {
        data,
        numbers,
        kept,
        refused: None,
    };
    let mut deserializer = serde_json::Deserializer::from_reader(text);
    // `--summary`'s json is an object, `{"rows": [...], "summary": {...}}`: read where the
    // summary is passed over (`render`), refused as any other object where it is not.
    let read = match skipping {
        true => deserializer.deserialize_any(&mut rows),
        false => deserializer.deserialize_seq(&mut rows),
    };
    (read.and_then(|()| deserializer.end()))
        .map_err(|e| MergeError::Unreadable(format!("not a JSON array of row objects ({e})")))?;
    match rows.refused {
        Some(problem) => Err(problem),
        None => rows.kept.rows_and_summaries(),
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
            if self.kept.skips(object.date().as_deref()) {
                continue;
            }
            match object_row(&format!("row {at}"), &object, self.data, self.numbers) {
                Ok(row) => self.kept.keep(at, row),
                Err(problem) => self.refused = Some(problem),
            }
        }
        Ok(())
    }

    /// `--summary`'s object: its `rows` read as the array, its `summary` passed over (its
    /// members counted as the summary rows they are).
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut summaries = 0;
        summary_members(
            &mut map,
            &mut |map| map.next_value_seed(SeqSeed(&mut *self)),
            &mut |members| summaries += members,
        )?;
        self.kept.skipped(summaries);
        Ok(())
    }
}

/// The rows of an ndjson file, line by line.
pub(super) fn read_ndjson(
    mut text: impl BufRead,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
    mut kept: Kept,
) -> Result<(Vec<Row>, Summaries), MergeError> {
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
        let object: Object = serde_json::from_str(line)
            .map_err(|e| MergeError::Unreadable(format!("line {at}: not a row object ({e})")))?;
        if kept.skips(object.date().as_deref()) {
            continue;
        }
        kept.keep(
            at,
            object_row(&format!("line {at}"), &object, data, numbers)?,
        );
    }
    kept.rows_and_summaries()
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

/// The first element of a JSON array, parsed without reading the rest.
pub(super) fn first_object(head: &str) -> Option<Object> {
    let mut deserializer = serde_json::Deserializer::from_str(head);
    // The rest of the array is not read, so the end the parser expects is missing: not a fault.
    first_element(&mut deserializer, false).0
}

/// The first element of the JSON array `deserializer` holds (`None`: it is empty), and the
/// fault of the array, if any; `whole`: the other elements are read too (and left), so that a
/// fault anywhere in the array is one.
fn first_element<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
    whole: bool,
) -> (Option<T>, Result<(), D::Error>) {
    let mut first = First(None, whole);
    let fault = deserializer.deserialize_seq(&mut first);
    (first.0, fault)
}

/// [`first_element`] of a whole export's rows: the array, or the `rows` array of `--summary`'s
/// object (`{"rows": [...], "summary": {...}}`), the rest read through and left.
pub(crate) fn first_row<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> (Option<T>, Result<(), D::Error>) {
    let mut first = First(None, true);
    let fault = deserializer.deserialize_any(&mut first);
    (first.0, fault)
}

/// The first element met, and whether the others are read through.
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
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        summary_members(
            &mut map,
            &mut |map| map.next_value_seed(SeqSeed(&mut *self)),
            &mut |_| (),
        )
    }
}

/// `--summary`'s json object read: `rows` by `rows`, `summary` passed over (`on_summary` told
/// how many members it has: labels, or chains of labels), no other member and each once.
fn summary_members<'de, A: MapAccess<'de>>(
    map: &mut A,
    rows: &mut dyn FnMut(&mut A) -> Result<(), A::Error>,
    on_summary: &mut dyn FnMut(usize),
) -> Result<(), A::Error> {
    use serde::de::Error;
    let (mut seen_rows, mut seen_summary) = (false, false);
    while let Some(name) = map.next_key::<String>()? {
        match name.as_str() {
            "rows" if !seen_rows => {
                seen_rows = true;
                rows(map)?;
            }
            "summary" if !seen_summary => {
                seen_summary = true;
                on_summary(map.next_value::<HashMap<String, IgnoredAny>>()?.len());
            }
            other => return Err(A::Error::custom(format!("unexpected member {other:?}"))),
        }
    }
    match seen_rows {
        true => Ok(()),
        false => Err(A::Error::missing_field("rows")),
    }
}

/// A sequence read by the visitor it holds (a member of an object read as an array).
struct SeqSeed<V>(V);

impl<'de, V: Visitor<'de, Value = ()>> DeserializeSeed<'de> for SeqSeed<V> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self.0)
    }
}

/// A JSON object with its members in the order written, for naming them as the file has them.
pub(super) struct Object(Vec<(String, Box<RawValue>)>);

impl Object {
    /// The text of the `date` member, when it is a JSON string.
    fn date(&self) -> Option<String> {
        let (_, raw) = self.0.iter().find(|(name, _)| name == "date")?;
        serde_json::from_str(raw.get()).ok()
    }

    /// The values in the order of `data`'s columns, matched by name (`None`: no such member).
    pub(super) fn in_order(&self, data: &Dataset) -> Result<Vec<Option<&RawValue>>, MergeError> {
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
