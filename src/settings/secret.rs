//! The API key, in a type that never shows itself in Debug or Display output, and masked
//! in two ways: in messages wherever it shows, in data (`--raw`) only as a whole value.

use std::fmt;

use super::limits::MIN_KEY_CHARS;
pub(crate) use crate::system::foreign::MASK;
use crate::system::foreign::{mask_every, register_secret};

/// An API key. Only [`ApiKey::expose`] gives its text, for the one header that carries it.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct ApiKey(String);

impl ApiKey {
    /// Takes a key, trimmed of surrounding whitespace; an empty key is none. From here on
    /// the key is masked in every message (a base URL holding it too), and the process
    /// writes no core dump.
    pub(crate) fn new(text: &str) -> Option<ApiKey> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        crate::system::secrecy::no_core_dumps();
        register_secret(text);
        Some(ApiKey(text.to_owned()))
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }

    /// The key as it may be shown: its last four characters at most, and only if long enough
    /// that they give little away.
    pub(crate) fn redacted(&self) -> String {
        let chars: Vec<char> = self.0.chars().collect();
        if chars.len() >= 12 {
            let tail: String = chars[chars.len() - 4..].iter().collect();
            format!("{MASK}{tail}")
        } else {
            MASK.into()
        }
    }

    /// Refuses a key shorter than [`MIN_KEY_CHARS`] (it could not be masked without masking
    /// ordinary text), and one that cannot travel in an HTTP header (control characters,
    /// non-ASCII): caught here it is a configuration error, not a network failure retried in
    /// vain.
    pub(crate) fn check(&self) -> Result<(), String> {
        self.check_length()?;
        self.check_header()
    }

    /// Refuses a key shorter than [`MIN_KEY_CHARS`].
    pub(crate) fn check_length(&self) -> Result<(), String> {
        let chars = self.0.chars().count();
        if chars < MIN_KEY_CHARS {
            return Err(format!(
                "the API key is {chars} character{} long, and a key has at least {MIN_KEY_CHARS} \
                 (a shorter one could not be masked in output without masking ordinary text)",
                if chars == 1 { "" } else { "s" }
            ));
        }
        Ok(())
    }

    /// Refuses a key that cannot travel in an HTTP header.
    pub(crate) fn check_header(&self) -> Result<(), String> {
        match self.0.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            true => Ok(()),
            false => Err(
                "the API key holds characters that cannot be sent in an HTTP header \
                (control characters or non-ASCII)"
                    .into(),
            ),
        }
    }

    /// `text` for a message: every occurrence of the key masked, whatever touches it (a
    /// service may echo it glued to other text, percent-encoded or coloured).
    pub(crate) fn mask(&self, text: &str) -> String {
        mask_every(text, &self.0)
    }

    /// Makes the key known to every later message (`system::diag` masks it in each line).
    pub(crate) fn register(&self) {
        register_secret(&self.0);
    }

    /// Replaces every occurrence of the key as a whole value in a body (`--raw`), byte for
    /// byte otherwise; says whether there was one. A key inside a JSON string leaves a JSON
    /// string, and one written with JSON escapes (`\u0061cc-key`) is caught too.
    pub(crate) fn scrub_bytes(&self, body: Vec<u8>) -> (Vec<u8>, bool) {
        mask_whole(&body, self.0.as_bytes())
    }

    /// [`ApiKey::scrub_bytes`] for a body read in pieces, holding none of it whole.
    pub(crate) fn raw_scrub(&self) -> RawScrub<'_> {
        RawScrub {
            secret: self.0.as_bytes(),
            held: Vec::new(),
            at: 0,
            masked: false,
        }
    }
}

/// Makes the key the environment holds (`CHAIN_METRICS_API_KEY`) known to every message from
/// the start of the run, before any file is read: a merge file's refusal may quote it.
pub(crate) fn register_environment_key() {
    if let Ok(key) = std::env::var(super::ENV_KEY) {
        let _ = ApiKey::new(&key);
    }
}

/// `text` with each whole-value occurrence of `secret` replaced by [`MASK`]: one that no
/// letter or digit touches on either side (a header value, a JSON string equal to it, a URL
/// parameter, a word), a JSON escape before it (`\n`, `\u0020`) counting as a separator, and
/// any of its characters possibly written as a JSON escape. A secret that is part of a longer
/// word or number (`12345678` inside `9123456789`) is another value, left as it is. Says
/// whether anything was masked.
pub(super) fn mask_whole(text: &[u8], secret: &[u8]) -> (Vec<u8>, bool) {
    let mut clean = Vec::with_capacity(text.len());
    let (_, masked) = mask_span(text, secret, 0, text.len(), &mut clean);
    (clean, masked)
}

/// [`mask_whole`]'s scan of the positions `from..until` of `text` onto `clean` (what is before
/// `from` is read only as what comes before a key; a key that begins before `until` may end
/// past it): where the scan stopped, and whether it masked anything.
fn mask_span(
    text: &[u8],
    secret: &[u8],
    from: usize,
    until: usize,
    clean: &mut Vec<u8>,
) -> (usize, bool) {
    let continues = |b: Option<&u8>| b.is_some_and(u8::is_ascii_alphanumeric);
    let mut masked = false;
    let mut i = from;
    while i < until {
        let end = (!secret.is_empty())
            .then(|| written_at(text, i, secret))
            .flatten()
            .filter(|&end| {
                (!continues(i.checked_sub(1).and_then(|b| text.get(b))) || escaped(text, i))
                    && !continues(text.get(end))
            });
        match end {
            Some(end) => {
                clean.extend_from_slice(MASK.as_bytes());
                i = end;
                masked = true;
            }
            None => {
                clean.push(text[i]);
                i += 1;
            }
        }
    }
    (i, masked)
}

/// How many bytes before a key are read to tell whether it is a whole value: a JSON escape
/// (`\u0020`) is the longest separator.
const BEFORE: usize = 6;

/// [`ApiKey::scrub_bytes`] on a body that comes in pieces (`--raw`, printed as it arrives):
/// what can be decided is given back at once; the last bytes, where a key cut between two
/// pieces may begin (written with JSON escapes, six bytes a character), wait for the next
/// piece or the end. It holds one piece and that tail at most, whatever the body's length.
pub(crate) struct RawScrub<'k> {
    secret: &'k [u8],
    /// The bytes not given back yet, after the few already given back that come before them.
    held: Vec<u8>,
    /// Where in `held` the bytes not given back yet begin.
    at: usize,
    masked: bool,
}

impl RawScrub<'_> {
    /// The next piece of the body: what of the body can now be given back, masked.
    pub(crate) fn piece(&mut self, piece: &[u8]) -> Vec<u8> {
        self.held.extend_from_slice(piece);
        // A key written at a position ends within `reach` of it, the byte after it included.
        let reach = self.secret.len() * BEFORE + 1;
        let mut clean = Vec::with_capacity(piece.len() + MASK.len());
        if let Some(until) = self.held.len().checked_sub(reach).filter(|&u| u > self.at) {
            let (stopped, masked) = mask_span(&self.held, self.secret, self.at, until, &mut clean);
            self.masked |= masked;
            self.at = stopped;
        }
        let given = self.at.saturating_sub(BEFORE);
        self.held.drain(..given);
        self.at -= given;
        clean
    }

    /// The end of the body: the rest of it, masked, and whether the key was masked anywhere.
    pub(crate) fn end(self) -> (Vec<u8>, bool) {
        let mut clean = Vec::new();
        let until = self.held.len();
        let (_, masked) = mask_span(&self.held, self.secret, self.at, until, &mut clean);
        (clean, self.masked || masked)
    }
}

/// Whether a JSON escape (`\n`, `\u0020`) ends at `end`.
fn escaped(text: &[u8], end: usize) -> bool {
    let back = |n: usize| end.checked_sub(n).and_then(|at| text.get(at));
    back(2) == Some(&b'\\')
        || (back(6) == Some(&b'\\')
            && back(5) == Some(&b'u')
            && text[end - 4..end].iter().all(u8::is_ascii_hexdigit))
}

/// Where `secret` ends if it is written at `at`, each of its bytes as itself or as a JSON
/// escape (`\u0061`, `\/`).
fn written_at(text: &[u8], at: usize, secret: &[u8]) -> Option<usize> {
    let mut i = at;
    for &byte in secret {
        i += match text.get(i..)? {
            [b, ..] if *b == byte => 1,
            [b'\\', b, ..] if *b == byte && matches!(byte, b'"' | b'\\' | b'/') => 2,
            [b'\\', b'u', hex @ ..] if hex.len() >= 4 && escape_value(&hex[..4]) == Some(byte) => 6,
            _ => return None,
        };
    }
    Some(i)
}

/// The ASCII byte four hex digits stand for, if they stand for one.
fn escape_value(hex: &[u8]) -> Option<u8> {
    let hex = std::str::from_utf8(hex).ok()?;
    u8::try_from(u32::from_str_radix(hex, 16).ok()?)
        .ok()
        .filter(u8::is_ascii)
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({})", self.redacted())
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whole-value masking of a text, as a `--raw` body has it.
    trait Scrub {
        fn scrub(&self, text: &str) -> String;
    }

    impl Scrub for ApiKey {
        fn scrub(&self, text: &str) -> String {
            String::from_utf8(self.scrub_bytes(text.as_bytes().to_vec()).0).unwrap()
        }
    }

    #[test]
    fn never_shown_whole() {
        let key = ApiKey::new(" sk-live-1234567890abcd \n").unwrap();
        assert_eq!(key.expose(), "sk-live-1234567890abcd");
        assert_eq!(format!("{key:?}"), "ApiKey(****abcd)");
        assert_eq!(format!("{key}"), "****abcd");
        assert_eq!(ApiKey::new("short").unwrap().redacted(), "****");
        assert_eq!(
            key.scrub("bad key sk-live-1234567890abcd!"),
            "bad key ****!"
        );
        let echoed = br#"{"key":"sk-live-1234567890abcd","k2":"sk-live-1234567890abcd"}"#;
        assert_eq!(
            key.scrub_bytes(echoed.to_vec()),
            (br#"{"key":"****","k2":"****"}"#.to_vec(), true)
        );
        assert_eq!(key.scrub_bytes(b"[]".to_vec()), (b"[]".to_vec(), false));
        assert!(ApiKey::new("  ").is_none());
        assert!(key.check().is_ok());
        assert!(ApiKey::new("abcd\u{1}efgh").unwrap().check().is_err());
        assert!(ApiKey::new("schlüssel").unwrap().check().is_err());
    }

    /// A body scrubbed in pieces, cut at every place (and in pieces of every small size),
    /// gives what the body scrubbed whole gives: a key cut between two pieces, written with
    /// JSON escapes, or next to a letter or an escape, is decided the same.
    #[test]
    fn a_body_scrubbed_in_pieces_is_scrubbed_as_a_whole() {
        let key = ApiKey::new("acc-key-7f3e9a1b").unwrap();
        let body = concat!(
            "acc-key-7f3e9a1b [\"acc-key-7f3e9a1b\", x acc-key-7f3e9a1bz, \"\\u0061cc-key-",
            "7f3e9a1b\" \\nacc-key-7f3e9a1b 9acc-key-7f3e9a1b acc\\u002dkey-7f3e9a1b] ",
            "acc-key-7f3e9a1b"
        )
        .as_bytes();
        let whole = key.scrub_bytes(body.to_vec());
        assert_eq!(whole.0.windows(4).filter(|w| w == b"****").count(), 6);
        let in_pieces = |cuts: &mut dyn Iterator<Item = usize>| {
            let mut scrub = key.raw_scrub();
            let (mut clean, mut from) = (Vec::new(), 0);
            for cut in cuts.chain([body.len()]) {
                clean.extend(scrub.piece(&body[from..cut]));
                from = cut;
            }
            let (rest, masked) = scrub.end();
            clean.extend(rest);
            (clean, masked)
        };
        for cut in 0..=body.len() {
            assert_eq!(in_pieces(&mut std::iter::once(cut)), whole, "cut at {cut}");
        }
        for size in 1..=7 {
            assert_eq!(
                in_pieces(&mut (size..body.len()).step_by(size)),
                whole,
                "{size}"
            );
        }
        let mut scrub = key.raw_scrub();
        assert_eq!(
            (scrub.piece(b""), scrub.end()),
            (Vec::new(), (Vec::new(), false))
        );
    }

    #[test]
    fn a_short_key_is_refused() {
        assert_eq!(
            ApiKey::new("k").unwrap().check().unwrap_err(),
            "the API key is 1 character long, and a key has at least 8 (a shorter one could \
             not be masked in output without masking ordinary text)"
        );
        assert!(ApiKey::new("1234567").unwrap().check().is_err());
        assert!(ApiKey::new("12345678").unwrap().check().is_ok());
    }

    #[test]
    fn a_key_is_masked_only_as_a_whole_value() {
        let key = ApiKey::new("20240101").unwrap();
        assert_eq!(
            key.scrub("on 2024010155 and 120240101"),
            "on 2024010155 and 120240101"
        );
        assert_eq!(
            key.scrub("key=20240101&x, \"20240101\", (20240101) -20240101-"),
            "key=****&x, \"****\", (****) -****-"
        );
        assert_eq!(key.scrub("20240101"), "****");
        assert_eq!(
            key.scrub(r#""a\n20240101\t", "\u002020240101""#),
            r#""a\n****\t", "\u0020****""#
        );
        assert_eq!(
            key.scrub_bytes(b"[20240101,320240101]".to_vec()),
            (b"[****,320240101]".to_vec(), true)
        );
    }

    #[test]
    fn a_key_written_with_json_escapes_is_masked_in_a_body() {
        let key = ApiKey::new("acc-key-7f3e9a1b").unwrap();
        let body = concat!(
            r#"[{"k":"\u0061cc-key-7f3e9a1b"},{"k":"acc\u002dkey-7f3e9a1B"},"#,
            r#""\u0041cc-key-7f3e9a1b"]"#
        )
        .as_bytes();
        assert_eq!(
            key.scrub_bytes(body.to_vec()),
            (
                br#"[{"k":"****"},{"k":"acc\u002dkey-7f3e9a1B"},"\u0041cc-key-7f3e9a1b"]"#.to_vec(),
                true
            )
        );
        assert_eq!(
            key.mask("xxxxacc-key-7f3e9a1b is the key, %20acc-key-7f3e9a1b%20"),
            "xxxx**** is the key, %20****%20"
        );
    }
}
