//! Axes as analysts read them: the metric's name on each panel, `%` on a percent axis, short
//! labels (`1.5M`), a stronger zero line, dates on calendar boundaries with the last labelled.

use super::{drawn_panels, panels, value_labels};
use crate::analysis::number_bound::{service_env, RANGE};

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

#[test]
fn past_the_trillions_labels_are_powers_of_ten_and_the_plot_keeps_its_room() {
    // 1 and 1e300: labels in full would be 400 characters wide and push the plot out of the
    // 960-pixel picture.
    let (_stub, env) = service_env("1e300");
    env.cmd(&format!("fees -o f.svg {RANGE}")).run();
    let svg = std::fs::read_to_string(env.home.path().join("f.svg")).unwrap();
    assert_eq!(value_labels(&panels(&svg)[0].1), ["0", "5e299", "10e299"]);
    let xs = (svg.split(" x=\"").skip(1)).map(|t| t.split('"').next().unwrap());
    let xs: Vec<f64> = xs.map(|x| x.parse().unwrap()).collect();
    assert!(xs.iter().all(|x| (0.0..=960.0).contains(x)), "{xs:?}");
    assert!(!svg.contains("width=\"-"), "{svg}");
}
