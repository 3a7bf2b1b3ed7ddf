//! The rows written as they come, a few days at a time, when nothing written needs them all
//! first: a row-by-row format (`Can::streamed`: csv, tsv, json, ndjson) to stdout or to a file
//! (replaced atomically once every row is in), not merged, with a shape that keeps each row as
//! it came (`Shape::row_by_row`). Everything else (the table's column widths, the pictures,
//! `--by`, the measures, the summary, `--wide`, `--sort`, `--merge`, a database) takes every
//! row at once, as [`Output::write`] does.

use std::io::Write;

use super::{check::shape_failure, Output};
use crate::fetched::Plan;
use crate::model::Row;
use crate::render::{RenderOptions, Streamed};

/// The output's writer of rows as they come, for one run.
pub(crate) struct RowStream<'a> {
    output: &'a Output,
    writer: Streamed,
}

impl Output {
    /// The writer of the rows as they come, when this output can take them so.
    pub(crate) fn row_stream(&self) -> Option<RowStream<'_>> {
        #[cfg(feature = "postgres")]
        if self.database.is_some() {
            return None;
        }
        let fits = self.format.can().streamed && !self.merge && self.shape.row_by_row();
        let writer = Streamed::new(self.format.text().filter(|_| fits)?)?;
        Some(RowStream {
            output: self,
            writer,
        })
    }
}

impl RowStream<'_> {
    /// Writes the next rows of `plan`, after those written before; flushed, so that a reader
    /// of the pipe gets them now.
    pub(crate) fn write(
        &mut self,
        rows: Vec<Row>,
        plan: &Plan,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        let shape = &self.output.shape;
        let shaped =
            (shape.apply(plan.dataset(rows), &plan.chains, &plan.range)).map_err(shape_failure)?;
        self.writer.write(&shaped.data, self.style(), out)?;
        Ok(out.flush()?)
    }

    /// Ends the output: json's closing bracket, a header with no rows.
    pub(crate) fn end(self, plan: &Plan, out: &mut dyn Write) -> anyhow::Result<()> {
        let header = self.output.header(plan);
        let style = self.style();
        Ok(self.writer.end(&header, style, out)?)
    }

    fn style(&self) -> RenderOptions<'static> {
        let output = self.output;
        RenderOptions {
            no_header: output.no_header,
            decimals: output.shape.analysis.measures.decimals,
            json_strings: output.json_numbers == crate::render::JsonNumbers::String,
            scale: output.scale,
            ..RenderOptions::default()
        }
    }
}
