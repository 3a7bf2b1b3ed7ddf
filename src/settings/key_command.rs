//! Runs `api_key_command` (a password manager, say) and takes its trimmed stdout as the key.
//! It runs without a shell: split into words as a shell would (quotes kept whole, `~/` at a
//! word's start your home), with no pipe, list, redirection or variable (refused with a hint:
//! put those in a script of your own); the program and every word that names a file are
//! checked by the one trust rule (`system::ownership`), so no other user's script runs
//! through an interpreter (`sh their.sh`), `env`, or a folder (`cd`), whatever word names it.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use std::sync::mpsc::Receiver;

use crate::settings::limits::MAX_KEY_BYTES;
use crate::settings::secret::ApiKey;
use crate::system::command_group::{interrupted_by_user, CommandGroup};
use crate::system::ownership;

/// Runs `command` (without a shell, see above), for at most `limit`, in a process group of its
/// own (see [`CommandGroup`]): when it overruns, it and everything it started are ended. The
/// error never includes what the command printed.
pub(super) fn run(command: &str, limit: Duration) -> Result<ApiKey, String> {
    let words = words(command)?;
    trusted_words(&words)?;
    let mut shell = Command::new(&words[0]);
    shell
        .args(&words[1..])
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

/// What the command line does that only a shell could: a pipe, a list (`;`, `&&`, `&`), a
/// redirection, a subshell, a substitution or a variable, outside single quotes.
const SHELL_ONLY: &[char] = &['|', '&', ';', '<', '>', '(', ')', '`', '$'];

/// The words of `command`, split as a shell splits them; refused when it needs a shell.
fn words(command: &str) -> Result<Vec<String>, String> {
    let needs_shell = |c: char| {
        format!(
            "is not run: it uses `{c}`, and it is run without a shell (so that every file it names \
                can be checked)"
        )
    };
    let mut quote = None;
    for c in command.chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (Some('\''), _) => {}
            (_, c) if SHELL_ONLY.contains(&c) && (quote.is_none() || matches!(c, '`' | '$')) => {
                return Err(format!(
                    "{}; put what it does in a script of your own (chmod 700) and name that script \
                        as api_key_command",
                    needs_shell(c)
                ));
            }
            _ => {}
        }
    }
    let words: Vec<String> = shlex::split(command)
        .ok_or("is not run: its quotes are not closed")?
        .into_iter()
        .map(|word| match word.strip_prefix("~/").zip(dirs::home_dir()) {
            Some((rest, home)) => home.join(rest).display().to_string(),
            None => word,
        })
        .collect();
    if words.is_empty() {
        return Err("is empty".into());
    }
    Ok(words)
}

/// The program and every word that names an existing file or folder (as it is, after a `=`,
/// or in a script text handed to an interpreter's `-c`; relative to the current folder or to
/// a folder an earlier word names, as a `cd` would make it) must be trusted (see
/// `system::ownership`): whoever can change one of them chooses what runs as the user.
fn trusted_words(words: &[String]) -> Result<(), String> {
    let refused = |what: &str, refused: ownership::Untrusted| {
        format!("is not run: the {what} {}; {}", refused.why, refused.hint)
    };
    if let Some(program) = on_path(&words[0]) {
        let what = match words[0].contains('/') {
            true => "script",
            false => "program",
        };
        ownership::check_path(&program).map_err(|e| refused(what, e))?;
    }
    let mut folders = vec![PathBuf::from(".")];
    for word in words.iter().flat_map(|w| inner_words(w)) {
        for candidate in [Some(word.as_str()), word.split_once('=').map(|(_, v)| v)]
            .into_iter()
            .flatten()
            .filter(|c| !c.is_empty())
        {
            for path in folders
                .iter()
                .map(|f| f.join(candidate))
                .collect::<Vec<_>>()
            {
                if std::fs::symlink_metadata(&path).is_err() {
                    continue;
                }
                ownership::check_path(&path).map_err(|e| refused("script", e))?;
                if path.is_dir() {
                    folders.push(path);
                }
            }
        }
    }
    Ok(())
}

/// A word, and the words inside it when it is a script text (`sh -c 'cd /x && ./key.sh'`).
fn inner_words(word: &str) -> Vec<String> {
    let mut all = vec![word.to_owned()];
    if word.contains(char::is_whitespace) || word.contains(SHELL_ONLY) {
        let spaced: String = word
            .chars()
            .map(|c| if SHELL_ONLY.contains(&c) { ' ' } else { c })
            .collect();
        let inner = shlex::split(&spaced)
            .unwrap_or_else(|| spaced.split_whitespace().map(str::to_owned).collect());
        all.extend(inner);
    }
    all
}

/// Where the program `name` is: itself when it has a `/`, else the first executable file of
/// that name on PATH, as the system looks it up.
fn on_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return Some(PathBuf::from(name));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|folder| folder.join(name))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &std::path::Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_default(command: &str) -> Result<ApiKey, String> {
        run(command, crate::settings::defaults::KEY_COMMAND_LIMIT)
    }

    #[test]
    fn a_command_that_hangs_is_stopped_at_the_limit() {
        let err = run("sh -c 'echo partial; sleep 5'", Duration::from_millis(200)).unwrap_err();
        assert_eq!(err, "did not finish within 0.2 s");
    }

    #[test]
    fn a_background_child_holding_stdout_does_not_hang_the_run() {
        let err = run("sh -c 'echo key; sleep 5 &'", Duration::from_millis(300)).unwrap_err();
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
        let err = run_default("sh -c 'echo secret-ish; exit 3'").unwrap_err();
        assert_eq!(err, "failed (exit status: 3)");
        assert_eq!(run_default("true").unwrap_err(), "printed nothing");
    }

    #[test]
    fn what_needs_a_shell_is_refused_and_quotes_keep_words_whole() {
        for command in [
            "pass show cm | head -1",
            "a && b",
            "a; b",
            "a > f",
            "echo $HOME",
            "echo \"$(id)\"",
            "a `b`",
        ] {
            let err = run_default(command).unwrap_err();
            assert!(err.starts_with("is not run: it uses `"), "{command}: {err}");
            assert!(
                err.ends_with("name that script as api_key_command"),
                "{err}"
            );
        }
        assert_eq!(
            run_default("printf '%s' 'a;b|c&d'").unwrap().expose(),
            "a;b|c&d"
        );
        assert_eq!(
            words("'unclosed").unwrap_err(),
            "is not run: its quotes are not closed"
        );
        assert!(run_default("cd /")
            .unwrap_err()
            .starts_with("could not start"));
    }
}
