//! The table for people: right-aligned numbers with digit groups, colour only when asked.

use std::io::{self, Write};

use comfy_table::{presets, Attribute, Cell, CellAlignment, Color, ContentArrangement, Table};

use super::{display_rows, Style};
use crate::model::Dataset;

pub fn write(data: &Dataset, style: Style, out: &mut dyn Write) -> io::Result<()> {
    let mut table = Table::new();
    table.load_preset(presets::UTF8_FULL_CONDENSED);
    table.set_content_arrangement(ContentArrangement::Disabled);
    if style.color {
        table.enforce_styling();
    } else {
        table.force_no_tty();
    }
    table.set_header(data.header().into_iter().map(|name| {
        let cell = Cell::new(name);
        if style.color {
            cell.add_attribute(Attribute::Bold).fg(Color::Cyan)
        } else {
            cell
        }
    }));
    table.add_rows(display_rows(data, style));
    let first_metric = data.header().len() - data.columns.len();
    for index in first_metric..data.header().len() {
        if let Some(column) = table.column_mut(index) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    writeln!(out, "{table}")
}
