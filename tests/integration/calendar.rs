//! Calendar ranges: `--month`, `--quarter`, `--year`, `--last 3m|2q|1y`, `--last Nw --by week`,
//! `-s YYYY-MM`, `--since`: the days sent to the service, and the usage errors naming the
//! accepted forms.

use chrono::{Datelike, Days, Months, NaiveDate, Utc};

use crate::support::{Env, Sandbox};

/// The (start, end) of each request the sandbox got for `args`.
fn asked(args: &[&str]) -> Vec<(String, String)> {
    let sandbox = Sandbox::start(&[]);
    Env::with_service(&sandbox.url)
        .cmd_args(&[&["fees", "-c", "eth"][..], args].concat())
        .run();
    sandbox
        .requests()
        .iter()
        .map(|line| {
            let field = |name: &str| {
                let at = line.find(&format!("\"{name}\":\"")).unwrap() + name.len() + 4;
                line[at..at + 10].to_owned()
            };
            (field("start_date"), field("end_date"))
        })
        .collect()
}

fn range(start: &str, end: &str) -> Vec<(String, String)> {
    vec![(start.to_owned(), end.to_owned())]
}

#[test]
fn a_month_a_quarter_and_a_year_are_their_whole_days() {
    assert_eq!(
        asked(&["--month", "2024-02"]),
        range("2024-02-01", "2024-02-29")
    );
    assert_eq!(
        asked(&["--quarter", "2024Q1"]),
        range("2024-01-01", "2024-03-31")
    );
    assert_eq!(
        asked(&["--year", "2023"]),
        range("2023-01-01", "2023-12-31")
    );
    assert_eq!(
        asked(&["-s", "2024-03", "-e", "2024-04"]),
        range("2024-03-01", "2024-04-30")
    );
    assert_eq!(
        asked(&["--since", "2024-03-30", "-e", "2024-04-02"]),
        range("2024-03-30", "2024-04-02")
    );
}

#[test]
fn last_months_quarters_and_years_end_with_the_last_complete_one() {
    assert_eq!(
        asked(&["--last", "3m", "-e", "2024-05-15"]),
        range("2024-02-01", "2024-04-30")
    );
    assert_eq!(
        asked(&["--last", "2q", "-e", "2024-06-30"]),
        range("2024-01-01", "2024-06-30")
    );
    assert_eq!(
        asked(&["--last", "1y", "-e", "2024-06-30"]),
        range("2023-01-01", "2023-12-31")
    );
    // Wednesday 2024-03-13: the last complete ISO week is 03-04..03-10; without --by week, 7 days.
    assert_eq!(
        asked(&["--last", "1w", "--by", "week", "-e", "2024-03-13"]),
        range("2024-03-04", "2024-03-10")
    );
    assert_eq!(
        asked(&["--last", "1w", "-e", "2024-03-13"]),
        range("2024-03-07", "2024-03-13")
    );
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
    assert_eq!(
        asked(&["--last", "1m"]),
        range(&start.to_string(), &last_end.to_string())
    );
    let three = first_of(last_end) - Months::new(2);
    assert_eq!(asked(&["--last", "3m"])[0].0, three.to_string());
}

#[test]
fn other_forms_are_usage_errors_naming_the_accepted_ones() {
    let env = Env::with_service("http://127.0.0.1:9");
    let cases: [(&[&str], &str); 6] = [
        (&["--month", "2024-3"], "error: invalid value '2024-3' for '--month <YYYY-MM>': '2024-3' is not a month: expected YYYY-MM, e.g. 2024-03"),
        (&["--month", "2024-13"], "error: invalid value '2024-13' for '--month <YYYY-MM>': '2024-13' is not a month: the month is 01 to 12"),
        (&["--quarter", "2024Q5"], "error: invalid value '2024Q5' for '--quarter <YYYYQn>': '2024Q5' is not a quarter: expected YYYYQ1 to YYYYQ4, e.g. 2024Q1"),
        (&["--year", "24"], "error: invalid value '24' for '--year <YYYY>': '24' is not a year: expected YYYY, e.g. 2024"),
        (&["--last", "3x"], "error: invalid value '3x' for '--last <N>': '3x' is not a span: expected days (30, 30d), weeks (4w), months (3m), quarters (2q) or years (1y)"),
        (&["-s", "2024-3"], "error: invalid value '2024-3' for '--start <DAY>': '2024-3' is not a date: expected YYYY-MM-DD (or YYYY-MM for a month, today, yesterday)"),
    ];
    for (args, first_line) in cases {
        env.cmd_args(&[&["fees", "-c", "eth"][..], args].concat())
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
