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

pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// The width of the terminal stdout is, if it is one.
pub fn stdout_width() -> Option<usize> {
    if !stdout_is_terminal() {
        return None;
    }
    terminal_size::terminal_size_of(std::io::stdout()).map(|(width, _)| usize::from(width.0))
}
