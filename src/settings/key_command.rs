//! Runs `api_key_command` (a password manager, say) and takes its trimmed stdout as the key.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::settings::secret::ApiKey;
use crate::system::command_group::{interrupted_by_user, CommandGroup};

/// Runs `command` through the shell, for at most `limit`, in a process group of its own (see
/// [`CommandGroup`]): when it overruns, it and everything it started are ended. The error never
/// includes what the command printed.
pub fn run(command: &str, limit: Duration) -> Result<ApiKey, String> {
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(command)
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let mut group = CommandGroup::spawn(&mut shell).map_err(|e| format!("could not start: {e}"))?;
    let mut stdout = group.child().stdout.take().expect("stdout is piped");
    // Read on a thread, and wait for it with the same deadline: a command that leaves a
    // background child holding stdout open must not hang the run.
    let (sender, reader) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = sender.send(stdout.read_to_string(&mut text).map(|_| text));
    });
    let started = Instant::now();
    let status = wait(&mut group, started, limit)?;
    if interrupted_by_user(status) {
        crate::system::interrupt::stop();
    }
    if !status.success() {
        return Err(format!("failed ({status})"));
    }
    let text = reader
        .recv_timeout(limit.saturating_sub(started.elapsed()))
        .map_err(|_| {
            group.end();
            format!(
                "did not close its output within {} s (a background process holding it?)",
                limit.as_secs_f64()
            )
        })?
        .map_err(|_| "printed something that is not UTF-8 text".to_owned())?;
    ApiKey::new(&text).ok_or_else(|| "printed nothing".to_owned())
}

/// Waits for the command to end; past `limit`, ends its whole group.
fn wait(group: &mut CommandGroup, started: Instant, limit: Duration) -> Result<ExitStatus, String> {
    loop {
        match group.try_wait().map_err(|e| format!("failed: {e}"))? {
            Some(status) => return Ok(status),
            None if started.elapsed() > limit => {
                group.end();
                return Err(format!("did not finish within {} s", limit.as_secs_f64()));
            }
            None => std::thread::sleep(Duration::from_millis(10)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_default(command: &str) -> Result<ApiKey, String> {
        run(command, crate::settings::defaults::KEY_COMMAND_LIMIT)
    }

    #[test]
    fn a_command_that_hangs_is_stopped_at_the_limit() {
        let err = run("echo partial; sleep 5", Duration::from_millis(200)).unwrap_err();
        assert_eq!(err, "did not finish within 0.2 s");
    }

    #[test]
    fn a_background_child_holding_stdout_does_not_hang_the_run() {
        let err = run("echo key; sleep 5 &", Duration::from_millis(300)).unwrap_err();
        assert_eq!(
            err,
            "did not close its output within 0.3 s (a background process holding it?)"
        );
    }

    #[test]
    fn stdout_trimmed_is_the_key() {
        assert_eq!(
            run_default("printf '  abc-123\\n'").unwrap().expose(),
            "abc-123"
        );
    }

    #[test]
    fn failures_never_echo_output() {
        let err = run_default("echo secret-ish; exit 3").unwrap_err();
        assert_eq!(err, "failed (exit status: 3)");
        assert_eq!(run_default("true").unwrap_err(), "printed nothing");
    }
}
