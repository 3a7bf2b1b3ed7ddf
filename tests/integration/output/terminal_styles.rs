//! Styles on a terminal: the tool's `error:` and `hint:` labels styled as clap styles its own
//! `error:` and `tip:` on the same terminal, never under NO_COLOR, `--color never`, into a pipe
//! or as JSON; and TERM=dumb, which gets nothing but text (no colour, no progress line, clap's
//! help and errors included), whatever CLICOLOR or CI say.

use crate::support::{Env, Sandbox};

/// A run of the tool that fails with its own error and hint (a picture for a terminal),
/// before any request.
const OWN_ERROR: [&str; 9] = [
    "fees",
    "-c",
    "eth",
    "-s",
    "2024-01-01",
    "-e",
    "2024-01-01",
    "-f",
    "svg",
];

/// A run clap refuses, with an error and a tip.
const CLAP_ERROR: [&str; 3] = ["fees", "--chian", "eth"];

/// What a terminal showed for `args`, stdout and stderr on it; exit `code` expected.
fn shown(env: &Env, args: &[&str], code: i32) -> String {
    env.cmd_args(args).on_terminal().code(code).run().stdout
}

/// The escape sequences around `label` on the first line of `shown` holding it: what comes
/// before it on the line (indent left out), and what comes after it up to the next space.
fn around<'a>(shown: &'a str, label: &str) -> (&'a str, &'a str) {
    let line = shown
        .lines()
        .find(|line| line.contains(label))
        .unwrap_or_else(|| panic!("no {label:?} in {shown:?}"));
    let (before, rest) = line.split_once(label).unwrap();
    let after = rest.split_once(' ').map_or(rest, |(after, _)| after);
    (before.trim_start(), after)
}

#[test]
fn error_and_hint_are_styled_as_clap_styles_its_error_and_tip() {
    let mut env = Env::with_service("http://127.0.0.1:9");
    let clap = shown(&env, &CLAP_ERROR, 2);
    let own = shown(&env, &OWN_ERROR, 2);
    let clap_error = around(&clap, "error:");
    assert!(
        clap_error.0.contains("\x1b["),
        "clap styles its error: {clap:?}"
    );
    assert_eq!(around(&own, "error:"), clap_error, "{own:?}");
    let clap_tip = around(&clap, "tip:");
    assert!(
        clap_tip.0.contains("\x1b["),
        "clap styles its tip: {clap:?}"
    );
    assert_eq!(around(&own, "hint:"), clap_tip, "{own:?}");
    assert!(
        own.contains("the svg format draws a picture") && own.contains("give -o FILE.svg"),
        "the text itself is plain: {own:?}"
    );
    // JSON lines are never styled.
    let json = shown(
        &env,
        &[&OWN_ERROR[..], &["--error-format", "json"]].concat(),
        2,
    );
    assert!(
        json.starts_with("{\"level\":\"error\"") && !json.contains('\x1b'),
        "{json:?}"
    );
    // Into a pipe, plain (a refused connection: a picture into a pipe is no error).
    let unreachable = ["fees", "-c", "eth", "--last", "2", "--retries", "0"];
    let piped = env.cmd_args(&unreachable).code(7).run().stderr;
    assert!(
        piped.starts_with("error: POST ") && piped.contains("\nhint: "),
        "{piped:?}"
    );
    assert!(!piped.contains('\x1b'), "{piped:?}");
    // --color never: neither the tool's labels nor clap's error.
    for args in [&OWN_ERROR[..], &CLAP_ERROR[..]] {
        let never = shown(&env, &[args, &["--color", "never"]].concat(), 2);
        assert!(
            never.starts_with("error: ") && !never.contains('\x1b'),
            "{never:?}"
        );
    }
    // NO_COLOR: none either.
    env.set("NO_COLOR", "1");
    for args in [&OWN_ERROR[..], &CLAP_ERROR[..]] {
        let plain = shown(&env, args, 2);
        assert!(
            plain.starts_with("error: ") && !plain.contains('\x1b'),
            "{plain:?}"
        );
    }
    assert!(shown(&env, &OWN_ERROR, 2).contains("\nhint: give -o FILE.svg"));
}

#[test]
fn a_dumb_terminal_gets_nothing_but_text() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::with_service(&sandbox.url);
    let query = [
        "fees",
        "-c",
        "all",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-02",
        "--jobs",
        "1",
    ];
    let runs: [(&[&str], i32, &str); 5] = [
        (&query, 0, "ETHEREUM"),
        (&OWN_ERROR, 2, "give -o FILE.svg"),
        (&CLAP_ERROR, 2, "a similar argument exists"),
        (&["fees", "--help"], 0, "Derived measures"),
        (&["--help"], 0, "Commands:"),
    ];
    // The table alone on stdout, the terminal showing stderr: the progress line.
    let progress = |env: &Env| {
        let out = env.home.path().join("out.csv");
        env.cmd_args(&query)
            .stdout_to(out)
            .on_terminal()
            .run()
            .stdout
    };
    // On a terminal that takes colour, each has escape sequences (colour, the line erased)...
    for (args, code, text) in runs {
        let styled = shown(&env, args, code);
        assert!(
            styled.contains('\x1b') && styled.contains(text),
            "{args:?}: {styled:?}"
        );
    }
    let rewritten = progress(&env);
    assert!(
        rewritten.ends_with("requests: 6/6 done\r\x1b[2K"),
        "{rewritten:?}"
    );
    // ... and under TERM=dumb none, whatever CLICOLOR or CI say.
    env.set("TERM", "dumb")
        .set("CLICOLOR", "1")
        .set("CI", "true");
    for (args, code, text) in runs {
        let plain = shown(&env, args, code);
        assert!(
            !plain.contains('\x1b') && plain.contains(text),
            "{args:?}: {plain:?}"
        );
    }
    assert_eq!(progress(&env), "", "no progress line rewritten in place");
    // Asked for, colour is still given.
    let asked = shown(&env, &[&query[..], &["--color", "always"]].concat(), 0);
    assert!(asked.contains("\x1b["), "{asked:?}");
}
