//! Runs `api_key_command` (a password manager, say) and takes its trimmed stdout as the key.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use std::sync::mpsc::Receiver;

use crate::settings::limits::MAX_KEY_BYTES;
use crate::settings::secret::ApiKey;
use crate::system::command_group::{interrupted_by_user, CommandGroup};
use crate::system::ownership;

/// Runs `command` through the shell, for at most `limit`, in a process group of its own (see
/// [`CommandGroup`]): when it overruns, it and everything it started are ended. The error never
/// includes what the command printed.
pub(super) fn run(command: &str, limit: Duration) -> Result<ApiKey, String> {
    trusted_script(command)?;
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(command)
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let mut group = CommandGroup::spawn(&mut shell).map_err(|e| format!("could not start: {e}"))?;
    let stdout = group.child().stdout.take().expect("stdout is piped");
    // Read on a thread, and wait for it with the same deadline: a command that leaves a
    // background child holding stdout open must not hang the run. At most `MAX_KEY_BYTES`
    // (and one more, to tell that there was more) are read.
    let (sender, reader) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let read = stdout
            .take(MAX_KEY_BYTES as u64 + 1)
            .read_to_end(&mut bytes);
        let _ = sender.send(read.map(|_| bytes));
    });
    let started = Instant::now();
    let (status, output) = wait(&mut group, &reader, started, limit)?;
    if interrupted_by_user(status) {
        crate::system::interrupt::stop();
    }
    if !status.success() {
        return Err(format!("failed ({status})"));
    }
    let output = match output {
        Some(output) => output,
        None => reader
            .recv_timeout(limit.saturating_sub(started.elapsed()))
            .map_err(|_| {
                group.end();
                format!(
                    "did not close its output within {} s (a background process holding it?)",
                    limit.as_secs_f64()
                )
            })?,
    };
    key_from(output.map_err(|e| format!("could not be read: {e}"))?)
}

/// The key a command printed: one line of UTF-8 text, at most `MAX_KEY_BYTES`.
fn key_from(bytes: Vec<u8>) -> Result<ApiKey, String> {
    if bytes.len() > MAX_KEY_BYTES {
        return Err(too_long());
    }
    let text = String::from_utf8(bytes).map_err(|_| "printed something that is not UTF-8 text")?;
    if text.trim().lines().count() > 1 {
        return Err("printed more than one line; the key is the one line it should print".into());
    }
    ApiKey::new(&text).ok_or_else(|| "printed nothing".to_owned())
}

fn too_long() -> String {
    format!(
        "printed more than {MAX_KEY_BYTES} bytes, far more than a key; it should print the key \
        alone"
    )
}

/// What the reader thread sends: the command's output, up to one byte past the bound.
type Output = std::io::Result<Vec<u8>>;

/// Waits for the command to end, with its output if that came first; past `limit`, or once
/// it has printed more than a key can be, ends its whole group.
fn wait(
    group: &mut CommandGroup,
    reader: &Receiver<Output>,
    started: Instant,
    limit: Duration,
) -> Result<(ExitStatus, Option<Output>), String> {
    let mut output = None;
    loop {
        if output.is_none() {
            if let Ok(read) = reader.try_recv() {
                // The reader stops one byte past the bound: a command still printing then
                // (`yes`) is ended at once rather than left blocked on a full pipe.
                if read.as_ref().is_ok_and(|bytes| bytes.len() > MAX_KEY_BYTES) {
                    group.end();
                    return Err(too_long());
                }
                output = Some(read);
            }
        }
        match group.try_wait().map_err(|e| format!("failed: {e}"))? {
            Some(status) => return Ok((status, output)),
            None if started.elapsed() > limit => {
                group.end();
                return Err(format!("did not finish within {} s", limit.as_secs_f64()));
            }
            None => std::thread::sleep(Duration::from_millis(10)),
        }
    }
}

/// A command whose first word names a script file (`~/bin/key.sh`, `./get-key`) runs it only
/// when the file is trusted (see `system::ownership`): whoever can change the script chooses
/// what runs as the user. A bare name is found on PATH by the shell, as any command is.
fn trusted_script(command: &str) -> Result<(), String> {
    let Some(first) = command.split_whitespace().next() else {
        return Ok(());
    };
    let first = first.trim_matches(['\'', '"']);
    if !first.contains('/') {
        return Ok(());
    }
    let path = match first.strip_prefix("~/") {
        Some(rest) => match dirs::home_dir() {
            Some(home) => home.join(rest),
            None => return Ok(()),
        },
        None => std::path::PathBuf::from(first),
    };
    ownership::check_path(&path)
        .map_err(|refused| format!("is not run: the script {}; {}", refused.why, refused.hint))
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
    fn endless_output_is_cut_and_refused() {
        let refusals = [
            (
                "yes",
                "printed more than 4096 bytes, far more than a key; it should print the key alone",
            ),
            (
                "printf 'abcdefgh\\nsecond\\n'",
                "printed more than one line; the key is the one line it should print",
            ),
        ];
        for (command, refusal) in refusals {
            assert_eq!(run_default(command).unwrap_err(), refusal);
        }
    }

    #[test]
    fn failures_never_echo_output() {
        let err = run_default("echo secret-ish; exit 3").unwrap_err();
        assert_eq!(err, "failed (exit status: 3)");
        assert_eq!(run_default("true").unwrap_err(), "printed nothing");
    }
}
