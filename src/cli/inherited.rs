//! A subcommand's `--help` without the global flags: its own options, then one line that names
//! the global flags acting there and points to `chain-metrics --help`, as gh's "INHERITED
//! FLAGS" does. The top-level help lists them all; completion and the man pages have their own.

use std::ffi::OsString;

use clap::{Command, CommandFactory, FromArgMatches, ValueEnum};

use super::completion::globals_acting_under;
use super::{Cli, ColorChoice};

/// The command line from the process's arguments, its subcommands' help quiet about globals,
/// and clap's help and errors coloured as `--color`, NO_COLOR and TERM say. A query is parsed
/// with only its own command built (`needed`); anything that tree does not take as a run (help,
/// an error) is parsed again with the whole tree, which says it.
pub(crate) fn parse() -> Result<Cli, clap::Error> {
    let args: Vec<OsString> = std::env::args_os().collect();
    let color = crate::settings::clap_color(color_asked(&args));
    if let Some(needed) = super::needed::command(&args) {
        // Only parsed, never shown: `-h` is not shortened (its help comes from the whole tree).
        let mut command = chains_from_config_too(command(needed));
        let parsed = command.try_get_matches_from_mut(&args);
        if let Some(cli) = parsed.ok().and_then(|m| Cli::from_arg_matches(&m).ok()) {
            return Ok(cli);
        }
    }
    let mut command = finished(Cli::command()).color(color);
    let matches = command.try_get_matches_from_mut(args)?;
    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut command))
}

/// The derive's command tree as the tool shows it: the global flags named in one line under
/// each command, `--chain` left to the settings, `-h` shortened.
fn finished(cli: Command) -> Command {
    let command = chains_from_config_too(command(cli));
    super::short_help::shortened(command, "chain-metrics")
}

/// The `--color` the arguments give (the last, as clap takes it), read before clap parses them:
/// clap writes its help and errors before there is a parsed value. `auto` when none is given,
/// or none clap would take.
fn color_asked(args: &[OsString]) -> ColorChoice {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map(|arg| arg.to_str().unwrap_or(""))
        .take_while(|word| *word != "--")
        .collect();
    let mut values = words
        .iter()
        .enumerate()
        .filter_map(|(at, word)| match *word {
            "--color" => words.get(at + 1).copied(),
            _ => word.strip_prefix("--color="),
        });
    values
        .next_back()
        .and_then(|value| ColorChoice::from_str(value, false).ok())
        .unwrap_or_default()
}

/// The query commands with `--chain` left optional for the parser alone: config `chains` may
/// give the chains, which only the settings can tell (a query with neither is refused in clap's
/// words by `query::missing_chain`). Help, usage and the man pages still show it required.
fn chains_from_config_too(cli: Command) -> Command {
    let queries: Vec<String> = cli
        .get_subcommands()
        .filter(|sub| sub.get_arguments().any(|arg| arg.get_id() == "chains"))
        .map(|sub| sub.get_name().to_owned())
        .collect();
    queries.into_iter().fold(cli, |cli, name| {
        cli.mut_subcommand(name, |sub| sub.mut_arg("chains", |arg| arg.required(false)))
    })
}

/// `cli` with its subcommands' help naming the global flags in one line.
fn command(cli: Command) -> Command {
    let hidden: Vec<clap::Arg> = cli
        .get_arguments()
        .filter(|arg| arg.is_global_set())
        .map(|arg| arg.clone().hide(true))
        .collect();
    let mut globals: Vec<(String, String)> = hidden
        .iter()
        .map(|arg| (arg.get_id().to_string(), flag_name(arg)))
        .collect();
    // The ones a newcomer reaches for first lead the line.
    const FIRST: [&str; 5] = ["sandbox", "profile", "verbose", "quiet", "error_format"];
    globals.sort_by_key(|(id, _)| FIRST.iter().position(|f| f == id).unwrap_or(FIRST.len()));
    let cli = without_negations(cli);
    let names: Vec<String> = cli
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    names.into_iter().fold(cli, |cli, name| {
        let acting: Vec<&str> = match globals_acting_under(&name) {
            Some(acting) => acting.to_vec(),
            None => globals.iter().map(|(id, _)| id.as_str()).collect(),
        };
        let named: Vec<&str> = globals
            .iter()
            .filter(|(id, _)| acting.contains(&id.as_str()))
            .map(|(_, flag)| flag.as_str())
            .collect();
        let line = pointer(&named);
        cli.mut_subcommand(name, |sub| with_pointer(sub, &hidden, &line))
    })
}

/// The top level with its `--no-X` flags left out of `--help`, which must fit on one screen:
/// `--X` is there, the rule that every boolean setting has its `--no-` form names the rest,
/// and the man page and completion list them. They parse as before.
fn without_negations(cli: Command) -> Command {
    let negations: Vec<String> = cli
        .get_arguments()
        .filter(|arg| arg.get_long().is_some_and(|long| long.starts_with("no-")))
        .map(|arg| arg.get_id().to_string())
        .collect();
    negations
        .into_iter()
        .fold(cli, |cli, id| cli.mut_arg(id, |arg| arg.hide(true)))
}

/// `-v` or `--sandbox`: how the flag is typed, shortest first.
fn flag_name(arg: &clap::Arg) -> String {
    match (arg.get_short(), arg.get_long()) {
        (Some(short), _) => format!("-{short}"),
        (None, Some(long)) => format!("--{long}"),
        (None, None) => arg.get_id().to_string(),
    }
}

/// The line under "Global options:": the first few of them, and how many more.
fn pointer(named: &[&str]) -> String {
    const SHOWN: usize = 6;
    let first = named[..named.len().min(SHOWN)].join(", ");
    match named.len() {
        0 => "none act here; see chain-metrics --help".to_owned(),
        n if n > SHOWN => format!("{first} and {} more: see chain-metrics --help", n - SHOWN),
        _ => format!("{first}: see chain-metrics --help"),
    }
}

/// `cmd` and its subcommands with the global flags as hidden copies (clap copies a global flag
/// only where there is none of that name yet, so these stay hidden, and parse as before), and
/// the "Global options:" line after their own options.
fn with_pointer(cmd: Command, hidden: &[clap::Arg], line: &str) -> Command {
    let template = format!(
        "{{before-help}}{{about-with-newline}}\n{{usage-heading}} \
        {{usage}}\n\n{{all-args}}\n\nGlobal options:\n  {line}{{after-help}}"
    );
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    let cmd = cmd.help_template(template).args(hidden.iter().cloned());
    subs.into_iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(name, |sub| with_pointer(sub, hidden, line))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_color_given_before_a_double_dash_is_the_one_asked() {
        let asked = |line: &str| {
            let args: Vec<OsString> = line.split(' ').map(OsString::from).collect();
            color_asked(&args)
        };
        assert_eq!(asked("cm fees --color never"), ColorChoice::Never);
        assert_eq!(asked("cm --color=always fees"), ColorChoice::Always);
        assert_eq!(
            asked("cm --color never fees --color always"),
            ColorChoice::Always
        );
        assert_eq!(asked("cm fees --color"), ColorChoice::Auto);
        assert_eq!(asked("cm fees --color red"), ColorChoice::Auto);
        assert_eq!(asked("cm render -- --color never"), ColorChoice::Auto);
    }
}
