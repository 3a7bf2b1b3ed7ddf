//! JSON: one array of row objects, one per line; numbers exactly as sent, gaps `null`.

use std::io::{self, Write};

use crate::model::{Dataset, Row};

pub fn write(data: &Dataset, out: &mut dyn Write) -> io::Result<()> {
    if data.rows.is_empty() {
        return writeln!(out, "[]");
    }
    writeln!(out, "[")?;
    for (i, row) in data.rows.iter().enumerate() {
        let comma = if i + 1 < data.rows.len() { "," } else { "" };
        writeln!(out, "  {}{comma}", object(data, row))?;
    }
    writeln!(out, "]")
}

/// One row as a JSON object on one line, keys in header order.
pub(super) fn object(data: &Dataset, row: &Row) -> String {
    let mut text = format!("{{\"date\":\"{}\"", row.date);
    if data.chain_column {
        text.push_str(&format!(",\"chain\":\"{}\"", Dataset::chain_cell(row)));
    }
    for (column, value) in data.columns.iter().zip(&row.values) {
        let value = value.as_ref().map_or("null", |n| n.as_str());
        let key = serde_json::to_string(column).expect("a string serialises");
        text.push_str(&format!(",{key}:{value}"));
    }
    text.push('}');
    text
}
