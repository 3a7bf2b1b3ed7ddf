//! Every output format, long and `--wide`, with exact expected output; `--summary`,
//! `--no-header` and the chart at a fixed width.

use crate::support::{argv, sandbox_env, sandbox_gives, Env, Reply, Sandbox, Stub};
use snapbox::str;

const FEES_TWO_CHAINS: &str = "fees -c eth,arb -s 2024-01-01 -e 2024-01-02";

/// (format, --wide, expected stdout) for fees of ETHEREUM and ARBITRUM over two days.
const EXPECTED: [(&str, bool, &str); 12] = [
    ("table", false, "\
┌────────────┬──────────┬────────────┐
│ date       ┆ chain    ┆       fees │
╞════════════╪══════════╪════════════╡
│ 2024-01-01 ┆ ETHEREUM ┆ 879,768.88 │
│ 2024-01-01 ┆ ARBITRUM ┆  59,575.78 │
│ 2024-01-02 ┆ ETHEREUM ┆ 826,665.76 │
│ 2024-01-02 ┆ ARBITRUM ┆  71,927.52 │
└────────────┴──────────┴────────────┘
"),
    ("table", true, "\
┌────────────┬────────────┬───────────┐
│ date       ┆   ETHEREUM ┆  ARBITRUM │
╞════════════╪════════════╪═══════════╡
│ 2024-01-01 ┆ 879,768.88 ┆ 59,575.78 │
│ 2024-01-02 ┆ 826,665.76 ┆ 71,927.52 │
└────────────┴────────────┴───────────┘
"),
    ("csv", false, "date,chain,fees\n2024-01-01,ETHEREUM,879768.88\n2024-01-01,ARBITRUM,59575.78\n2024-01-02,ETHEREUM,826665.76\n2024-01-02,ARBITRUM,71927.52\n"),
    ("csv", true, "date,ETHEREUM,ARBITRUM\n2024-01-01,879768.88,59575.78\n2024-01-02,826665.76,71927.52\n"),
    ("tsv", false, "date\tchain\tfees\n2024-01-01\tETHEREUM\t879768.88\n2024-01-01\tARBITRUM\t59575.78\n2024-01-02\tETHEREUM\t826665.76\n2024-01-02\tARBITRUM\t71927.52\n"),
    ("tsv", true, "date\tETHEREUM\tARBITRUM\n2024-01-01\t879768.88\t59575.78\n2024-01-02\t826665.76\t71927.52\n"),
    ("json", false, "[\n  {\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":879768.88},\n  {\"date\":\"2024-01-01\",\"chain\":\"ARBITRUM\",\"fees\":59575.78},\n  {\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":826665.76},\n  {\"date\":\"2024-01-02\",\"chain\":\"ARBITRUM\",\"fees\":71927.52}\n]\n"),
    ("json", true, "[\n  {\"date\":\"2024-01-01\",\"ETHEREUM\":879768.88,\"ARBITRUM\":59575.78},\n  {\"date\":\"2024-01-02\",\"ETHEREUM\":826665.76,\"ARBITRUM\":71927.52}\n]\n"),
    ("ndjson", false, "{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":879768.88}\n{\"date\":\"2024-01-01\",\"chain\":\"ARBITRUM\",\"fees\":59575.78}\n{\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":826665.76}\n{\"date\":\"2024-01-02\",\"chain\":\"ARBITRUM\",\"fees\":71927.52}\n"),
    ("ndjson", true, "{\"date\":\"2024-01-01\",\"ETHEREUM\":879768.88,\"ARBITRUM\":59575.78}\n{\"date\":\"2024-01-02\",\"ETHEREUM\":826665.76,\"ARBITRUM\":71927.52}\n"),
    ("markdown", false, "\
| date       | chain    |       fees |
|------------|----------|-----------:|
| 2024-01-01 | ETHEREUM | 879,768.88 |
| 2024-01-01 | ARBITRUM |  59,575.78 |
| 2024-01-02 | ETHEREUM | 826,665.76 |
| 2024-01-02 | ARBITRUM |  71,927.52 |
"),
    ("markdown", true, "\
| date       |   ETHEREUM |  ARBITRUM |
|------------|-----------:|----------:|
| 2024-01-01 | 879,768.88 | 59,575.78 |
| 2024-01-02 | 826,665.76 | 71,927.52 |
"),
];

#[test]
fn every_format_long_and_wide() {
    let (_sandbox, mut env) = sandbox_env(&[]);
    env.set("LANG", "C.UTF-8");
    for (format, wide, expected) in EXPECTED {
        let mut args = argv(FEES_TWO_CHAINS);
        args.extend(["--format", format]);
        if wide {
            args.push("--wide");
        }
        env.cmd_args(&args).stdout(expected).run();
    }
}

#[test]
fn wide_social_names_columns_by_chain_and_metric() {
    sandbox_gives(
        "social -c eth,arb -i tweet,reply -s 2024-01-01 -e 2024-01-02 --wide -f csv",
        str![[r#"
date,ETHEREUM.tweet,ETHEREUM.reply,ARBITRUM.tweet,ARBITRUM.reply
2024-01-01,2,0,0,13
2024-01-02,5,0,0,8

"#]],
    );
}

/// Fees per chain from the request body: ETHEREUM has a gap on the 3rd, BASE has decimals that
/// a float would not add up exactly.
fn scripted_fees() -> Stub {
    Stub::start(|seen| {
        let body = if seen.body.contains("ETHEREUM") {
            r#"[{"date":"2024-01-01","fees":10},{"date":"2024-01-02","fees":40},{"date":"2024-01-04","fees":25},{"date":"2024-01-05","fees":30}]"#
        } else {
            r#"[{"date":"2024-01-01","fees":0.1},{"date":"2024-01-02","fees":0.2},{"date":"2024-01-03","fees":12345678901234567890.1},{"date":"2024-01-04","fees":5E+1},{"date":"2024-01-05","fees":0}]"#
        };
        Reply::json(200, body)
    })
}

#[test]
fn summary_adds_exact_total_mean_min_max_rows_and_skips_gaps() {
    // Markdown lines numbers up on the decimal point as the terminal table does.
    let stub = scripted_fees();
    let mut env = Env::with_service(&stub.url);
    env.set("LANG", "C.UTF-8");
    let args = argv("fees -c eth,base -s 2024-01-01 -e 2024-01-05 --wide -q --summary");
    env.cmd_args(&[&args[..], &["-f", "markdown"]].concat())
        .stdout(
            "\
| date       | ETHEREUM |                          BASE |
|------------|---------:|------------------------------:|
| 2024-01-01 |    10    |                          0.1  |
| 2024-01-02 |    40    |                          0.2  |
| 2024-01-03 |          | 12,345,678,901,234,567,890.1  |
| 2024-01-04 |    25    |                       5E+1    |
| 2024-01-05 |    30    |                          0    |
| total      |   105    | 12,345,678,901,234,567,940.4  |
| mean       |    26.25 |  2,469,135,780,246,913,588.08 |
| min        |    10    |                          0    |
| max        |    40    | 12,345,678,901,234,567,890.1  |
",
        )
        .run();
    env.cmd_args(&[&args[..], &["-f", "table"]].concat())
        .stdout_contains("│ total      ┆   105    ┆ 12,345,678,901,234,567,940.4  │")
        .run();
}

#[test]
fn no_header_leaves_out_the_header_of_csv_and_tsv() {
    let (_sandbox, env) = sandbox_env(&[]);
    let args = argv("fees -c eth -s 2024-01-01 -e 2024-01-02 --no-header");
    env.cmd_args(&[&args[..], &["-f", "csv"]].concat())
        .stdout(str![[r#"
2024-01-01,879768.88
2024-01-02,826665.76

"#]])
        .run();
    env.cmd_args(&[&args[..], &["-f", "tsv"]].concat())
        .stdout("2024-01-01\t879768.88\n2024-01-02\t826665.76\n")
        .run();
}

#[test]
fn chains_in_the_new_formats() {
    let env = Env::new();
    env.cmd("chains -f tsv").stdout("chain\tchain_id\taliases\nETHEREUM\t1\teth\nARBITRUM\t42161\tarb\nBSC\t56\tbnb\nOPTIMISM\t10\top\nBASE\t8453\t\nPOLYGON\t137\tmatic,pol\n").run();
    let ndjson = env.cmd("chains -f ndjson").run();
    assert_eq!(
        ndjson.stdout.lines().last(),
        Some(r#"{"aliases":["matic","pol"],"chain":"POLYGON","chain_id":137}"#)
    );
    let markdown = env.cmd("chains -f markdown").run();
    assert_eq!(
        markdown.stdout.lines().take(3).collect::<Vec<_>>(),
        [
            "| chain    | chain_id | aliases   |",
            "|----------|----------|-----------|",
            "| ETHEREUM | 1        | eth       |"
        ]
    );
    env.cmd("chains -f chart")
        .code(2)
        .error_line("error: invalid value 'chart' for '--format <FMT>'")
        .run();
}

#[test]
fn summary_over_several_chains_gives_one_block_per_chain() {
    let sandbox = Sandbox::start(&[]);
    Env::with_service(&sandbox.url)
        .cmd("fees -c eth,arb -s 2024-01-01 -e 2024-01-02 --summary -f markdown")
        .stdout(
            "\
| date       | chain    |         fees |
|------------|----------|-------------:|
| 2024-01-01 | ETHEREUM |   879,768.88 |
| 2024-01-01 | ARBITRUM |    59,575.78 |
| 2024-01-02 | ETHEREUM |   826,665.76 |
| 2024-01-02 | ARBITRUM |    71,927.52 |
| total      | ETHEREUM | 1,706,434.64 |
| mean       | ETHEREUM |   853,217.32 |
| min        | ETHEREUM |   826,665.76 |
| max        | ETHEREUM |   879,768.88 |
| total      | ARBITRUM |   131,503.30 |
| mean       | ARBITRUM |    65,751.65 |
| min        | ARBITRUM |    59,575.78 |
| max        | ARBITRUM |    71,927.52 |
",
        )
        .run();
    // Two chains' fees are not one quantity: each chain gets its own total, mean, min and max.
}
