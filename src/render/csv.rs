//! CSV: a header row (unless `--no-header`), then one record per row; numbers exactly as sent.

use std::io::{self, Write};

use super::RenderOptions;
use crate::model::Dataset;

pub(super) fn write(data: &Dataset, style: RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let mut writer = ::csv::Writer::from_writer(out);
    if !style.no_header {
        writer.write_record(data.header()).map_err(into_io)?;
    }
    for row in &data.rows {
        writer
            .write_record(super::cells(data, row))
            .map_err(into_io)?;
    }
    for cells in super::summary_cells(data, style)? {
        writer.write_record(cells).map_err(into_io)?;
    }
    writer.flush()
}

/// Keeps the I/O error's kind, so that a closed pipe is still recognised as one.
pub(super) fn into_io(error: ::csv::Error) -> io::Error {
    match error.into_kind() {
        ::csv::ErrorKind::Io(error) => error,
        other => io::Error::other(format!("{other:?}")),
    }
}
