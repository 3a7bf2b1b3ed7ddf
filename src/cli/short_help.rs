//! `-h`: one screen of the options most runs use, as fd's and gh's short help is. An expert
//! flag says so at its definition (`hide_short_help`); the `-h` of a command that leaves any out
//! keeps the examples of its `after_help`, drops its notes, and ends with a line saying that
//! `--help` shows all options, while `--help` shows every option and the whole text.

use clap::Command;

/// `cmd` and its subcommands (its name, as typed, in `words`), each `-h` shortened as the
/// module says.
pub(super) fn shortened(cmd: Command, words: &str) -> Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    let cmd = match leaves_out_options(&cmd) {
        true => with_short_after_help(cmd, words),
        false => cmd,
    };
    names.into_iter().fold(cmd, |cmd, name| {
        let words = format!("{words} {name}");
        cmd.mut_subcommand(name, |sub| shortened(sub, &words))
    })
}

/// Whether `-h` leaves out an option that `--help` shows.
fn leaves_out_options(cmd: &Command) -> bool {
    cmd.get_arguments()
        .any(|arg| arg.is_hide_short_help_set() && !arg.is_hide_set())
}

/// The line a shortened `-h` ends with.
pub(super) fn pointer(words: &str) -> String {
    format!("Use `{words} --help` to see all options, with notes.")
}

/// `--help` keeps the whole `after_help`; `-h` gets its examples and the [`pointer()`].
fn with_short_after_help(cmd: Command, words: &str) -> Command {
    let text = cmd
        .get_after_help()
        .map(|help| help.to_string())
        .unwrap_or_default();
    let examples = text.find("Examples:\n").map(|at| &text[at..]);
    let short = match examples {
        Some(examples) => format!("{}\n\n{}", examples.trim_end(), pointer(words)),
        None => pointer(words),
    };
    cmd.after_long_help(text).after_help(short)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_help_that_leaves_options_out_is_shortened() {
        let cmd = Command::new("tool")
            .after_help("Notes.\n\nExamples:\n  tool a\n  tool b")
            .arg(clap::Arg::new("x").long("x").hide_short_help(true))
            .subcommand(Command::new("sub").after_help("Examples:\n  tool sub"));
        let cmd = shortened(cmd, "tool");
        let short = cmd.get_after_help().unwrap().to_string();
        assert_eq!(
            short,
            "Examples:\n  tool a\n  tool b\n\nUse `tool --help` to see all options, with notes."
        );
        let long = cmd.get_after_long_help().unwrap().to_string();
        assert_eq!(long, "Notes.\n\nExamples:\n  tool a\n  tool b");
        let sub = cmd.find_subcommand("sub").unwrap();
        assert_eq!(
            sub.get_after_help().unwrap().to_string(),
            "Examples:\n  tool sub"
        );
        assert!(sub.get_after_long_help().is_none());
    }
}
