//! `report`: the three metrics joined per (date, chain), and output identical whatever the
//! order its concurrent requests finish in.

use crate::support::{argv, sandbox_env, Env, Sandbox, Stub};
use snapbox::str;

#[test]
fn report_joins_fees_users_and_social_per_date() {
    let (_sandbox, mut env) = sandbox_env(&[]);
    env.set("LANG", "C.UTF-8");
    env.cmd("report -c eth -s 2024-01-01 -e 2024-01-03 -f table")
        .stdout(
            "\
┌────────────┬────────────┬──────────────┬───────┬─────────┬───────┬───────┐
│ date       ┆       fees ┆ active_users ┆ reply ┆ retweet ┆ tweet ┆ quote │
╞════════════╪════════════╪══════════════╪═══════╪═════════╪═══════╪═══════╡
│ 2024-01-01 ┆ 879,768.88 ┆      414,059 ┆     0 ┆       0 ┆     2 ┆     0 │
│ 2024-01-02 ┆ 826,665.76 ┆      458,588 ┆     0 ┆       7 ┆     5 ┆     0 │
│ 2024-01-03 ┆ 821,920.42 ┆      472,251 ┆     8 ┆       0 ┆     6 ┆     0 │
└────────────┴────────────┴──────────────┴───────┴─────────┴───────┴───────┘
",
        )
        .run();
    env.cmd("report -c eth -i tweet,quote -s 2024-01-01 -e 2024-01-02 -f json")
        .stdout(str![[r#"
[
  {"date":"2024-01-01","fees":879768.88,"active_users":414059,"tweet":2,"quote":0},
  {"date":"2024-01-02","fees":826665.76,"active_users":458588,"tweet":5,"quote":0}
]

"#]])
        .run();
    env.cmd("report -c eth,arb -i tweet -s 2024-01-01 -e 2024-01-02 --wide -f csv").stdout(str![[r#"
date,ETHEREUM.fees,ETHEREUM.active_users,ETHEREUM.tweet,ARBITRUM.fees,ARBITRUM.active_users,ARBITRUM.tweet
2024-01-01,879768.88,414059,2,59575.78,311339,0
2024-01-02,826665.76,458588,5,71927.52,324705,0

"#]]).run();
}

#[test]
fn report_sends_three_requests_per_chain_and_leaves_gaps_empty() {
    let stub = Stub::per_endpoint(
        r#"[{"date":"2024-01-01","fees":1.5},{"date":"2024-01-02","fees":2.5}]"#,
        r#"[{"date":"2024-01-02","active_users":20}]"#,
        r#"{"data":[{"date":"2024-01-01","tweet":3}]}"#,
    );
    Env::with_service(&stub.url)
        .cmd("report -c op,bsc -i tweet -s 2024-01-01 -e 2024-01-02 --jobs 1")
        .stdout(str![[r#"
date,chain,fees,active_users,tweet
2024-01-01,OPTIMISM,1.5,,3
2024-01-01,BSC,1.5,,3
2024-01-02,OPTIMISM,2.5,20,
2024-01-02,BSC,2.5,20,

"#]])
        .stderr(str![[r#"
warning: OPTIMISM active users, BSC active users: no data for 2024-01-01 (left out, not zero)
warning: OPTIMISM official account, BSC official account: no data for 2024-01-02 (left out, not zero)

"#]])
        .run();
    let seen: Vec<(String, String)> = stub.seen().into_iter().map(|s| (s.path, s.body)).collect();
    let range = r#""start_date":"2024-01-01","end_date":"2024-01-02""#;
    // Per chain, in the order given: fees, active users, then the official account.
    let expected: Vec<(String, String)> = ["OPTIMISM", "BSC"]
        .into_iter()
        .flat_map(|chain| {
            let body = format!(r#"{{"chain":"{chain}",{range}}}"#);
            let social = format!(r#"{{"chain":"{chain}",{range},"includes":"tweet"}}"#);
            [
                ("/api/chain-insights/fees", body.clone()),
                ("/api/chain-insights/active_users", body),
                ("/api/social-metrics/official-account", social),
            ]
        })
        .map(|(p, b)| (p.to_owned(), b))
        .collect();
    assert_eq!(seen, expected);
}

#[test]
fn concurrent_output_is_identical_to_one_request_at_a_time() {
    // Latency keeps many requests in flight at once, so they finish in no fixed order.
    let sandbox = Sandbox::start(&["--latency", "20"]);
    let env = Env::with_service(&sandbox.url);
    let args = argv("report -c all -s 2024-02-01 -e 2024-02-10 -f csv");
    let one = env.cmd_args(&[&args[..], &["--jobs", "1"]].concat()).run();
    assert_eq!(one.stdout.lines().count(), 1 + 10 * 6);
    for jobs in ["8", "18"] {
        env.cmd_args(&[&args[..], &["--jobs", jobs]].concat())
            .stdout(&one.stdout)
            .stderr("")
            .run();
    }
    let wide = env
        .cmd_args(&[&args[..], &["--wide", "--jobs", "1"]].concat())
        .run();
    assert_eq!(
        env.cmd_args(&[&args[..], &["--wide"]].concat())
            .run()
            .stdout,
        wide.stdout
    );
}
