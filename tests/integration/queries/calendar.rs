//! Calendar ranges: `--month`, `--quarter`, `--year`, `--last 3m|2q|1y`, `--last Nw --by week`,
//! `-s YYYY-MM`, `--since`: the days sent to the service, and the usage errors naming the
//! accepted forms.

use chrono::{Datelike, Days, Months, NaiveDate, Utc};

use crate::support::{sandbox_env, Env};

/// The `start..end` of each request the sandbox got for `fees -c eth {line}`.
fn asked(line: &str) -> Vec<String> {
    let (sandbox, env) = sandbox_env(&[]);
    env.cmd(&format!("fees -c eth {line}")).run();
    sandbox.ranges()
}

/// Each line asks for exactly the one range given.
#[track_caller]
fn each_asks(cases: &[(&str, &str)]) {
    for (line, range) in cases {
        assert_eq!(asked(line), [*range], "{line}");
    }
}

#[test]
fn a_month_a_quarter_and_a_year_are_their_whole_days() {
    each_asks(&[
        ("--month 2024-02", "2024-02-01..2024-02-29"),
        ("--quarter 2024Q1", "2024-01-01..2024-03-31"),
        ("--year 2023", "2023-01-01..2023-12-31"),
        ("-s 2024-03 -e 2024-04", "2024-03-01..2024-04-30"),
        ("--since 2024-03-30 -e 2024-04-02", "2024-03-30..2024-04-02"),
    ]);
}

#[test]
fn last_months_quarters_and_years_end_with_the_last_complete_one() {
    // Wednesday 2024-03-13: the last complete ISO week is 03-04..03-10; without --by week, 7 days.
    each_asks(&[
        ("--last 3m -e 2024-05-15", "2024-02-01..2024-04-30"),
        ("--last 2q -e 2024-06-30", "2024-01-01..2024-06-30"),
        ("--last 1y -e 2024-06-30", "2023-01-01..2023-12-31"),
        (
            "--last 1w --by week -e 2024-03-13",
            "2024-03-04..2024-03-10",
        ),
        ("--last 1w -e 2024-03-13", "2024-03-07..2024-03-13"),
    ]);
}

#[test]
fn last_month_by_default_is_the_month_before_this_one_in_utc() {
    let today = Utc::now().date_naive();
    let yesterday = today - Days::new(1);
    // The last complete month on or before yesterday (UTC).
    let first_of = |d: NaiveDate| d.with_day(1).unwrap();
    let last_end = match yesterday + Days::new(1) {
        next if next.day() == 1 => yesterday,
        _ => first_of(yesterday) - Days::new(1),
    };
    let start = first_of(last_end);
    assert_eq!(asked("--last 1m"), [format!("{start}..{last_end}")]);
    let three = first_of(last_end) - Months::new(2);
    assert_eq!(asked("--last 3m")[0][..10], three.to_string());
}

#[test]
fn other_forms_are_usage_errors_naming_the_accepted_ones() {
    let env = Env::with_service("http://127.0.0.1:9");
    let cases: [(&str, &str); 6] = [
        ("--month 2024-3", "error: invalid value '2024-3' for '--month <YYYY-MM>': '2024-3' is not a month: expected YYYY-MM, e.g. 2024-03"),
        ("--month 2024-13", "error: invalid value '2024-13' for '--month <YYYY-MM>': '2024-13' is not a month: the month is 01 to 12"),
        ("--quarter 2024Q5", "error: invalid value '2024Q5' for '--quarter <YYYYQn>': '2024Q5' is not a quarter: expected YYYYQ1 to YYYYQ4, e.g. 2024Q1"),
        ("--year 24", "error: invalid value '24' for '--year <YYYY>': '24' is not a year: expected YYYY, e.g. 2024"),
        ("--last 3x", "error: invalid value '3x' for '--last <N>': '3x' is not a span: expected days (30, 30d), weeks (4w), months (3m), quarters (2q) or years (1y)"),
        ("-s 2024-3", "error: invalid value '2024-3' for '--start <DAY>': '2024-3' is not a date: expected YYYY-MM-DD (or YYYY-MM for a month, today, yesterday)"),
    ];
    for (args, first_line) in cases {
        env.cmd(&format!("fees -c eth {args}"))
            .code(2)
            .error_line(first_line)
            .run();
    }
    env.cmd("fees -c eth --month 2024-03 --end 2024-03-05")
        .code(2)
        .error_line("error: the argument '--month <YYYY-MM>' cannot be used with '--end <DAY>'")
        .run();
    env.cmd("fees -c eth --year 2024 --quarter 2024Q1")
        .code(2)
        .run();
}
