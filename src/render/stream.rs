//! A row-by-row format (csv, tsv, json, ndjson: `Can::streamed`) written a few days at a time
//! as the rows come, in the same bytes as [`super::render`] writes them all at once.

use std::io::{self, Write};

use super::{RenderOptions, Text};
use crate::model::Dataset;

/// The rows written so far, for what the next piece starts with (a header, a comma).
pub(crate) struct Streamed {
    format: Text,
    /// Whether the first piece (the header, json's `[`) is written.
    begun: bool,
    /// json: whether a row is written, so the next one needs a comma first.
    rows: bool,
}

impl Streamed {
    /// The writer of `format`, when it is one of the formats written as the rows come.
    pub(crate) fn new(format: Text) -> Option<Streamed> {
        let streams = matches!(format, Text::Csv | Text::Tsv | Text::Json | Text::Ndjson);
        streams.then_some(Streamed {
            format,
            begun: false,
            rows: false,
        })
    }

    /// Writes `data`'s rows, the next ones in the order written (the header first, with the
    /// first piece). The summary is not written: a streamed output has none.
    pub(crate) fn write(
        &mut self,
        data: &Dataset,
        style: RenderOptions,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let style = RenderOptions {
            no_header: style.no_header || self.begun,
            summary: false,
            ..style
        };
        match self.format {
            Text::Csv => super::csv::write(data, style, out)?,
            Text::Tsv => super::tsv::write(data, style, out)?,
            Text::Ndjson => super::ndjson::write(data, style, out)?,
            _ => {
                for row in &data.rows {
                    let lead = match (self.begun, self.rows) {
                        (false, _) => "[\n",
                        (true, false) => "",
                        (true, true) => ",\n",
                    };
                    let object = super::json::object(data, row, style);
                    write!(out, "{lead}  {object}")?;
                    (self.begun, self.rows) = (true, true);
                }
            }
        }
        // A csv or tsv header is written with the first piece even when it has no rows.
        self.begun |= self.format != Text::Json;
        Ok(())
    }

    /// Ends what was written: json's `]` (or `[]` when no row came); `data` is the header's
    /// dataset, for a csv or tsv header when no piece was written at all.
    pub(crate) fn end(
        mut self,
        data: &Dataset,
        style: RenderOptions,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        match self.format {
            Text::Json if self.rows => writeln!(out, "\n]"),
            Text::Json => writeln!(out, "[]"),
            _ if self.begun => Ok(()),
            _ => self.write(data, style, out),
        }
    }
}
