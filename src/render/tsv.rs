//! TSV: like csv with tabs; no cell can hold a tab or a line break (dates, chain names, numbers
//! and plain labels), so nothing needs quoting.

use std::io::{self, Write};

use super::RenderOptions;
use crate::model::Dataset;

pub(super) fn write(data: &Dataset, style: RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let header = (!style.no_header).then(|| data.header());
    let rows = data.rows.iter().map(|row| super::cells(data, row));
    let summary = super::summary_cells(data, style)?;
    write_cells(header, rows.chain(summary), out)
}

/// Writes a header (if any) and rows of cells, tab-separated, one line each.
pub(super) fn write_cells<H: AsRef<str>, C: AsRef<str>>(
    header: Option<Vec<H>>,
    rows: impl Iterator<Item = Vec<C>>,
    out: &mut dyn Write,
) -> io::Result<()> {
    if let Some(header) = header {
        writeln!(out, "{}", join(&header))?;
    }
    for row in rows {
        writeln!(out, "{}", join(&row))?;
    }
    Ok(())
}

fn join<C: AsRef<str>>(cells: &[C]) -> String {
    cells
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join("\t")
}
