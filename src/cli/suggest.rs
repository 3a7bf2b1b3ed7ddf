//! "Did you mean": the `tip: a similar value exists` line clap prints for a mistyped value
//! of a value enum (`--format jsno`), added to the values our own parsers refuse (`--chain
//! etherium`, `--include tweets`).

use std::ffi::OsStr;

use clap::builder::TypedValueParser;
use clap::error::{ContextKind, ContextValue};

/// A value parser whose refusals name the closest of `candidates`, as clap's own do.
#[derive(Clone)]
pub(super) struct Suggesting<P> {
    parse: P,
    candidates: fn() -> Vec<String>,
}

impl<P> Suggesting<P> {
    pub(super) fn new(parse: P, candidates: fn() -> Vec<String>) -> Suggesting<P> {
        Suggesting { parse, candidates }
    }
}

impl<P: TypedValueParser> TypedValueParser for Suggesting<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Self::Value, clap::Error> {
        self.parse
            .parse_ref(command, arg, value)
            .map_err(|mut error| {
                let typed = value.to_str().unwrap_or_default();
                if let Some(best) = closest(typed, &(self.candidates)()) {
                    error.insert(ContextKind::SuggestedValue, ContextValue::String(best));
                }
                error
            })
    }
}

/// The candidate most like `typed`, in any letter case, if one is like enough: clap's measure
/// and threshold (Jaro similarity above 0.7), so that every tip of the tool reads alike.
pub(super) fn closest(typed: &str, candidates: &[String]) -> Option<String> {
    let typed = typed.trim().to_ascii_lowercase();
    candidates
        .iter()
        .map(|c| (strsim::jaro(&typed, &c.to_ascii_lowercase()), c))
        .filter(|(likeness, _)| *likeness > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_like_enough_candidate() {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let chains = names(&["ethereum", "eth", "arbitrum", "polygon", "all"]);
        assert_eq!(closest("etherium", &chains).as_deref(), Some("ethereum"));
        assert_eq!(closest("Polygn", &chains).as_deref(), Some("polygon"));
        assert_eq!(closest("solana", &chains), None);
        let items = names(&["reply", "retweet", "tweet", "quote"]);
        assert_eq!(closest("tweets", &items).as_deref(), Some("tweet"));
        assert_eq!(closest("", &items), None);
    }
}
