//! Test support: an isolated environment for the real binary (`Env`, the one way to run it),
//! a pseudo-terminal runner, the sandbox as a child process, and a scripted HTTP server for
//! answers the sandbox never gives. All on 127.0.0.1.

mod cmd;
mod env;
pub mod files;
pub mod owners;
pub mod postgres;
mod proxy;
mod servers;
mod snapshot;
mod terminal;
mod tls;
pub mod tools;
mod transcript;
pub mod users;

use std::path::PathBuf;

pub use cmd::{Cmd, Run, Running};
pub use env::{made_line, Env};
pub use proxy::TestProxy;
pub use servers::{Reply, Sandbox, Stub};
pub use snapshot::{assert_snapshot, check_snapshot, snapshots_dir};
pub use tls::{install_crypto, Leaf, TestCa};
pub use transcript::{check_output, transcripts_dir};

/// The key every test uses; no output may ever contain it.
pub const KEY: &str = "cm-test-key-7f3a9c2e51d4";

pub fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("chain-metrics")
}

/// Links the binary under test into `folder` (made if missing) as `chain-metrics`, where an
/// install puts it on PATH. Runs of it still go through `Env` (`shell`, `program`), which
/// check and record every output.
pub fn link_binary_into(folder: &std::path::Path) {
    std::fs::create_dir_all(folder).unwrap();
    std::os::unix::fs::symlink(binary(), folder.join("chain-metrics")).unwrap();
}

/// One day of ETHEREUM's fees (2024-01-01): the query most tests run, as one line.
pub const DAY: &str = "fees -c eth -s 2024-01-01 -e 2024-01-01";

/// `DAY` as words, for a test that adds words of its own (`[&DAY_ARGS[..], &["-v"]].concat()`).
pub const DAY_ARGS: [&str; 7] = fees_on("2024-01-01");

/// Two days, for a test that needs more than one row.
pub const TWO_DAYS: &str = "-s 2024-01-01 -e 2024-01-02";

/// One day of ETHEREUM's fees as words: the query of one day, `day`.
pub const fn fees_on(day: &'static str) -> [&'static str; 7] {
    ["fees", "-c", "eth", "-s", day, "-e", day]
}

/// What the sandbox gives for `fees -c eth -s 2024-01-01 -e 2024-01-01` as csv.
pub const SANDBOX_DAY: &str = "date,fees\n2024-01-01,879768.88\n";

/// The words of a command line split at spaces, for a test that runs it with more words added
/// (`env.cmd_args(&[&args[..], &["-f", "csv"]].concat())`).
pub fn argv(line: &'static str) -> Vec<&'static str> {
    line.split(' ').collect()
}

/// Runs `line` against a sandbox of its own, in a UTF-8 locale (tables drawn with box lines):
/// exit 0, stdout exactly `expected`, stderr empty.
#[track_caller]
pub fn sandbox_gives(line: &str, expected: impl snapbox::IntoData) {
    let (_sandbox, mut env) = sandbox_env(&[]);
    env.set("LANG", "C.UTF-8");
    env.cmd(line).stdout(expected).run();
}

/// A scripted service that answers every request with no records (`[]`), and an environment
/// pointed at it: for a test that counts what a run asked (`stub.seen()`).
pub fn empty_service() -> (Stub, Env) {
    let stub = Stub::always(Reply::json(200, "[]"));
    let env = Env::with_service(&stub.url);
    (stub, env)
}

/// The sandbox and an environment pointed at it (with the test key): how most tests start.
pub fn sandbox_env(extra: &[&str]) -> (Sandbox, Env) {
    let sandbox = Sandbox::start(extra);
    let env = Env::with_service(&sandbox.url);
    (sandbox, env)
}
