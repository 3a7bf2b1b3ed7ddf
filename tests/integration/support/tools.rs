//! The programs tests run besides the binary, found one way: a tool by its name on PATH (where
//! `.ci/test`, the README's test command, installs it: mandoc, python3, sqlite3,
//! chromium-headless-shell ...), and the Python with DuckDB and pandas in the venv it makes, by
//! the variables it sets. A tool that is missing fails the test that needs it, everywhere: a
//! test never passes by not running.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `name` (looked up on PATH) with `args` to the end; a tool that is not installed is a
/// failure that says where it comes from.
pub fn output(name: &str, args: &[&std::ffi::OsStr]) -> Output {
    Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {name} ({e}): .ci/test installs it"))
}

/// A tool to be started by the caller (stdin, pipes), looked up on PATH as `output` does.
pub fn command(name: &str) -> Command {
    Command::new(name)
}

/// The Python of the test venv (DuckDB, its sqlite extension, pandas):
/// `CHAIN_METRICS_TEST_PYTHON`, else `$TEST_PYTHON_VENV/bin/python`, else
/// `target/ci-venv/bin/python`. Missing: a failure that says how to make it.
pub fn venv_python() -> PathBuf {
    let python = match (
        std::env::var_os("CHAIN_METRICS_TEST_PYTHON"),
        std::env::var_os("TEST_PYTHON_VENV"),
    ) {
        (Some(python), _) => PathBuf::from(python),
        (None, Some(venv)) => PathBuf::from(venv).join("bin/python"),
        (None, None) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/ci-venv/bin/python"),
    };
    assert!(
        python.exists(),
        "no {}: run the tests with .ci/test, which makes the venv",
        python.display()
    );
    python
}

/// libfaketime's library for programs with threads, as Debian's `faketime` package installs it.
pub fn libfaketime() -> String {
    let found = std::fs::read_dir("/usr/lib")
        .unwrap()
        .map(|entry| entry.unwrap().path().join("faketime/libfaketimeMT.so.1"))
        .find(|path| path.exists());
    let found = found.expect("libfaketime is installed (apt-get install faketime; .ci/test does)");
    found.display().to_string()
}
