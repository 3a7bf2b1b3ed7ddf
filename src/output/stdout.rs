//! The default format for stdout, and writing there through a locked, buffered handle.

use std::io::{self, BufWriter, Write};

use crate::error::{Exit, Failure};
use crate::render::Format;
use crate::settings::Terminal;

/// The format asked, else table on a terminal and csv otherwise.
pub(crate) fn format_or_default(asked: Option<Format>, terminal: Terminal) -> Format {
    asked.unwrap_or(if terminal.stdout_is_terminal {
        Format::Table
    } else {
        Format::Csv
    })
}

/// Writes through a locked, buffered stdout; a closed pipe surfaces as `BrokenPipe` for `main`.
pub(crate) fn write_stdout(
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> anyhow::Result<()> {
    // A closed stdout (`>&-`) swallows every write without an error: nothing would go where
    // it was asked.
    if !crate::system::stream::was_passed(1) {
        return Err(Failure::new(
            Exit::Output,
            "cannot write to stdout: it was closed when the run started",
        )
        .with_hint("give stdout a place (> FILE, | CMD), or write with --output FILE")
        .into());
    }
    let mut out = BufWriter::new(io::stdout().lock());
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => anyhow::Error::new(e),
            _ => Failure::new(Exit::Output, format!("cannot write to stdout: {e}")).into(),
        })
}
