//! `-V` is one short line; `--version` says what a bug report needs (CLI.md §1).

use std::path::Path;
use std::process::Command;

use crate::support::Env;

const VERSION: &str = env!("CARGO_PKG_VERSION");

#[test]
fn short_version_is_one_line() {
    Env::new()
        .cmd("-V")
        .stdout(format!("chain-metrics {VERSION}\n"))
        .run();
}

#[test]
fn long_version_names_commit_build_target_and_back_ends() {
    let run = Env::new().cmd("--version").run();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{}", run.stdout);
    assert_eq!(lines[0], format!("chain-metrics {VERSION}"));
    assert_eq!(lines[1], format!("commit {}", expected_commit()));
    let (date, target) = lines[2]
        .strip_prefix("built ")
        .and_then(|rest| rest.split_once(" for "))
        .unwrap_or_else(|| panic!("{}", lines[2]));
    assert!(
        chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_ok(),
        "{date}"
    );
    assert!(
        target.starts_with(std::env::consts::ARCH) && target.contains(std::env::consts::OS),
        "{target}"
    );
    let [rustls, ring, rusqlite] = ["rustls", "ring", "rusqlite"].map(locked_version);
    assert_eq!(
        lines[3],
        format!("TLS: rustls {rustls} with ring {ring}, the platform's certificate verifier")
    );
    let sqlite = lines[4]
        .strip_prefix("SQLite: ")
        .and_then(|rest| rest.strip_suffix(&format!(" (bundled, rusqlite {rusqlite})")))
        .unwrap_or_else(|| panic!("{}", lines[4]));
    let parts: Vec<&str> = sqlite.split('.').collect();
    assert!(
        parts.len() == 3 && parts[0] == "3" && parts.iter().all(|p| p.parse::<u32>().is_ok()),
        "{sqlite}"
    );
}

#[test]
fn the_version_flags_act_only_before_a_command() {
    // Under a command `-V` is not a flag of ours: the version is the tool's, asked of the tool.
    Env::new()
        .cmd("chains -V")
        .code(2)
        .error_line("error: unexpected argument '-V' found")
        .run();
}

/// "abcdef123456 (2026-11-25)" of HEAD in a git checkout of the crate; "unknown" in a tree
/// without `.git` (a source tarball), as build.rs decides.
fn expected_commit() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join(".git").exists() {
        return "unknown".to_owned();
    }
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["log", "-1", "--abbrev=12", "--format=%h (%cs)"])
        .output()
        .expect("git runs where .git is");
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

/// The version of `name` in Cargo.lock, read as TOML.
fn locked_version(name: &str) -> String {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock")).unwrap();
    let lock: toml::Table = toml::from_str(&text).unwrap();
    let packages = lock["package"].as_array().unwrap();
    let package = packages
        .iter()
        .find(|p| p["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("{name} is not in Cargo.lock"));
    package["version"].as_str().unwrap().to_owned()
}
