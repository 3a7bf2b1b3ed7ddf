//! `--sort COLUMN[:desc]` and `--top N`, after the derived columns: against an independent
//! sort of the same csv by exact decimal value (`scripts/sort.py`), gaps last, and the errors.

use snapbox::str;

use super::derived::python;
use crate::periods::{served, FEES, FEES_RANGE};
use crate::support::{argv, sandbox_env};

#[test]
fn the_ten_days_with_the_largest_change_are_one_command() {
    let (_sandbox, env) = sandbox_env(&[]);
    let line = "fees -f csv -c eth,base -s 2024-01-01 -e 2024-03-31 --change";
    let all = env.cmd(line).any_stderr().run();
    let expected = python("sort.py", &["fees_change", "desc", "10"], &all.stdout);
    assert_eq!(expected.lines().count(), 11);
    env.cmd(&format!("{line} --sort fees_change:desc --top 10"))
        .stdout(expected)
        .run();
    let expected = python("sort.py", &["fees_change_pct", "asc", "1000"], &all.stdout);
    env.cmd(&format!("{line} --sort fees_change_pct"))
        .any_stderr()
        .stdout(expected)
        .run();
}

#[test]
fn gaps_sort_last_either_way_and_wide_columns_sort_too() {
    let (_stub, env) = served(&FEES);
    let sorted = |extra: &'static str, expected: &str| {
        let args = [&["fees", "-f", "csv"][..], &FEES_RANGE, &argv(extra)].concat();
        env.cmd_args(&args).any_stderr().stdout(expected).run();
    };
    sorted(
        "--wide --sort ARBITRUM:desc",
        "date,ETHEREUM,ARBITRUM\n\
         2024-03-30,0.1,1234567890123456789012345678901.5\n\
         2024-04-02,1,2.25\n\
         2024-03-31,0.2,0.5\n\
         2024-04-01,5E+3,\n",
    );
    sorted(
        "--wide --sort ARBITRUM --top 2",
        "date,ETHEREUM,ARBITRUM\n2024-03-31,0.2,0.5\n2024-04-02,1,2.25\n",
    );
    sorted(
        "--sort date:desc --top 3",
        "date,chain,fees\n2024-04-02,ETHEREUM,1\n2024-04-02,ARBITRUM,2.25\n2024-04-01,ETHEREUM,5E+3\n",
    );
}

#[test]
fn sorting_by_a_column_the_output_lacks_is_a_usage_error_before_any_request() {
    let (stub, env) = served(&FEES);
    let fees = |extra: &'static str| env.cmd_args(&[&argv(extra)[..], &FEES_RANGE].concat());
    fees("fees --sort fees_change")
        .code(2)
        .stderr(str![[r#"
error: --sort fees_change: the output has no such column; it has date, chain, fees
hint: name a column of the header

"#]])
        .run();
    assert!(stub.seen().is_empty());
    fees("fees --sort fees:up")
        .code(2)
        .error_line("error: invalid value 'fees:up' for '--sort <COLUMN[:desc]>': 'up' is not a direction: expected COLUMN, COLUMN:asc or COLUMN:desc")
        .run();
    fees("fees --top 0").code(2).run();
}
