//! Pictures stay light: 90 days of six chains as an SVG at most 250 KB (a value is written
//! once, in its hover column; a dot is a point of one path); a decade of every chain as an SVG
//! at most 2 MB (the marks are thinned to the plot's width and drawn by relative steps, the
//! hover columns hold a month of days each), and its page at most 2 MB, as issue 42 asks, its
//! table still holding every value, a folded table per year with a row per date. The page
//! holds each value twice, in its table and under the pointer: the table is 0.8 MB, the hover
//! 0.8 MB. Size is deterministic (time is not, and is measured in BENCHMARKS.md, never here).

use super::{dated_env, drawn, table_rows};

const MAX_SVG: u64 = 2_000_000;
const MAX_PAGE: u64 = 2_000_000;

#[test]
fn ninety_days_of_six_chains_is_at_most_250_kb_as_svg() {
    let env = drawn("--sandbox report -c all -e 2024-03-31 --last 90 -o d90.svg");
    let size = std::fs::metadata(env.home.path().join("d90.svg"))
        .unwrap()
        .len();
    assert!(size <= 250_000, "{size} bytes");
}

#[test]
fn a_decade_of_every_chain_stays_light_with_every_value_in_the_table() {
    let env = dated_env();
    let decade = "--sandbox report -c all -s 2015-01-01 -e 2024-12-31";
    // On a log scale every daily zero of the social counts is left out: the page counts them
    // past a few a chain, rather than listing ten years of them.
    for (name, scale) in [
        ("ten.svg", ""),
        ("ten.html", ""),
        ("log.html", "--scale log"),
    ] {
        env.cmd(&format!("{decade} {scale} -o {name}"))
            .any_stderr()
            .run();
        let size = std::fs::metadata(env.home.path().join(name)).unwrap().len();
        let most = match name.ends_with(".svg") {
            true => MAX_SVG,
            false => MAX_PAGE,
        };
        assert!(size <= most, "{name}: {size} bytes");
    }
    let csv = env.cmd(&format!("{decade} -f csv")).any_stderr().run();
    let rows: Vec<Vec<String>> = (csv.stdout.lines().skip(1))
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect();
    assert_eq!(rows.len(), 3653 * 6);
    let log = std::fs::read_to_string(env.home.path().join("log.html")).unwrap();
    assert!(log.contains("<li>ETHEREUM reply: 2055 values are left out of the chart, zero or below on a log scale: 2015-01-01 (0), 2015-01-08 (0), 2015-01-10 (0) and 2052 more (the table shows them)</li>"));
    let page = std::fs::read_to_string(env.home.path().join("ten.html")).unwrap();
    assert_eq!(page.matches("<details>\n<summary>").count(), 10);
    assert!(page.contains("<summary>2016: 2196 rows</summary>"));
    assert_eq!(table_rows(&page), rows);
}
