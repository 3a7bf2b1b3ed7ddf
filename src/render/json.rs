//! JSON: one array of row objects, one per line; numbers exactly as sent, gaps `null`.

use std::io::{self, Write};

use crate::model::Dataset;

pub fn write(data: &Dataset, out: &mut dyn Write) -> io::Result<()> {
    if data.rows.is_empty() {
        return writeln!(out, "[]");
    }
    writeln!(out, "[")?;
    for (i, row) in data.rows.iter().enumerate() {
        write!(out, "  {{\"date\":\"{}\"", row.date)?;
        if data.chain_column {
            write!(out, ",\"chain\":\"{}\"", row.chain.name())?;
        }
        for (column, value) in data.columns.iter().zip(&row.values) {
            let value = value.as_ref().map_or("null", |n| n.as_str());
            write!(out, ",\"{}\":{value}", column.name())?;
        }
        let comma = if i + 1 < data.rows.len() { "," } else { "" };
        writeln!(out, "}}{comma}")?;
    }
    writeln!(out, "]")
}
