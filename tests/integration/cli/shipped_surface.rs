//! What a user meets of the installed tool besides its output: a TAB after `cache`,
//! `chains` and `completions` offers only the flags that act there (`--error-format` acts
//! everywhere), and `--raw` ends its body with a newline.

use super::completion::{complete, home, Shell};
use crate::support::{Env, Reply, Stub, DAY_ARGS};

/// The flags a TAB offers after `line`, in each shell.
fn flags_after(line: &str) -> [(Shell, Vec<String>); 3] {
    let env = home();
    [Shell::Bash, Shell::Zsh, Shell::Fish].map(|shell| (shell, complete(shell, &env, line)))
}

fn words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text.split(' ').map(str::to_owned).collect();
    words.sort();
    words
}

#[test]
fn after_chains_only_its_own_flags_are_offered() {
    for (shell, offered) in flags_after("chain-metrics chains --") {
        assert_eq!(
            offered,
            words("--error-format --format --help"),
            "{shell:?}"
        );
    }
}

#[test]
fn after_cache_only_quiet_and_the_subcommands_own_flags_are_offered() {
    for (shell, offered) in flags_after("chain-metrics cache stats --") {
        assert_eq!(
            offered,
            words("--error-format --format --help --quiet"),
            "{shell:?}"
        );
    }
    for (shell, offered) in flags_after("chain-metrics cache clear --") {
        assert_eq!(
            offered,
            words("--before --error-format --help --quiet"),
            "{shell:?}"
        );
    }
}

#[test]
fn after_completions_no_global_flag_is_offered() {
    for (shell, offered) in flags_after("chain-metrics completions --") {
        assert_eq!(offered, words("--error-format --help"), "{shell:?}");
    }
}

#[test]
fn the_parser_still_accepts_a_global_flag_under_chains() {
    // Completion leaves them out; a script that passes one anyway keeps working.
    let run = Env::new().cmd("chains --timeout 5 --format csv").run();
    assert!(
        run.stdout.starts_with("chain,chain_id,aliases\n"),
        "{run:?}"
    );
}

/// One day's body as the service sent it.
fn raw_day() -> Vec<&'static str> {
    [&DAY_ARGS[..], &["--raw"]].concat()
}

#[test]
fn raw_adds_a_newline_to_a_body_without_one_on_stdout_and_in_a_file() {
    let body = r#"[{"date":"2024-01-01","fees":"1.5"}]"#;
    let stub = Stub::always(Reply::json(200, body));
    let env = Env::with_service(&stub.url);
    env.cmd_args(&raw_day()).stdout(format!("{body}\n")).run();
    env.cmd_args(&[&raw_day()[..], &["-o", "raw.json"]].concat())
        .run();
    let written = std::fs::read_to_string(env.home.path().join("raw.json")).unwrap();
    assert_eq!(written, format!("{body}\n"));
}

#[test]
fn raw_from_the_sandbox_ends_with_exactly_one_newline() {
    let run = Env::new()
        .cmd_args(&[&["--sandbox", "-q"][..], &raw_day()].concat())
        .run();
    assert!(run.stdout.starts_with(['[', '{']), "{run:?}");
    assert!(
        run.stdout.ends_with('\n') && !run.stdout.ends_with("\n\n"),
        "{:?}",
        run.stdout
    );
}
