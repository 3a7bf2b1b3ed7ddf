//! What changes on a terminal: a coloured table by default, colour only when asked or on a
//! terminal and never with NO_COLOR, progress on stderr.

use crate::support::{argv, Env, Sandbox, DAY};

/// Runs the binary on a pseudo-terminal, returning what it showed with `\n` line ends.
fn on_terminal(env: &Env, args: &str) -> String {
    let args: Vec<&str> = args.split(' ').collect();
    env.cmd_args(&args)
        .on_terminal()
        .run()
        .stdout
        .replace("\r\n", "\n")
}

#[test]
fn a_terminal_gets_a_coloured_table_by_default_unless_no_color() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::with_service(&sandbox.url);
    env.set("LANG", "C.UTF-8");
    let args = "fees -c eth -s 2024-01-01 -e 2024-01-01";
    let shown = on_terminal(&env, args);
    assert!(shown.contains("\x1b["), "colour on a terminal: {shown:?}");
    assert!(shown.contains("879,768.88"), "a table, not csv: {shown:?}");
    env.set("NO_COLOR", "1");
    let plain = on_terminal(&env, args);
    assert_eq!(
        plain,
        "\
┌────────────┬────────────┐
│ date       ┆       fees │
╞════════════╪════════════╡
│ 2024-01-01 ┆ 879,768.88 │
└────────────┴────────────┘
"
    );
}

#[test]
fn colour_only_when_asked_or_on_a_terminal_and_never_with_no_color() {
    let sandbox = Sandbox::start(&[]);
    let args = argv("fees -c eth -s 2024-01-01 -e 2024-01-01 -f table");
    let mut env = Env::with_service(&sandbox.url);
    assert!(
        !env.cmd_args(&args).run().stdout.contains('\x1b'),
        "no colour into a pipe"
    );
    assert!(env
        .cmd_args(&[&args[..], &["--color", "always"]].concat())
        .run()
        .stdout
        .contains("\x1b["));
    env.set("CLICOLOR_FORCE", "1");
    assert!(
        env.cmd_args(&args).run().stdout.contains("\x1b["),
        "CLICOLOR_FORCE forces colour"
    );
    env.set("NO_COLOR", "1");
    assert!(
        !env.cmd_args(&args).run().stdout.contains('\x1b'),
        "NO_COLOR wins over CLICOLOR_FORCE"
    );
}

/// Runs the binary with stderr on a pseudo-terminal and stdout in a file: what the terminal showed.
fn with_stderr_on_a_terminal(url: &str, args: &str) -> String {
    let env = Env::with_service(url);
    let args: Vec<&str> = args.split(' ').collect();
    let run = env
        .cmd_args(&args)
        .stdout_to(env.home.path().join("out.csv"))
        .on_terminal()
        .run();
    run.stdout
}

#[test]
fn progress_shows_on_a_terminal_only() {
    let sandbox = Sandbox::start(&[]);
    let args = "fees -c all -s 2024-01-01 -e 2024-01-02 --jobs 1";
    let terminal = with_stderr_on_a_terminal(&sandbox.url, args);
    assert_eq!(
        terminal,
        (1..=6)
            .map(|n| format!("\rrequests: {n}/6 done"))
            .collect::<String>()
            + "\r\x1b[2K"
    );
    assert_eq!(
        with_stderr_on_a_terminal(&sandbox.url, &format!("{args} -q")),
        ""
    );
    assert_eq!(
        with_stderr_on_a_terminal(&sandbox.url, "fees -c eth -s 2024-01-01 -e 2024-01-02"),
        "",
        "one request: no progress"
    );
    Env::with_service(&sandbox.url)
        .cmd_args(&args.split(' ').collect::<Vec<_>>())
        .run();
}

#[test]
fn a_picture_is_refused_on_a_terminal_before_any_request() {
    // Nothing listens on the discard port: a request would fail with another code.
    let env = Env::with_service("http://127.0.0.1:9");
    for format in ["svg", "html"] {
        let run = env
            .cmd(&format!("{DAY} -f {format}"))
            .on_terminal()
            .code(2)
            .run();
        assert_eq!(
            run.stdout.replace("\r\n", "\n"),
            // The labels styled as clap's (output/terminal_styles.rs).
            format!("\x1b[1m\x1b[31merror:\x1b[0m the {format} format draws a picture for a file or a browser, not for a terminal\n\x1b[32mhint:\x1b[0m give -o FILE.{format}\n")
        );
    }
}
