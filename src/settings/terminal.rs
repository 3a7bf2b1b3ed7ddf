//! What the terminal allows: colour by flag and by the NO_COLOR / CLICOLOR conventions.

use std::io::IsTerminal;

use crate::cli::ColorChoice;
use crate::settings::Environment;

/// Whether stdout gets colour: the flag first, then NO_COLOR, CLICOLOR_FORCE, CLICOLOR, a tty.
pub fn stdout_color(choice: ColorChoice, env: &Environment) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            if env.get("NO_COLOR").is_some() {
                false
            } else if env.get("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                true
            } else if env.get("CLICOLOR").is_some_and(|v| v == "0") {
                false
            } else {
                std::io::stdout().is_terminal()
            }
        }
    }
}

/// What the terminal is, asked once at the start of a run: every later decision (the default
/// format, colour, the chart's width, progress lines) reads this value instead of asking again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terminal {
    pub stdout_is_terminal: bool,
    pub stderr_is_terminal: bool,
    /// The width of the terminal stdout is, if it is one.
    pub stdout_width: Option<usize>,
}

impl Terminal {
    pub fn ask() -> Terminal {
        let stdout_is_terminal = std::io::stdout().is_terminal();
        Terminal {
            stdout_is_terminal,
            stderr_is_terminal: std::io::stderr().is_terminal(),
            stdout_width: stdout_is_terminal
                .then(|| terminal_size::terminal_size_of(std::io::stdout()))
                .flatten()
                .map(|(width, _)| usize::from(width.0)),
        }
    }
}
