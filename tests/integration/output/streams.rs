//! `-o` naming a stream the run already holds (`/dev/stdout`, `/dev/stderr`, `/proc/self/fd/N`)
//! writes to it instead of replacing what the shell opened; `--merge` into anything but a
//! regular file is refused at once instead of hanging; and a run whose stderr is gone still
//! writes its file and exits with its real code.

use crate::support::files::{names, read};
use crate::support::{empty_service, sandbox_env, Reply, Stub, DAY};
use snapbox::str;

const ROWS: &str = "date,fees\n2024-01-01,879768.88\n";

#[test]
fn a_path_to_a_stream_the_shell_opened_is_written_to_never_replaced() {
    let (_sandbox, env) = sandbox_env(&[]);
    let script = format!(
        "set -e
         echo old > log.csv; chain-metrics {DAY} -o /dev/stdout >> log.csv
         {{ echo head; chain-metrics {DAY} -o /dev/stdout; echo tail; }} > grouped.csv
         echo old > err.log; chain-metrics {DAY} -o /dev/stderr 2>> err.log
         echo old > fd.log; chain-metrics {DAY} -o /proc/self/fd/3 3>> fd.log
         ln -s /dev/stdout linked.csv; echo old > via-link.csv
         chain-metrics {DAY} -o linked.csv >> via-link.csv"
    );
    env.shell(&script).run();
    for file in ["log.csv", "err.log", "fd.log", "via-link.csv"] {
        assert_eq!(read(&env, file), format!("old\n{ROWS}"), "{file}");
    }
    assert_eq!(read(&env, "grouped.csv"), format!("head\n{ROWS}tail\n"));
    let link = std::fs::symlink_metadata(env.home.path().join("linked.csv")).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
}

#[test]
fn merge_into_anything_but_a_regular_file_is_refused_at_once() {
    let (stub, env) = empty_service();
    // `timeout` ends a run that hangs, which would read as exit 124.
    let script = format!(
        "mkfifo pipe.csv; mkdir folder.csv
         timeout 10 chain-metrics {DAY} -o pipe.csv --merge; echo \"fifo $?\"
         timeout 10 chain-metrics {DAY} -o folder.csv --merge; echo \"folder $?\"
         timeout 10 chain-metrics {DAY} -o /dev/stdout --merge | cat; echo \"stdout ${{PIPESTATUS[0]}}\""
    );
    let why = "not a regular file: --merge reads the old rows back and replaces the file; the file is left as it was";
    let hint = "hint: merge into a regular file, or leave out --merge to write to it as a stream";
    env.shell(&script)
        .stdout(str![[r#"
fifo 9
folder 9
stdout 9

"#]])
        .stderr(format!(
            "error: pipe.csv is a FIFO (named pipe), {why}\n{hint}\n\
             error: folder.csv is a folder, {why}\n{hint}\n\
             error: /dev/stdout is one of this run's own streams, {why}\n{hint}\n"
        ))
        .run();

    assert!(stub.seen().is_empty(), "refused before any request");
}

#[test]
fn a_run_whose_stderr_is_gone_still_writes_its_file_and_exits_with_its_real_code() {
    let (_sandbox, env) = sandbox_env(&[]);
    let failing = Stub::always(Reply::json(503, r#"{"error":"down"}"#));
    let script = format!(
        "chain-metrics -v {DAY} -o full.csv 2>/dev/full; echo \"full $?\"
         chain-metrics -v {DAY} -o piped.csv 2>&1 | head -c1 >/dev/null; echo \"piped ${{PIPESTATUS[0]}}\"
         chain-metrics -v {DAY} --retries 0 --base-url {} -o failed.csv 2>/dev/full; echo \"failed $?\"",
        failing.url
    );
    let run = env.shell(&script).run();
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str()),
        ("full 0\npiped 0\nfailed 6\n", ""),
        "{run:?}"
    );
    assert_eq!(read(&env, "full.csv"), ROWS);
    assert_eq!(read(&env, "piped.csv"), ROWS);
    assert_eq!(names(env.home.path()), ["full.csv", "piped.csv"]);
}
