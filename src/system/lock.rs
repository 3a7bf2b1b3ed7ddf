//! An advisory lock on a `.NAME.lock` file beside a file that a run reads, changes and
//! replaces (`--merge`, config edits): two runs at once take turns, so neither loses the
//! other's change. The lock is on a file of its own because the rename replaces the target,
//! and with it any lock held on the target itself.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{atomic, diag, interrupt, ownership, stream, temp};

/// How long to wait for another run's lock.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LockWait {
    pub limit: Duration,
}

/// Why no lock was taken.
#[derive(Debug)]
pub(crate) enum LockError {
    /// Another run still held it when the wait ran out.
    Busy { waited: Duration },
    /// The target itself may not be followed (a link another user planted).
    Target(atomic::NotWritten),
    /// The lock file could not be made or locked.
    Failed {
        lock_file: PathBuf,
        error: io::Error,
    },
}

/// The lock, held until dropped.
#[derive(Debug)]
pub(crate) struct FileLock {
    path: PathBuf,
    _file: File,
    /// SIGINT, SIGTERM or SIGHUP remove the lock file too, as dropping it does.
    _tracked: interrupt::Tracked,
}

/// How often a waiting run tries again.
const POLL: Duration = Duration::from_millis(20);

/// Takes the lock for `target` (the file a chain of links ends at), waiting as `wait` allows;
/// a run that has to wait says so once on stderr.
pub(crate) fn lock_beside(target: &Path, wait: LockWait) -> Result<FileLock, LockError> {
    let real = match atomic::final_target(target) {
        Ok(real) => real,
        Err(refused) if refused.hint.is_some() => return Err(LockError::Target(refused)),
        // A link loop: the replacement names it; the lock goes beside the path as given.
        Err(_) => target.to_path_buf(),
    };
    let path = temp::sibling(&real, ".lock");
    let failed = |error| LockError::Failed {
        lock_file: path.clone(),
        error,
    };
    let mut waiting = Waiting {
        target,
        wait,
        started: Instant::now(),
        told: false,
    };
    loop {
        let file = open_lock_file(&path).map_err(failed)?;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) => waiting.pause()?,
                Err(TryLockError::Error(error)) => return Err(failed(error)),
            }
        }
        // The run before removes the lock file as it lets go: a lock then taken on the removed
        // file guards nothing, and the file now at the path is the one to lock.
        if is_at(&file, &path) {
            let _tracked = interrupt::track(&path);
            return Ok(FileLock {
                path,
                _file: file,
                _tracked,
            });
        }
    }
}

/// Opens (or makes) the lock file, never through a link: a link planted at its name would
/// have the run create or lock whatever file it names. A new one is 0600 whatever the umask:
/// nobody else needs to read or write it, only to lock it.
fn open_lock_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Never waiting on a FIFO planted at the name: what was opened is checked below.
        options
            .mode(0o600)
            .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK | nix::libc::O_NOCTTY);
    }
    let file = options
        .open(path)
        .map_err(|e| match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => io::Error::new(
                io::ErrorKind::PermissionDenied,
                "it is a symbolic link, and a lock file is never followed",
            ),
            _ => e,
        })?;
    refuse_foreign(&file)?;
    make_private(&file)?;
    Ok(file)
}

/// A lock file is a plain file of the user's (or root's) with one name: a hard link planted
/// at the name would have the run change the linked file, a FIFO or device is no lock, and a
/// lock file another user owns lets them hold every run off.
fn refuse_foreign(file: &File) -> io::Result<()> {
    refuse_foreign_metadata(&file.metadata()?)
}

/// Before any request: a lock file already at the name of `target`'s lock that the run would
/// refuse (see `refuse_foreign`), said then rather than after the fetch.
pub(crate) fn check_lock_of(target: &Path) -> Result<(), LockError> {
    let path = temp::sibling(target, ".lock");
    let refused = match fs::symlink_metadata(&path) {
        Ok(m) if m.file_type().is_symlink() => Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "it is a symbolic link, and a lock file is never followed",
        )),
        Ok(m) => refuse_foreign_metadata(&m),
        Err(_) => Ok(()),
    };
    refused.map_err(|error| LockError::Failed {
        lock_file: path,
        error,
    })
}

#[cfg(unix)]
fn refuse_foreign_metadata(metadata: &fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let me = nix::unistd::geteuid().as_raw();
    let why = match () {
        _ if !metadata.is_file() => {
            format!("it is {}, not a plain file", stream::kind_of(metadata))
        }
        _ if metadata.uid() != me && metadata.uid() != 0 => format!(
            "it belongs to {}, not to you ({}), who could hold off every run",
            ownership::who(metadata.uid()),
            ownership::who(me)
        ),
        _ if metadata.nlink() != 1 => format!(
            "it has {} names (hard links), so it may be another file",
            metadata.nlink()
        ),
        _ => return Ok(()),
    };
    Err(io::Error::new(io::ErrorKind::PermissionDenied, why))
}

#[cfg(not(unix))]
fn refuse_foreign_metadata(_: &fs::Metadata) -> io::Result<()> {
    Ok(())
}

/// The umask may have cut the mode below 0600 (umask 0200); a lock file another user made
/// is theirs to keep.
#[cfg(unix)]
fn make_private(file: &File) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let metadata = file.metadata()?;
    if metadata.uid() == nix::unistd::geteuid().as_raw() && metadata.mode() & 0o7777 != 0o600 {
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn make_private(_: &File) -> io::Result<()> {
    Ok(())
}

/// A run waiting for another's lock.
struct Waiting<'a> {
    target: &'a Path,
    wait: LockWait,
    started: Instant,
    told: bool,
}

impl Waiting<'_> {
    /// Waits a moment before the next try, saying so the first time; gives up at the limit.
    fn pause(&mut self) -> Result<(), LockError> {
        let waited = self.started.elapsed();
        if waited >= self.wait.limit {
            return Err(LockError::Busy {
                waited: self.wait.limit,
            });
        }
        if !std::mem::replace(&mut self.told, true) {
            diag::note(format!(
                "waiting for another run that is changing {} (up to {} s, --lock-timeout)",
                self.target.display(),
                self.wait.limit.as_secs_f64()
            ));
        }
        std::thread::sleep(POLL.min(self.wait.limit - waited));
        Ok(())
    }
}

fn is_at(file: &File, path: &Path) -> bool {
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(held), Ok(named)) => same_file(&held, &named),
        _ => false,
    }
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

/// Windows: std has no file identity; an open file cannot be replaced there anyway.
#[cfg(not(unix))]
fn same_file(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    true
}

impl Drop for FileLock {
    /// Removes the lock file while still holding it, so that no folder fills with them; the
    /// lock goes when the file closes, right after.
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// What to do about a lock file that could not be used: the link or the file in the way, or
/// the folder that refused a new one.
pub(crate) fn lock_hint(lock_file: &Path) -> String {
    let shown = lock_file.display();
    match fs::symlink_metadata(lock_file) {
        Ok(m) if m.file_type().is_symlink() => {
            format!("remove the link {shown} if it is not meant to be there")
        }
        Ok(m) if !is_own(&m) => format!(
            "the lock file {shown} is another user's: ask them to remove it, or write to a folder \
            of your own"
        ),
        Ok(_) => format!(
            "remove {shown} if it is not meant to be there (no run of chain-metrics makes it so), \
            or write to another folder"
        ),
        Err(_) => "a lock file is made beside the file while it is changed: make its folder \
            writable, or use another folder"
            .into(),
    }
}

#[cfg(unix)]
fn is_own(metadata: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    let me = nix::unistd::geteuid().as_raw();
    metadata.uid() == me || metadata.uid() == 0
}

#[cfg(not(unix))]
fn is_own(_: &fs::Metadata) -> bool {
    true
}
