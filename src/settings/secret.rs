//! The API key, in a type that never shows itself in Debug or Display output.

use std::fmt;

/// What stands for a secret wherever it would have shown, in one place: the key, a password
/// in a base URL or proxy URL, and the key echoed in a body.
pub const MASK: &str = "****";

/// An API key. Only [`ApiKey::expose`] gives its text, for the one header that carries it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Takes a key, trimmed of surrounding whitespace; an empty key is none.
    pub fn new(text: &str) -> Option<ApiKey> {
        let text = text.trim();
        (!text.is_empty()).then(|| ApiKey(text.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The key as it may be shown: its last four characters at most, and only if long enough
    /// that they give little away.
    pub fn redacted(&self) -> String {
        let chars: Vec<char> = self.0.chars().collect();
        if chars.len() >= 12 {
            let tail: String = chars[chars.len() - 4..].iter().collect();
            format!("{MASK}{tail}")
        } else {
            MASK.into()
        }
    }

    /// Refuses a key that cannot travel in an HTTP header (control characters, non-ASCII):
    /// caught here it is a configuration error, not a network failure retried in vain.
    pub fn check_header(&self) -> Result<(), String> {
        match self.0.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            true => Ok(()),
            false => Err("the API key holds characters that cannot be sent in an HTTP header (control characters or non-ASCII)".into()),
        }
    }

    /// Replaces every occurrence of the key in `text` (a service may echo it back).
    pub fn scrub(&self, text: &str) -> String {
        text.replace(&self.0, MASK)
    }

    /// Replaces every occurrence of the key in a body (`--raw`), byte for byte otherwise;
    /// says whether there was one. A key inside a JSON string leaves a JSON string.
    pub fn scrub_bytes(&self, body: Vec<u8>) -> (Vec<u8>, bool) {
        let key = self.0.as_bytes();
        if !body.windows(key.len()).any(|w| w == key) {
            return (body, false);
        }
        let mut clean = Vec::with_capacity(body.len());
        let mut i = 0;
        while i < body.len() {
            if body[i..].starts_with(key) {
                clean.extend_from_slice(MASK.as_bytes());
                i += key.len();
            } else {
                clean.push(body[i]);
                i += 1;
            }
        }
        (clean, true)
    }
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
        assert!(key.check_header().is_ok());
        assert!(ApiKey::new("ab\u{1}cd").unwrap().check_header().is_err());
        assert!(ApiKey::new("schlüssel").unwrap().check_header().is_err());
    }
}
