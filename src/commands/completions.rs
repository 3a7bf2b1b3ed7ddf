//! `completions SHELL`: prints the completion script kept in `completions/` for that shell.

use crate::cli::write_script;
use crate::cli::CompletionsArgs;
use crate::output::write_stdout;

pub(super) fn run(args: &CompletionsArgs) -> anyhow::Result<()> {
    write_stdout(|out| write_script(args.shell, out))
}
