//! The terminal chart (`-f chart`): axes, dates spaced by time, legends, colour, exact labels,
//! and the width of the terminal.

use crate::support::{argv, sandbox_env, Env, Reply, Sandbox, Stub};

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
    let (_sandbox, env) = sandbox_env(&[]);
    let run = env
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

#[test]
fn chart_colours_its_series_only_when_asked_and_never_with_no_color() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::with_service(&sandbox.url);
    let args = argv("users -c eth,arb -s 2024-01-01 -e 2024-01-09 -f chart");
    env.cmd_args(&[&args[..], &["--color", "always"]].concat())
        .stdout_contains("\x1b[34m*\x1b[0m ETHEREUM")
        .stdout_contains("\x1b[33mo\x1b[0m ARBITRUM")
        .run();
    // The colour follows the chain, not the order asked: ETHEREUM stays blue, ARBITRUM yellow.
    let swapped = argv("users -c arb,eth -s 2024-01-01 -e 2024-01-09 -f chart --color always");
    env.cmd_args(&swapped)
        .stdout_contains("\x1b[33m*\x1b[0m ARBITRUM")
        .stdout_contains("\x1b[34mo\x1b[0m ETHEREUM")
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

/// A stub with fees far beyond what an f64 holds exactly (wei-sized numbers).
fn huge_fees() -> Stub {
    Stub::always(Reply::json(
        200,
        r#"[{"date":"2024-01-01","fees":12345000000000000000000000},{"date":"2024-01-02","fees":24690000000000000000000000},{"date":"2024-01-03","fees":18517500000000000000000000}]"#,
    ))
}

const CHART: &str = "fees -c eth -s 2024-01-01 -e 2024-01-03 -f chart";

#[test]
fn chart_labels_show_no_float_artefacts() {
    let stub = huge_fees();
    Env::with_service(&stub.url)
        .cmd(CHART)
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
    let args = argv("users -c eth -s 2024-01-01 -e 2024-01-09 -f chart --color never");
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
