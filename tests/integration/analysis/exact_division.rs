//! Exact division from outside: `report --per-user --by week` divides each week's fees by the
//! exact mean of its daily actives (not by the rounded mean shown in `active_users_avg`), and
//! `--summary`'s mean follows `--decimals`; both against Python's `decimal`.

use super::derived::python;
use crate::periods::{served, ARBITRUM_GAP, FEES, FEES_RANGE};
use crate::support::sandbox_env;

/// The sandbox's Ethereum over six weeks, one row a day.
const DAILY: &str = "report -f csv -c eth -s 2024-01-01 -e 2024-02-11 -i tweet";

#[test]
fn per_user_by_week_divides_by_the_exact_mean_of_the_daily_actives() {
    let (_sandbox, env) = sandbox_env(&[]);
    let daily = env.cmd(DAILY).run().stdout;
    let expected = python("per_user_by.py", &["10"], &daily);
    let wrong = python("per_user_by.py", &["10", "rounded"], &daily);
    let run = env
        .cmd(&format!("{DAILY} --by week --per-user --decimals 10"))
        .run();
    let mut lines = run.stdout.lines();
    assert_eq!(
        lines.next(),
        Some("date,days,fees,fees_per_user,active_users_avg,tweet")
    );
    let got: String = lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            format!("{},{}\n", cells[0], cells[3])
        })
        .collect();
    assert_eq!(got, expected);
    assert_eq!(got.lines().count(), 6);
    // Dividing by the mean as shown (a whole number) gives other digits: the test can fail.
    assert_ne!(got, wrong);
}

#[test]
fn the_summary_mean_follows_decimals() {
    let (_stub, env) = served(&FEES);
    let run = |decimals: &str| {
        let args = [
            &["fees", "-f", "csv", "--summary", "--decimals", decimals][..],
            &FEES_RANGE,
        ];
        let stdout = env
            .cmd_args(&args.concat())
            .stderr(ARBITRUM_GAP)
            .run()
            .stdout;
        let means: Vec<String> = (stdout.lines())
            .filter(|line| line.starts_with("mean,"))
            .map(str::to_owned)
            .collect();
        means
    };
    // 5001.3 / 4 = 1250.325 exactly; (the 31-digit value + 0.5 + 2.25) / 3 = ...301.41666..
    assert_eq!(
        run("4"),
        [
            "mean,ETHEREUM,1250.325",
            "mean,ARBITRUM,411522630041152263004115226301.4167"
        ]
    );
    assert_eq!(
        run("0"),
        [
            "mean,ETHEREUM,1250",
            "mean,ARBITRUM,411522630041152263004115226301"
        ]
    );
    assert_eq!(
        run("2"),
        [
            "mean,ETHEREUM,1250.32",
            "mean,ARBITRUM,411522630041152263004115226301.42"
        ]
    );
}
