//! Facts for `--version` that only the build knows: the commit, the build date, the target and
//! the versions of the TLS and SQLite crates as Cargo.lock pins them.
//!
//! Cheap on purpose: it reruns only when the checked-out commit, Cargo.lock, itself or
//! SOURCE_DATE_EPOCH change, never for an edit of a source file. Built from a source tarball
//! (no `.git`), the commit is "unknown" and the build still succeeds.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let commit = commit(&root).unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=CHAIN_METRICS_COMMIT={commit}");
    println!("cargo:rustc-env=CHAIN_METRICS_BUILD_DATE={}", build_date());
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".to_owned());
    println!("cargo:rustc-env=CHAIN_METRICS_TARGET={target}");
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    for (name, var) in [
        ("rustls", "RUSTLS"),
        ("ring", "RING"),
        ("rusqlite", "RUSQLITE"),
    ] {
        let version = locked_version(&lock, name).unwrap_or("unknown");
        println!("cargo:rustc-env=CHAIN_METRICS_{var}_VERSION={version}");
    }
}

/// "abcdef123456 (2026-11-25)": the short hash and commit date of HEAD, when `root` is a git
/// checkout of its own (not a tarball unpacked inside some other repository) and git runs.
fn commit(root: &Path) -> Option<String> {
    if !root.join(".git").exists() {
        return None;
    }
    let described = git(root, &["log", "-1", "--abbrev=12", "--format=%h (%cs)"])?;
    // HEAD, and the file of the branch it points to, change with each commit or checkout.
    let dirs = git(root, &["rev-parse", "--git-dir", "--git-common-dir"])?;
    let mut dirs = dirs.lines().map(|d| root.join(d));
    let (git_dir, common_dir) = (dirs.next()?, dirs.next()?);
    let mut watched = vec![git_dir.join("HEAD"), common_dir.join("packed-refs")];
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(common_dir.join(branch));
    }
    // A path that does not exist would make Cargo rerun this script on every build.
    for path in watched.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    Some(described)
}

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (output.status.success() && !text.is_empty()).then(|| text.to_owned())
}

/// The build day (UTC) as YYYY-MM-DD: SOURCE_DATE_EPOCH when set (reproducible builds), else now.
fn build_date() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        });
    let (y, m, d) = civil_from_days(seconds.div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 to (year, month, day): Howard Hinnant's `civil_from_days`.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The version Cargo.lock pins for the package `name` (the first, if several).
fn locked_version<'a>(lock: &'a str, name: &str) -> Option<&'a str> {
    let header = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    lines.find(|line| *line == header)?;
    lines
        .next()?
        .strip_prefix("version = \"")?
        .strip_suffix('"')
}
