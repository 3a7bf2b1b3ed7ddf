//! Text that did not come from us (a service's message, a `Location`, a merge file's cell or
//! column name, a config file's value, a cache file's name) made safe to print, in one place:
//! controls and invisible format characters replaced, then every known secret masked in every
//! spelling (split by line breaks, controls or invisible characters, percent-encoded byte by
//! byte), then cut.
//!
//! The secrets are registered once known (the API key, the sandbox's key, URL passwords), so
//! that this and the one diagnostics writer (`diag`) mask them wherever a message came from.

use std::sync::RwLock;

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

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

/// The one way foreign text is shown: every C0 and C1 control, DEL and invisible format
/// character (Unicode Cf: reordering marks, zero-width space, soft hyphen, joiners) replaced
/// by `�`; then `mask` and every registered secret
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

/// What a message shows of foreign `text` in which `secret` may be spelled in any way
/// `mask_every` knows: `shown` with nothing cut. For the fuzz and property tests of the
/// masker, which see the crate from outside.
pub fn message_shown(text: &str, secret: &str) -> String {
    shown(text, &|t| mask_every(t, secret), usize::MAX)
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

/// [`for_terminal`] on bytes that come in pieces (`--raw` printed as it arrives): a character
/// cut between two pieces waits for the rest of it, so it is not shown as `�`.
#[derive(Default)]
pub(crate) struct TerminalPieces {
    /// The start of a character the last piece ended in.
    cut: Vec<u8>,
}

impl TerminalPieces {
    /// The next piece, made safe for the terminal, but for a character cut at its end.
    pub(crate) fn piece(&mut self, piece: &[u8]) -> Vec<u8> {
        self.cut.extend_from_slice(piece);
        let whole = self.cut.len() - cut_character(&self.cut);
        let shown = for_terminal(&self.cut[..whole]);
        self.cut.drain(..whole);
        shown
    }

    /// What is left at the end: a character never completed is shown as `�`.
    pub(crate) fn end(self) -> Vec<u8> {
        for_terminal(&self.cut)
    }
}

/// How many bytes at the end of `bytes` begin a UTF-8 character that is not complete yet.
fn cut_character(bytes: &[u8]) -> usize {
    for back in 1..=bytes.len().min(3) {
        let byte = bytes[bytes.len() - back];
        if byte & 0xc0 == 0x80 {
            continue;
        }
        let length = match byte {
            0xf0.. => 4,
            0xe0.. => 3,
            0xc0.. => 2,
            _ => 1,
        };
        return if length > back { back } else { 0 };
    }
    0
}

/// C0 and C1 controls, and the invisible format characters (Unicode Cf), among them the
/// marks that reorder a terminal line (`U+202E`...).
fn is_unsafe(c: char) -> bool {
    c.is_control() || is_format(c)
}

/// Unicode's format characters (general category Cf): invisible on a screen, so a key with one
/// inside looks whole.
fn is_format(c: char) -> bool {
    c.general_category() == GeneralCategory::Format
}

/// What may sit between two characters of a secret and still leave it readable: a control
/// (a line break, CR LF), an invisible format character, the `�` either was replaced by, or
/// white space (a line break a message turned into a space).
fn is_filler(c: char) -> bool {
    is_unsafe(c) || c == '\u{fffd}' || c.is_whitespace()
}

/// Every occurrence of `secret` in `text` replaced by [`MASK`], whatever touches it (a letter,
/// `%20`, an escape sequence's `m`), and however it is spelled: with line breaks, controls,
/// invisible characters (or the `�` that replaced them) or white space between its characters, and
/// any of
/// its characters percent-encoded byte by byte in either hex case. For messages; data kept
/// intact masks whole values only.
pub(crate) fn mask_every(text: &str, secret: &str) -> String {
    let secret: Vec<char> = secret.chars().collect();
    if secret.is_empty() {
        return text.to_owned();
    }
    let mut masked = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        match spelled_at(text, at, &secret) {
            Some(end) => {
                masked.push_str(MASK);
                at = end;
            }
            None => {
                masked.push(c);
                at += c.len_utf8();
            }
        }
    }
    masked
}

/// Where `secret` ends when it is spelled at byte `at` of `text` (see [`mask_every`]).
fn spelled_at(text: &str, at: usize, secret: &[char]) -> Option<usize> {
    let mut i = at;
    for (n, &wanted) in secret.iter().enumerate() {
        if n > 0 {
            i = past_fillers(text, i);
        }
        i = char_at(text, i, wanted)?;
    }
    Some(i)
}

/// Where `wanted` ends when it is at byte `at`, as itself or percent-encoded.
fn char_at(text: &str, at: usize, wanted: char) -> Option<usize> {
    if text[at..].starts_with(wanted) {
        return Some(at + wanted.len_utf8());
    }
    match percent_char_at(text, at)? {
        (c, end) if c == wanted => Some(end),
        _ => None,
    }
}

/// The index past every filler (plain or percent-encoded) from byte `at`.
fn past_fillers(text: &str, mut at: usize) -> usize {
    loop {
        match text[at..].chars().next() {
            Some(c) if is_filler(c) => at += c.len_utf8(),
            Some('%') => match percent_char_at(text, at) {
                Some((c, end)) if is_filler(c) => at = end,
                _ => return at,
            },
            _ => return at,
        }
    }
}

/// The character percent-encoded at byte `at` (`%41`, `%e2%80%8B`), and where it ends.
fn percent_char_at(text: &str, at: usize) -> Option<(char, usize)> {
    let first = percent_byte_at(text, at)?;
    let len = match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return None,
    };
    let mut bytes = vec![first];
    for n in 1..len {
        bytes.push(percent_byte_at(text, at + 3 * n)?);
    }
    let c = std::str::from_utf8(&bytes).ok()?.chars().next()?;
    Some((c, at + 3 * len))
}

/// The byte `%XX` at byte `at` stands for, either hex case.
fn percent_byte_at(text: &str, at: usize) -> Option<u8> {
    let spelled = text.as_bytes().get(at..at + 3)?;
    match spelled {
        [b'%', high, low] if high.is_ascii_hexdigit() && low.is_ascii_hexdigit() => {
            let hex = |d: u8| (d as char).to_digit(16).unwrap_or(0) as u8;
            Some(hex(*high) * 16 + hex(*low))
        }
        _ => None,
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

    /// Bytes for a terminal in pieces, cut at every place: as made safe whole, a character
    /// cut between two pieces shown whole.
    #[test]
    fn bytes_for_a_terminal_in_pieces_are_shown_as_whole() {
        let bytes = "é€😀\u{1b}]0;x\u{7}ok\n".as_bytes();
        let mut broken = bytes.to_vec();
        broken.insert(3, 0xe2);
        for bytes in [bytes, &broken[..]] {
            let whole = for_terminal(bytes);
            for cut in 0..=bytes.len() {
                let mut pieces = TerminalPieces::default();
                let mut shown = pieces.piece(&bytes[..cut]);
                shown.extend(pieces.piece(&bytes[cut..]));
                shown.extend(pieces.end());
                assert_eq!(shown, whole, "cut at {cut}");
            }
        }
    }

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
    fn a_secret_split_invisible_or_percent_encoded_is_masked() {
        let secret = "acc-key-7f3e9a1b";
        let mask = |t: &str| mask_every(t, secret);
        for spelled in [
            "acc-ke\ny-7f3e9a1b",
            "acc-ke\r\ny-7f3e9a1b",
            "a\u{1}cc-key-7f3e9a1\u{1b}b",
            "acc-\u{200b}key-7f3e\u{ad}9a1b",
            "acc\u{200d}-key\u{200c}-7f3e\u{feff}9a\u{2060}1b",
            "%61%63%63%2D%6B%65%79%2D%37%66%33%65%39%61%31%62",
            "%61%63%63%2d%6b%65%79%2d%37%66%33%65%39%61%31%62",
            "acc-%6B%65y-7f3e%0A9a1b",
            "acc-key%E2%80%8B-7f3e9a1b",
        ] {
            let text = format!("x{spelled}y");
            assert_eq!(shown(&text, &mask, 200), "x****y", "{spelled:?}");
            assert_eq!(mask(&text), "x****y", "{spelled:?}");
        }
        // Invisible characters from the service are replaced, as controls are.
        assert_eq!(
            cut("a\u{200b}b\u{ad}c\u{e0041}d", 80),
            "a\u{fffd}b\u{fffd}c\u{fffd}d"
        );
        // Ordinary text around a broken %-sequence stays as it was.
        assert_eq!(mask("100% %zz %4 %E2%80"), "100% %zz %4 %E2%80");
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
