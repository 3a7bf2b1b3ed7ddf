//! Text that did not come from us (a service's message, a `Location`, a merge file's cell or
//! column name, a config file's value, a cache file's name) made safe to print, in one place:
//! controls and reordering marks replaced, then every known secret masked, then cut.
//!
//! The secrets are registered once known (the API key, the sandbox's key, URL passwords), so
//! that this and the one diagnostics writer (`diag`) mask them wherever a message came from.

use std::sync::RwLock;

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// What stands for a secret wherever it would have shown: the key, a password in a base URL
/// or proxy URL, and the key echoed in a body.
pub(crate) const MASK: &str = "****";

/// The shortest secret masked wherever it shows: a shorter one would eat ordinary text (a
/// password `1` would turn `2024-01-01` into `2024-0****-0****`); keys are never shorter.
pub(crate) const MIN_SECRET_CHARS: usize = 8;

/// How many characters of a value a message quotes.
const SHOWN_CHARS: usize = 40;

/// What a URL encoder escapes in a query value: all but letters, digits and `-._~`.
const URL_ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The secrets known so far, each with the other spellings it may be echoed in.
static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Extra masking a caller adds (a client's own key, URL passwords in any URL).
pub(crate) type Mask<'a> = dyn Fn(&str) -> String + 'a;

/// The one way foreign text is shown: every C0 and C1 control, DEL and reordering mark
/// (U+202A-U+202E, U+2066-U+2069) replaced by `�`; then `mask` and every registered secret
/// masked wherever it shows, whatever touches it; then cut to `max` characters, `…` saying
/// so. Masking comes before the cut, so a cut never leaves a piece of a secret behind.
pub(crate) fn shown(text: &str, mask: &Mask<'_>, max: usize) -> String {
    let replaced: String = text
        .chars()
        .map(|c| if is_unsafe(c) { '\u{fffd}' } else { c })
        .collect();
    let masked = mask_secrets(&mask(&replaced));
    let mut shown: String = masked.chars().take(max).collect();
    if masked.chars().nth(max).is_some() {
        shown.push('…');
    }
    shown
}

/// [`shown`] with the registered secrets alone.
pub(crate) fn cut(text: &str, max: usize) -> String {
    shown(text, &|t| t.to_owned(), max)
}

/// `text` quoted for a message: `'2024-13-01'`, or its first characters and `…`.
pub(crate) fn echo(text: &str) -> String {
    format!("'{}'", cut(text, SHOWN_CHARS))
}

/// Bytes bound for a terminal as lines (`--raw` to a terminal): [`shown`]'s rule with line
/// breaks and tabs kept, and what is no UTF-8 shown as `�`, so that a body cannot drive the
/// terminal (an OSC 52 clipboard write, a title change). Nothing is masked or cut here.
pub(crate) fn for_terminal(bytes: &[u8]) -> Vec<u8> {
    let safe = |c: char| match is_unsafe(c) && c != '\n' && c != '\t' {
        true => '\u{fffd}',
        false => c,
    };
    let text: String = String::from_utf8_lossy(bytes).chars().map(safe).collect();
    text.into_bytes()
}

/// C0 and C1 controls, and the marks that reorder a terminal line (`U+202E`...).
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Every occurrence of `secret` in `text` replaced by [`MASK`], whatever touches it (a letter,
/// `%20`, an escape sequence's `m`). For messages; data kept intact masks whole values only.
pub(crate) fn mask_every(text: &str, secret: &str) -> String {
    match secret.is_empty() || !text.contains(secret) {
        true => text.to_owned(),
        false => text.replace(secret, MASK),
    }
}

/// Remembers `secret` for every later message: as written, percent-encoded (a URL echoed)
/// and JSON-escaped (`--error-format json`). One shorter than [`MIN_SECRET_CHARS`] is left
/// to the callers' own masks.
pub(crate) fn register_secret(secret: &str) {
    if secret.chars().count() < MIN_SECRET_CHARS {
        return;
    }
    let encoded = utf8_percent_encode(secret, URL_ESCAPED).to_string();
    let escaped = serde_json::to_string(secret).unwrap_or_default();
    let escaped = escaped.trim_matches('"').to_owned();
    let Ok(mut secrets) = SECRETS.write() else {
        return;
    };
    for form in [secret.to_owned(), encoded, escaped] {
        if !secrets.contains(&form) {
            secrets.push(form);
        }
    }
    // The longest first, so that a secret inside another is not masked half.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// `text` with every registered secret masked wherever it shows.
pub(crate) fn mask_secrets(text: &str) -> String {
    let Ok(secrets) = SECRETS.read() else {
        return text.to_owned();
    };
    secrets
        .iter()
        .fold(text.to_owned(), |text, secret| mask_every(&text, secret))
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

    #[test]
    fn c1_del_and_isolates_are_replaced_too() {
        let text = "a\u{7f}b\u{85}c\u{9f}d\u{202a}e\u{2066}f\u{2069}g";
        assert_eq!(
            cut(text, 80),
            "a\u{fffd}b\u{fffd}c\u{fffd}d\u{fffd}e\u{fffd}f\u{fffd}g"
        );
    }

    #[test]
    fn a_secret_is_masked_whatever_touches_it_before_the_cut() {
        let secret = "Zq-foreign-secret-91";
        let mask = |t: &str| mask_every(t, secret);
        for (text, expected) in [
            (format!("xxxx{secret}yyyy"), "xxxx****yyyy"),
            (format!("%20{secret}%20"), "%20****%20"),
            (
                format!("\u{1b}[31m{secret}\u{1b}[0m"),
                "\u{fffd}[31m****\u{fffd}[0m",
            ),
        ] {
            assert_eq!(shown(&text, &mask, 200), expected);
        }
        let long = format!("{} {secret}", "x".repeat(10));
        assert_eq!(shown(&long, &mask, 13), "xxxxxxxxxx **…");
        assert_eq!(shown("2024-01-01", &mask, 200), "2024-01-01");
    }

    #[test]
    fn registered_secrets_are_masked_in_every_spelling() {
        register_secret("short");
        assert_eq!(mask_secrets("short"), "short");
        register_secret("Kq7\"reg/is-tered+9");
        assert_eq!(
            mask_secrets(
                "a Kq7\"reg/is-tered+9 b Kq7%22reg%2Fis-tered%2B9 c Kq7\\\"reg/is-tered+9"
            ),
            "a **** b **** c ****"
        );
        assert_eq!(echo("[Kq7\"reg/is-tered+9]"), "'[****]'");
    }
}
