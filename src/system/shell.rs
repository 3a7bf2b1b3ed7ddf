//! Shell quoting, in one place (shlex, as clap_complete uses): the paths in printed commands
//! (`chmod 600 PATH`) and the words of `--dry-run`'s curl lines are pasted into a shell as is.

use std::borrow::Cow;

/// The word as one POSIX shell word, quoted only when it needs to be.
pub(crate) fn quote(word: &str) -> Cow<'_, str> {
    // shlex refuses only a NUL byte, which no argument can carry; it is dropped then.
    shlex::try_quote(word)
        .unwrap_or_else(|_| Cow::Owned(quote(&word.replace('\0', "")).into_owned()))
}

/// The word as one shell word, always quoted (so a curl line reads the same for every word).
/// Words that need no quoting hold no `'`, so single quotes around them are exact.
pub(crate) fn quote_always(word: &str) -> String {
    match quote(word) {
        Cow::Borrowed(plain) if !plain.is_empty() => format!("'{plain}'"),
        quoted => quoted.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each quoted word, read back by a POSIX shell's rules (shlex::split), is the word.
    #[test]
    fn quoted_words_read_back_as_themselves() {
        for word in [
            "/h/a.toml",
            "/h/my dir/a",
            "/h/it's",
            "$HOME",
            "a\"b",
            "",
            "x\ny",
            "é ü",
        ] {
            for quoted in [quote(word).into_owned(), quote_always(word)] {
                assert_eq!(
                    shlex::split(&quoted),
                    Some(vec![word.to_owned()]),
                    "{quoted}"
                );
            }
        }
        assert_eq!(quote("/h/a.toml"), "/h/a.toml");
        assert_eq!(quote_always("/h/a.toml"), "'/h/a.toml'");
        assert_eq!(quote("/h/my dir/a"), "'/h/my dir/a'");
        assert_eq!(quote("a\0b"), "ab");
    }
}
