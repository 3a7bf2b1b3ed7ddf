//! Diagnostics on stderr (errors, warnings, notes, `-v` lines), written so that a closed or full
//! stderr never panics and never stops the run: the data on stdout and the exit code matter more
//! than a message nobody can read. A line is a [`Notice`] (a [`Level`], its text, its data) until
//! this file writes it: only here does a level become a `warning: ` label or a JSON `"level"`,
//! and only here does `-q` decide what is said. Every line has the registered secrets masked,
//! wherever its text came from. Under `--error-format json` every line is one JSON object,
//! `{"level": .., "message": .., data..}`, so that a script reads stderr with one parser. On a
//! terminal that takes colour, the `error:` and `hint:` labels are styled as clap styles its own
//! `error:` and `tip:`, so that both kinds of error read alike; a JSON line never is.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::builder::styling::{Style, Styles};
use serde_json::{Map, Value};

use super::foreign::mask_secrets;

static JSON: AtomicBool = AtomicBool::new(false);
static QUIET: AtomicBool = AtomicBool::new(false);
static STYLED: AtomicBool = AtomicBool::new(false);

/// How stderr is written for the rest of the run, decided once at startup: one JSON object a
/// line (`--error-format json`), `-q` (see [`shown`]), and whether labels are styled (stderr
/// a terminal that takes colour, as `--color`, NO_COLOR and TERM say).
pub(crate) fn start(json: bool, quiet: bool, styled: bool) {
    JSON.store(json, Ordering::Relaxed);
    QUIET.store(quiet, Ordering::Relaxed);
    STYLED.store(styled, Ordering::Relaxed);
}

/// Whether lines are written as JSON objects.
pub(crate) fn is_json() -> bool {
    JSON.load(Ordering::Relaxed)
}

/// Whether a progress line may be drawn on a terminal's stderr: lines are text, and a status
/// would be shown (it says what the run is doing, as a status does), so not under `-q`.
pub(crate) fn progress_shown() -> bool {
    !is_json() && shown(Level::Status, false, QUIET.load(Ordering::Relaxed))
}

/// Whether a notice of `level` reaches stderr (`loud`: see [`Notice::loud`]). `-q` is errors
/// only (with their hints), plus the loud warnings; without it, everything.
fn shown(level: Level, loud: bool, quiet: bool) -> bool {
    if !quiet {
        return true;
    }
    match level {
        Level::Error | Level::Hint => true,
        Level::Warning => loud,
        Level::Note | Level::Status | Level::Verbose => false,
    }
}

/// What a line is, which decides its label, its JSON `level` and whether `-q` lets it through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// The error that ends the run.
    Error,
    /// The data or the run is not all that was asked, or something is at risk.
    Warning,
    /// Worth knowing about how the run went, said with a `note: ` label.
    Note,
    /// What a command did or serves (`removed the API key from …`, the sandbox's request log):
    /// a note said without a label, since it is the command's own answer.
    Status,
    /// What to do about the error above it.
    Hint,
    /// A `-v` line.
    Verbose,
}

impl Level {
    /// The label a text line starts with.
    fn label(self) -> &'static str {
        match self {
            Level::Error => "error: ",
            Level::Warning => "warning: ",
            Level::Note => "note: ",
            Level::Status => "",
            Level::Hint => "hint: ",
            Level::Verbose => "* ",
        }
    }

    /// How the label is styled where styles are shown: an error as clap's `error:`, a hint as
    /// clap's `tip:` (clap's default styles, which the command line keeps), the rest plain.
    fn style(self) -> Style {
        const CLAP: Styles = Styles::styled();
        match self {
            Level::Error => *CLAP.get_error(),
            Level::Hint => *CLAP.get_valid(),
            Level::Warning | Level::Note | Level::Status | Level::Verbose => Style::new(),
        }
    }

    /// The `level` member of a JSON line.
    fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note | Level::Status => "note",
            Level::Hint => "hint",
            Level::Verbose => "verbose",
        }
    }
}

/// One diagnostic: its level, its text, and members a script reads without parsing the text
/// (`chain`, `days`, an error's `exit`, ...), which only JSON lines carry.
#[derive(Clone, Debug)]
pub(crate) struct Notice {
    level: Level,
    text: String,
    data: Vec<(String, Value)>,
    /// Said under `-q` too.
    loud: bool,
}

impl Notice {
    /// A notice of `level`; the usual ones have their own names below.
    pub(crate) fn new(level: Level, text: impl Into<String>) -> Notice {
        Notice {
            level,
            text: text.into(),
            data: Vec::new(),
            loud: false,
        }
    }

    /// A [`Level::Warning`].
    pub(crate) fn warning(text: impl Into<String>) -> Notice {
        Notice::new(Level::Warning, text)
    }

    /// A [`Level::Note`].
    pub(crate) fn note(text: impl Into<String>) -> Notice {
        Notice::new(Level::Note, text)
    }

    /// A [`Level::Hint`].
    pub(crate) fn hint(text: impl Into<String>) -> Notice {
        Notice::new(Level::Hint, text)
    }

    /// The members of `data` too, in their order, after those already given.
    pub(crate) fn with(mut self, data: Map<String, Value>) -> Notice {
        self.data.extend(data);
        self
    }

    /// One member more.
    pub(crate) fn member(mut self, key: &str, value: Value) -> Notice {
        self.data.push((key.to_owned(), value));
        self
    }

    /// Said under `-q` too: only for a warning cron mail must show (the retries before an
    /// exit 6, a sandbox other machines can reach, a Ctrl-C that cannot clean up).
    pub(crate) fn loud(mut self) -> Notice {
        self.loud = true;
        self
    }

    /// Writes the notice and a newline to stderr in one locked write, unless `-q` keeps it
    /// back; every registered secret masked; a failure to write is ignored.
    pub(crate) fn write(self) {
        if !shown(self.level, self.loud, QUIET.load(Ordering::Relaxed)) {
            return;
        }
        let line = match is_json() {
            true => mask_secrets(&self.json_line()),
            false => self.text_line(STYLED.load(Ordering::Relaxed)),
        };
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{line}");
    }

    /// The line in text mode: the label (`styled`: its word in the level's style, the space
    /// after it plain, as clap writes `error: `) and the text, every secret masked; the data
    /// is not written.
    fn text_line(&self, styled: bool) -> String {
        let label = self.level.label();
        let (word, space) = label.split_at(label.trim_end().len());
        let style = match styled {
            true => self.level.style(),
            false => Style::new(),
        };
        format!("{style}{word}{style:#}{space}{}", mask_secrets(&self.text))
    }

    /// `{"level":..,"message":..}` and the data, in that order; the text masked before it is
    /// escaped, so that a secret is found as it was written.
    fn json_line(&self) -> String {
        let mut members = vec![
            format!("\"level\":{}", Value::from(self.level.name())),
            format!("\"message\":{}", Value::from(mask_secrets(&self.text))),
        ];
        members.extend(
            (self.data.iter()).map(|(key, value)| format!("{}:{value}", Value::from(key.as_str()))),
        );
        format!("{{{}}}", members.join(","))
    }
}

/// Writes a [`Notice::warning`].
pub(crate) fn warning(text: impl Into<String>) {
    Notice::warning(text).write();
}

/// Writes a [`Notice::note`].
pub(crate) fn note(text: impl Into<String>) {
    Notice::note(text).write();
}

/// Writes a [`Level::Status`] notice.
pub(crate) fn status(text: impl Into<String>) {
    Notice::new(Level::Status, text).write();
}

/// Writes a [`Level::Verbose`] line.
pub(crate) fn verbose(text: impl Into<String>) {
    Notice::new(Level::Verbose, text).write();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each level's text line and JSON line.
    #[test]
    fn each_level_has_its_label_in_text_and_its_name_in_json() {
        let cases = [
            (
                Notice::new(Level::Error, "it failed"),
                "error: it failed",
                "error",
            ),
            (
                Notice::warning("days left out"),
                "warning: days left out",
                "warning",
            ),
            (
                Notice::note("from the cache"),
                "note: from the cache",
                "note",
            ),
            (
                Notice::new(Level::Status, "removed the key"),
                "removed the key",
                "note",
            ),
            (Notice::hint("try --last 7"), "hint: try --last 7", "hint"),
            (
                Notice::new(Level::Verbose, "POST /x"),
                "* POST /x",
                "verbose",
            ),
        ];
        for (notice, text, level) in cases {
            assert_eq!(notice.text_line(false), text);
            let message = Value::from(notice.text.clone());
            let json = format!(r#"{{"level":"{level}","message":{message}}}"#);
            assert_eq!(notice.json_line(), json);
        }
    }

    /// Styled, an error and a hint are labelled in clap's styles (bold red `error:`, green
    /// `tip:`), the space after the label and the text plain; other labels never are.
    #[test]
    fn only_error_and_hint_labels_are_styled() {
        let cases = [
            (
                Notice::new(Level::Error, "it failed"),
                "\x1b[1m\x1b[31merror:\x1b[0m it failed",
            ),
            (
                Notice::hint("try -o x.svg"),
                "\x1b[32mhint:\x1b[0m try -o x.svg",
            ),
            (Notice::warning("w"), "warning: w"),
            (Notice::note("n"), "note: n"),
            (Notice::new(Level::Status, "s"), "s"),
            (Notice::new(Level::Verbose, "v"), "* v"),
        ];
        for (notice, styled) in cases {
            assert_eq!(notice.text_line(true), styled);
        }
    }

    #[test]
    fn data_follows_level_and_message_in_json_and_is_left_out_of_text() {
        let mut data = Map::new();
        data.insert("chain".into(), "ETHEREUM".into());
        let notice = Notice::new(Level::Error, "ETHEREUM fees: missing \"x\"")
            .member("exit", 5.into())
            .with(data);
        assert_eq!(
            notice.json_line(),
            concat!(
                r#"{"level":"error","message":"ETHEREUM fees: missing \"x\"","#,
                r#""exit":5,"chain":"ETHEREUM"}"#
            )
        );
        assert_eq!(
            notice.text_line(false),
            "error: ETHEREUM fees: missing \"x\""
        );
    }

    #[test]
    fn quiet_keeps_errors_hints_and_loud_warnings_only() {
        let passes = |quiet: bool, notice: Notice| shown(notice.level, notice.loud, quiet);
        for notice in [
            Notice::new(Level::Error, "e"),
            Notice::hint("h"),
            Notice::warning("w").loud(),
        ] {
            assert!(passes(true, notice.clone()), "{notice:?}");
        }
        let kept_back = [
            Notice::warning("w"),
            Notice::note("n"),
            Notice::new(Level::Status, "s"),
            Notice::new(Level::Verbose, "v"),
        ];
        for notice in kept_back {
            assert!(!passes(true, notice.clone()), "{notice:?}");
            assert!(passes(false, notice.clone()), "{notice:?}");
        }
    }
}
