//! CSV: a header row, then one record per row; numbers exactly as the service sent them.

use std::io::{self, Write};

use crate::model::Dataset;

pub fn write(data: &Dataset, out: &mut dyn Write) -> io::Result<()> {
    let mut writer = ::csv::Writer::from_writer(out);
    writer.write_record(data.header())?;
    for row in &data.rows {
        writer.write_record(super::cells(data, row))?;
    }
    writer.flush()
}
