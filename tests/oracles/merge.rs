//! Merge files in csv, tsv, json and ndjson, read as a stream: in one piece or a few bytes a
//! read, the same rows or the same words for the same fault; and whatever `read_merge_file`
//! accepts, written back in the same format by the renderer, reads back to the same rows
//! (read -> write -> read is the identity).

use chain_metrics::{read_merge_file, render, Dataset, Format, RenderOptions};
use chain_metrics::{Chain, Column, Metric, SocialMetric};

use super::body::Trickle;
use super::Input;

/// The formats `--merge` takes.
pub const FORMATS: [Format; 4] = [Format::Csv, Format::Tsv, Format::Json, Format::Ndjson];

/// The column sets a file may be checked against: one metric (`fees`), a report
/// (`fees,active_users,reply`), `--by` (`days,fees`), `--wide` (`ETHEREUM,BASE`).
fn columns(pick: usize) -> Vec<Column> {
    let fees = Column::value(Metric::Fees);
    match pick % 4 {
        0 => vec![fees],
        1 => vec![
            fees,
            Column::value(Metric::ActiveUsers),
            Column::value(Metric::Social(SocialMetric::Reply)),
        ],
        2 => vec![Column::days(), fees.rolled_up()],
        _ => [Chain::Ethereum, Chain::Base]
            .map(|c| fees.in_chain(c, true))
            .to_vec(),
    }
}

/// The format and the columns `pick` chooses.
pub fn shape(pick: u8) -> (Format, Dataset) {
    let format = FORMATS[usize::from(pick) % 4];
    let columns = columns(usize::from(pick >> 2));
    let data = Dataset {
        chain_column: pick & 0x10 != 0 && columns[0].chain().is_none(),
        columns,
        rows: Vec::new(),
    };
    (format, data)
}

pub fn check(data: &[u8]) -> Result<(), String> {
    let input = Input::new(data);
    let (format, mut shape) = shape(input.pick);
    let rows = read_merge_file(input.rest, format, &shape);
    // A character, a line end or a byte order mark may be cut by a read.
    let piece = 1 + input.rest.len() % 7;
    let trickle = Trickle {
        rest: input.rest,
        piece,
    };
    let trickled = read_merge_file(trickle, format, &shape);
    if trickled != rows {
        return Err(format!(
            "{format:?}: read {piece} bytes at a time: {trickled:?}; in one piece: {rows:?}"
        ));
    }
    let Ok(rows) = rows else {
        return Ok(());
    };
    shape.rows = rows.clone();
    let written = write(&shape, format)?;
    let again = read_merge_file(written.as_bytes(), format, &shape).map_err(|e| {
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
