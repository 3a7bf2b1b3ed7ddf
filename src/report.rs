//! The end of a run: the outcome becomes an error notice (and its hint) on stderr and an exit code.

use std::process::ExitCode;

use serde_json::json;

use crate::error::{Exit, Failure};
use crate::system::diag::{self, Level, Notice};
use crate::system::interrupt;

/// How an error is written on stderr (`--error-format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ErrorFormat {
    /// `error: ...` and `hint: ...` lines
    #[default]
    Text,
    /// one JSON object on one line
    Json,
}

/// The exit code of a run that ended in `err`, its lines printed. A closed stdout (`| head`)
/// is a quiet success; a signal's handler decides the code itself.
pub(crate) fn report(err: &anyhow::Error, format: ErrorFormat) -> ExitCode {
    if interrupt::interrupted() {
        return ExitCode::from(interrupt::wait_for_handler());
    }
    let broken_pipe = err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    let code = err
        .downcast_ref::<Failure>()
        .map_or(Exit::Internal, |f| f.exit);
    match format {
        ErrorFormat::Json => json_error(err).write(),
        ErrorFormat::Text => {
            let (message, hint) = message_and_hint(err);
            Notice::new(Level::Error, message).write();
            if let Some(hint) = hint {
                Notice::hint(hint).write();
            }
        }
    }
    ExitCode::from(code as u8)
}

const BUG_HINT: &str = "this is a bug in chain-metrics; please report it with the command you ran";

/// The error's message and hint: a [`Failure`]'s own, else (an error no step classified) the
/// whole chain of causes and the hint to report a bug.
fn message_and_hint(err: &anyhow::Error) -> (String, Option<String>) {
    match err.downcast_ref::<Failure>() {
        Some(f) => (f.message.clone(), f.hint.clone()),
        None => (format!("{err:#}"), Some(BUG_HINT.to_owned())),
    }
}

/// `--error-format json`: the error as one notice whose members are all present (`null` when
/// not known): `level` ("error"), `message`, `exit`, `class`, `endpoint`, `chain`, `status`,
/// `service_message`, `hint`; then the members only some errors have (a usage error's `tip`,
/// `--strict`'s `missing`).
pub(crate) fn json_error(err: &anyhow::Error) -> Notice {
    let failure = err.downcast_ref::<Failure>();
    let exit = failure.map_or(Exit::Internal, |f| f.exit);
    let (message, hint) = message_and_hint(err);
    let detail = failure
        .and_then(|f| f.detail.as_deref())
        .cloned()
        .unwrap_or_default();
    let members = [
        ("exit", json!(exit as u8)),
        ("class", json!(class(exit))),
        ("endpoint", json!(detail.endpoint.map(|e| e.path()))),
        ("chain", json!(detail.chain.map(|c| c.name()))),
        ("status", json!(detail.status)),
        ("service_message", json!(detail.service_message)),
        ("hint", json!(hint)),
    ];
    (members.into_iter().chain(detail.members)).fold(
        Notice::new(Level::Error, message),
        |notice, (key, value)| notice.member(key, value),
    )
}

/// The exit code's name, for scripts: CLI.md §6 in a word.
pub(crate) fn class(exit: Exit) -> &'static str {
    match exit {
        Exit::Internal => "internal",
        Exit::Usage => "usage",
        Exit::Config => "config",
        Exit::KeyRejected => "key_rejected",
        Exit::RequestRejected => "request_rejected",
        Exit::ServiceFailed => "service_failed",
        Exit::Network => "network",
        Exit::BadResponse => "bad_response",
        Exit::Output => "output",
        Exit::Incomplete => "incomplete",
        Exit::Interrupted => "interrupted",
    }
}

/// A command line clap refused: its own message and exit, or with `--error-format json` in
/// the arguments, the message as the JSON object (class `usage`, exit 2), with clap's
/// suggestion as `tip` and the values it accepts as `possible_values` (`null` when it has none).
pub(crate) fn usage_error(error: clap::Error) -> ! {
    use clap::error::ErrorKind;
    let shows = [ErrorKind::DisplayHelp, ErrorKind::DisplayVersion];
    let shows = shows.contains(&error.kind())
        || error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand;
    if shows {
        shown(&error);
    }
    if !asks_json_errors(std::env::args()) {
        error.exit();
    }
    diag::start(true, false, false);
    json_error(&anyhow::Error::new(usage_failure(&error))).write();
    std::process::exit(Exit::Usage as i32)
}

/// `--help`, `--version` (and the help a bare command gets) written as clap writes them, but a
/// stdout that cannot take them (a full disk) is exit 9 as for any output, not a silent 0; a
/// closed pipe (`--help | head -1`) is the quiet end it is everywhere.
fn shown(error: &clap::Error) -> ! {
    let code = match error.use_stderr() {
        true => Exit::Usage as i32,
        false => 0,
    };
    ended(error.print(), code)
}

/// `--version` or `-V` alone, answered before clap is asked (`cli::version_asked`): written
/// and ended as [`shown`] ends clap's.
pub(crate) fn version_shown(text: &str) -> ! {
    use std::io::Write;
    ended(std::io::stdout().lock().write_all(text.as_bytes()), 0)
}

/// Exit `code` once stdout took what was `printed`; exit 9 (but a closed pipe) if it did not.
fn ended(printed: std::io::Result<()>, code: i32) -> ! {
    use std::io::Write;
    let written = printed.and_then(|()| std::io::stdout().lock().flush());
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Notice::new(Level::Error, format!("cannot write to stdout: {e}")).write();
            std::process::exit(Exit::Output as i32)
        }
        _ => std::process::exit(code),
    }
}

/// clap's refusal as a usage failure: its first line the message, its `tip:` and its possible
/// values as members.
fn usage_failure(error: &clap::Error) -> Failure {
    use clap::error::{ContextKind, ContextValue};
    let text = error.render().to_string();
    // The first paragraph: the message, and what it lists on the lines under it (the
    // arguments missing).
    let mut paragraph = text.lines().take_while(|line| !line.trim().is_empty());
    let first = paragraph.next().unwrap_or_default();
    let listed: Vec<&str> = paragraph.map(str::trim).collect();
    // clap labels its message as this tool does.
    let first = first.strip_prefix("error:").map_or(first, str::trim_start);
    let message = match listed.is_empty() {
        true => first.to_owned(),
        false => format!("{first} {}", listed.join(", ")),
    };
    let tips: Vec<&str> = text
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("tip: "))
        .collect();
    let tip = (!tips.is_empty()).then(|| tips.join("; "));
    let possible = match error.get(ContextKind::ValidValue) {
        Some(ContextValue::Strings(values)) => serde_json::json!(values),
        _ => serde_json::Value::Null,
    };
    let detail = crate::error::RequestDetail {
        members: vec![
            ("tip", serde_json::json!(tip)),
            ("possible_values", possible),
        ],
        ..Default::default()
    };
    Failure::usage(message)
        .with_hint("see --help")
        .with_detail(detail)
}

/// Whether the arguments say `--error-format json` (or `=json`), before clap has read them.
fn asks_json_errors(args: impl Iterator<Item = String>) -> bool {
    let args: Vec<String> = args.collect();
    args.windows(2)
        .any(|w| w[0] == "--error-format" && w[1].eq_ignore_ascii_case("json"))
        || args
            .iter()
            .any(|a| a.eq_ignore_ascii_case("--error-format=json"))
}
