//! Secrets against hostile input: service text is scrubbed before it is cut,
//! `--verbose` lines go through the same scrub, a password shows masked whatever it holds, a
//! key shorter than 8 characters is refused where it enters, and a key is read up to 4 KiB.
//! The property: random keys quoted at random places in random service texts, spelled in any
//! way (split by line breaks or controls, invisible characters inside, percent-encoded in
//! either hex case), never put a 5-character piece of the key on stdout or stderr, in text or
//! JSON mode.

use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use crate::support::{Env, Reply, Stub, DAY, KEY};

#[test]
fn a_key_under_8_characters_is_refused_wherever_it_enters() {
    let stub = Stub::always(Reply::json(200, "[]"));
    let short = "the API key is 5 characters long, and a key has at least 8 (a shorter one \
                 could not be masked in output without masking ordinary text)";
    let mut env = Env::with_service(&stub.url);
    env.set("CHAIN_METRICS_API_KEY", "sh0rt");
    env.cmd(DAY)
        .code(3)
        .error_line(format!(
            "error: {short} (key from environment CHAIN_METRICS_API_KEY)"
        ))
        .run();
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &stub.url);
    env.write_config("api_key_command = \"echo sh0rt\"\n");
    env.cmd(DAY)
        .code(3)
        .error_line_like(format!("error: {short} (key from [..]"))
        .run();
    env.cmd("auth login --no-verify")
        .stdin("sh0rt\n")
        .code(3)
        .error_line(format!("error: {short}"))
        .run();
    env.cmd("sandbox --listen 127.0.0.1:0 --key k")
        .code(2)
        .error_line(
            "error: --key: the API key is 1 character long, and a key has at least 8 (a shorter \
             one could not be masked in output without masking ordinary text)",
        )
        .run();
    assert!(stub.seen().is_empty(), "a short key was sent");
}

#[test]
fn a_key_is_read_up_to_4_kib_then_refused() {
    let stub = Stub::always(Reply::json(200, "[]"));
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &stub.url);
    env.write_config("api_key_command = \"yes\"\n");
    env.cmd(DAY)
        .code(3)
        .error_line_like(
            "[..](yes) printed more than 4096 bytes, far more than a key; it should print the key alone",
        )
        .run();
    env.shell("yes | tr -d '\\n' | chain-metrics auth login --no-verify")
        .code(2)
        .error_line("error: the first line of stdin is longer than 4096 bytes, far more than a key")
        .run();
    let config = std::fs::read_to_string(env.config_path()).unwrap();
    assert_eq!(
        config, "api_key_command = \"yes\"\n",
        "an endless key was stored"
    );
}

#[test]
fn verbose_masks_the_key_in_a_same_origin_redirect() {
    let location = format!("/v2/api/chain-insights/fees?key={KEY}&x=1");
    let stub = Stub::moved_to_v2(location);
    let env = Env::with_service(&stub.url);
    let shown = format!("{}/v2/api/chain-insights/fees?key=****&x=1", stub.url);
    env.cmd(&format!("{DAY} -v")).stderr_contains(&shown).run();
    assert_eq!(stub.seen().len(), 2);
}

#[test]
fn a_password_with_quotes_or_spaces_never_shows() {
    let stub = Stub::always(Reply::json(400, r#"{"error":"no"}"#));
    for password in ["it's-secret", "say \"secret\"", "two secret words"] {
        let mut env = Env::with_service(&stub.url);
        let url = stub.url.replace("://", &format!("://ann:{password}@"));
        env.set("CHAIN_METRICS_BASE_URL", &url);
        let run = env
            .cmd(&format!("{DAY} -v --retries 0"))
            .code(5)
            .stderr_contains("http://ann:****@127.0.0.1:")
            .run();
        let show = env.cmd("config show").any_stderr().run();
        for text in [&run.stderr, &show.stdout, &show.stderr] {
            assert!(!text.contains("secret"), "{password}: {text}");
        }
    }
}

/// How a key is quoted in service text: as a JSON or shell string, a URL parameter, a word.
const QUOTES: [(&str, &str); 8] = [
    ("\"", "\""),
    ("'", "'"),
    ("key=", "&"),
    (" ", " "),
    ("(", ")"),
    ("<", ">"),
    (": ", ","),
    ("\n", "\n"),
];

/// Random service text: lower-case words and punctuation, so that no piece of a key (upper
/// case and digits) is in it by chance.
fn text() -> impl Strategy<Value = String> {
    "[a-z .,;:!?(){}<>=&/'\"\n\t-]{0,400}"
}

/// A service text with the key quoted at up to four random places of it (from the last, so
/// that no quoted key lands inside another).
fn quoted(text: &str, key: &str, places: &[(usize, usize)]) -> String {
    let mut out = text.to_owned();
    let mut places = places.to_vec();
    places.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    for (at, quote) in places {
        let mut at = at.min(text.len());
        while !out.is_char_boundary(at) {
            at -= 1;
        }
        let (open, close) = QUOTES[quote % QUOTES.len()];
        out.insert_str(at, &format!("{open}{key}{close}"));
    }
    out
}

/// The key as a service may spell it, `how` picking: as it is, split by a line break, CR LF
/// or a control, with a zero-width space, soft hyphen or joiner inside, or percent-encoded
/// byte by byte in upper or lower case.
fn spelled(key: &str, how: usize) -> String {
    let (head, tail) = key.split_at(key.len() / 2);
    let encoded = |upper: bool| -> String {
        key.bytes()
            .map(|b| match upper {
                true => format!("%{b:02X}"),
                false => format!("%{b:02x}"),
            })
            .collect()
    };
    match how % 10 {
        0 => key.to_owned(),
        1 => format!("{head}\n{tail}"),
        2 => format!("{head}\r\n{tail}"),
        3 => format!("{head}\u{1b}{tail}"),
        4 => format!("{head}\u{200b}{tail}"),
        5 => format!("{head}\u{ad}{tail}"),
        6 => format!("{head}\u{200d}{tail}"),
        7 => encoded(true),
        8 => encoded(false),
        _ => format!("{head}\u{2060}\n{tail}"),
    }
}

/// What the scripted service answers, with `text` in it (and the key in a Location).
fn reply(shape: usize, text: &str, key: &str) -> Reply {
    match shape % 5 {
        0 => Reply::new(400, "text/plain", text),
        1 => Reply::json(401, &serde_json::json!({ "error": text }).to_string()),
        2 => Reply::new(
            502,
            "text/html",
            format!("<html><title>{text}</title></html>"),
        ),
        3 => Reply::json(200, &serde_json::json!([{ "date": text }]).to_string()),
        _ => {
            let safe: String = text.chars().filter(char::is_ascii_lowercase).collect();
            let location = format!("http://elsewhere.example/{safe}?k={key}&x=1");
            Reply::json(302, "").header("location", &location)
        }
    }
}

#[test]
fn no_piece_of_a_quoted_key_reaches_any_output() {
    let answer = Arc::new(Mutex::new(Reply::json(200, "[]")));
    let script = answer.clone();
    let stub = Stub::start(move |_| script.lock().unwrap().clone());
    let cases = (
        "[A-Z0-9_]{8,48}",
        text(),
        proptest::collection::vec((0usize..500, 0usize..8), 1..4),
        0usize..5,
        (0usize..10, any::<bool>()),
    );
    let mut runner = TestRunner::new(Config {
        cases: 48,
        failure_persistence: None,
        ..Config::default()
    });
    let outcome = runner.run(&cases, |(key, text, places, shape, (how, json))| {
        let said = quoted(&text, &spelled(&key, how), &places);
        *answer.lock().unwrap() = reply(shape, &said, &key);
        let mut env = Env::with_service(&stub.url);
        env.set("CHAIN_METRICS_API_KEY", &key);
        let format = if json { " --error-format json" } else { "" };
        let run = env
            .cmd(&format!("{DAY} -v --retries 0{format}"))
            .any_outcome()
            .run();
        prop_assert_ne!(run.code, 0);
        let shown = format!("{}{}", run.stdout, run.stderr);
        let pieces: Vec<&str> = (0..=key.len() - 5).map(|i| &key[i..i + 5]).collect();
        let leaked = pieces.iter().find(|piece| shown.contains(**piece));
        prop_assert!(
            leaked.is_none(),
            "{:?} of {} shown in\n{}",
            leaked,
            key,
            shown
        );
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
}
