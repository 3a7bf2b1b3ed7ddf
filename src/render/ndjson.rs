//! NDJSON: one row object a line, in the same shape as a json row; with `--summary`, a line per
//! statistic after the rows, its `date` the statistic's name (`total`, `mean`, `min`, `max`).

use std::io::{self, Write};

use super::RenderOptions;
use crate::analysis::summary_rows;
use crate::model::Dataset;

pub(super) fn write(data: &Dataset, style: RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    for row in &data.rows {
        writeln!(out, "{}", super::json::object(data, row, style))?;
    }
    if style.summary {
        let rows = summary_rows(data, style.decimals).map_err(io::Error::other)?;
        for (label, chain, values) in rows {
            writeln!(
                out,
                "{}",
                super::json::footer(data, (label, chain), &values, style)
            )?;
        }
    }
    Ok(())
}
