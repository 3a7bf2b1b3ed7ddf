//! The official account's counts (0 to a few dozen, six chains) as small multiples: in each
//! social panel a strip per chain, named, one above the other on one shared scale, under one
//! hover column per date that still lists every chain; fees and users keep one plot.

use super::{browser, dot_ys, figures, hover_columns, panels, report_file, sandbox, CHAINS};

/// The strip names of a panel, top to bottom.
fn strip_names(panel: &str) -> Vec<&str> {
    panel
        .split("<text class=\"strip-name\"")
        .skip(1)
        .map(|t| t.split('>').nth(1).unwrap().split('<').next().unwrap())
        .collect()
}

/// Checks one picture's panels: strips for the social counts, one plot for the others.
fn check_strips(markup: &str) {
    let chains: Vec<&str> = CHAINS.iter().map(|(c, _)| *c).collect();
    for (metric, panel) in panels(markup) {
        if ["fees", "active_users_avg"].contains(&metric.as_str()) {
            assert!(strip_names(&panel).is_empty(), "{metric} drawn in strips");
            continue;
        }
        assert_eq!(strip_names(&panel), chains, "{metric}");
        // Each chain in its own band, in the legend's order, top to bottom.
        let bands: Vec<(f64, f64)> = chains
            .iter()
            .map(|c| {
                let ys = dot_ys(&panel, c);
                (
                    ys.iter().copied().fold(f64::MAX, f64::min),
                    ys.iter().copied().fold(0.0, f64::max),
                )
            })
            .collect();
        for pair in bands.windows(2) {
            assert!(pair[0].1 < pair[1].0, "{metric}: strips overlap {bands:?}");
        }
        // One scale for every strip: the same labels, zero and the top, six times.
        let labels: Vec<&str> = panel
            .split("text-anchor=\"end\">")
            .skip(1)
            .map(|t| t.split('<').next().unwrap())
            .collect();
        assert_eq!(labels.len(), 2 * chains.len(), "{metric}: {labels:?}");
        assert!(labels.chunks(2).all(|c| c == &labels[..2]), "{labels:?}");
        assert_eq!(labels[0], "0");
        // One hover column per week over the whole stack, listing every chain.
        let columns = hover_columns(&panel);
        assert_eq!(columns.len(), 13, "{metric}");
        for column in columns {
            for chain in &chains {
                assert!(column.contains(&format!("\n{chain}")), "{metric}: {column}");
            }
        }
    }
}

#[test]
fn social_counts_are_small_multiples_a_strip_per_chain_in_svg_and_html() {
    let (_sandbox, env) = sandbox();
    for name in ["report.svg", "report.html"] {
        let page = report_file(&env, name);
        let dom = browser::open(&page, &["--dump-dom"]);
        assert_eq!(dom.console(), Vec::<&str>::new());
        check_strips(&dom.stdout);
        if name.ends_with(".html") {
            let social = figures(&dom.stdout)
                .into_iter()
                .find(|(id, _)| *id == "social")
                .expect("a social figure");
            assert_eq!(
                social.1.matches("<text class=\"strip-name\"").count(),
                4 * 6
            );
            assert!(social.1.contains("a strip per chain, all on one scale"));
        }
    }
}
