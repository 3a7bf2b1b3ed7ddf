//! One rule for values no picture can draw (beyond the number bound, or beyond what a float
//! can place): the terminal chart, the SVG and the HTML page leave them out and list them as
//! left out, with their date and text, and never call them gaps; the run succeeds.

use crate::analysis::number_bound::{hostile, service_env, RANGE};

/// Why a picture leaves a hostile value out: an exponent no axis reaches, so far below zero
/// that the value is too small (`1e-999999999` is no large value), or above; or too many
/// digits.
fn why(value: &str) -> &'static str {
    match (value.contains("e-"), value.contains('e')) {
        (true, _) => "too small to draw",
        (false, true) => "beyond the axis",
        (false, false) => "too large to draw",
    }
}

/// How a picture names a left-out value: its text, cut when long.
fn shown(value: &str) -> String {
    match value.len() > 40 {
        true => "12345678901234567890… (800000 digits)".to_owned(),
        false => value.to_owned(),
    }
}

#[test]
fn the_chart_leaves_out_every_value_it_cannot_draw_and_exits_0() {
    for (value, _) in hostile() {
        let (_stub, env) = service_env(&value);
        let run = env.cmd(&format!("fees -f chart {RANGE}")).run();
        let line = format!(
            "\nleft out, {}: ETHEREUM of 2024-01-03 ({})\n",
            why(&value),
            shown(&value)
        );
        // The provenance line closes the chart.
        let last = format!("{line}ETHEREUM · ");
        assert!(run.stdout.contains(&last), "{}", run.stdout);
    }
}

#[test]
fn svg_and_html_list_what_they_leave_out_and_call_it_no_gap() {
    for (value, _) in hostile() {
        let (_stub, env) = service_env(&value);
        env.cmd(&format!("fees -o fees.svg {RANGE}")).run();
        env.cmd(&format!("fees -o fees.html {RANGE}")).run();
        let svg = std::fs::read_to_string(env.home.path().join("fees.svg")).unwrap();
        let line = format!(
            "left out, {}: ETHEREUM 2024-01-03 ({})</text>",
            why(&value),
            shown(&value)
        );
        assert!(svg.contains(&line), "{}", &svg[..svg.len().min(3000)]);
        assert!(!svg.contains("gap"));
        let html = std::fs::read_to_string(env.home.path().join("fees.html")).unwrap();
        let note = format!(
            "<li>ETHEREUM fees of 2024-01-03: {} is left out of the chart, {} (the table shows it)</li>",
            shown(&value),
            why(&value)
        );
        assert!(html.contains(&note), "no note {note}");
        assert!(!html.contains("a gap"));
    }
}

#[test]
fn a_value_too_small_for_a_float_is_too_small_on_a_log_axis_not_zero() {
    let (_stub, env) = service_env("1e-400");
    env.cmd(&format!("fees --scale log -o fees.svg {RANGE}"))
        .run();
    let svg = std::fs::read_to_string(env.home.path().join("fees.svg")).unwrap();
    assert!(svg.contains(
        ">left out, too small to draw on a log scale: ETHEREUM 2024-01-03 (1e-400)</text>"
    ));
    assert!(!svg.contains("zero or below"));
}
