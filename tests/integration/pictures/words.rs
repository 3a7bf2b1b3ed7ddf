//! The words of a picture are right: the page's notes hold every warning stderr printed, a
//! gap once for every metric it hits, a change's first period as "no previous value" (no
//! gap), one week as "the week of", percent values with `%`; a panel's note of values left out
//! stays inside the picture.

use std::path::Path;

use super::{browser, dated_env, drawn, picture, report_file, sandbox};
use crate::support::{Env, Reply, Sandbox, Stub};

/// The `<li>` notes of a page.
fn notes(page: &str) -> Vec<&str> {
    (page.split("<li>").skip(1))
        .map(|l| l.split("</li>").next().unwrap())
        .collect()
}

#[test]
fn the_notes_hold_the_change_warning_and_a_first_change_is_no_gap() {
    let env = dated_env();
    let run = env
        .cmd("--sandbox fees -c eth,base -s 2024-01-02 -e 2024-03-31 --by week --change -o c.html")
        .any_stderr()
        .run();
    let page = std::fs::read_to_string(env.home.path().join("c.html")).unwrap();
    let warnings: Vec<&str> = (run.stderr_lines("warning: ").into_iter())
        .map(|l| l.strip_prefix("warning: ").unwrap())
        .collect();
    assert_eq!(warnings.len(), 1, "{}", run.stderr);
    for warning in warnings {
        assert!(
            notes(&page).contains(&warning),
            "{warning} not in the notes"
        );
    }
    assert!(notes(&page).contains(
        &"ETHEREUM fees_change, BASE fees_change, ETHEREUM fees_change_pct, BASE fees_change_pct: no previous value to change from for the week of 2024-01-01 (not a gap)"
    ));
    assert!(
        !page.contains("a gap, not zero"),
        "a first change called a gap"
    );
    assert!(page.contains("<title>week of 2024-01-01: fees_change_pct\nETHEREUM: no previous value\nBASE: no previous value</title>"));
    // A percent says so, in the hover as on the axis.
    let week = page
        .split("<title>week of 2024-01-08: fees_change_pct\n")
        .nth(1)
        .unwrap();
    let week = week.split("</title>").next().unwrap();
    assert!(week.lines().all(|l| l.ends_with('%')), "{week}");
}

#[test]
fn a_gap_is_one_note_for_every_metric_it_hits_and_one_week_is_singular() {
    let (_sandbox, env) = sandbox();
    let page = std::fs::read_to_string(report_file(&env, "report.html")).unwrap();
    let gaps: Vec<&str> = notes(&page)
        .into_iter()
        .filter(|n| n.contains("a gap, not zero"))
        .collect();
    assert_eq!(
        gaps,
        ["BASE fees, active_users_avg, reply, retweet, tweet, quote: no value for the weeks of 2024-02-05 and 2024-02-12 (a gap, not zero)"]
    );
    let one = Sandbox::start(&["--fault", "gap:base:2024-02-05..2024-02-11"]);
    let env = Env::with_service(&one.url);
    let page = picture(
        &env,
        "fees -c eth,base -s 2024-01-01 -e 2024-03-31 --by week",
        "one.html",
    );
    assert!(
        notes(&page).contains(&"BASE fees: no value for the week of 2024-02-05 (a gap, not zero)")
    );
}

/// The right edge of every `text.left-out` of the picture, as Chromium lays it out.
const MEASURE: &str = r#"<script>
const out = document.createElement('pre'); out.id = 'measure';
const svg = document.querySelector('svg');
const width = svg.viewBox.baseVal.width;
out.textContent = [...document.querySelectorAll('SELECTOR')].map(t => { const b = t.getBBox(); return (b.x + b.width).toFixed(0) + '/' + width; }).join('\n');
document.body.append(out);
</script>"#;

/// The right edges of the left-out notes of an svg file, with the picture's width.
fn left_out_edges(svg: &Path) -> Vec<(f64, f64)> {
    text_edges(svg, "text.left-out")
}

/// The right edges of the texts `selector` finds in an svg file, with the picture's width.
fn text_edges(svg: &Path, selector: &str) -> Vec<(f64, f64)> {
    let markup = std::fs::read_to_string(svg).unwrap();
    let page = format!(
        "<!DOCTYPE html><html><head><title>measure</title></head><body>{}{}</body></html>",
        markup.split_once("?>\n").unwrap().1,
        MEASURE.replace("SELECTOR", selector)
    );
    let wrapped = svg.with_extension("measure.html");
    std::fs::write(&wrapped, page).unwrap();
    let dom = browser::open(&wrapped, &["--dump-dom"]);
    let report = dom.stdout.split("<pre id=\"measure\">").nth(1).unwrap();
    (report.split("</pre>").next().unwrap().lines())
        .map(|l| {
            let (right, width) = l.split_once('/').unwrap();
            (right.parse().unwrap(), width.parse().unwrap())
        })
        .collect()
}

#[test]
fn a_long_left_out_note_stays_inside_the_picture() {
    // A year of daily posts on a log scale: hundreds of zeros left out in every social panel.
    let env = drawn("--sandbox report -c all -s 2024-01-01 -e 2024-03-31 --scale log -o log.svg");
    let edges = left_out_edges(&env.home.path().join("log.svg"));
    assert!(!edges.is_empty());
    for (right, width) in edges {
        assert!(right <= width, "a note ends at {right} of {width}");
    }
}

#[test]
fn a_long_provenance_is_cut_into_lines_inside_the_picture() {
    // A service under a long path, and an export of it with a long name, drawn again: the
    // line saying where the data came from is longer than the picture is wide.
    let stub = Stub::always(Reply::json(200, r#"[{"date":"2024-01-02","fees":1}]"#));
    let prefix = "chain-metrics-mirror-of-the-production-service/v2";
    let mut env = Env::with_service(&format!("{}/{prefix}/", stub.url));
    env.set("SOURCE_DATE_EPOCH", "1700000000");
    let name = "fees-of-ethereum-and-arbitrum-for-the-quarterly-report.csv";
    env.cmd(&format!(
        "fees -c eth,arb -s 2024-01-02 -e 2024-01-02 -o {name}"
    ))
    .run();
    env.cmd(&format!("render {name} -o r.svg")).run();
    let svg = env.home.path().join("r.svg");
    let markup = std::fs::read_to_string(&svg).unwrap();
    assert!(
        markup.matches("<text class=\"source\"").count() > 1,
        "{markup}"
    );
    let edges = text_edges(&svg, "text.source");
    for (right, width) in edges {
        assert!(right <= width, "the source ends at {right} of {width}");
    }
}

#[test]
fn a_percent_says_so_in_the_values_table_and_the_terminal_chart() {
    let env = dated_env();
    let query = "--sandbox fees -c eth,base -s 2024-01-01 -e 2024-03-31 --by week --change";
    env.cmd(&format!("{query} --summary -o c.html"))
        .any_stderr()
        .run();
    let page = std::fs::read_to_string(env.home.path().join("c.html")).unwrap();
    let values = page.split("<section id=\"values\">").nth(1).unwrap();
    // Each row's last cell is fees_change_pct: a percent, or empty (no previous value).
    let rows: Vec<&str> = (values.lines())
        .filter(|l| l.starts_with("<tr>") && l.contains("<td>"))
        .collect();
    assert!(rows.len() > 20, "{values}");
    for row in rows {
        let last = row.rsplit("<td>").next().unwrap();
        assert!(last.is_empty() || last.ends_with('%'), "{row}");
    }
    assert!(
        values.contains("<tr><th scope=\"row\">mean<th>ETHEREUM<td>"),
        "{values}"
    );
    let chart = env
        .cmd(&format!("{query} -f chart"))
        .any_stdout()
        .any_stderr()
        .run();
    let percent = chart.stdout.split("fees_change_pct\n").nth(1).unwrap();
    let labels: Vec<&str> = (percent.lines())
        .filter_map(|l| l.split_once(" +").map(|(label, _)| label.trim()))
        .filter(|label| !label.is_empty())
        .collect();
    assert!(labels.len() > 2, "{percent}");
    assert!(labels.iter().all(|l| l.ends_with('%')), "{labels:?}");
}

#[test]
fn a_percent_left_out_says_so_in_the_notes_the_svg_and_the_chart() {
    // 1, 2, then 1e300: a change of 100 %, then one of about 5e301 %, past what a picture
    // places.
    let body = r#"[{"date":"2024-01-02","fees":1},{"date":"2024-01-03","fees":2},
        {"date":"2024-01-04","fees":1e300}]"#;
    let stub = Stub::always(Reply::json(200, body));
    let env = Env::with_service(&stub.url);
    let range = "-c eth -s 2024-01-02 -e 2024-01-04";
    env.cmd(&format!("fees --change -o c.html {range}"))
        .any_stderr()
        .run();
    env.cmd(&format!("fees --change -o c.svg {range}"))
        .any_stderr()
        .run();
    let page = std::fs::read_to_string(env.home.path().join("c.html")).unwrap();
    let note = (notes(&page).into_iter())
        .find(|n| n.starts_with("ETHEREUM fees_change_pct of 2024-01-04: "))
        .unwrap_or_else(|| panic!("{page}"));
    assert!(
        note.contains("…% (") && note.contains(" digits) is left out"),
        "{note}"
    );
    let svg = std::fs::read_to_string(env.home.path().join("c.svg")).unwrap();
    let panel = svg.split("data-metric=\"fees_change_pct\"").nth(1).unwrap();
    assert!(
        panel.contains(">left out, too large to draw: ETHEREUM 2024-01-04 ("),
        "{panel}"
    );
    assert!(
        panel.contains("…% (") && panel.contains("\nETHEREUM 100.00%</title>"),
        "{panel}"
    );
    let chart = env.cmd(&format!("fees --change -f chart {range}"));
    let chart = chart.any_stdout().any_stderr().run().stdout;
    let line = (chart.lines())
        .find(|l| l.contains("ETHEREUM.fees_change_pct of 2024-01-04 ("))
        .unwrap_or_else(|| panic!("{chart}"));
    assert!(line.contains("…% ("), "{line}");
}
