//! The command line as a user meets it beside the output: help text and its snapshots
//! (`help`, `snapshots`), completions (`completion`, `shipped_surface`), the generated files and
//! man pages (`generated`, `man_synopsis`), `--version` (`version`) and the Debian package's
//! assets (`package`).

mod completion;
pub(crate) mod generated;
mod help;
mod man_synopsis;
mod package;
mod shipped_surface;
mod snapshots;
mod version;
