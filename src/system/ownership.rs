//! Whose files a run trusts, the one rule (OpenSSH's StrictModes, with Debian's user private
//! groups): a file the run takes settings, a key command, certificates or earlier rows from,
//! or locks, must belong to the user or to root, and no one else may be able to change it: no
//! other-write bit, and the group-write bit only when the group has no member but the user or
//! root (a user private group, so that umask 002 works). Its folder must be the user's or
//! root's and writable by no one else unless sticky (as `/tmp` is, where others cannot replace
//! a file they do not own). Only the file's own folder is looked at, not the folders above it.
//! A link in a folder someone else can write is followed only when it belongs to the user or
//! root (`planted`). A FIFO, device or socket (a stream, not a file) is taken only from the
//! user or root: the user's own FIFO, `/dev/stdin`, a pipe from the shell, `/dev/null`. What
//! is opened is decided by `fstat` on the open file, never by a path check that could race.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::shell;
#[cfg(unix)]
use super::writers::{is_ours, writers};
pub(crate) use super::writers::{only_owner_removes, shared_folder, who};

/// Why a file is not used, and what the user can do about it.
#[derive(Debug)]
pub(crate) struct Untrusted {
    /// Read after the file's name: "belongs to user id 65534 (nobody), ...".
    pub why: String,
    pub hint: String,
}

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum NotRead {
    Io(io::Error),
    Untrusted(Untrusted),
    /// It holds more than the cap (or never ends, as `/dev/zero`).
    TooLarge(u64),
}

impl std::fmt::Display for NotRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotRead::Io(e) => write!(f, "{e}"),
            NotRead::Untrusted(u) => f.write_str(&u.why),
            NotRead::TooLarge(cap) => write!(f, "it holds more than {} KiB", cap / 1024),
        }
    }
}

/// Reads at most `cap` bytes of `path`, when the file is trusted; more is refused, so that
/// `/dev/zero` or a huge file ends the read at once. A FIFO is opened without waiting for a
/// writer, checked, then read as usual.
pub(crate) fn read_trusted(path: &Path, cap: u64) -> Result<Vec<u8>, NotRead> {
    let file = open_checked(path, OpenOptions::new().read(true)).map_err(|e| match e {
        Opened::Io(e) => NotRead::Io(e),
        Opened::Untrusted(u) => NotRead::Untrusted(u),
    })?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(NotRead::Io)?;
    if bytes.len() as u64 > cap {
        return Err(NotRead::TooLarge(cap));
    }
    Ok(bytes)
}

/// Why a file was not opened.
#[derive(Debug)]
pub(crate) enum Opened {
    Io(io::Error),
    Untrusted(Untrusted),
}

/// Opens `path` as `options` say, without waiting on a FIFO, and keeps it only when what was
/// opened is trusted ([`check`]); the file is then blocking again.
pub(crate) fn open_checked(path: &Path, options: &mut OpenOptions) -> Result<File, Opened> {
    refuse_planted_link(path).map_err(Opened::Untrusted)?;
    let file = open_nonblocking(path, options).map_err(Opened::Io)?;
    let metadata = file.metadata().map_err(Opened::Io)?;
    check(path, &metadata).map_err(Opened::Untrusted)?;
    blocking(&file).map_err(Opened::Io)?;
    Ok(file)
}

#[cfg(unix)]
fn open_nonblocking(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    options
        .custom_flags(nix::libc::O_NONBLOCK | nix::libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    options.open(path)
}

#[cfg(unix)]
fn blocking(file: &File) -> io::Result<()> {
    use nix::fcntl::{fcntl, FcntlArg, OFlag};
    let flags = fcntl(file, FcntlArg::F_GETFL).map_err(io::Error::from)?;
    let flags = OFlag::from_bits_truncate(flags) & !OFlag::O_NONBLOCK;
    fcntl(file, FcntlArg::F_SETFL(flags)).map_err(io::Error::from)?;
    Ok(())
}

#[cfg(not(unix))]
fn blocking(_: &File) -> io::Result<()> {
    Ok(())
}

/// Whether the file `path` names, whose `metadata` is its `fstat` (or `stat`), may be used.
#[cfg(unix)]
pub(crate) fn check(path: &Path, metadata: &Metadata) -> Result<(), Untrusted> {
    use std::os::unix::fs::MetadataExt;
    let me = nix::unistd::geteuid().as_raw();
    let (owner, mode) = (metadata.uid(), metadata.mode() & 0o7777);
    check_owner(path, metadata)?;
    if metadata.is_dir() {
        return folder_trusted(path, metadata);
    }
    if !metadata.is_file() {
        // A stream of the user's or root's: a FIFO's or a device's mode says nothing here.
        return Ok(());
    }
    if let Some(writers) = writers(metadata) {
        return Err(Untrusted {
            why: format!(
                "{} can be changed by {writers} (mode {mode:04o}, owned by {}), who could change \
                    what this run does, so it is not used",
                path.display(),
                who(owner)
            ),
            hint: fix(owner == me, path),
        });
    }
    check_folder(path)
}

/// The first half of [`check`]: the file `path` names belongs to the user or to root.
#[cfg(unix)]
pub(crate) fn check_owner(path: &Path, metadata: &Metadata) -> Result<(), Untrusted> {
    use std::os::unix::fs::MetadataExt;
    let (owner, mode) = (metadata.uid(), metadata.mode() & 0o7777);
    if is_ours(owner) {
        return Ok(());
    }
    Err(Untrusted {
        why: format!(
            "{} belongs to {}, not to you ({}) nor to root (mode {mode:04o}): another user's file \
                is not used, since it could steer this run or take what it writes",
            path.display(),
            who(owner),
            who(nix::unistd::geteuid().as_raw())
        ),
        hint: format!(
            "use a file of your own instead (copy what you trust of it, or ask {} to remove it)",
            who(owner)
        ),
    })
}

#[cfg(not(unix))]
pub(crate) fn check(_: &Path, _: &Metadata) -> Result<(), Untrusted> {
    Ok(())
}

#[cfg(not(unix))]
pub(crate) fn check_owner(_: &Path, _: &Metadata) -> Result<(), Untrusted> {
    Ok(())
}

/// Whether a folder every file of which is read (`SSL_CERT_DIR`) may be used: it and every
/// file in it pass [`check`], and, since any file put there counts, the folder is writable by
/// no one else even when sticky.
pub(crate) fn check_folder_of_files(folder: &Path) -> Result<(), Untrusted> {
    let Ok(metadata) = std::fs::metadata(folder) else {
        return Ok(());
    };
    check(folder, &metadata)?;
    #[cfg(unix)]
    if let Some(writers) = writers(&metadata) {
        use std::os::unix::fs::MetadataExt;
        return Err(Untrusted {
            why: format!(
                "folder {} can be changed by {writers} (mode {:04o}), who could add a file to it, \
                    so it is not used",
                folder.display(),
                metadata.mode() & 0o7777
            ),
            hint: fix(is_ours(metadata.uid()), folder),
        });
    }
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        check_path(&entry.path())?;
    }
    Ok(())
}

/// A link on the way to `path` that another user may have planted, refused (`planted`).
fn refuse_planted_link(path: &Path) -> Result<(), Untrusted> {
    super::planted::refuse_planted(path).map_err(|e| Untrusted {
        why: e.to_string(),
        hint: super::planted::HINT.into(),
    })
}

/// The folder a file is really in must let no one else replace it.
#[cfg(unix)]
fn check_folder(path: &Path) -> Result<(), Untrusted> {
    let Some(folder) = real_folder(path) else {
        return Ok(());
    };
    let Ok(metadata) = std::fs::metadata(&folder) else {
        return Ok(());
    };
    folder_trusted(&folder, &metadata).map_err(|refused| Untrusted {
        why: format!("{} is in {}", path.display(), refused.why),
        hint: refused.hint,
    })
}

/// A folder is the user's or root's, and no one else may write to it unless it is sticky.
#[cfg(unix)]
fn folder_trusted(folder: &Path, metadata: &Metadata) -> Result<(), Untrusted> {
    use std::os::unix::fs::MetadataExt;
    let me = nix::unistd::geteuid().as_raw();
    let (owner, mode) = (metadata.uid(), metadata.mode() & 0o7777);
    let theirs = !is_ours(owner);
    let open = writers(metadata).is_some() && mode & 0o1000 == 0;
    if !theirs && !open {
        return Ok(());
    }
    let whose = match theirs {
        true => format!("belongs to {}", who(owner)),
        false => "others can write to".to_owned(),
    };
    Err(Untrusted {
        why: format!(
            "folder {}, which {whose} (mode {mode:04o}), so another user could replace what is in \
                it: it is not used",
            folder.display()
        ),
        hint: match owner == me {
            true => fix(true, folder),
            false => "use a folder of your own".into(),
        },
    })
}

/// The folder of the file a path ends at, links followed.
fn real_folder(path: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(path).ok()?;
    real.parent().map(Path::to_path_buf)
}

/// What the user can run: `chmod go-w` on their own file, else use one of their own.
fn fix(own: bool, path: &Path) -> String {
    match own {
        true => format!(
            "if no one else should change it, run: chmod go-w {}",
            shell::quote(&path.display().to_string())
        ),
        false => "use a file of your own instead (or ask root to run chmod go-w on it)".into(),
    }
}

/// Whether a stat'ed path may be used: [`check`] on what `path` names now, for files another
/// library opens itself (the cache's SQLite); a missing file is no objection.
pub(crate) fn check_path(path: &Path) -> Result<(), Untrusted> {
    match std::fs::metadata(path) {
        Ok(metadata) => check(path, &metadata),
        Err(_) => Ok(()),
    }
}
