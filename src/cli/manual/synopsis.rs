//! SYNOPSIS and the split of OPTIONS: the command's own flags with their value names, the
//! first-day choice `(--start DAY | --last N)` as required, and the global flags apart, as
//! `[GLOBAL OPTIONS]` after the program name and in a GLOBAL OPTIONS section of their own.

use clap::{Arg, ArgAction, Command};
use roff::{bold, italic, roman, Inline, Roff};

use crate::cli::globals_acting_under;

/// The heading of the global flags on a subcommand's page.
const GLOBAL_HEADING: &str = "Global options";

/// Whether `arg` is one of the global flags that act under the page's command.
pub(super) fn is_acting_global(arg: &Arg, parents: &[String], cmd: &Command) -> bool {
    let top = parents.get(1).map_or(cmd.get_name(), String::as_str);
    let acting = match parents.is_empty() {
        true => None,
        false => globals_acting_under(top),
    };
    arg.is_global_set() && acting.is_none_or(|ids| ids.contains(&arg.get_id().as_str()))
}

pub(super) fn synopsis(roff: &mut Roff, cmd: &Command, parents: &[String]) {
    roff.control("SH", ["SYNOPSIS"]);
    let mut line: Vec<Inline> = Vec::new();
    let globals = cmd
        .get_arguments()
        .any(|arg| is_acting_global(arg, parents, cmd));
    // Each word after the first brings the space before it: no line ends in a blank.
    for (i, word) in parents
        .iter()
        .map(String::as_str)
        .chain([cmd.get_name()])
        .enumerate()
    {
        if i > 0 {
            line.push(roman(" "));
        }
        line.push(bold(word));
        if i == 0 && globals {
            line.extend([roman(" ["), italic("GLOBAL OPTIONS"), roman("]")]);
        }
    }
    own_flags(&mut line, cmd);
    if cmd.has_subcommands() {
        line.extend([roman(" "), italic("COMMAND")]);
    }
    roff.text(line);
    if parents.is_empty() {
        roff.control("br", [])
            .text([bold("chain-metrics --version")]);
    }
}

/// The required flags, each required choice in parentheses, the optional flags in brackets,
/// then the positional values, in the order the help shows them.
fn own_flags(line: &mut Vec<Inline>, cmd: &Command) {
    let own: Vec<&Arg> = cmd
        .get_arguments()
        .filter(|arg| !arg.is_global_set() && !arg.is_hide_set())
        .filter(|arg| !matches!(arg.get_action(), ArgAction::Help | ArgAction::Version))
        .collect();
    let choices: Vec<Vec<&Arg>> = cmd
        .get_groups()
        .filter(|group| group.is_required_set())
        .map(|group| {
            let ids: Vec<_> = group.get_args().collect();
            own.iter()
                .copied()
                .filter(|a| ids.contains(&a.get_id()))
                .collect()
        })
        .collect();
    let in_choice = |arg: &Arg| choices.iter().flatten().any(|a| a.get_id() == arg.get_id());
    let flags = own
        .iter()
        .filter(|arg| !arg.is_positional() && !in_choice(arg));
    for arg in flags.clone().filter(|arg| arg.is_required_set()) {
        line.push(roman(" "));
        line.extend(words(arg));
    }
    for choice in &choices {
        line.push(roman(" ("));
        for (i, arg) in choice.iter().enumerate() {
            if i > 0 {
                line.push(roman(" | "));
            }
            line.extend(words(arg));
        }
        line.push(roman(")"));
    }
    for arg in flags.filter(|arg| !arg.is_required_set()) {
        line.push(roman(" ["));
        line.extend(words(arg));
        line.push(roman("]"));
    }
    for arg in own.iter().filter(|arg| arg.is_positional()) {
        let name = value_name(arg);
        match arg.is_required_set() {
            true => line.extend([roman(" "), italic(name)]),
            false => line.extend([roman(" ["), italic(name), roman("]")]),
        }
    }
}

/// `--chain CHAIN...`: the long name (else the short one), the value name, `...` if repeatable.
fn words(arg: &Arg) -> Vec<Inline> {
    let name = match (arg.get_long(), arg.get_short()) {
        (Some(long), _) => format!("--{long}"),
        (None, Some(short)) => format!("-{short}"),
        (None, None) => String::new(),
    };
    let mut words = vec![bold(name)];
    if arg.get_action().takes_values() {
        words.push(roman(" "));
        words.push(italic(value_name(arg)));
        if matches!(arg.get_action(), ArgAction::Append) {
            words.push(roman("..."));
        }
    }
    words
}

fn value_name(arg: &Arg) -> String {
    arg.get_value_names()
        .and_then(|names| names.first())
        .map_or_else(
            || arg.get_id().as_str().to_uppercase(),
            |name| name.to_string(),
        )
}

/// `cmd` with only its own flags shown (the global ones hidden), for its OPTIONS sections.
pub(super) fn own_options(cmd: &Command) -> Command {
    let globals: Vec<String> = cmd
        .get_arguments()
        .filter(|arg| arg.is_global_set())
        .map(|arg| arg.get_id().to_string())
        .collect();
    globals
        .into_iter()
        .fold(cmd.clone(), |cmd, id| cmd.mut_arg(id, |arg| arg.hide(true)))
}

/// `cmd` with only the global flags that act under it shown, all under one GLOBAL OPTIONS
/// heading; `None` when none acts there.
pub(super) fn global_options(cmd: &Command, parents: &[String]) -> Option<Command> {
    let acting: Vec<String> = cmd
        .get_arguments()
        .filter(|arg| is_acting_global(arg, parents, cmd))
        .map(|arg| arg.get_id().to_string())
        .collect();
    if acting.is_empty() {
        return None;
    }
    let all: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    Some(all.into_iter().fold(cmd.clone(), |cmd, id| {
        let shown = acting.contains(&id);
        cmd.mut_arg(id, |arg| match shown {
            true => arg.help_heading(GLOBAL_HEADING),
            false => arg.hide(true),
        })
    }))
}
