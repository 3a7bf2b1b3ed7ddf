//! JSON: one array of row objects, one per line; numbers exactly as sent, gaps `null`. With
//! `--summary`, an object instead: `{"rows": [...], "summary": {...}}`.

use std::io::{self, Write};

use super::RenderOptions;
use crate::analysis::summary_rows;
use crate::model::{Dataset, Number, Row};

pub(super) fn write(data: &Dataset, style: RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    if style.summary {
        return write_with_summary(data, style, out);
    }
    if data.rows.is_empty() {
        return writeln!(out, "[]");
    }
    writeln!(out, "[")?;
    write_rows(data, style, "  ", out)?;
    writeln!(out, "]")
}

/// The row objects, one a line, each after `indent`, commas between.
fn write_rows(
    data: &Dataset,
    style: RenderOptions,
    indent: &str,
    out: &mut dyn Write,
) -> io::Result<()> {
    for (i, row) in data.rows.iter().enumerate() {
        let comma = if i + 1 < data.rows.len() { "," } else { "" };
        writeln!(out, "{indent}{}{comma}", object(data, row, style))?;
    }
    Ok(())
}

/// `{"rows": [...], "summary": {"total": {...}, "mean": ..., "min": ..., "max": ...}}`; with a
/// chain column the summary has one such object per chain: `"summary": {"ETHEREUM": {...}}`.
fn write_with_summary(data: &Dataset, style: RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{{\"rows\":[")?;
    write_rows(data, style, "  ", out)?;
    writeln!(out, "],\n\"summary\":{{")?;
    let rows = summary_rows(data, style.decimals).map_err(io::Error::other)?;
    let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
    for (label, chain, values) in &rows {
        let stat = format!("\"{label}\":{}", members(data, values, "{", style));
        match groups.last_mut() {
            Some((last, stats)) if *last == *chain => stats.push(stat),
            _ => groups.push((chain, vec![stat])),
        }
    }
    let lines: Vec<String> = match data.chain_column {
        true => (groups.iter())
            .map(|(chain, stats)| format!("  \"{chain}\":{{{}}}", stats.join(",")))
            .collect(),
        false => groups
            .iter()
            .flat_map(|(_, stats)| stats.iter().map(|s| format!("  {s}")))
            .collect(),
    };
    writeln!(out, "{}", lines.join(",\n"))?;
    writeln!(out, "}}}}")
}

/// One row as a JSON object on one line, keys in header order.
pub(super) fn object(data: &Dataset, row: &Row, style: RenderOptions) -> String {
    let mut text = format!("{{\"date\":\"{}\"", row.date);
    if data.chain_column {
        text.push_str(&format!(",\"chain\":\"{}\"", Dataset::chain_cell(row)));
    }
    text.push_str(&members(data, &row.values, ",", style));
    text
}

/// A summary row as an ndjson line: `{"date":"total","chain":"ETHEREUM","fees":...}`.
pub(super) fn footer(
    data: &Dataset,
    (label, chain): (&str, &str),
    values: &[Option<Number>],
    style: RenderOptions,
) -> String {
    let mut text = format!("{{\"date\":\"{label}\"");
    if data.chain_column {
        text.push_str(&format!(",\"chain\":\"{chain}\""));
    }
    text.push_str(&members(data, values, ",", style));
    text
}

/// `,"fees":0.1,"tweet":null}` (or `{"fees":...}` with `open` `{`): the values as members.
fn members(data: &Dataset, values: &[Option<Number>], open: &str, style: RenderOptions) -> String {
    let mut text = String::new();
    for (i, (column, value)) in data.columns.iter().zip(values).enumerate() {
        let value = match value {
            None => "null".to_owned(),
            // `--json-numbers string`: the exact text as a JSON string, which jq keeps whole.
            Some(n) if style.json_strings => format!("\"{}\"", n.as_str()),
            Some(n) => n.as_str().to_owned(),
        };
        let key = serde_json::to_string(&column.name()).expect("a string serialises");
        let lead = if i == 0 { open } else { "," };
        text.push_str(&format!("{lead}{key}:{value}"));
    }
    if data.columns.is_empty() && open == "{" {
        text.push('{');
    }
    text.push('}');
    text
}
