//! "Running it from cron and systemd" (docs/cron-and-systemd.md, linked from the README) shows
//! the same crontab line and unit files as the man page and contrib/systemd/, and the units are
//! what the guide says.
//! CI also runs `systemd-analyze verify` on them against the installed package.

use crate::cli::generated::manual::{CRONTAB, UNITS};

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
    let page = crate::cli::generated::manual::pages().remove(0);
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

#[test]
fn the_user_service_retries_a_failed_catch_up_without_network_online() {
    let service = unit("chain-metrics-export.service");
    // A user manager has no network-online.target: ordering after it promises nothing.
    let settings = service.lines().filter(|l| !l.starts_with('#'));
    assert!(
        settings.clone().all(|l| !l.contains("network-online")),
        "{service}"
    );
    assert_eq!(setting(service, "Restart"), "on-failure");
    assert_eq!(setting(service, "RestartSec"), "10min");
    // Only what another try can mend is tried again: the service (6) and the network (7).
    let kept: Vec<&str> = setting(service, "RestartPreventExitStatus")
        .split(' ')
        .collect();
    assert!(!kept.contains(&"6") && !kept.contains(&"7"), "{kept:?}");
    assert!(kept.contains(&"9") && kept.contains(&"10"), "{kept:?}");
    assert_eq!(setting(service, "StartLimitBurst"), "4");
}

/// The README's crontab line as written, run by bash (its `$HOME` is the test's), against the
/// file `text` at the place it names; the run's outcome and the file afterwards.
fn cron_line_against(text: Option<&str>) -> (i32, String, Option<String>) {
    let (_sandbox, env) = crate::support::sandbox_env(&[]);
    let folder = env.home.path().join("chain-metrics");
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("fees.csv");
    if let Some(text) = text {
        std::fs::write(&file, text).unwrap();
    }
    let (_, command) = CRONTAB.split_once("  ").unwrap();
    let run = env.shell(command).any_outcome().run();
    (run.code, run.stderr, std::fs::read_to_string(&file).ok())
}

#[test]
fn the_cron_line_refuses_files_it_would_corrupt_loudly_under_quiet() {
    let today = chrono::Utc::now().date_naive();
    let future = "date,chain,fees\n2204-03-10,ETHEREUM,1\n";
    let one_chain = "date,fees\n2024-01-01,1\n";
    let twice = "date,chain,fees\n2024-01-01,ETHEREUM,1\n2024-01-01,ETHEREUM,2\n";
    for (text, says) in [
        (future, "it is dated 2204-03-10, after today"),
        (one_chain, "(no chain column)"),
        (twice, "it holds the key 2024-01-01 ETHEREUM twice"),
    ] {
        let (code, stderr, after) = cron_line_against(Some(text));
        assert_eq!(code, 9, "{stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert_eq!(after.as_deref(), Some(text), "the file is left as it was");
    }
    // Another chain's rows, named: kept beside the two asked, which start at --last 30.
    let base = "date,chain,fees\n2024-01-01,BASE,1\n";
    let (code, stderr, after) = cron_line_against(Some(base));
    assert_eq!((code, stderr.as_str()), (0, ""));
    let after = after.unwrap();
    assert!(after.starts_with(base), "{after}");
    let yesterday = today.pred_opt().unwrap();
    assert!(
        after.contains(&format!("\n{yesterday},ARBITRUM,")),
        "{after}"
    );
}

/// Every crontab line the README and the guides show: a line of a code block that merges and
/// is scheduled (five schedule fields first), marked `# cron` (at its end, or on the line
/// before), or a unit's `ExecStart=`; as (file, line).
fn shown_cron_lines() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut guides: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    guides.sort();
    files.extend(guides);
    let scheduled = |line: &str| {
        let fields: Vec<&str> = line.split_whitespace().take(5).collect();
        fields.len() == 5
            && (fields.iter()).all(|f| f.chars().all(|c| c.is_ascii_digit() || "*/,-".contains(c)))
    };
    let mut found = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.strip_prefix(root).unwrap().display().to_string();
        let (mut in_block, mut before) = (false, "");
        for line in text.lines() {
            if line.starts_with("```") {
                in_block = !in_block;
            } else if in_block && line.contains("--merge") {
                let marked = line.contains("# cron") || before.starts_with("# cron");
                if scheduled(line) || marked || line.starts_with("ExecStart=") {
                    found.push((name.clone(), line.to_owned()));
                }
            }
            before = line;
        }
    }
    found
}

/// The command of a crontab line: no schedule, no comment.
fn command_of(line: &str) -> String {
    let line = line.split(" # ").next().unwrap().trim();
    let fields: Vec<&str> = line.splitn(6, char::is_whitespace).collect();
    match line.starts_with(|c: char| c.is_ascii_digit() || c == '*') {
        true => fields[5].trim().to_owned(),
        false => line.to_owned(),
    }
}

/// The README, every guide and the man page recommend one line: `--last 30` for the first run,
/// then `--merge --resume --strict`; and each line shown runs as written, twice, from an empty
/// folder (a database for the PostgreSQL ones) against the sandbox, exit 0 both times.
#[test]
fn every_cron_line_shown_is_the_recommended_one_and_runs_twice_from_nothing() {
    let lines = shown_cron_lines();
    let files: std::collections::BTreeSet<&str> = lines.iter().map(|(f, _)| f.as_str()).collect();
    for shown in [
        "README.md",
        "docs/cron-and-systemd.md",
        "docs/exports.md",
        "docs/pictures.md",
        "docs/postgresql.md",
    ] {
        assert!(
            files.contains(shown),
            "{shown} shows no cron line: {lines:#?}"
        );
    }
    let crontab = ("the man page".to_owned(), CRONTAB.to_owned());
    let cluster = crate::support::postgres::Cluster::start();
    cluster.sql("CREATE DATABASE metrics");
    for (file, line) in lines.iter().chain([&crontab]) {
        let command = command_of(line);
        assert!(
            command.contains(" --last 30 ") && command.ends_with(" --merge --resume --strict"),
            "{file}: not the recommended line: {line}"
        );
        if line.starts_with("ExecStart=") {
            continue;
        }
        let sandbox = crate::support::Sandbox::start(&[]);
        let env = match command.contains("postgresql://") {
            true => cluster.env(&sandbox.url),
            false => crate::support::Env::with_service(&sandbox.url),
        };
        std::fs::create_dir_all(env.home.path().join("chain-metrics")).unwrap();
        for run in ["first", "second"] {
            let out = env.shell(&command).any_stderr().run();
            assert!(
                out.stderr.lines().all(|l| !l.starts_with("warning: ")),
                "{file}, {run} run: {}",
                out.stderr
            );
        }
    }
}
