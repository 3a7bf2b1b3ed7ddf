//! Every output format, long and `--wide`, with exact expected output; `--summary`,
//! `--no-header` and the chart at a fixed width.

use crate::support::{sandbox_env, Env, Reply, Sandbox, Stub};
use snapbox::str;

const FEES_TWO_CHAINS: [&str; 7] = [
    "fees",
    "-c",
    "eth,arb",
    "-s",
    "2024-01-01",
    "-e",
    "2024-01-02",
];

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
    let (_sandbox, env) = sandbox_env(&[]);
    for (format, wide, expected) in EXPECTED {
        let mut args = FEES_TWO_CHAINS.to_vec();
        args.extend(["--format", format]);
        if wide {
            args.push("--wide");
        }
        env.cmd_args(&args).stdout(expected).run();
    }
}

#[test]
fn wide_social_names_columns_by_chain_and_metric() {
    let sandbox = Sandbox::start(&[]);
    Env::with_service(&sandbox.url)
        .cmd("social -c eth,arb -i tweet,reply -s 2024-01-01 -e 2024-01-02 --wide -f csv")
        .stdout(str![[r#"
date,ETHEREUM.tweet,ETHEREUM.reply,ARBITRUM.tweet,ARBITRUM.reply
2024-01-01,2,0,0,13
2024-01-02,5,0,0,8

"#]])
        .run();
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
    let stub = scripted_fees();
    let env = Env::with_service(&stub.url);
    let args = [
        "fees",
        "-c",
        "eth,base",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-05",
        "--wide",
        "-q",
        "--summary",
    ];
    env.cmd_args(&[&args[..], &["-f", "markdown"]].concat())
        .stdout(
            "\
| date       | ETHEREUM |                         BASE |
|------------|---------:|-----------------------------:|
| 2024-01-01 |       10 |                          0.1 |
| 2024-01-02 |       40 |                          0.2 |
| 2024-01-03 |          | 12,345,678,901,234,567,890.1 |
| 2024-01-04 |       25 |                         5E+1 |
| 2024-01-05 |       30 |                            0 |
| total      |      105 | 12,345,678,901,234,567,940.4 |
| mean       |    26.25 | 2,469,135,780,246,913,588.08 |
| min        |       10 |                            0 |
| max        |       40 | 12,345,678,901,234,567,890.1 |
",
        )
        .run();
    let table = env.cmd_args(&[&args[..], &["-f", "table"]].concat()).run();
    assert!(
        table
            .stdout
            .contains("│ total      ┆   105    ┆ 12,345,678,901,234,567,940.4  │"),
        "{}",
        table.stdout
    );
}

#[test]
fn no_header_leaves_out_the_header_of_csv_and_tsv() {
    let (_sandbox, env) = sandbox_env(&[]);
    let args = [
        "fees",
        "-c",
        "eth",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-02",
        "--no-header",
    ];
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
fn chart_at_the_default_width_of_80_with_axes_dates_and_legend() {
    let stub = Stub::start(|seen| {
        let body = if seen.body.contains("ETHEREUM") {
            r#"[{"date":"2024-01-01","fees":10},{"date":"2024-01-02","fees":40},{"date":"2024-01-04","fees":25},{"date":"2024-01-05","fees":30}]"#
        } else {
            r#"[{"date":"2024-01-01","fees":5},{"date":"2024-01-02","fees":15},{"date":"2024-01-03","fees":20},{"date":"2024-01-04","fees":35},{"date":"2024-01-05","fees":20}]"#
        };
        Reply::json(200, body)
    });
    let run = Env::with_service(&stub.url)
        .cmd("fees -c eth,arb -s 2024-01-01 -e 2024-01-05 -f chart -q")
        .stdout(
            "\
40 +                  **
   |                ***
   |              ***                                    ooooooo
31 +            ***                                   oooo     ooooo          **
   |           **                                 ooooo            oooo********
   |         ***                              ooooo         ********  ooooo
22 +       ***                             oooo                           ooooo
   |     ***                      oooooooooo                                  oo
   |   ***              ooooooooooo
14 + ***          ooooooo
   |**      ooooooo
   |   oooooo
 5 +oooo
   ++------------------+------------------+-----------------+------------------+
    2024-01-01    2024-01-02         2024-01-03        2024-01-04     2024-01-05
    * ETHEREUM   o ARBITRUM
",
        )
        .run();
    // ETHEREUM has no value on the 3rd: its line breaks there instead of dropping to zero.

    assert!(run.stdout.lines().all(|line| line.chars().count() <= 80));
    assert!(!run.stdout.contains('\x1b'));
}

#[test]
fn chart_colours_its_series_only_when_asked_and_never_with_no_color() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::with_service(&sandbox.url);
    let args = [
        "users",
        "-c",
        "eth,arb",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-09",
        "-f",
        "chart",
    ];
    env.cmd_args(&[&args[..], &["--color", "always"]].concat())
        .stdout_contains("\x1b[36m*\x1b[0m ETHEREUM")
        .stdout_contains("\x1b[33mo\x1b[0m ARBITRUM")
        .run();
    env.set("CLICOLOR_FORCE", "1").set("NO_COLOR", "1");
    let plain = env.cmd_args(&args).run();
    assert!(!plain.stdout.contains('\x1b'));
    assert!(
        plain.stdout.ends_with("* ETHEREUM   o ARBITRUM\n"),
        "{}",
        plain.stdout
    );
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
fn chart_spaces_dates_by_time_and_breaks_lines_at_missing_days() {
    let stub = Stub::always(Reply::json(
        200,
        r#"[{"date":"2024-01-01","fees":1},{"date":"2024-01-02","fees":5},{"date":"2024-01-10","fees":3}]"#,
    ));
    Env::with_service(&stub.url)
        .cmd("fees -c eth -s 2024-01-01 -e 2024-01-10 -f chart -q")
        .stdout(
            "\
5 +        *
  |       **
  |       *
4 +      **
  |     **
  |     *
3 +    **                                                                      *
  |   **
  |  **
2 +  *
  | **
  |**
1 +*
  ++----------------+------------------------+----------------+----------------+
   2024-01-01  2024-01-03               2024-01-06       2024-01-08   2024-01-10
   * ETHEREUM
",
        )
        .run();
    // 01-02 sits one ninth of the way along, and nothing joins it to 01-10.
}

#[test]
fn chart_legend_wraps_to_the_width_with_a_mark_per_series() {
    let sandbox = Sandbox::start(&[]);
    let run = Env::with_service(&sandbox.url)
        .cmd("report -c eth,arb -s 2024-01-01 -e 2024-01-05 -f chart")
        .run();
    assert!(
        run.stdout.lines().all(|l| l.chars().count() <= 80),
        "{}",
        run.stdout
    );
    // Metrics of different scale get a chart each, headed by the metric's name,
    // each with its own legend.
    let legend: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| {
            let heading = !l.is_empty() && !l.starts_with(' ') && !l.contains(['+', '|']);
            heading || l.trim_start().starts_with("* ")
        })
        .map(str::trim_start)
        .collect();
    let expected: Vec<String> = ["fees", "active_users", "reply", "retweet", "tweet", "quote"]
        .iter()
        .flat_map(|m| [m.to_string(), format!("* ETHEREUM.{m}   o ARBITRUM.{m}")])
        .collect();
    assert_eq!(legend, expected, "{}", run.stdout);
}
