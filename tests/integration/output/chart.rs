//! The terminal chart (`-f chart`): axes, dates spaced by time, legends, colour, exact labels,
//! and the width of the terminal.

use crate::support::{argv, made_line, sandbox_env, Env, Reply, Sandbox, Stub};

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
        .stdout(format!(
            "\
40 +                  **
   |                ***
   |              ***                                   ooooooooo
30 +           ****                                 ooooo       oooooo   *******
   |         ***                                ooooo       *********ooooo
   |       ***                              ooooo           *            ooooo
20 +     ***                       oooooooooo                                ooo
   |   ***             ooooooooooooo
   | ***         ooooooo
10 +**    oooooooo
   |ooooooo
   |o
 0 +
   ++------------------+------------------+-----------------+------------------+
    2024-01-01    2024-01-02         2024-01-03        2024-01-04     2024-01-05
    * ETHEREUM   o ARBITRUM
ETHEREUM, ARBITRUM · 2024-01-01 to 2024-01-05 · by day
data from {}
{}
",
            stub.url,
            made_line()
        ))
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
        .stdout(format!(
            "\
6 +
  |
  |        *
  |       **
4 +      **
  |     **
  |    **                                                                      *
  |   **
2 +  **
  | **
  |**
  |
0 +
  ++----------------+----------------+----------------+----------------+--------
   2024-01-01  2024-01-03       2024-01-05       2024-01-07       2024-01-09
   * ETHEREUM
ETHEREUM · 2024-01-01 to 2024-01-10 · by day · data from {}
{}
",
            stub.url,
            made_line()
        ))
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
            let provenance = l.starts_with("synthetic data from ") || l.starts_with("made ");
            let heading = heading && !l.contains(" · ") && !provenance;
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
        plain.stdout.ends_with(&format!(
            "* ETHEREUM   o ARBITRUM\nETHEREUM, ARBITRUM · 2024-01-01 to 2024-01-09 · by day\n\
            synthetic data from the sandbox at {}\n{}\n",
            sandbox.url,
            made_line()
        )),
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
        .stdout(format!(
            "\
3e25 +
     |
     |                                  *********
     |                          *********       ****************
2e25 +                   ********                              ****************
     |            ********                                                    **
     |    *********
     |*****
1e25 +
     |
     |
     |
   0 +
     ++------------------------------------+-----------------------------------+
      2024-01-01                      2024-01-02                      2024-01-03
      * ETHEREUM
ETHEREUM · 2024-01-01 to 2024-01-03 · by day · data from {}
{}
",
            stub.url,
            made_line()
        ))
        .run();
    // Each label is a round value from zero, with no digits made up past what an f64 holds;
    // past the trillions, in powers of ten (as a log axis is), so that the plot keeps its room.
}

#[test]
fn chart_fits_a_narrow_terminal_or_says_it_cannot() {
    let (sandbox, env) = sandbox_env(&[]);
    let args = argv("users -c eth -s 2024-01-01 -e 2024-01-09 -f chart --color never");
    let run = env.cmd_args(&args).terminal_columns(32).run();
    let shown = run.stdout.replace("\r\n", "\n");
    assert_eq!(
        shown,
        format!(
            "\
600k +
     |
     |
     | **********           *
400k +**        ****       *****
     |             ****  ***
     |                ****
     |
200k +
     |
     |
     |
   0 +
     ++---------------------+---
      2024-01-01      2024-01-08
      * ETHEREUM
ETHEREUM
2024-01-01 to 2024-01-09
by day
synthetic data from the sandbox at {}
{}
",
            sandbox.url,
            made_line()
        )
    );
    // Every line of the chart fills the terminal, none more; the provenance wraps between
    // its parts (the service's address is one).
    let chart = shown
        .lines()
        .filter(|l| !l.starts_with("synthetic data from ") && !l.starts_with("made "));
    assert_eq!(chart.map(str::len).max(), Some(32));
    // Labels of 4 (`600k`) and the narrowest plot, of 12, need 18 columns.
    let run = env.cmd_args(&args).terminal_columns(17).code(2).run();
    assert_eq!(
        run.stdout.replace("\r\n", "\n"),
        "error: the terminal is 17 columns wide, and this chart needs 18\nhint: widen the terminal to 18 columns, or pick another format, e.g. --format table\n"
    );
    env.cmd_args(&args).terminal_columns(18).run();
}

/// `text` without its colour sequences (`ESC [ ... m`).
pub(super) fn uncoloured(text: &str) -> String {
    let mut out = String::new();
    let mut in_sequence = false;
    for c in text.chars() {
        match (in_sequence, c) {
            (false, '\x1b') => in_sequence = true,
            (false, _) => out.push(c),
            (true, 'm') => in_sequence = false,
            (true, _) => {}
        }
    }
    out
}

/// The value labels of a chart's rows (`8M`, `600k`, `2,000`, `0`), top first, as numbers.
fn value_labels(text: &str) -> Vec<f64> {
    let number = |label: &str| -> f64 {
        let (digits, size) = match label.chars().last() {
            Some('k') => (&label[..label.len() - 1], 1e3),
            Some('M') => (&label[..label.len() - 1], 1e6),
            Some('B') => (&label[..label.len() - 1], 1e9),
            _ => (label, 1.0),
        };
        digits.replace(',', "").parse::<f64>().unwrap() * size
    };
    text.lines()
        .take_while(|l| !l.contains("+--"))
        .filter_map(|l| l.split_once(" +").map(|(label, _)| label.trim()))
        .filter(|label| !label.is_empty())
        .map(number)
        .collect()
}

/// Whether `labels` (top first) step down evenly to 0 by 1, 2 or 5 times a power of ten.
fn round_from_zero(labels: &[f64]) -> bool {
    let step = labels[0] - labels[1];
    let power = 10f64.powf(step.log10().floor());
    let round = [1.0, 2.0, 5.0]
        .iter()
        .any(|m| (step / power - m).abs() < 1e-9);
    let even = labels
        .windows(2)
        .all(|w| (w[0] - w[1] - step).abs() < step * 1e-9);
    round && even && labels.last() == Some(&0.0)
}

/// The dates under a chart's axis.
fn date_labels(text: &str) -> Vec<chrono::NaiveDate> {
    let lines: Vec<&str> = text.lines().collect();
    let axis = lines.iter().position(|l| l.contains("+--")).unwrap();
    let words = lines[axis + 1].split_whitespace();
    words.map(|w| w.parse().unwrap()).collect()
}

/// Each chain's colour, as the chart paints its line.
const CHAIN_COLOURS: [(&str, &str); 6] = [
    ("ETHEREUM", "34"),
    ("ARBITRUM", "33"),
    ("BSC", "32"),
    ("OPTIMISM", "31"),
    ("BASE", "36"),
    ("POLYGON", "35"),
];

#[test]
fn chart_on_a_terminal_reads_like_the_svg_at_80_by_24_and_200_by_50() {
    use chrono::{Datelike, Weekday};
    let query = "--sandbox fees -c all --by week -s 2024-01-01 -e 2024-03-31 -f chart -q";
    for (columns, rows) in [(80, 24), (200, 50)] {
        // Plain marks (no UTF-8 locale) and braille, each chain in its colour.
        for locale in ["C", "C.UTF-8"] {
            let mut env = Env::new();
            env.set("LANG", locale);
            let run = env.cmd(query).terminal_size(columns, rows).run();
            let shown = run.stdout.replace("\r\n", "\n");
            let text = uncoloured(&shown);
            let at = format!("{columns}x{rows}, LANG={locale}:\n{text}");
            assert!(
                text.lines().all(|l| l.chars().count() <= columns as usize),
                "{at}"
            );
            // Round value labels, from zero.
            let labels = value_labels(&text);
            assert!(
                labels.len() >= 3 && round_from_zero(&labels),
                "{labels:?} {at}"
            );
            // Dates on period starts: Mondays (or months' first days), evenly spaced, the first
            // one too (the range starts on a Monday, 2024-01-01).
            let dates = date_labels(&text);
            assert!(dates.len() >= 3, "{at}");
            let mondays = dates.iter().all(|d| d.weekday() == Weekday::Mon);
            let firsts = dates.iter().all(|d| d.day() == 1);
            assert!(mondays || firsts, "{dates:?} {at}");
            if mondays {
                let gaps: Vec<i64> = dates.windows(2).map(|w| (w[1] - w[0]).num_days()).collect();
                assert!(gaps.iter().all(|g| *g == gaps[0]), "{gaps:?} {at}");
            }
            // Every chain shows in the plot (OPTIMISM and POLYGON lie on the zero line, as do
            // ARBITRUM and BASE, each under another): in its colour, with its mark.
            let plot: Vec<&str> = shown.lines().take_while(|l| !l.contains("+--")).collect();
            let plot = plot.join("\n");
            for (chain, colour) in CHAIN_COLOURS {
                assert!(
                    plot.contains(&format!("\x1b[{colour}m")),
                    "{chain} is hidden: {at}"
                );
            }
            if locale == "C" {
                for mark in ['*', 'o', 'x', '#', '@', '%'] {
                    assert!(uncoloured(&plot).contains(mark), "{mark} is hidden: {at}");
                }
            }
            // Under the chart: what was asked and that the data is synthetic.
            let tail: String = text
                .lines()
                .skip_while(|l| !l.starts_with("ETHEREUM, ARBITRUM"))
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                tail.contains("2024-01-01 to 2024-03-31")
                    && tail.contains("by week")
                    && tail.contains("synthetic data from the built-in sandbox")
                    && tail.ends_with(&made_line()),
                "{at}"
            );
        }
    }
}

#[test]
fn counts_are_labelled_on_whole_numbers_one_chart_per_social_count() {
    let mut env = Env::new();
    env.set("LANG", "C");
    let query = "--sandbox social -c eth,arb -s 2024-01-01 -e 2024-01-10 -f chart -q";
    let run = env.cmd(query).terminal_size(80, 24).run();
    let text = uncoloured(&run.stdout.replace("\r\n", "\n"));
    // A small chart for each count, headed by its name, each with a round axis from zero.
    let charts: Vec<&str> = text.split("\n\n").collect();
    let headings: Vec<&str> = charts.iter().filter_map(|c| c.lines().next()).collect();
    assert_eq!(headings, ["reply", "retweet", "tweet", "quote"], "{text}");
    for chart in charts {
        // Small multiples: 7 rows of plot each.
        let plot = chart.lines().skip(1).take_while(|l| !l.contains("+--"));
        assert_eq!(plot.count(), 7, "{chart}");
        let labels = value_labels(chart.split_once('\n').unwrap().1);
        assert!(round_from_zero(&labels), "{labels:?}: {chart}");
        assert!(
            labels.iter().all(|l| l.fract() == 0.0),
            "{labels:?}: {chart}"
        );
    }
}
