//! `--scale log`: chains 10-50 times smaller than ETHEREUM get their shape back on value axes
//! in powers of ten (checked in Chromium's DOM and screenshot), a value at zero is left out
//! and listed, a change stays linear and says so, and a format with no value axis refuses it.

use super::{
    assert_every_chain_drawn, browser, dot_ys, dots, drawn_panels, panels, report_file, sandbox,
    value_labels,
};
use crate::analysis::number_bound::{service_env, RANGE};

/// Where POLYGON's fees lie between the plot's bottom (0) and its top (1), at their highest.
fn polygon_height(markup: &str) -> f64 {
    let fees = &panels(markup)[0];
    assert_eq!(fees.0, "fees");
    let grid: Vec<f64> = fees
        .1
        .split("<line class=\"")
        .skip(1)
        .filter(|l| l.starts_with("grid") || l.starts_with("zero"))
        .map(|l| l.split("y1=\"").nth(1).unwrap().split('"').next().unwrap())
        .map(|y| y.parse().unwrap())
        .collect();
    let (bottom, top) = (grid[0], grid[grid.len() - 1]);
    let highest = dot_ys(&fees.1, "POLYGON")
        .into_iter()
        .fold(f64::MAX, f64::min);
    (bottom - highest) / (bottom - top)
}

#[test]
fn a_log_scale_lifts_the_small_chains_off_zero_in_chromium() {
    let (_sandbox, env) = sandbox();
    let linear = report_file(&env, "linear.svg");
    let path = env.home.path().join("log.svg");
    super::report(&env, &["--scale", "log", "-o", path.to_str().unwrap()]);
    let dom = browser::open(&path, &["--dump-dom"]);
    assert_eq!(dom.console(), Vec::<&str>::new());
    let flat = polygon_height(&browser::open(&linear, &["--dump-dom"]).stdout);
    let lifted = polygon_height(&dom.stdout);
    assert!(flat < 0.05, "POLYGON's fees on a linear axis at {flat}");
    assert!(lifted > 0.25, "POLYGON's fees on a log axis at {lifted}");
    let powers = [
        "1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M", "1B",
    ];
    for (metric, panel) in panels(&dom.stdout) {
        assert!(
            panel.contains(">log scale</tspan>"),
            "{metric} does not say log scale"
        );
        let labels = value_labels(&panel);
        assert!(labels.len() >= 2, "{metric}: {labels:?}");
        assert!(
            labels.iter().all(|l| powers.contains(l)),
            "{metric}: {labels:?}"
        );
        assert!(
            !panel.contains("<line class=\"zero\""),
            "{metric}: a zero line"
        );
    }
    let (png, _) = browser::screenshot(&path, 960, 1500);
    assert_every_chain_drawn(&png, 200);
}

#[test]
fn a_zero_is_left_out_of_a_log_axis_and_listed_never_as_a_gap() {
    let (_stub, env) = service_env("0");
    env.cmd(&format!("fees --scale log -o fees.svg {RANGE}"))
        .run();
    env.cmd(&format!("fees --scale log -o fees.html {RANGE}"))
        .run();
    env.cmd(&format!("fees -o linear.svg {RANGE}")).run();
    let read = |name: &str| std::fs::read_to_string(env.home.path().join(name)).unwrap();
    let svg = read("fees.svg");
    assert!(
        svg.contains(">left out, zero or below on a log scale: ETHEREUM 2024-01-03 (0)</text>"),
        "{svg}"
    );
    assert!(svg.contains("\nETHEREUM 0 (left out: zero or below on a log scale)</title>"));
    assert!(!svg.contains("gap"));
    assert_eq!(dots(&svg).len(), 1, "only 2024-01-02 is drawn");
    let html = read("fees.html");
    assert!(html.contains("<li>ETHEREUM fees of 2024-01-03: 0 is left out of the chart, zero or below on a log scale (the table shows it)</li>"));
    assert!(!html.contains("a gap"));
    // On a linear axis zero is a value like any other.
    let linear = read("linear.svg");
    assert!(!linear.contains("left out"));
    assert_eq!(dots(&linear).len(), 2);
}

#[test]
fn a_change_stays_linear_under_a_log_scale_and_says_so() {
    let (panels, names) = drawn_panels(
        "fees -c eth,arb --change --scale log -s 2024-01-01 -e 2024-03-31 -o c.svg",
        "c.svg",
    );
    assert_eq!(names, ["fees", "fees_change", "fees_change_pct"]);
    assert!(panels[0].1.contains(">log scale</tspan>"));
    for (name, panel) in &panels[1..] {
        assert!(
            panel.contains(">linear scale: a change can be below zero</tspan>"),
            "{name}"
        );
        assert_eq!(panel.matches("<line class=\"zero\"").count(), 1, "{name}");
        assert!(value_labels(panel)[0].starts_with('-'), "{name}");
        assert!(!panel.contains("left out"), "{name}");
    }
}

#[test]
fn a_format_without_value_axes_refuses_a_log_scale_and_names_a_picture() {
    let (_sandbox, env) = sandbox();
    for (format, file) in [("chart", "chart.svg"), ("csv", "chart.svg")] {
        env.cmd(&format!("fees -c eth --last 3 --scale log -f {format}"))
            .code(2)
            .stdout("")
            .stderr(format!(
                "error: --scale log draws the value axes of a picture (svg and html), not of the {format} format\nhint: draw it as a picture: --format svg --output {file}\n"
            ))
            .run();
    }
    env.cmd("fees -c eth --last 3 --scale log -o f.md")
        .code(2)
        .stderr_contains("\nhint: draw it as a picture: --format svg --output f.svg\n")
        .run();
    assert!(!env.home.path().join("f.md").exists());
    env.cmd("fees -c eth --last 3 --scale log --format svg --output chart.svg")
        .run();
    env.cmd("fees -c eth --last 3 --scale LINEAR -f csv")
        .any_stdout()
        .run();
}

#[test]
fn the_ticks_of_a_log_axis_are_in_one_notation() {
    // From 1 to 1e18, or from 1e-8 to 1: past what the short labels reach (0.0001 to 100T),
    // every tick is `1eN`; within it, none is.
    for (value, powers) in [("1e18", true), ("1e-8", true), ("50000", false)] {
        let (_stub, env) = service_env(value);
        env.cmd(&format!("fees --scale log -o fees.svg {RANGE}"))
            .run();
        let svg = std::fs::read_to_string(env.home.path().join("fees.svg")).unwrap();
        let labels = value_labels(&panels(&svg)[0].1).join(" ");
        let is_power = |l: &str| {
            l.strip_prefix("1e").is_some_and(|e| {
                e.trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
            })
        };
        let labels: Vec<&str> = labels.split(' ').collect();
        assert!(labels.len() > 2, "{value}: {labels:?}");
        assert!(
            labels.iter().all(|l| is_power(l) == powers),
            "{value}: {labels:?}"
        );
    }
}
