//! Merge files in csv, tsv, json and ndjson: whatever `read_merge_file` accepts, written back
//! in the same format by the renderer, reads back to the same rows (read -> write -> read is
//! the identity).

use chain_metrics::{read_merge_file, render, Dataset, Format, RenderOptions};

use super::Input;

/// The formats `--merge` takes.
pub const FORMATS: [Format; 4] = [Format::Csv, Format::Tsv, Format::Json, Format::Ndjson];

/// The column sets a file may be checked against: one metric, a report, `--by`, `--wide`.
const COLUMNS: [&[&str]; 4] = [
    &["fees"],
    &["fees", "active_users", "reply"],
    &["days", "fees"],
    &["ETHEREUM", "BASE"],
];

/// The format and the columns `pick` chooses.
pub fn shape(pick: u8) -> (Format, Dataset) {
    let format = FORMATS[usize::from(pick) % 4];
    let columns = COLUMNS[usize::from(pick >> 2) % 4];
    let data = Dataset {
        chain_column: pick & 0x10 != 0 && columns[0] != "ETHEREUM",
        columns: columns.iter().map(|c| c.to_string()).collect(),
        rows: Vec::new(),
    };
    (format, data)
}

pub fn check(data: &[u8]) -> Result<(), String> {
    let input = Input::new(data);
    let (format, mut shape) = shape(input.pick);
    let text = input.text();
    let Ok(rows) = read_merge_file(&text, format, &shape) else {
        return Ok(());
    };
    shape.rows = rows.clone();
    let written = write(&shape, format)?;
    let again = read_merge_file(&written, format, &shape).map_err(|e| {
        format!(
            "{format:?}: the {} rows read, written back, are refused: {e}\n{written}",
            rows.len()
        )
    })?;
    if again != rows {
        return Err(format!(
            "{format:?}: read {rows:?}, written as {written:?}, read back as {again:?}"
        ));
    }
    Ok(())
}

/// The dataset as `--merge` writes it to the file.
pub fn write(data: &Dataset, format: Format) -> Result<String, String> {
    let style = RenderOptions::default();
    let mut bytes = Vec::new();
    let text =
        (format.text()).ok_or_else(|| format!("{} is written to a database", format.name()))?;
    render(data, text, style, &mut bytes).map_err(|e| format!("render failed: {e}"))?;
    String::from_utf8(bytes).map_err(|e| format!("render wrote no UTF-8: {e}"))
}
