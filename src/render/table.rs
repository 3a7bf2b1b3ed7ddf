//! The table for people: box-drawn (ASCII lines where the locale is not UTF-8), numbers with
//! digit groups aligned on the decimal point,
//! colour only when asked. Written row by row, so a ten-year report never holds its whole text
//! in memory. On a terminal narrower than the table, the number columns wrap into blocks, each
//! with the date (and chain) columns repeated, instead of lines the terminal would break.

use std::io::{self, Write};

use super::{for_each_display_row, RenderOptions};
use crate::model::Dataset;

/// Bold cyan, as the header of every table the tool draws.
const HEADER_STYLE: &str = "\x1b[38;5;14m\x1b[1m";
const RESET: &str = "\x1b[0m";

/// The characters a table is drawn with: the rules' corners and joints (top, under the header,
/// bottom), their fills (plain, under the header), the outer and the inner column borders.
struct Glyphs {
    top: [char; 3],
    under_header: [char; 3],
    bottom: [char; 3],
    fill: char,
    header_fill: char,
    side: char,
    between: char,
}

/// Box drawing: `┌─┬─┐`, `╞═╪═╡` under the header, `└─┴─┘`, `│` outside and `┆` between.
const BOX: Glyphs = Glyphs::of([
    '┌', '┬', '┐', '╞', '╪', '╡', '└', '┴', '┘', '─', '═', '│', '┆',
]);

/// ASCII: `+-+-+`, `+=+=+` under the header, `|` for every border.
const ASCII: Glyphs = Glyphs::of([
    '+', '+', '+', '+', '+', '+', '+', '+', '+', '-', '=', '|', '|',
]);

impl Glyphs {
    /// The glyphs in the order the fields are declared.
    const fn of(c: [char; 13]) -> Glyphs {
        Glyphs {
            top: [c[0], c[1], c[2]],
            under_header: [c[3], c[4], c[5]],
            bottom: [c[6], c[7], c[8]],
            fill: c[9],
            header_fill: c[10],
            side: c[11],
            between: c[12],
        }
    }
}

pub(super) fn write(data: &Dataset, style: RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let header = data.header();
    let layout = Layout::measure(data, &header, style)?;
    for (i, block) in layout.blocks(style.width).iter().enumerate() {
        if i > 0 {
            out.write_all(b"\n")?;
        }
        write_block(data, &header, style, &layout, block, out)?;
    }
    Ok(())
}

/// The fewest terminal columns the table can wrap into: its widest block of one number column
/// (with the date and chain columns).
pub(super) fn narrowest(data: &Dataset, style: RenderOptions) -> io::Result<usize> {
    let header = data.header();
    let layout = Layout::measure(data, &header, style)?;
    let widest = (layout.blocks(1).iter())
        .map(|block| layout.line_width(block))
        .max();
    Ok(widest.unwrap_or(0))
}

/// One table of the columns `block` (indices into the header), all rows.
fn write_block(
    data: &Dataset,
    header: &[String],
    style: RenderOptions,
    layout: &Layout,
    block: &[usize],
    out: &mut dyn Write,
) -> io::Result<()> {
    let g = layout.glyphs;
    let mut line = String::new();
    layout.rule(&mut line, block, g.top, g.fill);
    layout.cells(&mut line, block, header, Cells::Header(style.color));
    layout.rule(&mut line, block, g.under_header, g.header_fill);
    out.write_all(line.as_bytes())?;
    for_each_display_row(data, style, |cells| {
        line.clear();
        layout.cells(&mut line, block, cells, Cells::Row);
        out.write_all(line.as_bytes())
    })?;
    line.clear();
    layout.rule(&mut line, block, g.bottom, g.fill);
    out.write_all(line.as_bytes())
}

/// How a line of cells is drawn: the header (right-aligned over numbers, styled or not), or
/// a row (numbers aligned on the decimal point).
#[derive(Clone, Copy)]
enum Cells {
    Header(bool),
    Row,
}

/// Column widths, where the number columns start, and for each number column the widest
/// whole part and the widest fraction (point included), so that points line up.
struct Layout {
    widths: Vec<usize>,
    first_number: usize,
    wholes: Vec<usize>,
    fractions: Vec<usize>,
    glyphs: &'static Glyphs,
}

/// A number cell split at its decimal point: `1,234` and `.5`.
fn split(cell: &str) -> (&str, &str) {
    cell.find('.').map_or((cell, ""), |at| cell.split_at(at))
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

impl Layout {
    fn measure(data: &Dataset, header: &[String], style: RenderOptions) -> io::Result<Layout> {
        let first_number = header.len() - data.columns.len();
        let mut layout = Layout {
            widths: header.iter().map(|h| chars(h)).collect(),
            first_number,
            wholes: vec![0; header.len()],
            fractions: vec![0; header.len()],
            glyphs: if style.ascii { &ASCII } else { &BOX },
        };
        for_each_display_row(data, style, |cells| {
            for (i, cell) in cells.iter().enumerate() {
                if i < first_number {
                    layout.widths[i] = layout.widths[i].max(chars(cell));
                    continue;
                }
                let (whole, fraction) = split(cell);
                layout.wholes[i] = layout.wholes[i].max(chars(whole));
                layout.fractions[i] = layout.fractions[i].max(chars(fraction));
            }
            Ok(())
        })?;
        for i in first_number..header.len() {
            layout.widths[i] = layout.widths[i].max(layout.wholes[i] + layout.fractions[i]);
        }
        Ok(layout)
    }

    /// The columns of each block: all in one when the table fits `width` (0: no limit), else
    /// the key columns (date, chain) and as many number columns as fit, block after block.
    fn blocks(&self, width: usize) -> Vec<Vec<usize>> {
        let keys: Vec<usize> = (0..self.first_number).collect();
        let line =
            |columns: &[usize]| 1 + columns.iter().map(|i| self.widths[*i] + 3).sum::<usize>();
        let mut blocks = Vec::new();
        let mut block = keys.clone();
        for i in self.first_number..self.widths.len() {
            let mut wider = block.clone();
            wider.push(i);
            if width > 0 && line(&wider) > width && block.len() > keys.len() {
                blocks.push(std::mem::replace(&mut block, keys.clone()));
                block.push(i);
            } else {
                block = wider;
            }
        }
        blocks.push(block);
        blocks
    }

    /// The characters of a line of these columns: each cell's width, a space either side and
    /// a border before it, then the closing border.
    fn line_width(&self, columns: &[usize]) -> usize {
        1 + columns.iter().map(|i| self.widths[*i] + 3).sum::<usize>()
    }

    /// A horizontal line: left corner, column joints, right corner, and the fill between.
    fn rule(
        &self,
        line: &mut String,
        block: &[usize],
        [left, joint, right]: [char; 3],
        fill: char,
    ) {
        line.push(left);
        for (n, i) in block.iter().enumerate() {
            if n > 0 {
                line.push(joint);
            }
            line.extend(std::iter::repeat_n(fill, self.widths[*i] + 2));
        }
        line.push(right);
        line.push('\n');
    }

    /// One line of the block's cells, each padded to its column's width with a space either side.
    fn cells<S: AsRef<str>>(&self, line: &mut String, block: &[usize], cells: &[S], kind: Cells) {
        line.push(self.glyphs.side);
        for (n, i) in block.iter().copied().enumerate() {
            if n > 0 {
                line.push(self.glyphs.between);
            }
            let styled = matches!(kind, Cells::Header(true));
            if styled {
                line.push_str(HEADER_STYLE);
            }
            let cell = cells.get(i).map_or("", AsRef::as_ref);
            let text = match (kind, i >= self.first_number && !cell.is_empty()) {
                (Cells::Row, true) => self.on_point(i, cell),
                _ => cell.to_owned(),
            };
            let pad = self.widths[i].saturating_sub(chars(&text));
            let (before, after) = if i >= self.first_number {
                (pad, 0)
            } else {
                (0, pad)
            };
            line.push(' ');
            line.extend(std::iter::repeat_n(' ', before));
            line.push_str(&text);
            line.extend(std::iter::repeat_n(' ', after));
            line.push(' ');
            if styled {
                line.push_str(RESET);
            }
        }
        line.push(self.glyphs.side);
        line.push('\n');
    }

    /// A number cell padded after its fraction so that its point sits where the column's does.
    fn on_point(&self, i: usize, cell: &str) -> String {
        let (_, fraction) = split(cell);
        let missing = self.fractions[i].saturating_sub(chars(fraction));
        format!("{cell}{}", " ".repeat(missing))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{column_named, Number, Row};

    fn table(values: &[&str], width: usize) -> String {
        let date = chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let data = Dataset {
            chain_column: false,
            columns: vec![
                column_named("fees"),
                column_named("ETHEREUM.fees_change_pct"),
            ],
            rows: values
                .iter()
                .map(|v| Row {
                    date,
                    chain: None,
                    values: vec![Number::from_json_token(v), Number::from_json_token("1.5")],
                    coverage: None,
                })
                .collect(),
        };
        let style = RenderOptions {
            width,
            ..RenderOptions::default()
        };
        let mut out = Vec::new();
        write(&data, style, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_line_up_on_the_decimal_point() {
        let text = table(&["1234.5", "0.25", "7", "-3.125"], 0);
        let rows: Vec<&str> = text.lines().skip(3).take(4).collect();
        let fees: Vec<String> = rows
            .iter()
            .map(|l| l.chars().skip(14).take(11).collect())
            .collect();
        assert_eq!(
            fees,
            [" 1,234.5   ", "     0.25  ", "     7     ", "    -3.125 "]
        );
    }

    #[test]
    fn a_table_wider_than_the_terminal_wraps_into_blocks_with_the_date_repeated() {
        let whole = table(&["1"], 0);
        assert_eq!(whole.lines().next().unwrap().chars().count(), 48);
        assert_eq!(table(&["1"], 48), whole);
        let wrapped = table(&["1"], 47);
        let lines: Vec<&str> = wrapped.lines().collect();
        assert_eq!(lines.len(), 11, "{wrapped}");
        assert_eq!(lines[1], "│ date       ┆ fees │");
        assert_eq!(lines[5], "");
        assert_eq!(lines[7], "│ date       ┆ ETHEREUM.fees_change_pct │");
        assert!(lines.iter().all(|l| l.chars().count() <= 47), "{wrapped}");
    }
}
