//! The command tree a query needs: the top level with its global flags and that one command,
//! not the whole tree. Building every command (the derive's `Cli::command()`, then the global
//! flags copied into each, the short helps) was half of a one-day query's startup.
//!
//! It is only ever a shortcut: a command line it parses gives the same `Cli` as the whole tree
//! would, and anything else (help, `--version`, an error, a suggestion, any other command) is
//! parsed again with the whole tree, whose words are the ones the user sees. That holds because
//! the top level here is the whole tree's, and the query's command is built as the derive
//! builds it (the test below compares the two, field by field): clap takes the same words as
//! the same command, and a word the whole tree would read as another command is an error here.

use std::ffi::OsString;

use clap::{Args, Command};

use super::{help_text, version, GlobalArgs, QueryArgs, SocialArgs};

/// The top level and the one query command the arguments name, as the derive builds them
/// (before `inherited`'s changes: those that bear on parsing apply to it as to the whole tree,
/// the shortened `-h` does not, since only the whole tree shows help); `None` when the command
/// is not a query or cannot be told without clap.
pub(super) fn command(args: &[OsString]) -> Option<Command> {
    // Help is the whole tree's to show: no use building this one first.
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        return None;
    }
    let top = top_level();
    let name = command_named(&top, args)?;
    Some(
        top.subcommand(query(name)?)
            .subcommand_required(true)
            .arg_required_else_help(true),
    )
}

/// The top level without its commands: what `#[derive(Parser)]` makes of `Cli` before it adds
/// them.
fn top_level() -> Command {
    let top = Command::new("chain-metrics").group(
        clap::ArgGroup::new("Cli")
            .multiple(true)
            .args([] as [clap::Id; 0]),
    );
    GlobalArgs::augment_args(top)
        .about(help_text::ABOUT)
        .version(env!("CARGO_PKG_VERSION"))
        .long_version(version::long())
        .max_term_width(100)
        .after_help(help_text::CLI)
}

/// A query's command, as `#[derive(Subcommand)]` builds its variant of `cli::Command`.
fn query(name: &str) -> Option<Command> {
    use help_text::*;
    let (name, about, after_help, usage) = match name {
        "fees" => ("fees", FEES_ABOUT, FEES, FEES_USAGE),
        "users" => ("users", USERS_ABOUT, USERS, USERS_USAGE),
        "social" => ("social", SOCIAL_ABOUT, SOCIAL, SOCIAL_USAGE),
        "report" => ("report", REPORT_ABOUT, REPORT, REPORT_USAGE),
        _ => return None,
    };
    let command = Command::new(name);
    let command = match name {
        "fees" | "users" => QueryArgs::augment_args(command),
        _ => SocialArgs::augment_args(command),
    };
    let command = command
        .about(about)
        .after_help(after_help)
        .override_usage(usage);
    Some(match name {
        "report" => command,
        _ => command.mut_arg("per_user", |a| a.hide(true)),
    })
}

/// The first word that is no option nor an option's value, as clap would take it: the global
/// options of `top` that take a value take the next word (unless written `--name=value`).
/// `None` at a `--`, a short option with a value, or no word at all.
fn command_named<'a>(top: &Command, args: &'a [OsString]) -> Option<&'a str> {
    let mut words = args.iter().skip(1);
    while let Some(word) = words.next() {
        let word = word.to_str()?;
        if let Some(long) = word.strip_prefix("--") {
            let takes_value = top
                .get_arguments()
                .find(|arg| arg.get_long() == Some(long))
                .is_some_and(|arg| arg.get_action().takes_values());
            if long.is_empty() || (takes_value && words.next().is_none()) {
                return None;
            }
        } else if let Some(shorts) = word.strip_prefix('-') {
            let flag = |c: char| {
                top.get_arguments()
                    .any(|arg| arg.get_short() == Some(c) && !arg.get_action().takes_values())
            };
            if shorts.is_empty() || !shorts.chars().all(flag) {
                return None;
            }
        } else {
            return Some(word);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// `command`'s `Debug`, everything clap keeps, but its place in the list of commands
    /// (`disp_ord`) and the place the next would get (`current_disp_ord`): where the whole
    /// tree's `--help` lists it, which the tree a query needs never shows.
    fn unordered(command: &Command) -> String {
        let text = format!("{command:#?}");
        let mut lines = text.lines();
        let mut kept = Vec::new();
        while let Some(line) = lines.next() {
            kept.push(line);
            if ["    disp_ord: Some(", "    current_disp_ord: Some("].contains(&line) {
                lines.next();
            }
        }
        kept.join("\n")
    }

    /// [`unordered`] without the `subcommands` member.
    fn without_commands(command: &Command) -> String {
        let text = unordered(command);
        let start = text
            .find("\n    subcommands: [")
            .expect("a subcommands member");
        let end = start + text[start..].find("\n    ],").expect("its end") + "\n    ],".len();
        format!("{}{}", &text[..start], &text[end..])
    }

    /// The two texts are the same; else the first line where they part, with what comes before.
    fn same(built: &str, derived: &str, what: &str) {
        let (built, derived): (Vec<&str>, Vec<&str>) =
            (built.lines().collect(), derived.lines().collect());
        if let Some(at) =
            (0..built.len().max(derived.len())).find(|&i| built.get(i) != derived.get(i))
        {
            let before = built[at.saturating_sub(12)..at].join("\n");
            panic!(
                "{what}, line {at}, after\n{before}\nbuilt:   {:?}\nderived: {:?}",
                built.get(at),
                derived.get(at)
            );
        }
    }

    /// The shortcut builds each query's command, and the top level, exactly as the derive does.
    #[test]
    fn a_query_command_and_the_top_level_are_the_whole_trees() {
        let whole = crate::cli::Cli::command();
        for name in ["fees", "users", "social", "report"] {
            let args: Vec<OsString> = ["chain-metrics", name].map(OsString::from).into();
            let needed = command(&args).expect("a query");
            let names: Vec<&str> = needed.get_subcommands().map(Command::get_name).collect();
            assert_eq!(names, [name]);
            let built = needed.find_subcommand(name).unwrap();
            let derived = whole.find_subcommand(name).unwrap();
            same(&unordered(built), &unordered(derived), name);
            same(
                &without_commands(&needed),
                &without_commands(&whole),
                "the top level",
            );
        }
    }

    #[test]
    fn the_command_is_the_first_word_after_the_options() {
        let top = top_level();
        let named = |line: &str| {
            let args: Vec<OsString> = line.split(' ').map(OsString::from).collect();
            command_named(&top, &args).map(str::to_owned)
        };
        assert_eq!(named("cm fees -c eth").as_deref(), Some("fees"));
        assert_eq!(named("cm -vq --jobs 4 report").as_deref(), Some("report"));
        assert_eq!(named("cm --profile fees users").as_deref(), Some("users"));
        assert_eq!(named("cm --profile=fees users").as_deref(), Some("users"));
        assert_eq!(named("cm --sandbox social").as_deref(), Some("social"));
        assert_eq!(named("cm --jobs"), None);
        assert_eq!(named("cm -- fees"), None);
        assert_eq!(named("cm -h fees"), None);
        assert_eq!(named("cm -x fees"), None);
    }
}
