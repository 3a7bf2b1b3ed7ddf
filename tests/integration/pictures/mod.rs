//! `svg` and `html` checked as a person would check them: the sandbox's report (every chain,
//! `--by week`, a gap) drawn, validated by `tidy`, rendered by `rsvg-convert` and by headless
//! Chromium, whose screenshots must show every chain's colour and whose console must stay quiet.

mod axes;
mod browser;
mod hints;
mod hit;
mod hover;
mod left_out;
mod log_scale;
mod partial;
mod per_day;
mod png;
mod print;
mod provenance;
mod render_choice;
mod render_file;
mod size;
mod social;
mod summary;
mod words;

use std::path::{Path, PathBuf};

use crate::support::{Env, Run, Sandbox};

/// BASE has no data for two whole ISO weeks: a gap in every BASE line.
const GAP: &str = "gap:base:2024-02-05..2024-02-18";
const REPORT: [&str; 9] = [
    "report",
    "-c",
    "all",
    "-s",
    "2024-01-01",
    "-e",
    "2024-03-31",
    "--by",
    "week",
];
/// The chains in SERVICE.md's order, each with its line colour (Okabe and Ito's palette).
const CHAINS: [(&str, &str); 6] = [
    ("ETHEREUM", "#0072B2"),
    ("ARBITRUM", "#E69F00"),
    ("BSC", "#009E73"),
    ("OPTIMISM", "#D55E00"),
    ("BASE", "#56B4E9"),
    ("POLYGON", "#CC79A7"),
];

/// The sandbox with the gap, and an environment that talks to it.
fn sandbox() -> (Sandbox, Env) {
    let sandbox = Sandbox::start(&["--fault", GAP]);
    let mut env = Env::with_service(&sandbox.url);
    env.set("SOURCE_DATE_EPOCH", "1700000000");
    (sandbox, env)
}

/// An environment with no service and no key whose pictures carry a fixed time
/// (`SOURCE_DATE_EPOCH`): for `--sandbox` runs, and for `render`, where a request would fail.
fn dated_env() -> Env {
    let mut env = Env::new();
    env.set("SOURCE_DATE_EPOCH", "1700000000");
    env
}

/// `line` (a `--sandbox` query writing a picture) run in a `dated_env`, any stderr: the
/// environment, holding the picture.
fn drawn(line: &str) -> Env {
    let env = dated_env();
    env.cmd(line).any_stderr().run();
    env
}

/// `query` run in `env` with `-o name`, any stderr: the picture it wrote, as text.
fn picture(env: &Env, query: &str, name: &str) -> String {
    env.cmd(&format!("{query} -o {name}")).any_stderr().run();
    std::fs::read_to_string(env.home.path().join(name)).unwrap()
}

/// Runs the report with `extra` arguments; it succeeds, warning of the gap only (and a
/// picture hinting at `--scale log`: POLYGON's fees are about 1/60 of ETHEREUM's).
fn report(env: &Env, extra: &[&str]) -> Run {
    let args: Vec<&str> = REPORT.iter().chain(extra).copied().collect();
    let run = env.cmd_args(&args).any_stderr().run();
    let hint = "hint: OPTIMISM and POLYGON fees stay under 1/30 of the panel's top";
    assert!(
        (run.stderr.lines()).all(|l| l.starts_with("warning: BASE ") || l.starts_with(hint)),
        "{run:?}"
    );
    run
}

/// The report written to `name` in the environment's home (the extension picks the format).
fn report_file(env: &Env, name: &str) -> PathBuf {
    let path = env.home.path().join(name);
    report(env, &["-o", path.to_str().unwrap()]);
    path
}

/// The csv of the same query: header, then rows of cells.
fn csv_rows(env: &Env) -> (Vec<String>, Vec<Vec<String>>) {
    let run = report(env, &["-f", "csv"]);
    let mut lines = run
        .stdout
        .lines()
        .map(|l| l.split(',').map(str::to_owned).collect());
    (lines.next().unwrap(), lines.collect())
}

/// The metric columns of the csv: what gets a panel (not date, chain or days).
fn metrics(header: &[String]) -> Vec<&str> {
    header[3..].iter().map(String::as_str).collect()
}

/// `1234567.5` -> `1,234,567.5`, as the hover text writes numbers.
fn grouped(number: &str) -> String {
    let (whole, fraction) = number
        .split_once('.')
        .map_or((number, None), |(w, f)| (w, Some(f)));
    let mut out = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    fraction.map_or(out.clone(), |f| format!("{out}.{f}"))
}

/// The markup between `<g class="panel" data-metric="NAME">` and its end, panel by panel.
fn panels(markup: &str) -> Vec<(String, String)> {
    markup
        .split("<g class=\"panel\" data-metric=\"")
        .skip(1)
        .map(|part| {
            let (name, rest) = part.split_once('"').unwrap();
            (name.to_owned(), rest.to_owned())
        })
        .collect()
}

/// The value labels of a panel, from the bottom up.
fn value_labels(panel: &str) -> Vec<&str> {
    panel
        .split("text-anchor=\"end\">")
        .skip(1)
        .map(|t| t.split('<').next().unwrap())
        .collect()
}

/// The panels of the svg that `line` writes to `file` against a sandbox of its own, and their
/// names in order.
fn drawn_panels(line: &str, file: &str) -> (Vec<(String, String)>, Vec<String>) {
    let (_sandbox, env) = sandbox();
    env.cmd(line).run();
    let svg = std::fs::read_to_string(env.home.path().join(file)).unwrap();
    let panels = panels(&svg);
    let names = panels.iter().map(|(n, _)| n.clone()).collect();
    (panels, names)
}

/// The heights (SVG y, down from the top) of a chain's dots in a panel, in date order.
fn dot_ys(panel: &str, chain: &str) -> Vec<f64> {
    dots(series(panel, chain))
        .into_iter()
        .map(|(_, y)| y)
        .collect()
}

/// The dots of `markup`, left to right: hollow `<circle>`s (partial periods) and the points
/// (`Mx yh0`) of the paths of whole periods' dots.
fn dots(markup: &str) -> Vec<(f64, f64)> {
    let number = |text: &str, after: &str| -> f64 {
        let rest = text.split(after).nth(1).unwrap();
        rest.split('"').next().unwrap().parse().unwrap()
    };
    let mut dots: Vec<(f64, f64)> = (markup.split("<circle").skip(1))
        .map(|c| (number(c, "cx=\""), number(c, "cy=\"")))
        .collect();
    for path in markup.split("<path class=\"dots\"").skip(1) {
        let d = path
            .split("d=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        for point in d.split('M').skip(1) {
            let (x, y) = point.trim_end_matches("h0").split_once(' ').unwrap();
            dots.push((x.parse().unwrap(), y.parse().unwrap()));
        }
    }
    dots.sort_by(|a, b| a.0.total_cmp(&b.0));
    dots
}

/// A chain's series group in a panel, up to its end.
fn series<'p>(panel: &'p str, chain: &str) -> &'p str {
    let series = panel
        .split(&format!("<g class=\"series\" data-chain=\"{chain}\""))
        .nth(1)
        .unwrap_or_else(|| panic!("no line for {chain}"));
    series.split("</g>").next().unwrap()
}

/// The hover columns of a panel (one `<rect` each, with its `<title>`), in date order.
fn hover_columns(panel: &str) -> Vec<&str> {
    let hover = panel
        .split("<g class=\"hover\"")
        .nth(1)
        .expect("hover columns");
    hover
        .split("</g>")
        .next()
        .unwrap()
        .split("<rect")
        .skip(1)
        .collect()
}

/// The `M` (move) commands of a chain's path in a panel: one per unbroken stretch.
fn stretches(panel: &str, chain: &str) -> usize {
    let path = series(panel, chain)
        .split("<path d=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    path.matches('M').count()
}

/// Every chain's colour shows on enough pixels of a screenshot: no line went missing.
fn assert_every_chain_drawn(png: &[u8], least: usize) {
    let image = png::read(png);
    assert!(image.width > 0 && image.height > 0);
    assert!(
        image.distinct() > 20,
        "a blank picture: {} colours",
        image.distinct()
    );
    for (chain, colour) in CHAINS {
        let seen = image.count(colour);
        assert!(seen >= least, "{chain}'s {colour} on {seen} pixels only");
    }
}

#[test]
fn svg_has_a_panel_per_metric_a_line_per_chain_and_breaks_lines_at_the_gap() {
    let (_sandbox, env) = sandbox();
    let svg = std::fs::read_to_string(report_file(&env, "report.svg")).unwrap();
    let again = std::fs::read_to_string(report_file(&env, "again.SVG")).unwrap();
    assert_eq!(svg, again, "the same input gives the same bytes");
    assert!(svg.starts_with(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""
    ));
    for outside in ["<script", "href", "<image", "@import", "url("] {
        assert!(!svg.contains(outside), "{outside} in the svg");
    }
    // Whole weeks (the gap's weeks have no rows at all): nothing is drawn as partial.
    assert!(
        !svg.contains("class=\"partial\""),
        "a whole week drawn as partial"
    );
    let (header, rows) = csv_rows(&env);
    let panels = panels(&svg);
    let names: Vec<&str> = panels.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, metrics(&header));
    for (metric, markup) in &panels {
        for (chain, _) in CHAINS {
            let expected = if chain == "BASE" { 2 } else { 1 };
            assert_eq!(stretches(markup, chain), expected, "{chain} {metric}");
        }
    }
    let legend: Vec<&str> = CHAINS.iter().map(|(c, _)| *c).collect();
    let shown: Vec<&str> = svg
        .split("<g class=\"legend-entry\" data-chain=\"")
        .skip(1)
        .map(|p| p.split('"').next().unwrap())
        .collect();
    assert_eq!(shown, legend);
    // Every value of the csv is in the hover column of its date and metric, exactly, once:
    // a dot per value, and no dot has a title of its own.
    for row in &rows {
        for (metric, value) in metrics(&header).iter().zip(&row[3..]) {
            let head = format!("<title>week of {}: {metric}\n", row[0]);
            let column = svg
                .split(&head)
                .nth(1)
                .unwrap_or_else(|| panic!("no {head}"));
            let column = column.split("</title>").next().unwrap();
            let line = format!("{} {}", row[1], grouped(value));
            assert!(column.lines().any(|l| l == line), "{head}: no {line}");
        }
    }
    assert_eq!(dots(&svg).len(), rows.len() * metrics(&header).len());
    for (chain, _) in CHAINS {
        for (metric, markup) in &panels {
            assert!(
                !series(markup, chain).contains("<title>"),
                "{chain} {metric}"
            );
        }
    }
}

#[test]
fn svg_renders_with_rsvg_convert_and_shows_every_chain() {
    let (_sandbox, env) = sandbox();
    let svg = report_file(&env, "report.svg");
    let png = env.home.path().join("report.png");
    env.program(
        "rsvg-convert",
        &[svg.as_os_str(), "-o".as_ref(), png.as_os_str()],
    )
    .run();
    assert_every_chain_drawn(&std::fs::read(png).unwrap(), 200);
}

#[test]
fn html_is_valid_self_contained_and_holds_the_csv_values() {
    let (_sandbox, env) = sandbox();
    let page = report_file(&env, "report.html");
    env.program("tidy", &["-q".as_ref(), "-e".as_ref(), page.as_os_str()])
        .stdout("")
        .run();
    let html = std::fs::read_to_string(&page).unwrap();
    // The service's address is named as text (where the data came from), never fetched.
    let without_namespace: String = html
        .replace("xmlns=\"http://www.w3.org/2000/svg\"", "")
        .lines()
        .filter(|l| {
            !l.starts_with("<p id=\"source\" class=\"synthetic\">")
                && !l.contains("class=\"source\"")
        })
        .collect();
    for outside in [
        "http:", "https:", "<script", "src=", "href=", "@import", "url(",
    ] {
        assert!(
            !without_namespace.contains(outside),
            "{outside} in the page"
        );
    }
    assert!(html.contains("<p class=\"muted\">Made 2023-11-14 22:13 UTC by chain-metrics "));
    assert!(html.contains("@media (prefers-color-scheme: dark)") && html.contains("@media print"));
    let (header, rows) = csv_rows(&env);
    let head: String = header
        .iter()
        .map(|h| format!("<th scope=\"col\">{h}"))
        .collect();
    assert!(html.contains(&format!("<tr>{head}\n")));
    // Every csv row, in order, is a row of the table (its date written once for its chains).
    assert_eq!(table_rows(&html), rows);
    assert!(html.contains(
        "<li>BASE fees, active_users_avg, reply, retweet, tweet, quote: no value for the weeks of 2024-02-05 and 2024-02-12 (a gap, not zero)</li>"
    ));
    assert!(html
        .contains("<li>BASE fees, BASE active users, BASE official account: no data for 2024-02-05..2024-02-18 (left out, not zero)</li>"));
}

/// The rows of the page's tables as csv cells: a date cell (a `<th>` with attributes) stands
/// for the rows below it that have none; in a folded year's table (`by-date`) a row is a date
/// (its first cell) whose cells hold its chains' values a line each.
fn table_rows(html: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for table in html.split("<table").skip(1) {
        let stacked = table.starts_with(" class=\"by-date\">");
        let Some(body) = table.split("<tbody>\n").nth(1) else {
            continue;
        };
        let body = body.split("</tbody>").next().unwrap();
        let mut date = String::new();
        for row in body.split("<tr>").skip(1) {
            let mut cells = Vec::new();
            for (i, tag) in row.trim_end_matches('\n').split('<').skip(1).enumerate() {
                let (name, text) = tag.split_once('>').unwrap();
                if name.starts_with("th ") || (stacked && i == 0) {
                    date = text.to_owned();
                } else {
                    cells.push(text.to_owned());
                }
            }
            if !stacked {
                rows.push([vec![date.clone()], cells].concat());
                continue;
            }
            let columns: Vec<Vec<&str>> = cells.iter().map(|c| c.split('\n').collect()).collect();
            for k in 0..columns[0].len() {
                let line = columns
                    .iter()
                    .map(|c| c.get(k).copied().unwrap_or_default());
                rows.push([vec![date.clone()], line.map(str::to_owned).collect()].concat());
            }
        }
    }
    rows
}

/// Opens a page in Chromium: its DOM must hold every panel, line and legend entry and (for
/// the page) a figure per metric, each with its own legend, and every row of values; its
/// screenshot must show every chain; its console is quiet.
fn check_in_browser(page: &Path, rows: usize, metrics: usize) {
    let dom = browser::open(page, &["--dump-dom"]);
    assert_eq!(dom.console(), Vec::<&str>::new());
    assert_eq!(dom.stdout.matches("<g class=\"panel\"").count(), metrics);
    assert_eq!(
        dom.stdout.matches("<g class=\"series\"").count(),
        metrics * CHAINS.len()
    );
    let legends = match page.extension().is_some_and(|e| e == "html") {
        true => figures(&dom.stdout).len(),
        false => 1,
    };
    assert_eq!(
        dom.stdout.matches("<g class=\"legend-entry\"").count(),
        CHAINS.len() * legends
    );
    if page.extension().is_some_and(|e| e == "html") {
        let ids: Vec<&str> = figures(&dom.stdout).iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, ["fees", "active-users", "social"]);
        for (id, figure) in figures(&dom.stdout) {
            let entries = figure.matches("<g class=\"legend-entry\"").count();
            assert_eq!(entries, CHAINS.len(), "{id}'s legend");
            // The social counts an SVG each (one under the other), the first with the legend.
            let svgs = if id == "social" { metrics - 2 } else { 1 };
            assert_eq!(figure.matches("<svg ").count(), svgs, "{id}");
            assert!(figure.contains("<figcaption>"), "{id}");
        }
        let body = dom
            .stdout
            .split("<tbody>")
            .nth(1)
            .expect("the table of values");
        assert_eq!(body.matches("<tr>").count(), rows);
    }
    let (png, shot) = browser::screenshot(page, 1100, 1700);
    assert_eq!(shot.console(), Vec::<&str>::new());
    assert_every_chain_drawn(&png, 200);
}

/// The page's figures: each `<figure id="ID">`'s id and markup.
fn figures(html: &str) -> Vec<(&str, &str)> {
    html.split("<figure id=\"")
        .skip(1)
        .map(|part| {
            let (id, rest) = part.split_once('"').unwrap();
            (id, rest.split("</figure>").next().unwrap())
        })
        .collect()
}

#[test]
fn html_and_svg_open_in_chromium_with_every_chart_line_and_row() {
    let (_sandbox, env) = sandbox();
    let (header, rows) = csv_rows(&env);
    let metrics = metrics(&header).len();
    check_in_browser(&report_file(&env, "report.html"), rows.len(), metrics);
    check_in_browser(&report_file(&env, "report.svg"), rows.len(), metrics);
}

#[test]
fn the_console_check_sees_a_page_that_logs_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("broken.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><title>x</title><script>console.error('broken page')</script>",
    )
    .unwrap();
    let dom = browser::open(&page, &["--dump-dom"]);
    assert_eq!(dom.console().len(), 1, "{}", dom.stderr);
    assert!(dom.console()[0].contains("broken page"));
}
