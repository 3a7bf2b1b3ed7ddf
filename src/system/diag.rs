//! Diagnostics on stderr (errors, warnings, notes, `-v` lines), written so that a closed or full
//! stderr never panics and never stops the run: the data on stdout and the exit code matter more
//! than a message nobody can read. Every line has the registered secrets masked, wherever its
//! text came from.

use std::io::Write;

use super::foreign::mask_secrets;

/// Writes `text` and a newline to stderr in one locked write, every registered secret masked;
/// a failure to write is ignored.
pub(crate) fn line(text: &str) {
    let text = mask_secrets(text);
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{text}");
}
