//! Derived measures (`--change`, `--rolling`, `--cumulative`, `--share`, `report --per-user`,
//! `--decimals`): every value against an independent computation of the same plain csv with
//! Python's `decimal` module (`scripts/measures.py`), or against hand-computed values; gaps
//! stay gaps in every format, with `--by` and `--wide`.

use std::io::Write;
use std::process::Stdio;

use snapbox::str;

use crate::periods::{served, ARBITRUM_GAP, FEES, FEES_RANGE};
use crate::support::{sandbox_env, tools, Env};

/// Runs a script of `tests/integration/scripts` with python3, `input` on its stdin.
pub fn python(script: &str, args: &[&str], input: &str) -> String {
    let path = format!(
        "{}/tests/integration/scripts/{script}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = tools::command("python3")
        .arg(path)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("python3 runs (.ci/test installs it)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{script} failed");
    String::from_utf8(out.stdout).unwrap()
}

const MEASURES: [&str; 6] = [
    "--change",
    "--rolling",
    "2",
    "--cumulative",
    "--share",
    "--decimals",
];

#[test]
fn measures_over_gaps_and_exact_numbers_equal_a_decimal_computation() {
    let (_stub, env) = served(&FEES);
    let plain = env
        .cmd_args(&[&["fees", "-f", "csv"][..], &FEES_RANGE].concat())
        .stderr(ARBITRUM_GAP)
        .run();
    let args = [
        "2024-03-30",
        "2024-04-02",
        "3",
        "2",
        "ETHEREUM,ARBITRUM",
        "fees",
    ];
    let expected = python("measures.py", &args, &plain.stdout);
    let run = env
        .cmd_args(&[&["fees", "-f", "csv"][..], &FEES_RANGE, &MEASURES, &["3"]].concat())
        .stderr(ARBITRUM_GAP)
        .stdout(expected)
        .run();
    // Hand-checked too: the gap of 2024-04-01 leaves ARBITRUM's change, cumulative and every
    // share of that date empty; 5E+3 - 0.2 is exact.
    assert!(run
        .stdout
        .contains("\n2024-04-01,ETHEREUM,5E+3,4999.8,2499900.000,2500.100,5000.3,\n"));
    assert!(run.stdout.contains("\n2024-04-02,ARBITRUM,2.25,,,1.375,,"));
}

#[test]
fn measures_of_three_sandbox_chains_over_a_month_equal_a_decimal_computation() {
    let (_sandbox, env) = sandbox_env(&[]);
    let line = "fees -f csv -c eth,base,op -s 2024-02-01 -e 2024-02-29";
    let plain = env.cmd(line).any_stderr().run();
    let args = [
        "2024-02-01",
        "2024-02-29",
        "2",
        "7",
        "ETHEREUM,BASE,OPTIMISM",
        "fees",
    ];
    let expected = python("measures.py", &args, &plain.stdout);
    let measures = "--change --rolling 7 --cumulative --share";
    let run = env
        .cmd(&format!("{line} {measures}"))
        .stdout(expected)
        .run();
    assert_eq!(run.stdout.lines().count(), 1 + 29 * 3);
}

#[test]
fn per_user_is_fees_over_active_users_of_the_same_row() {
    let (_sandbox, env) = sandbox_env(&[]);
    let line = "report -f csv -c arb -s 2024-05-01 -e 2024-05-10 -i tweet";
    let plain = env.cmd(line).any_stderr().run();
    let expected = python("per_user.py", &["6"], &plain.stdout);
    assert!(expected.starts_with("date,fees,fees_per_user,active_users,tweet\n"));
    env.cmd(&format!("{line} --per-user --decimals 6"))
        .stdout(expected)
        .run();
}

#[test]
fn per_user_needs_report() {
    let env = Env::with_service("http://127.0.0.1:9");
    env.cmd("fees -c eth --last 3 --per-user")
        .code(2)
        .stderr(str![[r#"
error: --per-user divides fees by active users, and only report has both
hint: use report --per-user

"#]])
        .run();
}

/// Two chains, two days, one gap: the same values in json, ndjson, tsv, markdown and wide.
const SMALL: [(&str, &str); 2] = [
    (
        "ETHEREUM",
        r#"[{"date":"2024-01-01","fees":1},{"date":"2024-01-02","fees":3}]"#,
    ),
    ("BASE", r#"[{"date":"2024-01-01","fees":3}]"#),
];

const SMALL_RANGE: [&str; 8] = [
    "-c",
    "eth,base",
    "-s",
    "2024-01-01",
    "-e",
    "2024-01-02",
    "--change",
    "--share",
];

const BASE_GAP: &str = "warning: BASE fees: no data for 2024-01-02 (left out, not zero)\n";

#[test]
fn every_format_shows_the_measures_after_their_metric_and_gaps_as_gaps() {
    let (_stub, env) = served(&SMALL);
    let run = |extra: &[&str]| {
        let args = [&["fees"][..], &SMALL_RANGE, extra].concat();
        env.cmd_args(&args).stderr(BASE_GAP).run().stdout
    };
    assert_eq!(
        run(&["-f", "json"]),
        "[\n  {\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":1,\"fees_change\":null,\"fees_change_pct\":null,\"fees_share_pct\":25.00},\n  {\"date\":\"2024-01-01\",\"chain\":\"BASE\",\"fees\":3,\"fees_change\":null,\"fees_change_pct\":null,\"fees_share_pct\":75.00},\n  {\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":3,\"fees_change\":2,\"fees_change_pct\":200.00,\"fees_share_pct\":null}\n]\n"
    );
    assert_eq!(
        run(&["-f", "tsv", "--wide"]),
        "date\tETHEREUM.fees\tETHEREUM.fees_change\tETHEREUM.fees_change_pct\tETHEREUM.fees_share_pct\tBASE.fees\tBASE.fees_change\tBASE.fees_change_pct\tBASE.fees_share_pct\n\
         2024-01-01\t1\t\t\t25.00\t3\t\t\t75.00\n\
         2024-01-02\t3\t2\t200.00\t\t\t\t\t\n"
    );
    let ndjson = run(&["-f", "ndjson", "--decimals", "0"]);
    assert_eq!(
        ndjson.lines().last(),
        Some("{\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":3,\"fees_change\":2,\"fees_change_pct\":200,\"fees_share_pct\":null}")
    );
    let markdown = run(&["-f", "markdown"]);
    assert!(
        markdown.contains("| fees_change_pct | fees_share_pct |"),
        "{markdown}"
    );
}

#[test]
fn by_week_compares_each_week_with_the_one_before() {
    let (_stub, env) = served(&FEES);
    let args = [
        &["fees", "-f", "csv", "--by", "week", "--change"][..],
        &FEES_RANGE,
    ]
    .concat();
    // ETHEREUM: week of 03-25 holds 0.1 + 0.2, the next 5E+3 + 1 = 5001; (5001 - 0.3) / 0.3
    env.cmd_args(&args)
        .any_stderr()
        .stdout(str![[r#"
date,chain,days,fees,fees_change,fees_change_pct
2024-03-25,ETHEREUM,2,0.3,,
2024-03-25,ARBITRUM,2,1234567890123456789012345678902.0,,
2024-04-01,ETHEREUM,2,5001,5000.7,1666900.00
2024-04-01,ARBITRUM,1,2.25,-1234567890123456789012345678899.75,-100.00

"#]])
        .run();
}
