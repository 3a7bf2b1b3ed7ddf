//! Hover per date, without a script: each panel has a transparent column per date whose
//! `<title>` lists every chain's exact value of that date, a gap as `no value`.

use super::{browser, hover_columns, panels, report_file, sandbox, CHAINS};

#[test]
fn each_date_has_a_column_listing_every_chains_value() {
    let (_sandbox, env) = sandbox();
    let svg = report_file(&env, "report.svg");
    let dom = browser::open(&svg, &["--dump-dom"]);
    assert_eq!(dom.console(), Vec::<&str>::new());
    // 2024-01-01 to 2024-03-31 by week: 13 weeks.
    for (metric, panel) in panels(&dom.stdout) {
        let columns = hover_columns(&panel);
        assert_eq!(columns.len(), 13, "{metric}");
        for column in &columns {
            for (chain, _) in CHAINS {
                assert!(column.contains(&format!("\n{chain}")), "{metric}: {column}");
            }
        }
        let gap = format!("<title>week of 2024-02-05: {metric}\n");
        let gap = columns.iter().find(|c| c.contains(&gap)).unwrap();
        assert!(gap.contains("\nBASE: no value"), "{gap}");
    }
}
