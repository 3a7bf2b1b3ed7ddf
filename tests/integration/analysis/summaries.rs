//! `--summary` in csv, tsv, json and ndjson (footer rows whose `date` is the statistic, a
//! `summary` object in json), hand-computed exact totals and means, and no total of active
//! users in any mode (daily, `--by`, `--wide`, `report`).

use crate::periods::{served, ARBITRUM_GAP, FEES, FEES_RANGE};
use crate::support::sandbox_env;

#[test]
fn csv_gets_footer_rows_per_chain_with_exact_totals_and_means() {
    let (_stub, env) = served(&FEES);
    let run = env
        .cmd_args(&[&["fees", "-f", "csv", "--summary"][..], &FEES_RANGE].concat())
        .stderr(ARBITRUM_GAP)
        .run();
    // ETHEREUM: 0.1 + 0.2 + 5E+3 + 1 = 5001.3, / 4 = 1250.325, to --decimals' 2 half to even
    // 1250.32; ARBITRUM: the 31-digit value + 0.5 + 2.25, / 3 = ...301.41666.., 2 decimals.
    assert!(run.stdout.ends_with(
        "2024-04-02,ARBITRUM,2.25\n\
         total,ETHEREUM,5001.3\n\
         mean,ETHEREUM,1250.32\n\
         min,ETHEREUM,0.1\n\
         max,ETHEREUM,5E+3\n\
         total,ARBITRUM,1234567890123456789012345678904.25\n\
         mean,ARBITRUM,411522630041152263004115226301.42\n\
         min,ARBITRUM,0.5\n\
         max,ARBITRUM,1234567890123456789012345678901.5\n"
    ));
    let tsv = env
        .cmd_args(
            &[
                &["fees", "-f", "tsv", "--summary", "--wide"][..],
                &FEES_RANGE,
            ]
            .concat(),
        )
        .any_stderr()
        .run();
    assert!(tsv.stdout.ends_with(
        "total\t5001.3\t1234567890123456789012345678904.25\n\
         mean\t1250.32\t411522630041152263004115226301.42\n\
         min\t0.1\t0.5\n\
         max\t5E+3\t1234567890123456789012345678901.5\n"
    ));
}

#[test]
fn json_gets_a_summary_object_and_derived_percents_no_total() {
    let (_stub, env) = served(&FEES);
    let args = ["fees", "-f", "json", "--summary", "--wide", "--share"];
    let run = env
        .cmd_args(&[&args[..], &FEES_RANGE].concat())
        .any_stderr()
        .run();
    assert!(run
        .stdout
        .starts_with("{\"rows\":[\n  {\"date\":\"2024-03-30\","));
    assert!(run.stdout.ends_with(
        "\"summary\":{\n  \
         \"total\":{\"ETHEREUM.fees\":5001.3,\"ETHEREUM.fees_share_pct\":null,\"ARBITRUM.fees\":1234567890123456789012345678904.25,\"ARBITRUM.fees_share_pct\":null},\n  \
         \"mean\":{\"ETHEREUM.fees\":1250.32,\"ETHEREUM.fees_share_pct\":19.78,\"ARBITRUM.fees\":411522630041152263004115226301.42,\"ARBITRUM.fees_share_pct\":80.22},\n  \
         \"min\":{\"ETHEREUM.fees\":0.1,\"ETHEREUM.fees_share_pct\":0.00,\"ARBITRUM.fees\":0.5,\"ARBITRUM.fees_share_pct\":69.23},\n  \
         \"max\":{\"ETHEREUM.fees\":5E+3,\"ETHEREUM.fees_share_pct\":30.77,\"ARBITRUM.fees\":1234567890123456789012345678901.5,\"ARBITRUM.fees_share_pct\":100.00}\n\
         }}\n"
    ));
    let long = env
        .cmd_args(&[&["fees", "-f", "json", "--summary"][..], &FEES_RANGE].concat())
        .any_stderr()
        .run();
    let parsed: serde_json::Value = serde_json::from_str(&long.stdout).unwrap();
    assert_eq!(parsed["rows"].as_array().unwrap().len(), 7);
    assert_eq!(parsed["summary"]["ETHEREUM"]["min"]["fees"], 0.1);
    assert_eq!(parsed["summary"]["ARBITRUM"]["min"]["fees"], 0.5);
}

#[test]
fn active_users_have_no_total_in_any_mode() {
    let (_sandbox, env) = sandbox_env(&[]);
    let run = |line: &str| {
        let days = "-s 2024-01-01 -e 2024-01-02 --summary";
        env.cmd(&format!("{line} {days}")).run().stdout
    };
    let long = run("users -c eth -f csv");
    assert!(long.contains("\ntotal,\nmean,436323.5\n"), "{long}");
    let wide = run("users -c eth,base -f csv --wide");
    assert!(wide.contains("\ntotal,,\nmean,436323.5,848432\n"), "{wide}");
    let report = run("report -c eth -i tweet -f ndjson");
    assert!(
        report.contains(
            "\n{\"date\":\"total\",\"fees\":1706434.64,\"active_users\":null,\"tweet\":7}\n"
        ),
        "{report}"
    );
    let weekly = run("users -c eth -f tsv --by week");
    assert!(weekly.contains("\ntotal\t2\t\n"), "{weekly}");
}
