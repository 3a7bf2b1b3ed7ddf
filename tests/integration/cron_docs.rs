//! "Running it from cron and systemd" (docs/cron-and-systemd.md, linked from the README) shows
//! the same crontab line and unit files as the man page and contrib/systemd/, and the units are
//! what the guide says.
//! CI also runs `systemd-analyze verify` on them against the installed package.

use crate::generated::manual::{CRONTAB, UNITS};

fn readme_section() -> String {
    let guide = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cron-and-systemd.md");
    let guide = std::fs::read_to_string(guide).unwrap();
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains("](docs/cron-and-systemd.md)"),
        "the README links the guide"
    );
    let (_, rest) = guide
        .split_once("# Running it from cron and systemd\n")
        .expect("the guide has its title");
    rest.to_owned()
}

fn unit(name: &str) -> &'static str {
    UNITS.iter().find(|(n, _)| *n == name).unwrap().1
}

/// The value of `key=` in `text`, the first one not commented out.
fn setting<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no {key}= in\n{text}"))
}

#[test]
fn readme_shows_the_crontab_line_and_both_units_as_they_are() {
    let section = readme_section();
    assert!(section.contains(&format!(
        "```cron\n# m h dom mon dow  command\n{CRONTAB}\n```"
    )));
    for (name, text) in UNITS {
        let block = format!("`{name}`:\n\n```ini\n{}\n```", text.trim_end());
        assert!(section.contains(&block), "README lacks {name} as it is");
    }
    for code in [
        "| 0 |",
        "| 10 |",
        "| 2, 3 |",
        "| 4 |",
        "| 6, 7 |",
        "| 9 |",
        "| 129, 130, 143 |",
    ] {
        assert!(
            section.contains(code),
            "README's job exit codes lack {code}"
        );
    }
}

#[test]
fn the_man_page_has_the_section() {
    let page = crate::generated::manual::pages().remove(0);
    let text = String::from_utf8(page.text).unwrap();
    assert_eq!(page.file_name, "chain-metrics.1");
    assert!(text.contains(".SH \"RUNNING IT FROM CRON AND SYSTEMD\"\n"));
    assert!(text.contains("\\-\\-merge \\-\\-resume \\-\\-strict"));
}

#[test]
fn cron_and_the_service_run_the_same_command() {
    let service = unit("chain-metrics-export.service");
    let exec = setting(service, "ExecStart");
    let from_systemd = exec
        .strip_prefix("/usr/bin/chain-metrics ")
        .unwrap()
        .replace("%h/", "\"$HOME/")
        .replace("fees.csv", "fees.csv\"");
    let (schedule, command) = CRONTAB.split_once("  ").unwrap();
    assert_eq!(schedule, "30 1 * * *");
    assert_eq!(
        command.strip_prefix("chain-metrics ").unwrap(),
        from_systemd
    );
    for flag in ["--merge", "--resume", "--strict", "--quiet"] {
        assert!(exec.split(' ').any(|w| w == flag), "{flag}");
    }
}

#[test]
fn the_units_run_once_a_day_after_the_utc_day_and_hold_no_key() {
    let service = unit("chain-metrics-export.service");
    let timer = unit("chain-metrics-export.timer");
    assert_eq!(setting(service, "Type"), "oneshot");
    assert_eq!(setting(timer, "OnCalendar"), "*-*-* 01:30:00 UTC");
    assert_eq!(setting(timer, "Persistent"), "true");
    assert_eq!(setting(timer, "WantedBy"), "timers.target");
    for text in [service, timer] {
        assert_eq!(setting(text, "Documentation"), "man:chain-metrics(1)");
        assert!(
            !text.contains("Environment"),
            "a key in a unit file is readable by all"
        );
        assert!(!text.contains("API_KEY"));
    }
}
