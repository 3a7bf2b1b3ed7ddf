//! Markdown: a pipe table for notes and pull requests, padded so it also reads as plain text;
//! numbers grouped and right-aligned as in `table`.

use std::io::{self, Write};

use super::{display_rows, RenderOptions};
use crate::model::Dataset;

pub(super) fn write(data: &Dataset, style: RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let first_number = data.header().len() - data.columns.len();
    write_cells(
        &data.header(),
        &display_rows(data, style),
        first_number,
        out,
    )
}

/// Writes a pipe table; columns from `first_number` on are right-aligned.
pub(super) fn write_cells<H: AsRef<str>>(
    header: &[H],
    rows: &[Vec<String>],
    first_number: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let header: Vec<String> = header.iter().map(|h| escape(h.as_ref())).collect();
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().map(|c| escape(c)).collect())
        .collect();
    let widths = widths(&header, &rows);
    writeln!(out, "{}", line(&header, &widths, first_number))?;
    writeln!(out, "{}", rule(&widths, first_number))?;
    for row in &rows {
        writeln!(out, "{}", line(row, &widths, first_number))?;
    }
    Ok(())
}

/// Each column's width: its widest cell, header included, and at least 3.
fn widths(header: &[String], rows: &[Vec<String>]) -> Vec<usize> {
    (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|row| row[i].chars().count())
                .chain([header[i].chars().count(), 3])
                .max()
                .unwrap_or(3)
        })
        .collect()
}

/// One table line, each cell padded to its column's width.
fn line(cells: &[String], widths: &[usize], first_number: usize) -> String {
    let padded: Vec<String> = cells
        .iter()
        .enumerate()
        .map(|(i, cell)| match i >= first_number {
            true => format!("{cell:>width$}", width = widths[i]),
            false => format!("{cell:<width$}", width = widths[i]),
        })
        .collect();
    format!("| {} |", padded.join(" | "))
}

/// The line under the header; a colon on the right of a rule right-aligns its column.
fn rule(widths: &[usize], first_number: usize) -> String {
    let rules: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(i, width)| match i >= first_number {
            true => format!("{}:", "-".repeat(width + 1)),
            false => "-".repeat(width + 2),
        })
        .collect();
    format!("|{}|", rules.join("|"))
}

/// A pipe inside a cell would end it.
fn escape(cell: &str) -> String {
    cell.replace('|', "\\|")
}
