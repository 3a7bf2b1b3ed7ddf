//! A piece of foreign text (a cell of a merge file, a flag's value) shown in a message: cut
//! to a readable length and with its control characters replaced, so a message stays one
//! short line and no escape sequence of a hostile file reaches the terminal.

/// How many characters of a value a message shows.
const SHOWN_CHARS: usize = 40;

/// `text` quoted for a message: `'2024-13-01'`, or its first characters and `…`.
pub fn echo(text: &str) -> String {
    format!("'{}'", cut(text, SHOWN_CHARS))
}

/// The first `max` characters of `text`, then `…` when there were more; every control or
/// bidirectional-override character is shown as `�`.
pub fn cut(text: &str, max: usize) -> String {
    let mut shown: String = text
        .chars()
        .take(max)
        .map(|c| if is_unsafe(c) { '\u{fffd}' } else { c })
        .collect();
    if text.chars().nth(max).is_some() {
        shown.push('…');
    }
    shown
}

/// C0 and C1 controls, and the marks that reorder a terminal line (`U+202E`...).
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut_and_controls_replaced() {
        assert_eq!(echo("2024-13-01"), "'2024-13-01'");
        assert_eq!(echo("a\u{1b}[31mb\r\n"), "'a\u{fffd}[31mb\u{fffd}\u{fffd}'");
        let long = "é".repeat(41);
        assert_eq!(echo(&long), format!("'{}…'", "é".repeat(40)));
        assert_eq!(echo(&"x".repeat(40)), format!("'{}'", "x".repeat(40)));
        assert_eq!(cut("a\u{202e}b", 5), "a\u{fffd}b");
    }
}
