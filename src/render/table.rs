//! The table for people: box-drawn, right-aligned numbers with digit groups, colour only when
//! asked. Written row by row, so a ten-year report never holds its whole text in memory.

use std::io::{self, Write};

use super::{for_each_display_row, RenderOptions};
use crate::model::Dataset;

/// Bold cyan, as the header of every table the tool draws.
const HEADER_STYLE: &str = "\x1b[38;5;14m\x1b[1m";
const RESET: &str = "\x1b[0m";

pub fn write(data: &Dataset, style: RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let header = data.header();
    let first_number = header.len() - data.columns.len();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for_each_display_row(data, style, |cells| {
        for (width, cell) in widths.iter_mut().zip(cells) {
            *width = (*width).max(cell.chars().count());
        }
        Ok(())
    })?;
    let layout = Layout {
        widths,
        first_number,
    };
    let mut line = String::new();
    layout.rule(&mut line, ['┌', '┬', '┐'], '─');
    layout.cells(&mut line, &header, style.color);
    layout.rule(&mut line, ['╞', '╪', '╡'], '═');
    out.write_all(line.as_bytes())?;
    for_each_display_row(data, style, |cells| {
        line.clear();
        layout.cells(&mut line, cells, false);
        out.write_all(line.as_bytes())
    })?;
    line.clear();
    layout.rule(&mut line, ['└', '┴', '┘'], '─');
    out.write_all(line.as_bytes())
}

/// Column widths, and where the right-aligned number columns start.
struct Layout {
    widths: Vec<usize>,
    first_number: usize,
}

impl Layout {
    /// A horizontal line: left corner, column joints, right corner, and the fill between.
    fn rule(&self, line: &mut String, [left, joint, right]: [char; 3], fill: char) {
        line.push(left);
        for (i, width) in self.widths.iter().enumerate() {
            if i > 0 {
                line.push(joint);
            }
            line.extend(std::iter::repeat_n(fill, width + 2));
        }
        line.push(right);
        line.push('\n');
    }

    /// One line of cells, each padded to its column's width with a space either side.
    fn cells<S: AsRef<str>>(&self, line: &mut String, cells: &[S], styled: bool) {
        line.push('│');
        for (i, (cell, width)) in cells.iter().zip(&self.widths).enumerate() {
            if i > 0 {
                line.push('┆');
            }
            if styled {
                line.push_str(HEADER_STYLE);
            }
            let cell = cell.as_ref();
            let pad = width - cell.chars().count();
            let (before, after) = if i >= self.first_number {
                (pad, 0)
            } else {
                (0, pad)
            };
            line.push(' ');
            line.extend(std::iter::repeat_n(' ', before));
            line.push_str(cell);
            line.extend(std::iter::repeat_n(' ', after));
            line.push(' ');
            if styled {
                line.push_str(RESET);
            }
        }
        line.push_str("│\n");
    }
}
