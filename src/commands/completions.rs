//! `completions SHELL`: prints the completion script kept in `completions/` for that shell.

use crate::cli::completion;
use crate::cli::CompletionsArgs;
use crate::output::write_stdout;

pub fn run(args: &CompletionsArgs) -> anyhow::Result<()> {
    write_stdout(|out| completion::write_script(args.shell, out))
}
