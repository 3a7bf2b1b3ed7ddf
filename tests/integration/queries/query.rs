//! fees, users, social and chains end to end: the real binary against the sandbox and scripted
//! servers on loopback, with exact expected output per format.

use crate::support::{sandbox_env, sandbox_gives, Env, Reply, Sandbox, Stub, SANDBOX_DAY};
use chrono::{Days, Utc};
use snapbox::str;

#[test]
fn fees_csv_for_one_chain() {
    sandbox_gives(
        "fees --chain eth --start 2024-01-01 --end 2024-01-03 --format csv",
        str![[r#"
date,fees
2024-01-01,879768.88
2024-01-02,826665.76
2024-01-03,821920.42

"#]],
    );
}

#[test]
fn piped_output_defaults_to_csv_with_a_chain_column_for_several_chains() {
    sandbox_gives(
        "fees -c ETH -c 42161 -s 2024-01-01 -e 2024-01-02",
        str![[r#"
date,chain,fees
2024-01-01,ETHEREUM,879768.88
2024-01-01,ARBITRUM,59575.78
2024-01-02,ETHEREUM,826665.76
2024-01-02,ARBITRUM,71927.52

"#]],
    );
}

#[test]
fn chain_order_follows_the_command_line_and_all_follows_the_service() {
    let (_sandbox, env) = sandbox_env(&[]);
    let all = ["ETHEREUM", "ARBITRUM", "BSC", "OPTIMISM", "BASE", "POLYGON"];
    for (asked, expected) in [("pol,eth,pol", &["POLYGON", "ETHEREUM"][..]), ("all", &all)] {
        let line = format!("users -c {asked} -s 2024-01-01 -e 2024-01-01");
        let run = env.cmd(&line).run();
        let chains: Vec<&str> = run
            .stdout
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap())
            .collect();
        assert_eq!(chains, expected, "{asked}");
    }
}

#[test]
fn users_json() {
    sandbox_gives(
        "users -c base -s 2024-02-28 -e 2024-03-01 -f json",
        str![[r#"
[
  {"date":"2024-02-28","active_users":831098},
  {"date":"2024-02-29","active_users":925794},
  {"date":"2024-03-01","active_users":807953}
]

"#]],
    );
}

#[test]
fn social_table_with_includes_in_the_order_given() {
    sandbox_gives(
        "social -c op -i tweet,reply -s 2024-01-05 -e 2024-01-07 -f table",
        "\
┌────────────┬───────┬───────┐
│ date       ┆ tweet ┆ reply │
╞════════════╪═══════╪═══════╡
│ 2024-01-05 ┆     4 ┆     0 │
│ 2024-01-06 ┆     0 ┆     0 │
│ 2024-01-07 ┆     0 ┆     0 │
└────────────┴───────┴───────┘
",
    );
}

#[test]
fn social_defaults_to_all_four_items_and_always_sends_them() {
    let sandbox = Sandbox::start(&[]);
    Env::with_service(&sandbox.url)
        .cmd("social -c pol -s 2024-01-01 -e 2024-01-02")
        .stdout(str![[r#"
date,reply,retweet,tweet,quote
2024-01-01,0,6,0,0
2024-01-02,10,0,0,0

"#]])
        .run();

    let stub = Stub::always(Reply::json(200, r#"{"data":[]}"#));
    Env::with_service(&stub.url)
        .cmd("social -c pol -s 2024-01-01 -e 2024-01-02")
        .stderr_contains("warning: POLYGON official account: no data")
        .run();
    assert_eq!(
        stub.seen()[0].body,
        r#"{"chain":"POLYGON","start_date":"2024-01-01","end_date":"2024-01-02","includes":"reply,retweet,tweet,quote"}"#
    );
}

#[test]
fn table_groups_digits_and_aligns_numbers_right() {
    sandbox_gives(
        "fees -c eth -s 2024-01-01 -e 2024-01-02 -f table",
        "\
┌────────────┬────────────┐
│ date       ┆       fees │
╞════════════╪════════════╡
│ 2024-01-01 ┆ 879,768.88 │
│ 2024-01-02 ┆ 826,665.76 │
└────────────┴────────────┘
",
    );
}

#[test]
fn last_n_days_end_yesterday_utc_by_default() {
    let (_sandbox, env) = sandbox_env(&[]);
    let run = env.cmd("fees -c eth --last 3").run();
    let today = Utc::now().date_naive();
    let dates: Vec<String> = (1..=3)
        .rev()
        .map(|n| (today - Days::new(n)).to_string())
        .collect();
    let got: Vec<&str> = run.stdout.lines().skip(1).map(|l| &l[..10]).collect();
    assert_eq!(got, dates);
    let run = env.cmd("fees -c eth --last 1w --end 2024-01-07").run();
    assert_eq!(run.stdout.lines().nth(1).unwrap(), "2024-01-01,879768.88");
    assert_eq!(run.stdout.lines().count(), 8);
}

fn exact_numbers_stub() -> Stub {
    Stub::always(Reply::json(
        200,
        r#"[{"date":"2024-01-01","fees":5E+3},{"date":"2024-01-02","fees":12345678901234567890.123456789},{"date":"2024-01-03","fees":0.1},{"date":"2024-01-04"},{"date":"2024-01-05","fees":null}]"#,
    ))
}

#[test]
fn numbers_keep_the_exact_text_the_service_sent() {
    let stub = exact_numbers_stub();
    let mut env = Env::with_service(&stub.url);
    env.set("LANG", "C.UTF-8");
    let args = ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-05"];
    env.cmd_args(&[&args[..], &["-f", "csv"]].concat())
        .stdout(str![[r#"
date,fees
2024-01-01,5E+3
2024-01-02,12345678901234567890.123456789
2024-01-03,0.1
2024-01-04,
2024-01-05,

"#]])
        .stderr("warning: ETHEREUM fees: the records for 2024-01-04..2024-01-05 have no fees (left empty, not zero)\n")
        .run();
    let json = env
        .cmd_args(&[&args[..], &["-f", "json"]].concat())
        .stdout(str![[r#"
[
  {"date":"2024-01-01","fees":5E+3},
  {"date":"2024-01-02","fees":12345678901234567890.123456789},
  {"date":"2024-01-03","fees":0.1},
  {"date":"2024-01-04","fees":null},
  {"date":"2024-01-05","fees":null}
]

"#]])
        .stderr("warning: ETHEREUM fees: the records for 2024-01-04..2024-01-05 have no fees (left empty, not zero)\n")
        .run();
    let parsed: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(parsed.as_array().unwrap().len(), 5);
    env.cmd_args(&[&args[..], &["-f", "table"]].concat())
        .stdout_contains("│ 2024-01-02 ┆ 12,345,678,901,234,567,890.123456789 │")
        .stdout_contains("│ 2024-01-01 ┆                       5E+3           │")
        .stderr("warning: ETHEREUM fees: the records for 2024-01-04..2024-01-05 have no fees (left empty, not zero)\n")
        .run();
}

#[test]
fn gaps_duplicates_and_strays_are_reported_once_and_never_filled() {
    let stub = Stub::always(Reply::json(
        200,
        r#"[{"date":"2024-01-04","fees":4},{"date":"2024-01-01","fees":1},{"date":"2024-01-04","fees":44},{"date":"2023-12-31","fees":0},{"date":"2024-01-09","fees":9}]"#,
    ));
    Env::with_service(&stub.url)
        .cmd("fees -c eth -s 2024-01-01 -e 2024-01-05")
        .stdout(str![[r#"
date,fees
2024-01-01,1
2024-01-04,44

"#]])
        .stderr(str![[r#"
warning: ETHEREUM fees: no data for 2024-01-02..2024-01-03, 2024-01-05 (left out, not zero)
warning: ETHEREUM fees: several records for 2024-01-04; kept the last
warning: ETHEREUM fees: dropped records outside the asked range: 2023-12-31, 2024-01-09

"#]])
        .run();
    Env::with_service(&stub.url)
        .cmd("fees -c eth -s 2024-01-01 -e 2024-01-05 -q")
        .stderr("")
        .run();
}

#[test]
fn sandbox_flag_needs_no_account_and_says_its_data_is_synthetic() {
    let env = Env::new();
    let run = env
        .cmd("--sandbox fees -c eth -s 2024-01-01 -e 2024-01-01")
        .stdout(SANDBOX_DAY)
        .error_line_like(
            "note: --sandbox: synthetic data from the built-in sandbox at https://127.0.0.1:[..]",
        )
        .run();
    assert_eq!(run.stderr.lines().count(), 1);
    env.cmd("fees --sandbox -q -c eth -s 2024-01-01 -e 2024-01-01")
        .run();
}

#[test]
fn chains_lists_names_ids_and_aliases() {
    Env::new()
        .cmd("chains")
        .stdout(str![[r#"
chain,chain_id,aliases
ETHEREUM,1,eth
ARBITRUM,42161,arb
BSC,56,bnb
OPTIMISM,10,op
BASE,8453,
POLYGON,137,"matic,pol"

"#]])
        .run();
}

#[test]
fn a_closed_pipe_ends_quietly_with_success() {
    Env::new().shell("chain-metrics --sandbox -q fees -c all -s 2000-01-01 -e 2024-12-31 | head -1; echo \"status=${PIPESTATUS[0]}\"",).stdout(str![[r#"
date,chain,fees
status=0

"#]]).stderr("").run();
}
