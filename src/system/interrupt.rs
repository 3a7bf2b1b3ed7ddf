//! Ctrl-C, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM and SIGXFSZ (a `ulimit -f` hit): stop at
//! once with exit 128 + the signal (130, 143, 129, 138, 140, 142, 153), deleting the temporary
//! files and locks in progress so that an interrupted run never leaves a partial output behind
//! (the old file stays intact). A temp file is registered in the same step that makes it, and a
//! signal that comes once the output's rename is done ends the run as a success: the file is
//! complete.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

/// The exit code of a run stopped by Ctrl-C (SIGINT): 128 + 2, the shells' convention. The
/// exit code `Exit::Interrupted` is this number.
pub(crate) const CTRL_C_EXIT: u8 = 130;

/// The temporary files being written now, by ticket.
static TRACKED: Mutex<Vec<(u64, PathBuf)>> = Mutex::new(Vec::new());
static NEXT_TICKET: AtomicU64 = AtomicU64::new(1);
/// Set once a signal arrived: the handler is cleaning up and will exit with [`EXIT_CODE`].
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The exit code of the interruption: 128 + the signal's number.
static EXIT_CODE: AtomicI32 = AtomicI32::new(CTRL_C_EXIT as i32);
/// Set, under the lock of [`TRACKED`], once a replaced file's rename is done.
static RENAMED: AtomicBool = AtomicBool::new(false);

/// Whether the run was interrupted. `main` then leaves the exit to the handler (which may
/// still be restoring the terminal) instead of reporting the failed read the signal caused.
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The exit code of the interruption, by the shells' convention 128 + the signal: 130 for
/// Ctrl-C (SIGINT), 143 for SIGTERM, 129 for SIGHUP.
pub(crate) fn exit_code() -> u8 {
    u8::try_from(EXIT_CODE.load(Ordering::SeqCst)).unwrap_or(CTRL_C_EXIT)
}

/// After a signal: the handler is removing temp files (and may be restoring the terminal's
/// echo) and then exits 128 + the signal itself; ending the process first would cut that short.
/// Waits for it, with a bound in case the cleanup hangs (a `stty` on a terminal gone away),
/// and gives the code to exit with if it has not.
pub(crate) fn wait_for_handler() -> u8 {
    std::thread::sleep(std::time::Duration::from_secs(5));
    exit_code()
}

/// Set (to 1) while a hidden prompt has the terminal's echo off.
static ECHO_OFF: AtomicU32 = AtomicU32::new(0);

/// A fact the interruption handler reads, set while the guard lives and cleared (0) when it is
/// dropped: the echo being off, the key command's process group.
#[must_use = "what the guard holds is forgotten when it is dropped"]
pub(crate) struct Scoped(&'static AtomicU32);

impl Scoped {
    fn set(cell: &'static AtomicU32, value: u32) -> Scoped {
        cell.store(value, Ordering::SeqCst);
        Scoped(cell)
    }
}

impl Drop for Scoped {
    fn drop(&mut self) {
        self.0.store(0, Ordering::SeqCst);
    }
}

/// While the guard lives, an interruption turns the terminal's echo back on before exiting.
pub(crate) fn echo_off() -> Scoped {
    Scoped::set(&ECHO_OFF, 1)
}

/// Handles SIGINT, SIGTERM and SIGHUP: they are blocked in this thread, so in every thread
/// started after it, and one thread waits for them and stops the run with 128 + the signal.
/// Called first thing, before any other thread starts. Child processes start with no signal
/// blocked (the standard library resets the mask).
pub(crate) fn install() -> Result<(), String> {
    #[cfg(unix)]
    {
        use nix::sys::signal::{SigSet, Signal};
        let mut set = SigSet::empty();
        for signal in [
            Signal::SIGINT,
            Signal::SIGTERM,
            Signal::SIGHUP,
            Signal::SIGUSR1,
            Signal::SIGUSR2,
            Signal::SIGALRM,
            Signal::SIGXFSZ,
        ] {
            set.add(signal);
        }
        set.thread_block().map_err(|e| e.to_string())?;
        let waiter = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                // `wait` fails only on an invalid set; then the signals stay blocked.
                if let Ok(signal) = set.wait() {
                    stop_with(128 + signal as i32);
                }
            });
        if let Err(e) = waiter {
            // With no thread to take them, blocked signals would be lost: let them kill.
            let _ = set.thread_unblock();
            return Err(e.to_string());
        }
    }
    #[cfg(not(unix))]
    ctrlc::set_handler(|| stop()).map_err(|e| e.to_string())?;
    Ok(())
}

/// Stops the run as interrupted by Ctrl-C (exit 130): whatever learns of a Ctrl-C before the
/// signal does calls it: a password prompt reads the key itself (the signal comes after), a key
/// command holding the terminal gets it instead of the run.
pub(crate) fn stop() -> ! {
    stop_with(i32::from(CTRL_C_EXIT))
}

/// Stops the run as interrupted: temporary files deleted, a running key command ended, the
/// terminal's echo restored, exit `code`.
fn stop_with(code: i32) -> ! {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // Another thread is stopping the run already, and exits the process.
        loop {
            std::thread::park();
        }
    }
    EXIT_CODE.store(code, Ordering::SeqCst);
    remove_tracked();
    // The rename is done or will never be (the lock is held until the exit): done, the file
    // is complete, and the run a success.
    let code = match RENAMED.load(Ordering::SeqCst) {
        true => 0,
        false => code,
    };
    EXIT_CODE.store(code, Ordering::SeqCst);
    end_tracked_group();
    if ECHO_OFF.load(Ordering::SeqCst) != 0 {
        // rpassword turns echo back on when its prompt returns, which `exit` skips.
        let _ = std::process::Command::new("sh")
            .args(["-c", "stty echo < /dev/tty"])
            .status();
    }
    // `exit` runs no destructors: the tracked files are gone already and nothing else
    // holds state worth saving; the in-flight requests simply stop.
    std::process::exit(code);
}

/// The process group of the key command running now (its leader's id), 0 when none.
static GROUP: AtomicU32 = AtomicU32::new(0);

/// While the guard lives, an interruption ends the process group led by `leader` too: the key
/// command has the terminal, so a signal to the run does not reach it otherwise.
pub(crate) fn track_group(leader: u32) -> Scoped {
    Scoped::set(&GROUP, leader)
}

fn end_tracked_group() {
    #[cfg(unix)]
    if let Ok(leader @ 1..) = i32::try_from(GROUP.load(Ordering::SeqCst)) {
        use nix::sys::signal::{killpg, Signal};
        let _ = killpg(nix::unistd::Pid::from_raw(leader), Signal::SIGKILL);
    }
}

/// Keeps `path` on the list of files to delete if the run is interrupted, until dropped.
#[must_use = "the path is untracked when the guard is dropped"]
#[derive(Debug)]
pub(crate) struct Tracked {
    ticket: u64,
}

/// Tracks a temporary file until the returned guard is dropped (after the rename, or after
/// the file was removed on an error).
pub(crate) fn track(path: &Path) -> Tracked {
    let ticket = NEXT_TICKET.fetch_add(1, Ordering::Relaxed);
    lock().push((ticket, path.to_owned()));
    Tracked { ticket }
}

/// Makes a temporary file with `make` and tracks it (at the path `path_of` gives) in one step:
/// an interruption waits until both are done, so no signal finds it made but not tracked.
pub(crate) fn make_tracked<T>(
    make: impl FnOnce() -> std::io::Result<T>,
    path_of: impl Fn(&T) -> &Path,
) -> std::io::Result<(T, Tracked)> {
    let mut tracked = lock();
    let made = make()?;
    let ticket = NEXT_TICKET.fetch_add(1, Ordering::Relaxed);
    tracked.push((ticket, path_of(&made).to_owned()));
    Ok((made, Tracked { ticket }))
}

/// Renames the tracked temp file over its target with `rename`, in one step with untracking
/// it: an interruption before is a failed run (the temp file removed), one after a success.
pub(crate) fn rename_tracked<T, E>(
    tracked: Tracked,
    rename: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    let ticket = tracked.ticket;
    // Untracked here, under the lock, rather than by the guard (which would take it again);
    // a failed rename leaves it tracked until the process ends (removing it then is harmless).
    std::mem::forget(tracked);
    let mut all = lock();
    let renamed = rename();
    if renamed.is_ok() {
        all.retain(|(held, _)| *held != ticket);
        RENAMED.store(true, Ordering::SeqCst);
    }
    renamed
}

impl Drop for Tracked {
    fn drop(&mut self) {
        lock().retain(|(ticket, _)| *ticket != self.ticket);
    }
}

/// Deletes every tracked file; what is already gone is no matter.
pub(crate) fn remove_tracked() {
    for (_, path) in lock().drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

fn lock() -> std::sync::MutexGuard<'static, Vec<(u64, PathBuf)>> {
    // A panic elsewhere while holding the list leaves it usable: it is only paths.
    TRACKED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracked_files_are_removed_and_dropped_guards_untrack() {
        let dir = tempfile::tempdir().unwrap();
        let (kept, doomed) = (dir.path().join("done.csv"), dir.path().join(".tmp-out"));
        std::fs::write(&kept, "old").unwrap();
        std::fs::write(&doomed, "partial").unwrap();
        drop(track(&kept));
        let _guard = track(&doomed);
        remove_tracked();
        assert!(kept.exists(), "an untracked file is left alone");
        assert!(!doomed.exists(), "a tracked file is removed");
        assert!(lock().iter().all(|(_, p)| p != &doomed));
    }
}
