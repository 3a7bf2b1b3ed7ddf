//! `--by` with the rest of the output: `--by day` unchanged, every format, `--wide`,
//! `--summary`, `--merge` keyed by period start and chain, and the chart.

use super::{served, FEES, FEES_RANGE};
use crate::support::files::{names, read, write};
use crate::support::{made_line, sandbox_env};

#[test]
fn by_day_is_todays_output_byte_for_byte() {
    let (_sandbox, env) = sandbox_env(&[]);
    let range = ["-c", "eth,base", "-s", "2024-01-01", "-e", "2024-01-09"];
    for command in ["fees", "users", "social", "report"] {
        for shape in [
            &["-f", "csv"][..],
            &["-f", "table", "--wide", "--summary"],
            &["-f", "json"],
        ] {
            let today = env
                .cmd_args(&[&[command][..], &range, shape].concat())
                .run();
            env.cmd_args(&[&[command, "--by", "day"][..], &range, shape].concat())
                .stdout(&today.stdout)
                .stderr(&today.stderr)
                .run();
            assert!(today.stdout.starts_with("date,chain,") || !shape.contains(&"csv"));
        }
    }
}

#[test]
fn every_format_shows_the_days_column_after_chain() {
    let (_stub, mut env) = served(&FEES);
    env.set("LANG", "C.UTF-8");
    let run = |extra: &[&str]| {
        let run = env
            .cmd_args(&[&["fees", "-q", "--by", "quarter"][..], &FEES_RANGE, extra].concat())
            .run();
        run.stdout
    };
    let big = "1234567890123456789012345678902.0";
    assert_eq!(
        run(&["-f", "json"]),
        format!(
            "[\n  {{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"days\":2,\"fees\":0.3}},\n  \
             {{\"date\":\"2024-01-01\",\"chain\":\"ARBITRUM\",\"days\":2,\"fees\":{big}}},\n  \
             {{\"date\":\"2024-04-01\",\"chain\":\"ETHEREUM\",\"days\":2,\"fees\":5001}},\n  \
             {{\"date\":\"2024-04-01\",\"chain\":\"ARBITRUM\",\"days\":1,\"fees\":2.25}}\n]\n"
        )
    );
    assert_eq!(
        run(&["-f", "ndjson"]).lines().nth(1).unwrap(),
        format!("{{\"date\":\"2024-01-01\",\"chain\":\"ARBITRUM\",\"days\":2,\"fees\":{big}}}")
    );
    assert_eq!(
        run(&["-f", "tsv"]),
        format!("date\tchain\tdays\tfees\n2024-01-01\tETHEREUM\t2\t0.3\n2024-01-01\tARBITRUM\t2\t{big}\n2024-04-01\tETHEREUM\t2\t5001\n2024-04-01\tARBITRUM\t1\t2.25\n")
    );
    assert_eq!(
        run(&["-f", "table", "--summary"]),
        "\
┌────────────┬──────────┬──────┬──────────────────────────────────────────────┐
│ date       ┆ chain    ┆ days ┆                                         fees │
╞════════════╪══════════╪══════╪══════════════════════════════════════════════╡
│ 2024-01-01 ┆ ETHEREUM ┆  2   ┆                                         0.3  │
│ 2024-01-01 ┆ ARBITRUM ┆  2   ┆ 1,234,567,890,123,456,789,012,345,678,902.0  │
│ 2024-04-01 ┆ ETHEREUM ┆  2   ┆                                     5,001    │
│ 2024-04-01 ┆ ARBITRUM ┆  1   ┆                                         2.25 │
│ total      ┆ ETHEREUM ┆  4   ┆                                     5,001.3  │
│ mean       ┆ ETHEREUM ┆  2   ┆                                     2,500.65 │
│ min        ┆ ETHEREUM ┆  2   ┆                                         0.3  │
│ max        ┆ ETHEREUM ┆  2   ┆                                     5,001    │
│ total      ┆ ARBITRUM ┆  3   ┆ 1,234,567,890,123,456,789,012,345,678,904.25 │
│ mean       ┆ ARBITRUM ┆  1.5 ┆   617,283,945,061,728,394,506,172,839,452.12 │
│ min        ┆ ARBITRUM ┆  1   ┆                                         2.25 │
│ max        ┆ ARBITRUM ┆  2   ┆ 1,234,567,890,123,456,789,012,345,678,902.0  │
└────────────┴──────────┴──────┴──────────────────────────────────────────────┘
"
    );
    // --wide: one days column per chain, since chains can have data on different days.
    assert_eq!(
        run(&["-f", "markdown", "--wide"]),
        "\
| date       | ETHEREUM.days | ETHEREUM.fees | ARBITRUM.days |                                ARBITRUM.fees |
|------------|--------------:|--------------:|--------------:|---------------------------------------------:|
| 2024-01-01 |             2 |           0.3 |             2 | 1,234,567,890,123,456,789,012,345,678,902.0  |
| 2024-04-01 |             2 |       5,001   |             1 |                                         2.25 |
"
    );
}

#[test]
fn merge_replaces_a_period_whole_but_never_with_fewer_days() {
    let (_stub, env) = served(&FEES);
    // The run asks from March 1st; the stub has the range's days only.
    const EARLY_GAP: &str = "warning: ETHEREUM fees: no data for 2024-03-01..2024-03-29 (left out, not zero)\nwarning: ARBITRUM fees: no data for 2024-03-01..2024-03-29, 2024-04-01 (left out, not zero)\n";
    let before = "date,chain,days,fees\n2024-03-01,ETHEREUM,31,100\n2024-03-01,ARBITRUM,2,7\n2024-04-01,ETHEREUM,1,9\n";
    write(&env, "months.csv", before);
    let args = ["fees", "--by", "month", "-o", "months.csv", "--merge"];
    env.cmd_args(&[&args[..], &FEES_RANGE].concat()).stdout("").stderr(format!("note: --merge --by month: asking from 2024-03-01, the first day of the month that holds 2024-03-30, so that the month's row in the file is replaced whole\n{EARLY_GAP}warning: months.csv keeps its rows for 2024-03-01 ETHEREUM (31 days; this run has 2): this run covers fewer days of those periods; to replace them, ask up to each period's last day, or write without --merge\n").as_str()).run();

    assert_eq!(
        read(&env, "months.csv"),
        "date,chain,days,fees\n2024-03-01,ETHEREUM,31,100\n2024-03-01,ARBITRUM,2,1234567890123456789012345678902.0\n2024-04-01,ETHEREUM,2,5001\n2024-04-01,ARBITRUM,1,2.25\n"
    );
    assert_eq!(names(env.home.path()), ["months.csv"]);
    // The wide shape: each chain's days and fees are replaced together, or kept together.
    write(
        &env,
        "q.json",
        r#"[{"date":"2024-01-01","ETHEREUM.days":90,"ETHEREUM.fees":1,"ARBITRUM.days":1,"ARBITRUM.fees":3}]"#,
    );
    let args = [
        "fees", "-q", "--by", "quarter", "--wide", "-o", "q.json", "--merge",
    ];
    env.cmd_args(&[&args[..], &FEES_RANGE].concat()).run();
    assert_eq!(
        read(&env, "q.json"),
        "[\n  {\"date\":\"2024-01-01\",\"ETHEREUM.days\":90,\"ETHEREUM.fees\":1,\"ARBITRUM.days\":2,\"ARBITRUM.fees\":1234567890123456789012345678902.0},\n  \
         {\"date\":\"2024-04-01\",\"ETHEREUM.days\":2,\"ETHEREUM.fees\":5001,\"ARBITRUM.days\":1,\"ARBITRUM.fees\":2.25}\n]\n"
    );
}

#[test]
fn merge_refuses_a_daily_file_before_any_request() {
    let (stub, env) = served(&FEES);
    let before = "date,chain,fees\n2024-03-30,ETHEREUM,0.1\n";
    write(&env, "daily.csv", before);
    let args = ["fees", "--by", "week", "-o", "daily.csv", "--merge"];
    env.cmd_args(&[&args[..], &FEES_RANGE].concat()).code(9).error_line("error: daily.csv has the columns date,chain,fees but this command writes date,chain,days,fees (no days column: it was written without --by): not merged; the file is left as it was").run();

    assert_eq!(read(&env, "daily.csv"), before);
    assert!(stub.seen().is_empty(), "a refused merge sent a request");
}

#[test]
fn the_chart_draws_each_period_as_a_step_over_its_days() {
    let (stub, env) = served(&FEES);
    let range = ["-c", "eth", "-s", "2024-03-30", "-e", "2024-04-02"];
    // The axis from zero in round steps; the one date labelled is the one period start.
    // The partial weeks hint at --per-day.
    env.cmd_args(&[&["fees", "--by", "week", "-f", "chart"][..], &range].concat())
        .stderr(
            "hint: fees sums weeks of unequal length: add --per-day to the query to draw each \
            week as its mean per covered day\n",
        )
        .stdout(format!(
            "\
6,000 +
      |
      |                                               **************************
      |                                            ****
4,000 +                                          ***
      |                                        ***
      |                                     ****
      |                                   ***
2,000 +                                ****
      |                              ***
      |                            ***
      |                         ****
    0 +**************************
      +------------------------------------------------+------------------------
                                                  2024-04-01
       * ETHEREUM
partial (fewer days with data than the week has): week of 2024-03-25 (2 of 7 days), week of 2024-04-01 (2 of 7 days)
ETHEREUM · 2024-03-30 to 2024-04-02 · by week · data from {}
{}
",
            stub.url,
            made_line()
        ))
        .run();
}
