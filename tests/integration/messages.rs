//! Messages that say what is really going on: the default format in a pipe,
//! a rejected key from the environment, the formats `chains` takes, the chart's labels and
//! width, and `--summary` over several chains.

use crate::support::{sandbox_env, Env, Reply, Sandbox, Stub};
use snapbox::str;

#[test]
fn summary_in_a_pipe_is_csv_footer_rows() {
    let sandbox = Sandbox::start(&[]);
    let run = Env::with_service(&sandbox.url)
        .cmd("fees -c eth --last 2 --summary")
        .run();
    let firsts: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| &l[..l.find(',').unwrap()])
        .collect();
    assert_eq!(firsts[3..], ["total", "mean", "min", "max"]);
}

#[test]
fn a_rejected_key_from_the_environment_is_to_be_fixed_there() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &sandbox.url)
        .set("CHAIN_METRICS_API_KEY", "revoked-key-00009999");
    env.cmd("auth status").code(4).stderr(str![[r#"
error: the service rejected the API key: POST /api/chain-insights/fees for ETHEREUM answered HTTP 401 Unauthorized: invalid API key
hint: the key came from the environment variable CHAIN_METRICS_API_KEY, which outranks any stored key: correct it, or unset it (auth login changes nothing while it is set)

"#]]).run();
}

#[test]
fn chains_offers_only_the_formats_it_takes() {
    let env = Env::new();
    let help = env
        .cmd("chains --help")
        .stdout_contains("- markdown: a Markdown table\n")
        .run();
    assert!(!help.stdout.contains("chart"), "{}", help.stdout);
    env.cmd("chains -f chart")
        .code(2)
        .stderr(str![[r#"
error: invalid value 'chart' for '--format <FMT>'
  [possible values: table, csv, tsv, json, ndjson, markdown]

For more information, try '--help'.

"#]])
        .run();
    let mut completing = Env::new();
    completing.set("_CHAIN_METRICS_COMPLETE", "fish");
    let offered = completing.cmd("-- chain-metrics chains -f ''").run();
    let names: Vec<&str> = offered
        .stdout
        .lines()
        .filter_map(|l| l.split('\t').next())
        .collect();
    assert_eq!(names, ["table", "csv", "tsv", "json", "ndjson", "markdown"]);
}

/// A stub with fees far beyond what an f64 holds exactly (wei-sized numbers).
fn huge_fees() -> Stub {
    Stub::always(Reply::json(
        200,
        r#"[{"date":"2024-01-01","fees":12345000000000000000000000},{"date":"2024-01-02","fees":24690000000000000000000000},{"date":"2024-01-03","fees":18517500000000000000000000}]"#,
    ))
}

const CHART: [&str; 9] = [
    "fees",
    "-c",
    "eth",
    "-s",
    "2024-01-01",
    "-e",
    "2024-01-03",
    "-f",
    "chart",
];

#[test]
fn chart_labels_show_no_float_artefacts() {
    let stub = huge_fees();
    Env::with_service(&stub.url)
        .cmd_args(&CHART)
        .stdout(
            "\
24,690,000,000,000,000,000,000,000 +                     ***
                                   |                   *** *****
                                   |                 ***       ****
21,603,750,000,000,000,000,000,000 +               ***            *****
                                   |             ***                  *****
                                   |            **                        ****
18,517,500,000,000,000,000,000,000 +          ***                            ***
                                   |        ***
                                   |      ***
15,431,250,000,000,000,000,000,000 +    ***
                                   |   **
                                   | ***
12,345,000,000,000,000,000,000,000 +**
                                   ++---------------------+--------------------+
                                    2024-01-01       2024-01-02       2024-01-03
                                    * ETHEREUM
",
        )
        .run();
    // Each label is the exact value at its row, with no digits made up past what an f64 holds.
}

#[test]
fn chart_fits_a_narrow_terminal_or_says_it_cannot() {
    let (_sandbox, env) = sandbox_env(&[]);
    let args = [
        "users",
        "-c",
        "eth",
        "-s",
        "2024-01-01",
        "-e",
        "2024-01-09",
        "-f",
        "chart",
        "--color",
        "never",
    ];
    let run = env.cmd_args(&args).terminal_columns(32).run();
    let shown = run.stdout.replace("\r\n", "\n");
    assert_eq!(
        shown,
        "\
472,251 +    ***
        |  *** **
        | **    **
429,978 + *      **         **
        |**       **        ****
        |          **       *  *
387,704 +           *      **
        |           **     *
        |            **    *
345,431 +             *   **
        |             **  *
        |              ****
303,158 +                **
        ++---------------------+
         2024-01-01   2024-01-09
         * ETHEREUM
"
    );
    assert_eq!(shown.lines().map(str::len).max(), Some(32));
    // Labels of 7 and the legend's `* ETHEREUM` need 21 columns.
    let run = env.cmd_args(&args).terminal_columns(20).code(2).run();
    assert_eq!(
        run.stdout.replace("\r\n", "\n"),
        "error: the terminal is 20 columns wide, and this chart needs 21\nhint: widen the terminal to 21 columns, or pick another format, e.g. --format table\n"
    );
    env.cmd_args(&args).terminal_columns(21).run();
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

#[test]
fn limits_say_the_bound_that_was_crossed() {
    let stub = Stub::always(Reply::json(200, "[]"));
    let env = Env::with_service(&stub.url);
    let cases: [(&[&str], &str); 4] = [
        (&["--last", "0"], "error: invalid value '0' for '--last <N>': '0' is zero days: --last takes at least 1 day"),
        (&["--last", "99999999999"], "error: invalid value '99999999999' for '--last <N>': '99999999999' is more than 100 years: --last takes at most 36600 days"),
        (&["--last", "2", "--timeout", "1e-10"], "error: invalid value '1e-10' for '--timeout <SECS>': '1e-10' is less than 0.001 seconds (a millisecond), the shortest wait"),
        (&["--last", "2", "--timeout", "soon"], "error: invalid value 'soon' for '--timeout <SECS>': 'soon' is not a number of seconds"),
    ];
    for (args, line) in cases {
        env.cmd_args(&[&["fees", "-c", "eth"][..], args].concat())
            .code(2)
            .error_line(line)
            .run();
    }
    assert!(stub.seen().is_empty(), "a usage error sent a request");
}

#[test]
fn an_empty_key_variable_and_a_wrong_kind_in_the_config_file_are_named() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", "https://metrics.example")
        .set("CHAIN_METRICS_API_KEY", "");
    let fees = ["fees", "-c", "eth", "--last", "2"];
    env.cmd_args(&fees)
        .code(3)
        .error_line("error: CHAIN_METRICS_API_KEY is set but empty, and no other API key is set")
        .run();

    env.cmd("auth status")
        .code(3)
        .error_line("error: CHAIN_METRICS_API_KEY is set but empty, and no other API key is set")
        .run();

    let path = env.config_path();
    let cases = [
        (
            "retries = 1e11",
            "line 1: retries: expected a whole number from 0 to 100, found floating point `1e11`",
        ),
        (
            "timeout = \"abc\"",
            "line 1: timeout: expected a number of seconds from 0.001 to 86400, found a string",
        ),
        (
            "[profiles.p]\nallow_http = 1",
            "line 2: allow_http: expected true or false, found integer `1`",
        ),
    ];
    for (text, why) in cases {
        env.write_config(&format!("{text}\n"));
        let line = format!("error: config file {}: {why}", path.display());
        env.cmd_args(&fees).code(3).error_line(line.as_str()).run();
    }
}
