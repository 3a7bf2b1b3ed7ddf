//! `--by week|month|quarter|year`: each period against hand-computed sums, means and day counts
//! from scripted bodies (a range cutting two quarters, a leap year, an ISO week across a year
//! boundary, gaps, exact numbers), and the errors; with the rest of the output (`output`) and with
//! `--merge` (`merge`).

mod merge;
mod output;

use crate::support::{argv, sandbox_env, Cmd, Env, Reply, Stub};
use snapbox::str;

/// Fees from 2024-03-30 (a Saturday) to 2024-04-02: ETHEREUM has `0.1`, `0.2` and `5E+3`;
/// ARBITRUM has a 31-digit value and no record for 2024-04-01.
pub const FEES: [(&str, &str); 2] = [
    (
        "ETHEREUM",
        r#"[{"date":"2024-03-30","fees":0.1},{"date":"2024-03-31","fees":0.2},{"date":"2024-04-01","fees":5E+3},{"date":"2024-04-02","fees":1}]"#,
    ),
    (
        "ARBITRUM",
        r#"[{"date":"2024-03-30","fees":1234567890123456789012345678901.5},{"date":"2024-03-31","fees":0.5},{"date":"2024-04-02","fees":2.25}]"#,
    ),
];

pub const FEES_RANGE: [&str; 6] = ["-c", "eth,arb", "-s", "2024-03-30", "-e", "2024-04-02"];

pub const ARBITRUM_GAP: &str =
    "warning: ARBITRUM fees: no data for 2024-04-01 (left out, not zero)\n";

/// `serve(bodies)` and an environment pointed at it (with the test key).
pub fn served(bodies: &'static [(&'static str, &'static str)]) -> (Stub, Env) {
    let stub = serve(bodies);
    let env = Env::with_service(&stub.url);
    (stub, env)
}

/// A server answering each chain with its body, whatever the endpoint.
pub fn serve(bodies: &'static [(&'static str, &'static str)]) -> Stub {
    Stub::start(move |seen| {
        let body = bodies
            .iter()
            .find(|(chain, _)| seen.body.contains(chain))
            .map_or("[]", |(_, body)| body);
        Reply::json(200, body)
    })
}

fn by<'e>(env: &'e Env, command: &str, range: &[&str], period: &str) -> Cmd<'e> {
    env.cmd_args(&[&[command, "-f", "csv", "--by", period][..], range].concat())
}

#[test]
fn fees_sum_exactly_per_week_month_quarter_and_year_across_two_quarters() {
    let (_stub, env) = served(&FEES);
    let cases = [
        ("week", "2024-03-25", "2024-04-01"),
        ("month", "2024-03-01", "2024-04-01"),
        ("quarter", "2024-01-01", "2024-04-01"),
    ];
    for (period, first, second) in cases {
        by(&env, "fees", &FEES_RANGE, period)
            .stderr(ARBITRUM_GAP)
            .stdout(format!(
                "date,chain,days,fees\n\
                 {first},ETHEREUM,2,0.3\n\
                 {first},ARBITRUM,2,1234567890123456789012345678902.0\n\
                 {second},ETHEREUM,2,5001\n\
                 {second},ARBITRUM,1,2.25\n"
            ))
            .run();
    }
    by(&env, "fees", &FEES_RANGE, "year")
        .stdout(str![[r#"
date,chain,days,fees
2024-01-01,ETHEREUM,4,5001.3
2024-01-01,ARBITRUM,3,1234567890123456789012345678904.25

"#]])
        .stderr_contains("warning: ARBITRUM fees: no data for 2024-04-01")
        .run();
}

/// Active users from Sunday 2024-12-29 to Monday 2025-01-06, none on 1, 4 and 5 January.
const USERS: [(&str, &str); 1] = [(
    "BASE",
    r#"[{"date":"2024-12-29","active_users":10},{"date":"2024-12-30","active_users":1},{"date":"2024-12-31","active_users":2},{"date":"2025-01-02","active_users":3},{"date":"2025-01-03","active_users":4},{"date":"2025-01-06","active_users":7}]"#,
)];

#[test]
fn active_users_average_over_days_with_data_in_iso_weeks_across_new_year() {
    let (_stub, env) = served(&USERS);
    let range = ["-c", "base", "-s", "2024-12-29", "-e", "2025-01-06"];
    by(&env, "users", &range, "week").stderr("warning: BASE active users: no data for 2025-01-01, 2025-01-04..2025-01-05 (left out, not zero)\n").stdout(str![[r#"
date,days,active_users_avg
2024-12-23,1,10
2024-12-30,4,2
2025-01-06,1,7

"#]]).run();
    // The week of 30 December 2024 is 2025's first ISO week: (1+2+3+4)/4 = 2.5, to even 2.

    // (10+1+2)/3 = 4.33 and (3+4+7)/3 = 4.67.
    by(&env, "users", &range, "year")
        .stdout(str![[r#"
date,days,active_users_avg
2024-01-01,3,4
2025-01-01,3,5

"#]])
        .stderr_contains("warning: BASE active users: no data")
        .run();
}

/// Official-account counts around 29 February 2024; no reply count on the 29th.
const SOCIAL: [(&str, &str); 1] = [(
    "ETHEREUM",
    r#"{"data":[{"date":"2024-02-27","tweet":1,"reply":0},{"date":"2024-02-28","tweet":2,"reply":5},{"date":"2024-02-29","tweet":3,"reply":null},{"date":"2024-03-01","tweet":4,"reply":1}]}"#,
)];

#[test]
fn social_counts_sum_and_february_of_a_leap_year_has_its_29th() {
    let (_stub, env) = served(&SOCIAL);
    let range = argv("-c eth -i tweet,reply -s 2024-02-27 -e 2024-03-01");
    let expected = [
        ("month", "2024-02-01,3,6,5\n2024-03-01,1,4,1\n"),
        ("week", "2024-02-26,4,10,6\n"),
        ("quarter", "2024-01-01,4,10,6\n"),
    ];
    for (period, rows) in expected {
        by(&env, "social", &range, period)
            .stdout(format!("date,days,tweet,reply\n{rows}"))
            .stderr("warning: ETHEREUM official account: the records for 2024-02-29 have no reply (left empty, not zero)\n")
            .run();
    }
}

#[test]
fn report_rolls_up_every_metric_and_counts_days_with_any_value() {
    let stub = Stub::per_endpoint(
        r#"[{"date":"2024-01-01","fees":1.5},{"date":"2024-01-02","fees":2.5}]"#,
        r#"[{"date":"2024-01-03","active_users":5}]"#,
        r#"{"data":[{"date":"2024-01-01","tweet":2},{"date":"2024-01-03","tweet":3}]}"#,
    );
    let env = Env::with_service(&stub.url);
    let range = argv("-c eth -i tweet -s 2024-01-01 -e 2024-01-03");
    env.cmd_args(&[&["report", "-q", "--by", "month"][..], &range].concat())
        .stdout(str![[r#"
date,days,fees,active_users_avg,tweet
2024-01-01,3,4.0,5,5

"#]])
        .run();
}

#[test]
fn an_unknown_period_lists_the_choices_and_suggests_one() {
    let (stub, env) = served(&FEES);
    env.cmd_args(&[&["fees", "--by", "mnth"][..], &FEES_RANGE].concat())
        .code(2)
        .stderr(str![[r#"
error: invalid value 'mnth' for '--by <PERIOD>'
  [possible values: day, week, month, quarter, year]

  tip: a similar value exists: 'month'

For more information, try '--help'.

"#]])
        .run();
    let run = env
        .cmd_args(&[&["fees", "--by", "hour"][..], &FEES_RANGE].concat())
        .code(2)
        .error_line("error: invalid value 'hour' for '--by <PERIOD>'")
        .run();

    assert!(run
        .stderr
        .contains("[possible values: day, week, month, quarter, year]"));
    let run = env.cmd("fees -c eth --last 2 --raw --by week").code(2).error_line("error: --raw prints the service's body as sent, one entry a day, and cannot roll it up by week").run();

    assert!(
        run.stderr.ends_with("hint: leave out --raw, or --by\n"),
        "{run:?}"
    );
    assert!(stub.seen().is_empty(), "a usage error sent a request");
}

#[test]
fn a_number_too_large_to_add_up_exactly_is_a_bad_response_naming_it() {
    let stub = Stub::always(Reply::json(
        200,
        r#"[{"date":"2024-01-03","fees":1e999999999}]"#,
    ));
    let env = Env::with_service(&stub.url);
    let range = ["-c", "eth", "-s", "2024-01-03", "-e", "2024-01-03"];
    env.cmd_args(&[&["fees", "--by", "week", "-o", "fees.csv"][..], &range].concat())
        .code(8)
        .stdout("")
        .stderr(str![[r#"
error: cannot add up ETHEREUM fees of 2024-01-03: 1e999999999 is beyond the range of a number (an exponent beyond ±1000)
hint: --by day shows the values as sent

"#]])
        .run();

    assert!(!env.home.path().join("fees.csv").exists());
    by(&env, "fees", &range, "day")
        .stdout(str![[r#"
date,fees
2024-01-03,1e999999999

"#]])
        .run();
}

#[test]
fn summary_leaves_the_total_of_an_average_empty() {
    let (_sandbox, mut env) = sandbox_env(&[]);
    env.set("LANG", "C.UTF-8");
    let args = argv("users --by quarter -s 2024-01-01 -e 2024-04-29 -f markdown --summary");
    env.cmd_args(&[&args[..], &["-c", "eth,base", "--wide"]].concat())
        .stdout(
            "\
| date       | ETHEREUM.days | ETHEREUM.active_users_avg | BASE.days | BASE.active_users_avg |
|------------|--------------:|--------------------------:|----------:|----------------------:|
| 2024-01-01 |            91 |                 404,453   |        91 |               842,123 |
| 2024-04-01 |            29 |                 400,300   |        29 |               840,521 |
| total      |           120 |                           |       120 |                       |
| mean       |            60 |                 402,376.5 |        60 |               841,322 |
| min        |            29 |                 400,300   |        29 |               840,521 |
| max        |            91 |                 404,453   |        91 |               842,123 |
",
        )
        .run();
    env.cmd_args(&[&args[..], &["-c", "eth"]].concat())
        .stdout(
            "\
| date       | days | active_users_avg |
|------------|-----:|-----------------:|
| 2024-01-01 |   91 |        404,453   |
| 2024-04-01 |   29 |        400,300   |
| total      |  120 |                  |
| mean       |   60 |        402,376.5 |
| min        |   29 |        400,300   |
| max        |   91 |        404,453   |
",
        )
        .run();
}
