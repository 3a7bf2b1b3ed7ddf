//! Nothing silently ignored: a flag that changes nothing in its combination says so in a
//! `note:`, a file name the tool cannot honour is refused, and `--sort chain` orders by name.

use crate::support::{sandbox_env, Env};

#[test]
fn decimals_without_a_measure_that_rounds_gets_a_note() {
    let (_sandbox, env) = sandbox_env(&[]);
    env.cmd("fees -c eth --last 3 -f csv --decimals 3")
        .any_stdout()
        .error_line("note: --decimals rounds percents, means and per-user values, and nothing asked makes one (add --change, --rolling, --share or --summary); it has no effect")
        .run();
    // With a measure that rounds, it is heard and says nothing.
    env.cmd("fees -c eth --last 3 -f csv --change --decimals 3")
        .any_stdout()
        .run();
    env.cmd("fees -c eth --last 3 -f csv --summary --decimals 3")
        .any_stdout()
        .run();
}

#[test]
fn cumulative_on_active_users_alone_gets_a_note() {
    let (_sandbox, env) = sandbox_env(&[]);
    let run = env
        .cmd("users -c eth --last 3 -f csv --cumulative")
        .error_line("note: --cumulative adds no column to users: a running total of daily active users counts no real users (--change or --rolling N do work)")
        .any_stdout()
        .run();
    assert!(
        run.stdout.starts_with("date,active_users\n"),
        "{}",
        run.stdout
    );
    // report's fees do add up: no note there.
    env.cmd("report -c eth --last 3 -f csv --cumulative")
        .any_stdout()
        .run();
}

#[test]
fn an_output_extension_no_format_has_is_refused_before_anything_is_sent() {
    let env = Env::new();
    env.cmd("fees -c eth --last 3 -o x.png")
        .code(2)
        .stderr("error: --output: chain-metrics writes no .png files; the extensions it knows are .csv (and .txt), .tsv, .json, .ndjson, .md, .svg, .html and .sqlite\nhint: pick one of those extensions, or name the format with --format (csv without either)\n")
        .run();
    assert!(!env.home.path().join("x.png").exists());
}

#[test]
fn a_file_without_an_extension_or_with_format_named_still_gets_what_was_asked() {
    let (_sandbox, env) = sandbox_env(&[]);
    env.cmd("fees -c eth --last 2 -o plain").run();
    env.cmd("fees -c eth --last 2 -o x.png -f csv").run();
    let text = std::fs::read_to_string(env.home.path().join("x.png")).unwrap();
    assert!(text.starts_with("date,fees\n"), "{text}");
}

#[test]
fn the_summary_hint_for_an_svg_file_names_a_file_of_a_format_that_takes_it() {
    let (_sandbox, env) = sandbox_env(&[]);
    let run = env
        .cmd("fees -c eth --last 3 --summary -o x.svg")
        .code(2)
        .run();
    let hint = run.stderr.lines().nth(1).unwrap();
    assert_eq!(hint, "hint: write a csv file: --format csv --output x.csv");
    let command = hint.split_once(": ").unwrap().1.split_once(": ").unwrap().1;
    env.cmd(&format!("fees -c eth --last 3 --summary {command}"))
        .run();
    let text = std::fs::read_to_string(env.home.path().join("x.csv")).unwrap();
    assert!(text.contains("\ntotal,"), "{text}");
}

#[test]
fn sort_chain_orders_by_the_chains_name() {
    let (_sandbox, env) = sandbox_env(&[]);
    let names = |line: &str| {
        let run = env.cmd(line).run();
        let chains: Vec<String> = run
            .stdout
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap().to_owned())
            .collect();
        chains
    };
    let asked = "fees -c eth,arb,base --last 1 -f csv --sort chain";
    assert_eq!(names(asked), ["ARBITRUM", "BASE", "ETHEREUM"]);
    assert_eq!(
        names(&format!("{asked}:desc")),
        ["ETHEREUM", "BASE", "ARBITRUM"]
    );
}

#[test]
fn top_zero_is_refused_in_the_words_of_the_other_bounds() {
    Env::new()
        .cmd("fees -c eth --last 3 --top 0")
        .code(2)
        .error_line_like(
            "error: invalid value '0' for '--top <N>': '0' is not a number of rows of 1 or more",
        )
        .run();
}
