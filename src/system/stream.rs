//! Paths that name one of this run's own open streams (`/dev/stdout`, `/dev/stderr`,
//! `/dev/fd/N`, `/proc/self/fd/N`), also through symlinks. Such a path is written to, never
//! replaced: with `-o /dev/stdout >> log.csv`, the log is what the shell opened, and a rename
//! over it would throw its earlier lines away. Only a descriptor the caller passed may be so
//! named: one the tool opened itself (the cache database) is no output.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// As many symlink hops as the kernel follows before it gives up (ELOOP).
pub(super) const MAX_HOPS: usize = 40;

/// The descriptors open when the process started: the ones its caller passed.
static PASSED: OnceLock<Vec<u32>> = OnceLock::new();

/// Where the open descriptors are listed, one entry each (Linux, then the BSDs and macOS).
const LISTINGS: [&str; 2] = ["/proc/self/fd", "/dev/fd"];

/// Notes which descriptors the caller passed; `main` calls it before the run opens any file.
pub(crate) fn note_passed_descriptors() {
    let mut passed = open_descriptors();
    if stdout_was_closed() {
        passed.retain(|fd| *fd != 1);
    }
    let _ = PASSED.set(passed);
}

/// Whether stdout was closed when the process started (`>&-`). The standard library opens
/// `/dev/null` in its place before `main`, read-write: just as Python's `subprocess.DEVNULL`,
/// Go's `exec` and systemd's `StandardOutput=null` open it for a program they start, so that
/// afterwards the two cannot be told apart. So it is seen before: a constructor of the
/// executable (ELF `.init_array`), which the dynamic loader runs before the program's `main`
/// and so before the standard library's start-up, notes whether descriptor 1 was open.
#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    // Read through a volatile load of the constructor's address, so that the object holding
    // it is always linked in (an unreferenced one could be left out, and the note never made).
    let _ = std::hint::black_box(SEE_STDOUT);
    STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed)
}

/// What [`see_stdout`] found: descriptor 1 closed when the process started.
#[cfg(target_os = "linux")]
static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static SEE_STDOUT: extern "C" fn() = see_stdout;

#[cfg(target_os = "linux")]
extern "C" fn see_stdout() {
    // SAFETY: fcntl(F_GETFD) on a descriptor number only reads the descriptor table: -1
    // (EBADF) when 1 is not open, nothing changed either way.
    let closed = unsafe { nix::libc::fcntl(1, nix::libc::F_GETFD) } == -1;
    STDOUT_CLOSED_AT_START.store(closed, std::sync::atomic::Ordering::Relaxed);
}

/// Elsewhere a stdout closed at start cannot be told from `/dev/null` opened read-write by
/// whoever started the run: it is taken as given, and what is written there is thrown away.
#[cfg(not(target_os = "linux"))]
fn stdout_was_closed() -> bool {
    false
}

/// Whether `fd` was open when the process started. Without a note (the library used on its
/// own) only the three standard streams count as passed.
pub(crate) fn was_passed(fd: u32) -> bool {
    PASSED.get().map_or(fd <= 2, |passed| passed.contains(&fd))
}

fn open_descriptors() -> Vec<u32> {
    for listing in LISTINGS {
        let Ok(entries) = fs::read_dir(listing) else {
            continue;
        };
        let listed: Vec<u32> = entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
            .collect();
        // The listing's own descriptor was open while it was read, and is closed now.
        let folder = Path::new(listing);
        return listed
            .into_iter()
            .filter(|fd| fs::symlink_metadata(folder.join(fd.to_string())).is_ok())
            .collect();
    }
    vec![0, 1, 2]
}

/// The descriptor `path` names when it is one of this process's own, such as 1 for
/// `/dev/stdout` or for a symlink to it.
pub(crate) fn own_descriptor(path: &Path) -> Option<u32> {
    hops(path).iter().find_map(|hop| descriptor_named(hop))
}

/// Writes `bytes` to the process's descriptor `fd`, which `path` names. Standard output and
/// error are written through their handles, so the shell's position in a file is shared:
/// `{ echo head; chain-metrics ... -o /dev/stdout; echo tail; } > f` keeps all three parts.
pub(super) fn write_to_own(fd: u32, path: &Path, bytes: &[u8]) -> io::Result<()> {
    fn all(mut out: impl Write, bytes: &[u8]) -> io::Result<()> {
        out.write_all(bytes)?;
        out.flush()
    }
    match fd {
        1 => all(io::stdout().lock(), bytes),
        2 => all(io::stderr().lock(), bytes),
        // Another descriptor can only be reopened; appending adds to what is there, as the
        // shell's `N>>` would, rather than overwrite it from the start.
        _ => all(OpenOptions::new().append(true).open(path)?, bytes),
    }
}

/// What a file that is not a regular one is, for messages: "a FIFO", "a folder"...
pub(crate) fn kind_of(metadata: &fs::Metadata) -> &'static str {
    let kind = metadata.file_type();
    if kind.is_dir() {
        return "a folder";
    }
    unix_kind(&kind).unwrap_or("a special file")
}

#[cfg(not(unix))]
fn unix_kind(_: &fs::FileType) -> Option<&'static str> {
    None
}

#[cfg(unix)]
fn unix_kind(kind: &fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    Some(match () {
        _ if kind.is_fifo() => "a FIFO (named pipe)",
        _ if kind.is_char_device() => "a device",
        _ if kind.is_block_device() => "a block device",
        _ if kind.is_socket() => "a socket",
        _ => return None,
    })
}

/// The path, then each symlink it leads through, relative links taken from their folder.
pub(super) fn hops(path: &Path) -> Vec<PathBuf> {
    let mut current = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut hops = vec![current.clone()];
    for _ in 0..MAX_HOPS {
        let Ok(next) = fs::read_link(&current) else {
            break;
        };
        current = match current.parent() {
            Some(folder) if next.is_relative() => folder.join(next),
            _ => next,
        };
        hops.push(current.clone());
    }
    hops
}

/// The descriptor an absolute path names by its spelling alone.
fn descriptor_named(path: &Path) -> Option<u32> {
    let parts: Vec<String> = path
        .components()
        .filter_map(|part| match part {
            Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    let me = std::process::id().to_string();
    let number = |n: &str| n.parse::<u32>().ok();
    match parts.as_slice() {
        ["dev", "stdin"] => Some(0),
        ["dev", "stdout"] => Some(1),
        ["dev", "stderr"] => Some(2),
        ["dev", "fd", n] => number(n),
        ["proc", "self" | "thread-self", "fd", n] => number(n),
        ["proc", pid, "fd", n] if *pid == me => number(n),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_own_descriptors() {
        let me = format!("/proc/{}/fd/7", std::process::id());
        let other = format!("/proc/{}/fd/1", std::process::id() + 1);
        for (path, fd) in [
            ("/dev/stdout", Some(1)),
            ("//dev/./stderr", Some(2)),
            ("/dev/fd/63", Some(63)),
            ("/proc/self/fd/3", Some(3)),
            ("/proc/thread-self/fd/1", Some(1)),
            (me.as_str(), Some(7)),
            (other.as_str(), None),
            ("/dev/null", None),
            ("/dev/fd/x", None),
            ("/home/dev/stdout", None),
        ] {
            assert_eq!(descriptor_named(Path::new(path)), fd, "{path}");
        }
    }
}
