//! `--per-day` (issue 42): a `--by` period's sums drawn as their exact means per covered day,
//! so that February and March compare honestly; refused without a period or a picture; and
//! the hint that suggests it over periods of unequal length, which following it answers.

use super::dated_env;
use crate::analysis::derived::python;

/// Ethereum's fees over February (29 days in 2024) and March (31).
const FEB_MAR: &str = "--sandbox fees -c eth -s 2024-02-01 -e 2024-03-31";
/// `FEB_MAR` with `rest` in `env`, whatever it says on stderr.
fn feb_mar(env: &crate::support::Env, rest: &str) -> crate::support::Run {
    env.cmd(&format!("{FEB_MAR} {rest}")).any_stderr().run()
}

const HINT: &str = "hint: fees sums months of unequal length: add --per-day to the query to \
    draw each month as its mean per covered day";

#[test]
fn per_day_draws_each_month_as_its_exact_mean_per_day() {
    let env = dated_env();
    let daily = feb_mar(&env, "-f csv").stdout;
    let expected = python("per_day.py", &["2"], &daily);
    // Worked by hand: 26288716.75 / 29 and 28446193.71 / 31, half to even to 2 decimals.
    assert_eq!(
        expected,
        "2024-02-01,29,906507.47\n2024-03-01,31,917619.15\n"
    );
    let run = feb_mar(&env, "--by month --per-day -o f.html");
    assert!(run.stderr_lines("hint: ").is_empty(), "{}", run.stderr);
    let page = std::fs::read_to_string(env.home.path().join("f.html")).unwrap();
    assert!(page.contains("fees_per_day · ETHEREUM · 2024-02-01 to 2024-03-31 · by month"));
    assert_rows(&page, &expected);
    // The hover says the same numbers.
    assert!(page.contains("ETHEREUM 906,507.47</title>"));
    assert!(page.contains("ETHEREUM 917,619.15</title>"));
    // The sums themselves are nowhere: the picture draws the means.
    assert!(!page.contains("26288716.75"));

    // More decimals: the same exact division, rounded later.
    let expected = python("per_day.py", &["8"], &daily);
    env.cmd(&format!(
        "{FEB_MAR} --by month --per-day --decimals 8 -o g.html"
    ))
    .any_stderr()
    .run();
    let page = std::fs::read_to_string(env.home.path().join("g.html")).unwrap();
    assert_rows(&page, &expected);
}

/// The page's values table holds each line of `expected` (`date,days,mean`) as a row.
fn assert_rows(page: &str, expected: &str) {
    for line in expected.lines() {
        let cells: Vec<&str> = line.split(',').collect();
        let row = format!(
            "<tr><th scope=\"row\">{}<td>{}<td>{}",
            cells[0], cells[1], cells[2]
        );
        assert!(page.contains(&row), "no {row} in the values table");
    }
}

#[test]
fn per_day_needs_a_period_and_a_picture() {
    let env = dated_env();
    env.cmd(&format!("{FEB_MAR} --by month --per-day -f csv"))
        .code(2)
        .stderr_contains(
            "error: --per-day draws a picture's periods (svg, html and chart), not the csv \
            format's rows",
        )
        .run();
    env.cmd(&format!("{FEB_MAR} --per-day -f chart"))
        .code(2)
        .stderr_contains(
            "error: --per-day divides a period's sums by its days, and needs --by week, month, \
            quarter or year",
        )
        .run();
}

#[test]
fn unequal_months_hint_at_per_day_and_following_the_hint_works() {
    let env = dated_env();
    let run = feb_mar(&env, "--by month -o f.html");
    assert_eq!(run.stderr_lines("hint: "), [HINT]);
    let page = std::fs::read_to_string(env.home.path().join("f.html")).unwrap();
    let note = HINT.strip_prefix("hint: ").unwrap();
    assert!(
        page.contains(&format!("<li>{note}</li>")),
        "not in the notes"
    );
    let flag = note
        .split("add ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(flag, "--per-day");
    let run = feb_mar(&env, &format!("--by month {flag} -o again.html"));
    assert!(!run.stderr.contains("--per-day"), "{}", run.stderr);
    let page = std::fs::read_to_string(env.home.path().join("again.html")).unwrap();
    assert!(page.contains("<td>29<td>906507.47"));
    // Whole weeks are all seven days long: nothing to hint; a table has no picture.
    let weeks = "--sandbox fees -c eth -s 2024-01-01 -e 2024-03-31 --by week";
    for line in [
        format!("{weeks} -f chart"),
        format!("{FEB_MAR} --by month -f csv"),
    ] {
        let run = env.cmd(&line).any_stderr().run();
        assert!(
            run.stderr_lines("hint: ").is_empty(),
            "{line}: {}",
            run.stderr
        );
    }
}

#[test]
fn per_day_on_users_alone_says_it_has_no_effect() {
    let env = dated_env();
    let line = "--sandbox users -c eth -s 2024-02-01 -e 2024-03-31 --by month -f chart";
    let plain = env.cmd(line).any_stderr().run();
    let run = env.cmd(&format!("{line} --per-day")).any_stderr().run();
    assert!(run.stderr.contains(
        "note: --per-day divides summed values (fees, social counts), and active_users_avg is a \
        mean per day already; it has no effect\n"
    ));
    // The same chart: active users' means are drawn as they are.
    assert_eq!(run.stdout, plain.stdout);
}
