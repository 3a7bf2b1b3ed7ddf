//! `report`: the three metrics joined per (date, chain), and output identical whatever the
//! order its concurrent requests finish in.

use crate::support::{Env, Reply, Sandbox, Stub};

#[test]
fn report_joins_fees_users_and_social_per_date() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let run = env.run(&[
        "report",
        "-c",
        "eth",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-03",
        "-f",
        "table",
    ]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert_eq!(
        run.stdout,
        "\
┌────────────┬────────────┬──────────────┬───────┬─────────┬───────┬───────┐
│ date       ┆       fees ┆ active_users ┆ reply ┆ retweet ┆ tweet ┆ quote │
╞════════════╪════════════╪══════════════╪═══════╪═════════╪═══════╪═══════╡
│ 2024-01-01 ┆ 879,768.88 ┆      414,059 ┆     0 ┆       0 ┆     2 ┆     0 │
│ 2024-01-02 ┆ 826,665.76 ┆      458,588 ┆     0 ┆       7 ┆     5 ┆     0 │
│ 2024-01-03 ┆ 821,920.42 ┆      472,251 ┆     8 ┆       0 ┆     6 ┆     0 │
└────────────┴────────────┴──────────────┴───────┴─────────┴───────┴───────┘
"
    );
    let run = env.run(&[
        "report",
        "-c",
        "eth",
        "-i",
        "tweet,quote",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-02",
        "-f",
        "json",
    ]);
    assert_eq!(
        run.stdout,
        "[\n  {\"date\":\"2024-01-01\",\"fees\":879768.88,\"active_users\":414059,\"tweet\":2,\"quote\":0},\n  {\"date\":\"2024-01-02\",\"fees\":826665.76,\"active_users\":458588,\"tweet\":5,\"quote\":0}\n]\n"
    );
    let run = env.run(&[
        "report",
        "-c",
        "eth,arb",
        "-i",
        "tweet",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-02",
        "--wide",
        "-f",
        "csv",
    ]);
    assert_eq!(
        run.stdout,
        "date,ETHEREUM.fees,ETHEREUM.active_users,ETHEREUM.tweet,ARBITRUM.fees,ARBITRUM.active_users,ARBITRUM.tweet\n\
         2024-01-01,879768.88,414059,2,59575.78,311339,0\n\
         2024-01-02,826665.76,458588,5,71927.52,324705,0\n"
    );
}

#[test]
fn report_sends_three_requests_per_chain_and_leaves_gaps_empty() {
    let stub = Stub::start(|seen| match seen.path.as_str() {
        "/api/chain-insights/fees" => Reply::json(
            200,
            r#"[{"date":"2024-01-01","fees":1.5},{"date":"2024-01-02","fees":2.5}]"#,
        ),
        "/api/chain-insights/active_users" => {
            Reply::json(200, r#"[{"date":"2024-01-02","active_users":20}]"#)
        }
        _ => Reply::json(200, r#"{"data":[{"date":"2024-01-01","tweet":3}]}"#),
    });
    let run = Env::with_service(&stub.url).run(&[
        "report",
        "-c",
        "op,bsc",
        "-i",
        "tweet",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-02",
        "--jobs",
        "1",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "date,chain,fees,active_users,tweet\n2024-01-01,OPTIMISM,1.5,,3\n2024-01-01,BSC,1.5,,3\n2024-01-02,OPTIMISM,2.5,20,\n2024-01-02,BSC,2.5,20,\n"
    );
    assert_eq!(
        run.stderr,
        "warning: OPTIMISM active users, BSC active users: no data for 2024-01-01 (left out, not zero)\n\
         warning: OPTIMISM official account, BSC official account: no data for 2024-01-02 (left out, not zero)\n"
    );
    let seen: Vec<(String, String)> = stub.seen().into_iter().map(|s| (s.path, s.body)).collect();
    let range = r#""start_date":"2024-01-01","end_date":"2024-01-02""#;
    assert_eq!(
        seen,
        [
            (
                "/api/chain-insights/fees",
                format!(r#"{{"chain":"OPTIMISM",{range}}}"#)
            ),
            (
                "/api/chain-insights/active_users",
                format!(r#"{{"chain":"OPTIMISM",{range}}}"#)
            ),
            (
                "/api/social-metrics/official-account",
                format!(r#"{{"chain":"OPTIMISM",{range},"includes":"tweet"}}"#)
            ),
            (
                "/api/chain-insights/fees",
                format!(r#"{{"chain":"BSC",{range}}}"#)
            ),
            (
                "/api/chain-insights/active_users",
                format!(r#"{{"chain":"BSC",{range}}}"#)
            ),
            (
                "/api/social-metrics/official-account",
                format!(r#"{{"chain":"BSC",{range},"includes":"tweet"}}"#)
            ),
        ]
        .map(|(p, b)| (p.to_owned(), b))
    );
}

#[test]
fn concurrent_output_is_identical_to_one_request_at_a_time() {
    // Latency keeps many requests in flight at once, so they finish in no fixed order.
    let sandbox = Sandbox::start(&["--latency", "20"]);
    let env = Env::with_service(&sandbox.url);
    let args = [
        "report",
        "-c",
        "all",
        "-s",
        "2024-02-01",
        "-e",
        "2024-02-10",
        "-f",
        "csv",
    ];
    let one = env.run(&[&args[..], &["--jobs", "1"]].concat());
    assert_eq!((one.code, one.stderr.as_str()), (0, ""), "{one:?}");
    assert_eq!(one.stdout.lines().count(), 1 + 10 * 6);
    for jobs in ["8", "18"] {
        let many = env.run(&[&args[..], &["--jobs", jobs]].concat());
        assert_eq!(many.stdout, one.stdout, "--jobs {jobs}");
        assert_eq!(many.stderr, "");
    }
    let wide = env.run(&[&args[..], &["--wide", "--jobs", "1"]].concat());
    assert_eq!(
        env.run(&[&args[..], &["--wide"]].concat()).stdout,
        wide.stdout
    );
}
