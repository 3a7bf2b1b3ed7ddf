//! `--summary` in the HTML page: the total, mean, min and max rows the csv gets, as footer rows
//! under the table of values, read back from the page as Chromium shows it.

use super::browser;
use crate::support::sandbox_env;

const QUERY: &str = "fees -c eth,arb -s 2024-01-01 -e 2024-01-03 --summary";

#[test]
fn the_page_ends_its_values_with_the_summary_rows_the_csv_has() {
    let (_sandbox, env) = sandbox_env(&[]);
    let csv = env.cmd(&format!("{QUERY} -f csv")).run().stdout;
    let page = env.home.path().join("summary.html");
    env.cmd(&format!("{QUERY} -o {}", page.display())).run();
    let dom = browser::open(&page, &["--dump-dom"]).stdout;
    let footer = &dom[dom.find("<tfoot>").expect("a footer") + 7..dom.find("</tfoot>").unwrap()];
    // Each footer row as the csv writes it: statistic, chain, value.
    let shown: Vec<String> = footer
        .split("<tr>")
        .filter(|row| row.contains("<th"))
        .map(|row| {
            let cells: Vec<&str> = row
                .split(['<', '>'])
                .enumerate()
                .filter(|(i, _)| i % 2 == 0)
                .map(|(_, text)| text.trim())
                .filter(|text| !text.is_empty())
                .collect();
            cells.join(",")
        })
        .collect();
    let expected: Vec<&str> = csv
        .lines()
        .filter(|line| {
            ["total,", "mean,", "min,", "max,"]
                .iter()
                .any(|s| line.starts_with(s))
        })
        .collect();
    assert_eq!(expected.len(), 8, "{csv}");
    assert_eq!(shown, expected, "{footer}");
}
