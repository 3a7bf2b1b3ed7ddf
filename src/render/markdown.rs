//! Markdown: a pipe table for notes and pull requests, padded so it also reads as plain text;
//! numbers grouped, right-aligned and lined up on the decimal point as in `table` (a renderer
//! trims the padding; the text keeps it).

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
    let rows = on_points(rows, first_number);
    let widths = widths(&header, &rows);
    writeln!(out, "{}", line(&header, &widths, first_number))?;
    writeln!(out, "{}", rule(&widths, first_number))?;
    for row in &rows {
        writeln!(out, "{}", line(row, &widths, first_number))?;
    }
    Ok(())
}

/// The number cells padded after their fraction, so that the points of a column line up.
fn on_points(mut rows: Vec<Vec<String>>, first_number: usize) -> Vec<Vec<String>> {
    let fraction = |cell: &str| cell.find('.').map_or(0, |at| cell[at..].chars().count());
    let columns = rows.first().map_or(0, Vec::len);
    for i in first_number..columns {
        let widest = rows.iter().map(|row| fraction(&row[i])).max().unwrap_or(0);
        for row in rows.iter_mut().filter(|row| !row[i].is_empty()) {
            let missing = widest - fraction(&row[i]);
            row[i].extend(std::iter::repeat_n(' ', missing));
        }
    }
    rows
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_line_up_on_the_decimal_point() {
        let rows: Vec<Vec<String>> = [["a", "1,234.5"], ["b", "0.25"], ["c", "7"], ["d", ""]]
            .iter()
            .map(|row| row.iter().map(|c| c.to_string()).collect())
            .collect();
        let mut out = Vec::new();
        write_cells(&["key", "fees"], &rows, 1, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "| key |     fees |\n\
             |-----|---------:|\n\
             | a   | 1,234.5  |\n\
             | b   |     0.25 |\n\
             | c   |     7    |\n\
             | d   |          |\n"
        );
    }
}
