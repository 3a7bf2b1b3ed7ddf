//! The README shows one picture, its own report example drawn: docs/readme-report.svg is what
//! `docs/screenshots.sh` makes now, the README's report line (`--output report.html`, as an
//! SVG) against the built-in sandbox on the script's fixed day (libfaketime) and time made
//! (`SOURCE_DATE_EPOCH`), byte for byte.

use std::path::PathBuf;

use crate::support::tools::libfaketime;
use crate::support::Env;

/// The day and time made the script gives the run (`faketime '...'`, `SOURCE_DATE_EPOCH=`).
const DAY: &str = "2025-01-01 12:00:00";
const MADE: &str = "1735689600";
const PICTURE: &str = "docs/readme-report.svg";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_readme_shows_its_report_example_as_the_screenshot_script_draws_it_now() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let example = readme
        .lines()
        .find(|l| l.starts_with("chain-metrics report ") && l.ends_with("--output report.html"))
        .expect("the README's report example");
    let images: Vec<&str> = readme.lines().filter(|l| l.starts_with("![")).collect();
    assert_eq!(images.len(), 1, "one picture: {images:?}");
    assert!(
        images[0].ends_with(&format!("]({PICTURE})")),
        "{}",
        images[0]
    );
    let script = std::fs::read_to_string(repo().join("docs/screenshots.sh")).unwrap();
    let arguments = example
        .trim_start_matches("chain-metrics ")
        .replace(" --output report.html", "");
    let drawn = format!(
        "SOURCE_DATE_EPOCH={MADE} faketime '{DAY}' \"$bin\" --sandbox {arguments} --output {PICTURE}"
    );
    assert!(
        script.replace(" \\\n  ", " ").contains(&drawn),
        "docs/screenshots.sh draws the README's report line: {drawn}"
    );
    let mut env = Env::new();
    env.set("SOURCE_DATE_EPOCH", MADE);
    env.set("LD_PRELOAD", &libfaketime());
    env.set("FAKETIME", &format!("@{DAY}"));
    env.set("TZ", "UTC");
    env.cmd(&format!("--sandbox {arguments} --output now.svg"))
        .any_stderr()
        .run();
    let now = std::fs::read(env.home.path().join("now.svg")).unwrap();
    let shown = std::fs::read(repo().join(PICTURE)).unwrap();
    assert!(
        now == shown,
        "{PICTURE} is not what the README's report line draws now: run docs/screenshots.sh"
    );
}
