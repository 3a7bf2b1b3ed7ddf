//! `--merge` with `--by` (trial fixes): the run widens its start to its period's first day, so
//! no stored day is lost, and a file of another period is refused before any request.

use super::{served, FEES, FEES_RANGE};
use crate::support::files::{read, write};
use crate::support::sandbox_env;

const MONTH: [&str; 8] = [
    "fees", "-c", "eth", "--by", "month", "-o", "cr.csv", "--merge",
];

#[test]
fn merge_widens_the_start_to_the_period_so_no_day_is_lost() {
    let (sandbox, env) = sandbox_env(&[]);
    env.cmd_args(&[&MONTH[..], &["-s", "2024-01-01", "-e", "2024-01-10"]].concat())
        .run();
    let later = ["-s", "2024-01-05", "-e", "2024-01-20"];
    env.cmd_args(&[&MONTH[..], &later].concat()).stderr("note: --merge --by month: asking from 2024-01-01, the first day of the month that holds 2024-01-05, so that the month's row in the file is replaced whole\n").run();
    let whole = env
        .cmd("fees -c eth --by month -s 2024-01-01 -e 2024-01-20")
        .run();
    assert!(
        whole.stdout.starts_with("date,days,fees\n2024-01-01,20,"),
        "{whole:?}"
    );
    // The merged file names its chain, one chain too.
    let named: String = (whole.stdout.lines().enumerate())
        .map(|(at, line)| {
            let (date, rest) = line.split_once(',').unwrap();
            let chain = if at == 0 { "chain" } else { "ETHEREUM" };
            format!("{date},{chain},{rest}\n")
        })
        .collect();
    assert_eq!(read(&env, "cr.csv"), named);
    // A daily cron job: `--last 2` on the 21st still gives the month's row all its days.
    env.cmd_args(&[&MONTH[..], &["-q", "--last", "2", "-e", "2024-01-21"]].concat())
        .run();
    assert!(
        read(&env, "cr.csv").contains("\n2024-01-01,ETHEREUM,21,"),
        "{}",
        read(&env, "cr.csv")
    );
    let asked = sandbox.requests().pop().unwrap();
    assert!(
        asked.contains(r#""start_date":"2024-01-01","end_date":"2024-01-21""#),
        "{asked}"
    );
}

#[test]
fn merge_refuses_a_file_of_another_period_before_any_request() {
    let (stub, env) = served(&FEES);
    let cases = [
        (
            "month",
            "2024-03-01",
            "2024-03-04",
            "2024-03-04, not the first day of a month (the 1st of a month)",
        ),
        (
            "week",
            "2024-03-25",
            "2024-03-01",
            "2024-03-01, not the first day of a week (a Monday)",
        ),
        (
            "quarter",
            "2024-04-01",
            "2024-02-01",
            "2024-02-01, not the first day of a quarter (January, April, July or October 1)",
        ),
        (
            "year",
            "2024-01-01",
            "2024-04-01",
            "2024-04-01, not the first day of a year (January 1)",
        ),
    ];
    for (by, good, bad, why) in cases {
        let before = format!("date,chain,days,fees\n{good},ETHEREUM,1,5\n{bad},ETHEREUM,7,100\n");
        write(&env, "p.csv", &before);
        let args = ["fees", "--by", by, "-o", "p.csv", "--merge"];
        let run = env.cmd_args(&[&args[..], &FEES_RANGE].concat()).code(9).error_line(format!("error: p.csv has a row dated {why}: it holds rows of another period; merge with the file's own --by, or write --by {by} to another file; not merged; the file is left as it was").as_str()).run();

        assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
        assert_eq!(read(&env, "p.csv"), before);
    }
    assert!(stub.seen().is_empty(), "a refused merge sent a request");
}
