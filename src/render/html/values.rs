//! The page's table of exact values, the numbers csv writes, every row: one table, or one per
//! year under a `<details>` when the rows span years and are many, so that a decade's page
//! stays light to open. Lean markup (optional end tags left out, a date written once for the
//! rows of its chains), because a decade of six chains is some twenty thousand rows; a folded
//! year's table is leaner still: a row per date, each cell holding its chains' values a line
//! each (the markup of six rows a date would be a third of a decade's page).

use std::io::{self, Write};

use chrono::Datelike;

use crate::model::{Dataset, Row, Unit};
use crate::render::svg::xml::escape;

/// More rows than this, over more than one year: a table per year, folded.
const FOLD_OVER: usize = 1000;

/// The values, then the `--summary` rows (cells, `date` holding the statistic's name) as the
/// table's footer, or, when the table is folded per year, as the footer of a table of their own
/// after the years.
pub(super) fn write(
    data: &Dataset,
    summary: &[Vec<String>],
    out: &mut dyn Write,
) -> io::Result<()> {
    out.write_all(b"<section id=\"values\">\n<h2>Values</h2>\n")?;
    let years = by_year(&data.rows);
    if data.rows.len() <= FOLD_OVER || years.len() < 2 {
        table(data, &data.rows, summary, out)?;
    } else {
        for rows in years {
            let year = rows[0].date.year();
            writeln!(
                out,
                "<details>\n<summary>{year}: {} rows</summary>",
                rows.len()
            )?;
            by_date(data, rows, out)?;
            out.write_all(b"</details>\n")?;
        }
        if !summary.is_empty() {
            table(data, &[], summary, out)?;
        }
    }
    out.write_all(b"</section>\n")
}

/// Whether each cell of a row (date, chain, then the columns) is a percent: its value is
/// shown with `%`, as the hover and the axis show it.
fn percents(data: &Dataset) -> Vec<bool> {
    let keys = if data.chain_column { 2 } else { 1 };
    (std::iter::repeat_n(false, keys))
        .chain(data.columns.iter().map(|c| c.unit() == Unit::Percent))
        .collect()
}

/// `cell`, escaped, with `%` when it is a percent value (not a gap).
fn shown(cell: &str, percent: bool) -> String {
    match percent && !cell.is_empty() {
        true => format!("{}%", escape(cell)),
        false => escape(cell),
    }
}

/// The rows cut where the year changes (rows are in date order).
fn by_year(rows: &[Row]) -> Vec<&[Row]> {
    let mut years = Vec::new();
    let mut start = 0;
    for i in 1..=rows.len() {
        if i == rows.len() || rows[i].date.year() != rows[start].date.year() {
            years.push(&rows[start..i]);
            start = i;
        }
    }
    years
}

/// One table of `rows`: the date once for the rows that share it (`rowspan`), the chain as a
/// row header, the numbers right-aligned; a gap is an empty cell. `summary` rows make its footer.
fn table(
    data: &Dataset,
    rows: &[Row],
    summary: &[Vec<String>],
    out: &mut dyn Write,
) -> io::Result<()> {
    head(data, "<table>", out)?;
    let percent = percents(data);
    for dated in rows.chunk_by(|a, b| a.date == b.date) {
        let (date, span) = (dated[0].date, dated.len());
        for (k, row) in dated.iter().enumerate() {
            let cells = super::super::cells(data, row);
            match (k, span) {
                (0, 1) => write!(out, "<tr><th scope=\"row\">{date}")?,
                (0, _) => write!(out, "<tr><th rowspan=\"{span}\">{date}")?,
                _ => out.write_all(b"<tr>")?,
            }
            for (c, cell) in cells.iter().enumerate().skip(1) {
                match c == 1 && data.chain_column {
                    true => write!(out, "<th>{}", escape(cell))?,
                    false => write!(out, "<td>{}", shown(cell, percent[c]))?,
                }
            }
            out.write_all(b"\n")?;
        }
    }
    out.write_all(b"</tbody>\n")?;
    footer(data, summary, out)?;
    out.write_all(b"</table>\n")
}

/// A table's opening `tag`, its header row of `data`'s column names, and the body's start.
fn head(data: &Dataset, tag: &str, out: &mut dyn Write) -> io::Result<()> {
    write!(out, "{tag}\n<thead>\n<tr>")?;
    for name in data.header() {
        write!(out, "<th scope=\"col\">{}", escape(&name))?;
    }
    out.write_all(b"\n</thead>\n<tbody>\n")
}

/// One folded year's table: a row per date, the date its header (first in its row, a row
/// header without saying so), then a cell per column
/// holding the value of each of the date's chains, a line each, in the chains' order (the
/// chain column names them); a gap is an empty line.
fn by_date(data: &Dataset, rows: &[Row], out: &mut dyn Write) -> io::Result<()> {
    head(data, "<table class=\"by-date\">", out)?;
    let percent = percents(data);
    for dated in rows.chunk_by(|a, b| a.date == b.date) {
        let cells: Vec<Vec<String>> = (dated.iter())
            .map(|row| super::super::cells(data, row))
            .collect();
        write!(out, "<tr><th>{}", dated[0].date)?;
        for c in 1..cells[0].len() {
            let lines: Vec<String> = (cells.iter())
                .map(|row| shown(&row[c], percent[c]))
                .collect();
            let tag = match c == 1 && data.chain_column {
                true => "th",
                false => "td",
            };
            write!(out, "<{tag}>{}", lines.join("\n"))?;
        }
        out.write_all(b"\n")?;
    }
    out.write_all(b"</tbody>\n</table>\n")
}

/// The `--summary` rows: the statistic as a row header, then the chain, then the values.
fn footer(data: &Dataset, summary: &[Vec<String>], out: &mut dyn Write) -> io::Result<()> {
    if summary.is_empty() {
        return Ok(());
    }
    out.write_all(b"<tfoot>\n")?;
    let percent = percents(data);
    for cells in summary {
        let Some((statistic, rest)) = cells.split_first() else {
            continue;
        };
        write!(out, "<tr><th scope=\"row\">{}", escape(statistic))?;
        for (c, cell) in rest.iter().enumerate() {
            match c == 0 && data.chain_column {
                true => write!(out, "<th>{}", escape(cell))?,
                false => write!(out, "<td>{}", shown(cell, percent[c + 1]))?,
            }
        }
        out.write_all(b"\n")?;
    }
    out.write_all(b"</tfoot>\n")
}
