//! The programs tests run besides the binary, found one way: a tool by its name on PATH (where
//! `.ci/run` installs it: mandoc, python3, sqlite3, chromium-headless-shell ...), and the
//! Python with DuckDB and pandas in the venv `.ci/run` makes, by the variables it sets.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `name` (looked up on PATH) with `args` to the end; a tool that is not installed is a
/// failure that says where it comes from.
pub fn output(name: &str, args: &[&std::ffi::OsStr]) -> Output {
    Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {name} ({e}): .ci/run installs it"))
}

/// A tool to be started by the caller (stdin, pipes), looked up on PATH as `output` does.
pub fn command(name: &str) -> Command {
    Command::new(name)
}

/// The Python of the test venv (DuckDB, its sqlite extension, pandas):
/// `CHAIN_METRICS_TEST_PYTHON`, else `$TEST_PYTHON_VENV/bin/python`, else
/// `target/ci-venv/bin/python`. Missing: a failure in CI (where `.ci/run` makes it), else
/// `None` with a line saying how to make it, and the test is skipped.
pub fn venv_python() -> Option<PathBuf> {
    let python = match (
        std::env::var_os("CHAIN_METRICS_TEST_PYTHON"),
        std::env::var_os("TEST_PYTHON_VENV"),
    ) {
        (Some(python), _) => PathBuf::from(python),
        (None, Some(venv)) => PathBuf::from(venv).join("bin/python"),
        (None, None) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/ci-venv/bin/python"),
    };
    if python.exists() {
        return Some(python);
    }
    let make = "python3 -m venv target/ci-venv && target/ci-venv/bin/pip install 'duckdb==1.5.5' 'duckdb-extension-sqlite-scanner==1.5.5' pandas (as .ci/run does)";
    assert!(
        std::env::var_os("CI").is_none(),
        "no {}: {make}",
        python.display()
    );
    eprintln!("skipped: no {}: {make}", python.display());
    None
}
