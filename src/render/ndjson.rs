//! NDJSON: one row object a line, the same objects as `json`, for streaming tools and `jq -c`.

use std::io::{self, Write};

use crate::model::Dataset;

pub fn write(data: &Dataset, out: &mut dyn Write) -> io::Result<()> {
    for row in &data.rows {
        writeln!(out, "{}", super::json::object(data, row))?;
    }
    Ok(())
}
