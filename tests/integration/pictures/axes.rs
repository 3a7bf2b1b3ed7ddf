//! Axes as analysts read them: the metric's name on each panel, `%` on a percent axis, short
//! labels (`1.5M`), a stronger zero line, dates on calendar boundaries with the last labelled.

use super::{drawn_panels, value_labels};

#[test]
fn percent_axes_say_so_large_values_are_short_and_zero_stands_out() {
    let (panels, names) = drawn_panels(
        "fees -c eth,arb --share -s 2024-01-01 -e 2024-03-31 -o s.svg",
        "s.svg",
    );
    assert_eq!(names, ["fees", "fees_share_pct"]);
    for (name, panel) in &panels {
        assert!(panel.contains("<text class=\"metric\" x=\""), "{name}");
        assert_eq!(panel.matches("<line class=\"zero\"").count(), 1, "{name}");
    }
    let fees = value_labels(&panels[0].1);
    assert_eq!(fees[0], "0");
    assert!(fees[1..].iter().all(|l| l.ends_with('M')), "{fees:?}");
    let share = value_labels(&panels[1].1);
    assert!(share.iter().all(|l| l.ends_with('%')), "{share:?}");
    // 2024-01-01 is a Monday: ticks every other Monday, and the last day.
    let dates: Vec<&str> = panels[0]
        .1
        .split("text-anchor=\"middle\">")
        .skip(1)
        .map(|t| t.split('<').next().unwrap())
        .collect();
    assert_eq!(dates.first(), Some(&"2024-01-01"));
    assert_eq!(dates.last(), Some(&"2024-03-31"));
}
