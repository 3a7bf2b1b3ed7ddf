//! `completions SHELL`: prints the completion script kept in `completions/` for that shell.

use super::write_stdout;
use crate::cli::CompletionsArgs;
use crate::completion;

pub fn run(args: &CompletionsArgs) -> anyhow::Result<()> {
    write_stdout(|out| completion::write_script(args.shell, out))
}
