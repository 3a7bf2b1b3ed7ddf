//! A signal at the two edges of replacing a file (issue 40, point 5): sent the instant the temp
//! file is made, it finds the temp file already registered for removal (none is left, the old
//! file stays); sent the instant the rename is done, it ends the run as the success it is
//! (exit 0, the new file complete). Each is tried 15 times, the signal sent from an inotify
//! event on the folder, so within microseconds of the step.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use crate::support::files::names;
use crate::support::{fees_on, Env, Sandbox};

const TRIES: usize = 15;
const OLD: &str = "date,chain,fees\n2023-12-31,ETHEREUM,1\n";
const NEW: &str = "date,fees\n2024-01-01,879768.88\n";
const MERGED: &str = "date,chain,fees\n2023-12-31,ETHEREUM,1\n2024-01-01,ETHEREUM,879768.88\n";

/// inotify on one folder: the names of the files made in it or renamed into it, as they are.
struct Watch {
    fd: i32,
}

impl Watch {
    fn new(folder: &Path, events: u32) -> Watch {
        // SAFETY: plain system calls on a descriptor this value owns, and a C string that
        // outlives the call.
        let fd = unsafe { libc::inotify_init1(libc::IN_CLOEXEC) };
        assert!(fd >= 0, "inotify_init1");
        let path = CString::new(folder.as_os_str().as_bytes()).unwrap();
        let watched = unsafe { libc::inotify_add_watch(fd, path.as_ptr(), events) };
        assert!(watched >= 0, "inotify_add_watch");
        Watch { fd }
    }

    /// Waits up to 30 s for an event on a name that holds `part`: whether one came.
    fn wait_for(&self, part: &str) -> bool {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut buffer = [0u8; 8192];
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            let mut ready = libc::pollfd {
                fd: self.fd,
                events: libc::POLLIN,
                revents: 0,
            };
            let wait = i32::try_from(left.as_millis()).unwrap_or(i32::MAX);
            // SAFETY: one pollfd, then a read into a buffer of the length given.
            if unsafe { libc::poll(&mut ready, 1, wait) } <= 0 {
                continue;
            }
            let read = unsafe { libc::read(self.fd, buffer.as_mut_ptr().cast(), buffer.len()) };
            let Ok(read) = usize::try_from(read) else {
                continue;
            };
            // Each event: wd, mask, cookie, len (four 32-bit words), then `len` bytes of name.
            let mut at = 0;
            while at + 16 <= read {
                let len = u32::from_ne_bytes(buffer[at + 12..at + 16].try_into().unwrap());
                let name = &buffer[at + 16..at + 16 + len as usize];
                if String::from_utf8_lossy(name).contains(part) {
                    return true;
                }
                at += 16 + len as usize;
            }
        }
        false
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // SAFETY: the descriptor is this value's own.
        unsafe { libc::close(self.fd) };
    }
}

/// Runs the export over the old `fees.csv` (`--merge` every other try) and sends `signal` the
/// instant the folder sees `part` made (`IN_CREATE`) or renamed in (`IN_MOVED_TO`); then
/// the exit code and what the folder holds, `fees.csv`'s content last.
fn signalled_at(env: &Env, events: u32, part: &str, signal: Signal, merge: bool) -> (i32, String) {
    let home = env.home.path();
    std::fs::write(home.join("fees.csv"), OLD).unwrap();
    let watch = Watch::new(home, events);
    let mut args = fees_on("2024-01-01").to_vec();
    args.extend(["-o", "fees.csv"]);
    if merge {
        args.push("--merge");
    }
    let running = env.cmd_args(&args).any_outcome().spawn();
    let pid = Pid::from_raw(i32::try_from(running.child.id()).unwrap());
    assert!(watch.wait_for(part), "no {part} in the folder");
    // The run may have ended already, the signal then lost: nothing to check against.
    let _ = kill(pid, signal);
    let run = running.finish();
    let files: Vec<String> = names(home)
        .into_iter()
        .filter(|n| !n.starts_with(".config") && !n.starts_with(".cache"))
        .collect();
    assert_eq!(files, ["fees.csv"], "a temp file or lock is left");
    let content = std::fs::read_to_string(home.join("fees.csv")).unwrap();
    (run.code, content)
}

#[test]
fn a_sigint_the_instant_the_temp_file_is_made_leaves_none() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let mut stopped = 0;
    for n in 0..TRIES {
        let outcome = signalled_at(
            &env,
            libc::IN_CREATE,
            ".chain-metrics.",
            Signal::SIGINT,
            n % 2 == 1,
        );
        match outcome {
            (130, content) => {
                assert_eq!(content, OLD, "try {n}");
                stopped += 1;
            }
            // The signal came after the rename: the new file, complete.
            (0, content) => assert_eq!(content, [NEW, MERGED][n % 2], "try {n}"),
            (code, _) => panic!("try {n}: exit {code}"),
        }
    }
    assert!(stopped > 0, "no signal came before the rename");
}

#[test]
fn a_sigterm_the_instant_the_rename_is_done_is_a_success() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    for n in 0..TRIES {
        let outcome = signalled_at(
            &env,
            libc::IN_MOVED_TO,
            "fees.csv",
            Signal::SIGTERM,
            n % 2 == 1,
        );
        assert_eq!(outcome, (0, [NEW, MERGED][n % 2].to_owned()), "try {n}");
    }
}
