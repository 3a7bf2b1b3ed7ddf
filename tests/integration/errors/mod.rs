//! Every exit code of CLI.md §6 with its exact error line, by where the mistake is: the
//! command line (`usage`, exit 2), a number out of bounds (`bounds`, exit 2 or 3), the settings
//! (`setup`, exit 3), the service or the run's own output (`service`, exit 4 to 9).

mod bounds;
mod service;
mod setup;
mod usage;

use crate::support::{Cmd, Env};

const DAYS: [&str; 4] = ["-s", "2024-01-01", "-e", "2024-01-02"];

/// `fees -c eth` over two days, with `extra` after.
fn fees<'e>(env: &'e Env, extra: &[&str]) -> Cmd<'e> {
    env.cmd_args(&[&["fees", "-c", "eth"], &DAYS[..], extra].concat())
}
