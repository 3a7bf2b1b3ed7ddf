//! `--sort COLUMN[:desc]` and `--top N`, after the derived columns: against an independent
//! sort of the same csv by exact decimal value (`scripts/sort.py`), gaps last, and the errors.

use crate::derived::python;
use crate::periods::{serve, FEES, FEES_RANGE};
use crate::support::{Env, Sandbox};

#[test]
fn the_ten_days_with_the_largest_change_are_one_command() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let range = [
        "-c",
        "eth,base",
        "-s",
        "2024-01-01",
        "-e",
        "2024-03-31",
        "--change",
    ];
    let all = env
        .cmd_args(&[&["fees", "-f", "csv"][..], &range].concat())
        .any_outcome()
        .run();
    let expected = python("sort.py", &["fees_change", "desc", "10"], &all.stdout);
    let args = [
        "fees",
        "-f",
        "csv",
        "--sort",
        "fees_change:desc",
        "--top",
        "10",
    ];
    let run = env
        .cmd_args(&[&args[..], &range].concat())
        .any_outcome()
        .run();
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert_eq!(run.stdout, expected);
    assert_eq!(run.stdout.lines().count(), 11);
    let asc = env
        .cmd_args(
            &[
                &["fees", "-f", "csv", "--sort", "fees_change_pct"][..],
                &range,
            ]
            .concat(),
        )
        .any_outcome()
        .run();
    let expected = python("sort.py", &["fees_change_pct", "asc", "1000"], &all.stdout);
    assert_eq!(asc.stdout, expected);
}

#[test]
fn gaps_sort_last_either_way_and_wide_columns_sort_too() {
    let stub = serve(&FEES);
    let env = Env::with_service(&stub.url);
    let run = |extra: &[&str]| {
        env.cmd_args(&[&["fees", "-f", "csv"][..], &FEES_RANGE, extra].concat())
            .any_outcome()
            .run()
    };
    assert_eq!(
        run(&["--wide", "--sort", "ARBITRUM:desc"]).stdout,
        "date,ETHEREUM,ARBITRUM\n\
         2024-03-30,0.1,1234567890123456789012345678901.5\n\
         2024-04-02,1,2.25\n\
         2024-03-31,0.2,0.5\n\
         2024-04-01,5E+3,\n"
    );
    assert_eq!(
        run(&["--wide", "--sort", "ARBITRUM", "--top", "2"]).stdout,
        "date,ETHEREUM,ARBITRUM\n2024-03-31,0.2,0.5\n2024-04-02,1,2.25\n"
    );
    assert_eq!(
        run(&["--sort", "date:desc", "--top", "3"]).stdout,
        "date,chain,fees\n2024-04-02,ETHEREUM,1\n2024-04-02,ARBITRUM,2.25\n2024-04-01,ETHEREUM,5E+3\n"
    );
}

#[test]
fn sorting_by_a_column_the_output_lacks_is_a_usage_error_before_any_request() {
    let stub = serve(&FEES);
    let env = Env::with_service(&stub.url);
    let run = env
        .cmd_args(&[&["fees", "--sort", "fees_change"][..], &FEES_RANGE].concat())
        .any_outcome()
        .run();
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --sort fees_change: the output has no such column; it has date, chain, fees\nhint: name a column of the header\n"
    );
    assert!(stub.seen().is_empty());
    let run = env
        .cmd_args(&[&["fees", "--sort", "fees:up"][..], &FEES_RANGE].concat())
        .any_outcome()
        .run();
    assert_eq!(
        run.error_line(),
        "error: invalid value 'fees:up' for '--sort <COLUMN[:desc]>': 'up' is not a direction: expected COLUMN, COLUMN:asc or COLUMN:desc"
    );
    let run = env
        .cmd_args(&[&["fees", "--top", "0"][..], &FEES_RANGE].concat())
        .any_outcome()
        .run();
    assert_eq!(run.code, 2);
}
