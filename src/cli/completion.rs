//! Shell completion: the scripts `completions SHELL` prints, and the candidates they ask the binary
//! for.
//!
//! The scripts are clap_complete's dynamic registrations: on each TAB the shell runs
//! `chain-metrics` with `_CHAIN_METRICS_COMPLETE=<shell>` and the words typed so far, and the
//! binary answers from its own clap definition. So chains, includes and formats come from the
//! same tables the parser uses, comma lists complete after each comma, and profile names are
//! read from the config file at the moment of the TAB, in every shell.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::ValueEnum;
use clap_complete::env::{Bash, Elvish, EnvCompleter, Fish, Powershell, Zsh};
use clap_complete::CompletionCandidate;

use crate::model::SocialMetric;
use crate::settings;
use crate::settings::{parse_config_file, ConfigLocation};

/// The variable that turns a run into a completion request. Not clap's default `COMPLETE`, so a
/// stray `COMPLETE` in someone's environment cannot change what the tool does.
pub(super) const VAR: &str = "_CHAIN_METRICS_COMPLETE";

/// The binary's name, which the scripts register for and call back (found on PATH, so the
/// scripts are the same on every machine).
pub(super) const BIN: &str = "chain-metrics";

/// The shells `completions` writes scripts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Powershell,
    Elvish,
}

impl Shell {
    /// The file name the project keeps the script under in `completions/` (CLI.md §7).
    pub fn file_name(self) -> &'static str {
        match self {
            Shell::Bash => "chain-metrics.bash",
            Shell::Zsh => "_chain-metrics",
            Shell::Fish => "chain-metrics.fish",
            Shell::Powershell => "_chain-metrics.ps1",
            Shell::Elvish => "chain-metrics.elv",
        }
    }

    fn adapter(self) -> &'static dyn EnvCompleter {
        match self {
            Shell::Bash => &Bash,
            Shell::Zsh => &Zsh,
            Shell::Fish => &Fish,
            Shell::Powershell => &Powershell,
            Shell::Elvish => &Elvish,
        }
    }
}

/// Writes the completion script of `shell`.
pub fn write_script(shell: Shell, out: &mut dyn Write) -> io::Result<()> {
    shell
        .adapter()
        .write_registration(VAR, BIN, BIN, BIN, out)?;
    if shell == Shell::Zsh {
        // Installed in $fpath as `_chain-metrics`, the file is the body of an autoloaded
        // function: without this, the first TAB of a session would only register the completer
        // and complete nothing.
        writeln!(
            out,
            "\nif [[ \"${{funcstack[1]}}\" == \"_{BIN}\" ]]; then\n    _clap_dynamic_completer_{} \
            \"$@\"\nfi",
            BIN.replace('-', "_")
        )?;
    }
    Ok(())
}

/// Answers a completion request and exits, when the shell script asked for one.
pub(crate) fn answer_if_asked() {
    clap_complete::CompleteEnv::with_factory(command_to_complete)
        .var(VAR)
        .bin(BIN)
        .completer(BIN)
        .complete();
}

/// The global flags that act under a top-level command, where not all of them do: `chains` and
/// `completions` read only `--error-format`, `cache` that and `--quiet` (its file does not
/// depend on the config file or the service). The parser still accepts the others there;
/// completion, the man pages and `--help` offer only these.
pub fn globals_acting_under(command: &str) -> Option<&'static [&'static str]> {
    match command {
        "chains" | "completions" | "man" => Some(&["error_format"]),
        "cache" => Some(&["quiet", "error_format"]),
        _ => None,
    }
}

/// The command line as completion sees it: under the commands of [`globals_acting_under`],
/// the global flags that do nothing there are hidden, so a TAB does not offer them.
pub(super) fn command_to_complete() -> clap::Command {
    let mut cli = <crate::cli::Cli as clap::CommandFactory>::command();
    // Built first, so the global flags have been copied into every subcommand.
    cli.build();
    let names: Vec<String> = cli
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    names
        .into_iter()
        .fold(cli, |cli, name| match globals_acting_under(&name) {
            Some(acting) => cli.mut_subcommand(name, |sub| hide_globals(sub, acting)),
            None => cli,
        })
}

/// `cmd` and its subcommands with every global flag but `acting` hidden.
pub(super) fn hide_globals(cmd: clap::Command, acting: &[&str]) -> clap::Command {
    let idle: Vec<String> = cmd
        .get_arguments()
        .filter(|arg| arg.is_global_set() && !acting.contains(&arg.get_id().as_str()))
        .map(|arg| arg.get_id().to_string())
        .collect();
    let cmd = idle
        .into_iter()
        .fold(cmd, |cmd, id| cmd.mut_arg(id, |arg| arg.hide(true)));
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    subs.into_iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(name, |sub| hide_globals(sub, acting))
    })
}

/// `--include`: the official-account metrics.
pub(super) fn includes() -> Vec<CompletionCandidate> {
    SocialMetric::ALL
        .iter()
        .map(|item| CompletionCandidate::new(item.name()))
        .collect()
}

/// `--profile`: the `[profiles.NAME]` tables of the config file the command line would use.
pub(super) fn profiles() -> Vec<CompletionCandidate> {
    let flag = config_flag(std::env::args_os().skip(1));
    let Ok(env) = settings::Environment::from_process() else {
        return Vec::new();
    };
    let Ok(location) = ConfigLocation::find(flag.as_deref(), &env) else {
        return Vec::new();
    };
    let Ok(text) = std::fs::read_to_string(&location.path) else {
        return Vec::new();
    };
    let Ok(settings) = parse_config_file(&text) else {
        return Vec::new();
    };
    settings
        .profiles
        .unwrap_or_default()
        .into_keys()
        .map(CompletionCandidate::new)
        .collect()
}

/// The value of a `--config` already typed on the line being completed, if any.
fn config_flag(words: impl Iterator<Item = std::ffi::OsString>) -> Option<PathBuf> {
    let mut words = words.map(|w| w.to_string_lossy().into_owned());
    let mut found = None;
    while let Some(word) = words.next() {
        if word == "--config" {
            found = words.next().map(PathBuf::from);
        } else if let Some(value) = word.strip_prefix("--config=") {
            found = Some(PathBuf::from(value));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_config_flag_wins() {
        let words = [
            "--",
            "chain-metrics",
            "--config",
            "a.toml",
            "--config=b.toml",
            "fees",
        ];
        let found = config_flag(words.iter().map(Into::into));
        assert_eq!(found, Some(PathBuf::from("b.toml")));
        assert_eq!(config_flag(["fees"].iter().map(Into::into)), None);
    }
}
