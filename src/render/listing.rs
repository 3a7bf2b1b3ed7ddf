//! A small fixed listing (`chains`) in every format but the charts (chart, svg, html): the same
//! writers as the daily
//! series, fed with cells that are JSON values, so that `json` keeps numbers and arrays typed.

use std::io::{self, Write};

use serde_json::{Map, Value};

use super::{csv, markdown, tsv, Format};

/// Writes `rows` under `header`; `format` must not be `chart` (a listing is no series). A
/// table is drawn in ASCII when `utf8` is false (a locale that is not UTF-8).
pub(crate) fn write(
    header: &[&str],
    rows: &[Vec<Value>],
    format: Format,
    utf8: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Table => writeln!(out, "{}", table(header, rows, utf8)),
        Format::Csv => write_csv(header, rows, out),
        Format::Tsv => tsv::write_cells(Some(header.to_vec()), texts(rows), out),
        Format::Markdown => {
            markdown::write_cells(header, &texts(rows).collect::<Vec<_>>(), header.len(), out)
        }
        Format::Json => {
            let objects = Value::Array(rows.iter().map(|row| object(header, row)).collect());
            writeln!(out, "{objects:#}")
        }
        Format::Ndjson => rows
            .iter()
            .try_for_each(|row| writeln!(out, "{}", object(header, row))),
        Format::Chart | Format::Svg | Format::Html => {
            Err(io::Error::other("a listing has no chart"))
        }
        Format::Sqlite | Format::Postgres => Err(io::Error::other("a listing is written as text")),
    }
}

/// comfy-table draws this small table; the series tables are written row by row.
fn table(header: &[&str], rows: &[Vec<Value>], utf8: bool) -> comfy_table::Table {
    let mut table = comfy_table::Table::new();
    // Without comfy-table's `tty` feature it never styles or measures a terminal.
    table.load_preset(match utf8 {
        true => comfy_table::presets::UTF8_FULL_CONDENSED,
        false => comfy_table::presets::ASCII_FULL_CONDENSED,
    });
    table.set_header(header).add_rows(texts(rows));
    table
}

fn write_csv(header: &[&str], rows: &[Vec<Value>], out: &mut dyn Write) -> io::Result<()> {
    let mut writer = ::csv::Writer::from_writer(out);
    writer.write_record(header).map_err(csv::into_io)?;
    texts(rows)
        .try_for_each(|row| writer.write_record(row))
        .map_err(csv::into_io)?;
    writer.flush()
}

/// Each row's cells as text.
fn texts(rows: &[Vec<Value>]) -> impl Iterator<Item = Vec<String>> + '_ {
    rows.iter().map(|row| row.iter().map(text).collect())
}

/// A cell as text: strings bare, arrays joined with commas.
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

fn object(header: &[&str], row: &[Value]) -> Value {
    let members: Map<String, Value> = header
        .iter()
        .map(|h| (*h).to_owned())
        .zip(row.iter().cloned())
        .collect();
    Value::Object(members)
}
