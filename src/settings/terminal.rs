//! What the terminal is (asked once a run) and allows: colour by flag and by the NO_COLOR /
//! CLICOLOR / TERM conventions.

use std::io::IsTerminal;

use super::keys::ColorChoice;

/// Whether stdout gets colour: the flag first, then the variables as clap's own messages read
/// them (anstyle-query, as anstream decides): NO_COLOR, CLICOLOR_FORCE, CLICOLOR, and on a
/// terminal a TERM other than `dumb` (or CLICOLOR set, or CI).
pub fn stdout_color(choice: ColorChoice, terminal: Terminal) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let clicolor = anstyle_query::clicolor();
            if anstyle_query::no_color() {
                false
            } else if anstyle_query::clicolor_force() {
                true
            } else if clicolor == Some(false) {
                false
            } else {
                terminal.stdout_is_terminal
                    && (anstyle_query::term_supports_color()
                        || clicolor == Some(true)
                        || anstyle_query::is_ci())
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
