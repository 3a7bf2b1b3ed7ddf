//! Every exit code of CLI.md §6 with its exact error line, by where the mistake is: the
//! command line (`usage`, exit 2), a number out of bounds (`bounds`, exit 2 or 3), the settings
//! (`setup`, exit 3), the service or the run's own output (`service`, exit 4 to 9); every
//! `hint:` leading to a command that is not refused (`hints`), and nothing silently ignored
//! (`unheeded`).

mod bounds;
mod hints;
mod service;
mod setup;
mod unheeded;
mod usage;

use crate::support::{argv, empty_service, Cmd, Env, TWO_DAYS};

/// Each `(args, first line)`, between `before` and `after`, is a usage error (exit 2) that
/// prints nothing on stdout, sends no request and writes no file.
fn all_refused(cases: &[(&[&str], &str)], before: &[&str], after: &[&str]) {
    let (stub, env) = empty_service();
    for (args, first_line) in cases {
        env.cmd_args(&[before, args, after].concat())
            .code(2)
            .error_line(*first_line)
            .stdout("")
            .run();
    }
    assert!(stub.seen().is_empty(), "a usage error sent a request");
    let written = std::fs::read_dir(env.home.path()).unwrap().count();
    assert_eq!(written, 0, "a usage error wrote a file");
}

/// `fees -c eth` over two days, with `extra` after.
fn fees<'e>(env: &'e Env, extra: &[&str]) -> Cmd<'e> {
    env.cmd_args(&[&["fees", "-c", "eth"], &argv(TWO_DAYS)[..], extra].concat())
}
