//! What the terminal is (asked once a run) and allows: colour by flag and by the NO_COLOR /
//! CLICOLOR / TERM conventions, and braille dots in the chart by the locale.

use std::io::IsTerminal;

use super::environment;
use super::keys::ColorChoice;

/// Whether stdout gets colour (the table's header, the chart's series).
pub(super) fn stdout_color(choice: ColorChoice, terminal: Terminal) -> bool {
    colored(choice, terminal, terminal.stdout_is_terminal)
}

/// Whether stderr's `error:` and `hint:` labels are styled, as clap styles its own.
pub(crate) fn stderr_color(choice: ColorChoice, terminal: Terminal) -> bool {
    colored(choice, terminal, terminal.stderr_is_terminal)
}

/// Whether a stream (a terminal or not) gets colour: the flag first, then the variables as
/// clap's own messages read them (anstyle-query, as anstream decides): NO_COLOR,
/// CLICOLOR_FORCE, CLICOLOR; then TERM=dumb, which gets nothing but text whatever CLICOLOR or
/// CI say; then, on a terminal, a TERM that is set (or CLICOLOR set, or CI). [`clap_color`]
/// tells clap the same.
fn colored(choice: ColorChoice, terminal: Terminal, is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let clicolor = anstyle_query::clicolor();
            if terminal.no_color {
                false
            } else if anstyle_query::clicolor_force() {
                true
            } else if clicolor == Some(false) || terminal.dumb {
                false
            } else {
                is_terminal
                    && (anstyle_query::term_supports_color()
                        || clicolor == Some(true)
                        || anstyle_query::is_ci())
            }
        }
    }
}

/// The colour clap's help and errors get, for the `--color` the arguments hold (clap writes
/// them before the arguments are parsed): the choice said, or clap's own decision per stream,
/// which is [`colored`]'s but for TERM=dumb under CLICOLOR or CI, said here.
pub(crate) fn clap_color(choice: ColorChoice) -> clap::ColorChoice {
    match choice {
        ColorChoice::Always => clap::ColorChoice::Always,
        ColorChoice::Never => clap::ColorChoice::Never,
        ColorChoice::Auto if environment::term_is_dumb() && !anstyle_query::clicolor_force() => {
            clap::ColorChoice::Never
        }
        ColorChoice::Auto => clap::ColorChoice::Auto,
    }
}

/// What the terminal is, asked once at the start of a run: every later decision (the default
/// format, colour, the chart's width, progress lines) reads this value instead of asking again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Terminal {
    pub stdout_is_terminal: bool,
    pub stderr_is_terminal: bool,
    /// The width of the terminal stdout is, if it is one.
    pub stdout_width: Option<usize>,
    /// Whether the locale speaks UTF-8 (see [`speaks_utf8`]): the chart may draw braille dots.
    pub utf8: bool,
    /// Whether NO_COLOR is set (to anything but nothing): no colour unless `--color always`,
    /// and the chart in plain characters (colour is what tells its series apart).
    pub no_color: bool,
    /// Whether TERM is `dumb` (Emacs' shell, some CI logs): nothing but text, so no colour
    /// unless asked for and no progress line rewritten in place.
    pub dumb: bool,
}

impl Terminal {
    pub(crate) fn ask() -> Terminal {
        let stdout_is_terminal = std::io::stdout().is_terminal();
        Terminal {
            stdout_is_terminal,
            stderr_is_terminal: std::io::stderr().is_terminal(),
            stdout_width: stdout_is_terminal
                .then(|| terminal_size::terminal_size_of(std::io::stdout()))
                .flatten()
                .map(|(width, _)| usize::from(width.0)),
            utf8: speaks_utf8(environment::locale().as_deref()),
            no_color: anstyle_query::no_color(),
            dumb: environment::term_is_dumb(),
        }
    }

    /// Whether stderr is a terminal that can rewrite a line in place (a progress line): one
    /// that is not dumb, whose `\r` and erase sequence a dumb one may show as they are.
    pub(crate) fn rewrites_stderr(&self) -> bool {
        self.stderr_is_terminal && !self.dumb
    }

    /// Whether stdout may carry braille dots: a UTF-8 locale and no NO_COLOR.
    pub(crate) fn braille(&self) -> bool {
        self.utf8 && !self.no_color
    }
}

/// Whether `locale` (the first of LC_ALL, LC_CTYPE and LANG that is set, as the C library and
/// terminals pick the character set) names the UTF-8 character set, in any case: `C.UTF-8`,
/// `en_US.utf8`, and macOS's bare `UTF-8`. No locale is the C locale, which is ASCII.
fn speaks_utf8(locale: Option<&str>) -> bool {
    let locale = locale.unwrap_or("").to_ascii_lowercase();
    locale.contains("utf-8") || locale.contains("utf8")
}

#[cfg(test)]
mod tests {
    use super::speaks_utf8;

    #[test]
    fn the_locale_says_whether_the_terminal_speaks_utf8() {
        for yes in [
            "C.UTF-8",
            "en_US.utf8",
            "de_DE.UTF8@euro",
            "C.utf-8",
            "UTF-8",
        ] {
            assert!(speaks_utf8(Some(yes)), "{yes}");
        }
        for no in ["C", "POSIX", "en_US.ISO-8859-1", "en_US", ""] {
            assert!(!speaks_utf8(Some(no)), "{no}");
        }
        assert!(!speaks_utf8(None));
    }
}
