//! Diagnostics on stderr (errors, warnings, notes, `-v` lines), written so that a closed or full
//! stderr never panics and never stops the run: the data on stdout and the exit code matter more
//! than a message nobody can read.

use std::io::Write;

/// Writes `text` and a newline to stderr in one locked write; a failure to write is ignored.
pub fn line(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{text}");
}
