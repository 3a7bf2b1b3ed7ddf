//! A period that is not whole (the README's `--last 90 --by week` starts inside a week) is
//! drawn differently wherever periods are shown: hollow and dashed in the SVG, whose hover
//! says `6 of 7 days`; listed in the HTML's notes; named under the terminal chart.

use super::{browser, sandbox};
use crate::support::{Env, Run};

/// The README's example, ending on a Sunday: 2024-01-02 is a Tuesday, so the first week holds
/// 6 of its 7 days; the last is whole.
const LAST_90: [&str; 9] = [
    "report",
    "-c",
    "all",
    "--last",
    "90",
    "--by",
    "week",
    "-e",
    "2024-03-31",
];

/// Runs `query` over the README's `--last 90 --by week` (its first week partial) with `how`;
/// what it printed, whatever stderr says.
fn over_90_days(env: &Env, query: &str, how: &str) -> Run {
    let line = format!("{query} --last 90 --by week -e 2024-03-31 {how}");
    env.cmd(&line).any_stderr().run()
}

#[test]
fn a_partial_week_is_hollow_dashed_and_says_its_days_in_svg_and_html() {
    let (_sandbox, env) = sandbox();
    let svg = env.home.path().join("r.svg");
    let html = env.home.path().join("r.html");
    for path in [&svg, &html] {
        let out = ["-o", path.to_str().unwrap()];
        let args: Vec<&str> = LAST_90.iter().copied().chain(out).collect();
        env.cmd_args(&args).any_stderr().run();
    }
    let markup = std::fs::read_to_string(&svg).unwrap();
    let hover = "<title>week of 2024-01-01: fees\nETHEREUM 4,909,598.60 (partial: 6 of 7 days)\n";
    assert!(markup.contains(hover), "no partial hover");
    // Six chains times six metrics: one hollow dot and one dashed segment each, all in the
    // first week; every other point whole.
    assert_eq!(markup.matches("class=\"partial\" r=").count(), 36);
    // And the legend's key to the look: one more dashed stroke.
    assert_eq!(markup.matches("<path class=\"partial\"").count(), 36 + 1);
    assert!(!markup.contains("(partial: 7 of 7"));
    assert!(
        markup.contains(">partial period (fewer days than it has)</text>"),
        "no key"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains(
        "<li>the week of 2024-01-01 is partial, drawn hollow and dashed: 6 of 7 days for every chain</li>"
    ));
    for path in [&svg, &html] {
        let dom = browser::open(path, &["--dump-dom"]);
        assert_eq!(dom.console(), Vec::<&str>::new());
        assert_eq!(dom.stdout.matches("class=\"partial\" r=").count(), 36);
    }
}

#[test]
fn the_terminal_chart_names_its_partial_weeks() {
    let (_sandbox, env) = sandbox();
    let run = over_90_days(&env, "users -c eth,base", "-f chart");
    assert!(
        run.stdout.contains(
            "\npartial (fewer days with data than the week has): week of 2024-01-01 (6 of 7 days)\n\
            ETHEREUM, BASE · 2024-01-02 to 2024-03-31 · by week\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn change_and_share_over_a_partial_week_warn_and_whole_weeks_do_not() {
    let (_sandbox, env) = sandbox();
    let run = over_90_days(&env, "fees -c eth,base", "--change --share -f csv");
    assert!(run.stderr.contains(
        "warning: --change and --share with --by week: a partial week is compared with whole ones, the week of 2024-01-01 (6 of 7 days); --last Nw asks whole weeks\n"
    ), "{}", run.stderr);
    // `--last 13w` is thirteen whole weeks: nothing partial, nothing to warn of.
    let run = env
        .cmd("fees -c eth,arb --last 13w --by week -e 2024-03-31 --change -f csv")
        .any_stderr()
        .run();
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
    assert!(run
        .stdout
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("2024-01-01,"));
}
