//! Reads an earlier export back for `--merge`, in csv, tsv, json or ndjson: exactly the
//! columns this run writes, every cell a date, a chain or a number as written, each key once.
//! The file is read as a stream, one pass: a record's line number is counted on from the one
//! before, and what is kept is the rows, not the text.

use std::io::{BufReader, Read};

use super::columns::{arrange, place, Placement};
use super::json::{first_object, read_json, read_ndjson, Object};
use super::rows::{to_row, Kept, MergeError, Summaries};
use super::text::{read_text, Counted};
use crate::model::{Dataset, Row};
use crate::render::{Format, JsonNumbers};

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
    read_rows_with(reader, format, data, numbers, Summaries::Refused).map(|(rows, _)| rows)
}

/// [`read_rows`], with the `--summary` rows of the tool's own exports refused or passed over
/// and counted, as `summaries` says.
pub(crate) fn read_rows_with(
    reader: impl Read,
    format: Format,
    data: &Dataset,
    numbers: Option<JsonNumbers>,
    summaries: Summaries,
) -> Result<(Vec<Row>, Summaries), MergeError> {
    let kept = |word| Kept::new(word, summaries);
    let (rows, blank) = read_text(reader, |text| match format {
        Format::Csv => read_delimited(text, b',', true, data, kept("line")),
        Format::Tsv => read_delimited(text, b'\t', false, data, kept("line")),
        Format::Json => read_json(BufReader::new(text), data, numbers, kept("row")),
        Format::Ndjson => read_ndjson(BufReader::new(text), data, numbers, kept("line")),
        other => Err(MergeError::Unreadable(format!(
            "{} files cannot be merged",
            other.name()
        ))),
    })?;
    match blank {
        true => Ok((Vec::new(), summaries)),
        false => rows,
    }
}

fn read_delimited(
    text: impl Read,
    delimiter: u8,
    quoting: bool,
    data: &Dataset,
    mut kept: Kept,
) -> Result<(Vec<Row>, Summaries), MergeError> {
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
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => return kept.rows_and_summaries(),
            Err(e) => return Err(bad_record(e, reader.get_mut())),
        }
        let at = reader.get_mut().line_at(record.position());
        let cells = arrange(&placement, &record.iter().collect::<Vec<_>>());
        if kept.skips(cells[0]) {
            continue;
        }
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
