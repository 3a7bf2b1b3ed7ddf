//! Snapshots: output a reviewer should read, compared with the files committed under
//! tests/integration/snapshots/ (snapbox).
//!
//! After a deliberate change of output, rewrite the files and review the diff before committing:
//!
//!     SNAPSHOTS=overwrite cargo test --test integration
//!
//! With CI set (`.ci/run` runs with CI=true) a mismatch always fails and nothing is written,
//! whatever SNAPSHOTS says. In a snapshot, `[..]` stands for any text within a line.

use std::path::PathBuf;

use snapbox::assert::Action;
use snapbox::{Assert, Data, Redactions};

pub fn snapshots_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/integration/snapshots")
}

/// Compares `actual` with the snapshot file `name` (a path under snapshots/), after replacing
/// each redaction's value by its placeholder (`("[CONFIG]", path)`); an error says what differs.
pub fn check_snapshot(
    name: &str,
    actual: &str,
    redactions: &[(&'static str, String)],
) -> Result<(), String> {
    let mut redacted = Redactions::new();
    for (placeholder, value) in redactions {
        redacted.insert(placeholder, value.clone()).unwrap();
    }
    let mut assert = Assert::new()
        .action_env(snapbox::assert::DEFAULT_ACTION_ENV)
        .redact_with(redacted);
    if std::env::var_os("CI").is_some_and(|ci| !ci.is_empty()) {
        assert = assert.action(Action::Verify);
    }
    let expected = Data::read_from(&snapshots_dir().join(name), None);
    assert
        .try_eq(Some(&name), Data::text(actual.to_owned()), expected)
        .map_err(|e| e.to_string())
}

/// As `check_snapshot`, failing the test on a mismatch.
#[track_caller]
pub fn assert_snapshot(name: &str, actual: &str, redactions: &[(&'static str, String)]) {
    if let Err(error) = check_snapshot(name, actual, redactions) {
        panic!("{error}");
    }
}
