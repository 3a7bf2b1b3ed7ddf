//! Diagnostics on stderr (errors, warnings, notes, `-v` lines), written so that a closed or full
//! stderr never panics and never stops the run: the data on stdout and the exit code matter more
//! than a message nobody can read. Every line has the registered secrets masked, wherever its
//! text came from. Under `--error-format json` (switched on once, at startup) every line is one
//! JSON object, so that a script reads stderr with one parser.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Map, Value};

use super::foreign::mask_secrets;

static JSON: AtomicBool = AtomicBool::new(false);

/// From now on, every line is written as a JSON object (`--error-format json`).
pub(crate) fn json_lines() {
    JSON.store(true, Ordering::Relaxed);
}

/// Whether lines are written as JSON objects.
pub(crate) fn is_json() -> bool {
    JSON.load(Ordering::Relaxed)
}

/// Writes `text` and a newline to stderr in one locked write, every registered secret masked;
/// a failure to write is ignored. In JSON mode a line that is not already an object becomes
/// `{"level": ..., "message": ...}`, its level read from its prefix.
pub(crate) fn line(text: &str) {
    event(text, Map::new());
}

/// [`line()`], with members a script can read without parsing the message (`chain`, `metric`,
/// `days`, ...); in text mode only `text` is written.
pub(crate) fn event(text: &str, fields: Map<String, Value>) {
    let text = match is_json() && !text.starts_with('{') {
        true => as_object(&mask_secrets(text), fields),
        false => text.to_owned(),
    };
    let text = mask_secrets(&text);
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{text}");
}

/// The prefixes a line's level is read from; a line without one is a note.
const LEVELS: [(&str, &str); 6] = [
    ("error: ", "error"),
    ("warning: ", "warning"),
    ("note: ", "note"),
    ("hint: ", "hint"),
    ("* ", "verbose"),
    ("sandbox: ", "sandbox"),
];

/// `{"level":..,"message":..}` and the fields, in that order.
fn as_object(text: &str, fields: Map<String, Value>) -> String {
    let (level, message) = LEVELS
        .iter()
        .find_map(|(prefix, level)| text.strip_prefix(prefix).map(|rest| (*level, rest)))
        .unwrap_or(("note", text));
    let mut members = vec![
        format!("\"level\":{}", Value::from(level)),
        format!("\"message\":{}", Value::from(message)),
    ];
    members.extend(
        fields
            .into_iter()
            .map(|(key, value)| format!("{}:{value}", Value::from(key))),
    );
    format!("{{{}}}", members.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_becomes_an_object_with_its_level() {
        let mut fields = Map::new();
        fields.insert("chain".into(), "ETHEREUM".into());
        assert_eq!(
            as_object("warning: ETHEREUM fees: missing \"x\"", fields),
            r#"{"level":"warning","message":"ETHEREUM fees: missing \"x\"","chain":"ETHEREUM"}"#
        );
        assert_eq!(
            as_object("removed the key", Map::new()),
            r#"{"level":"note","message":"removed the key"}"#
        );
        assert_eq!(
            as_object("* POST /x", Map::new()),
            r#"{"level":"verbose","message":"POST /x"}"#
        );
    }
}
