//! Replaces a file atomically (`--output FILE` and the config file), so that a failed or killed
//! run leaves either the old file or the new one, never a truncated mix.

use std::fs::{self, File, Metadata};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::ownership::{self, Opened};
use super::{interrupt, planted, stream, temp};

/// Who may read a replaced file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// An export: an existing file keeps its permissions, a new one gets the usual ones (0666
    /// less the umask).
    Ordinary,
    /// The config file, which may hold the API key: 0600 whatever was there before.
    Private,
}

/// Why a file was not written (read after "cannot write FILE: "), and what to do about it.
#[derive(Debug)]
pub(crate) struct NotWritten {
    pub error: io::Error,
    pub hint: Option<String>,
}

impl From<io::Error> for NotWritten {
    fn from(error: io::Error) -> Self {
        NotWritten { error, hint: None }
    }
}

/// Before any request: `path` may be written by [`replace`] as far as its name
/// tells (no link another user planted, no descriptor the caller did not pass, no file or
/// stream of another user's at it).
pub(crate) fn check_output_path(path: &Path) -> Result<(), NotWritten> {
    match stream::own_descriptor(path) {
        Some(fd) => refuse_unpassed(fd),
        None => final_target(path).and_then(|target| refuse_foreign_stream(&target)),
    }
}

/// A stream (FIFO, device, socket) or a file at the target that is not the user's nor root's,
/// before any request; the open checks a stream again. Another user's file is theirs to
/// replace, not this run's (a sticky folder would refuse the rename only after the fetch).
fn refuse_foreign_stream(target: &Path) -> Result<(), NotWritten> {
    match fs::metadata(target) {
        Ok(metadata) if !metadata.is_file() && !metadata.is_dir() => {
            ownership::check(target, &metadata).map_err(untrusted)
        }
        Ok(metadata) if metadata.is_file() => {
            ownership::check_owner(target, &metadata).map_err(untrusted)
        }
        _ => Ok(()),
    }
}

/// Replaces `path` with `bytes`: a temp file in the same folder (a rename across file systems
/// would not be atomic), flushed to disk, then renamed over the target, so a failed or killed
/// run leaves the old file or the new one, never a truncated mix. The one writer of both
/// output files and the config file. A stream (this run's own stdout, a FIFO, a device) is
/// written to instead: there is nothing to replace.
pub(crate) fn replace(path: &Path, bytes: &[u8], access: Access) -> Result<(), NotWritten> {
    replace_with(path, access, &mut |out| out.write_all(bytes))
}

/// What a file is made of: written into the `Write` it is handed.
pub(crate) type Fill<'a> = &'a mut dyn FnMut(&mut dyn Write) -> io::Result<()>;

/// [`replace`] with what `fill` writes: into the temp file as it comes (buffered), or, for a
/// stream, gathered first and written in one go as before.
pub(crate) fn replace_with(path: &Path, access: Access, fill: Fill<'_>) -> Result<(), NotWritten> {
    let gathered = |fill: Fill<'_>| -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        fill(&mut bytes)?;
        Ok(bytes)
    };
    if let Some(fd) = stream::own_descriptor(path) {
        refuse_stream(access, "one of this run's own streams")?;
        refuse_unpassed(fd)?;
        return Ok(stream::write_to_own(fd, path, &gathered(fill)?)?);
    }
    // A symlinked file is replaced where the link points, so the link stays a link (a config
    // file kept in a dotfiles repository stays there).
    let target = final_target(path)?;
    let path = target.as_path();
    let existing = fs::metadata(path).ok();
    if let Some(metadata) = &existing {
        if !metadata.is_file() {
            refuse_stream(access, stream::kind_of(metadata))?;
            return write_through(path, &gathered(fill)?);
        }
        refuse_read_only(metadata)?;
    }
    temp::remove_leftovers(path);
    let keep = match access {
        Access::Private => temp::Keep::private(),
        Access::Ordinary => temp::Keep::ordinary(existing.as_ref()),
    };
    // A signal from the moment it exists until the rename removes the temp file first.
    let (mut temp, tracked) =
        interrupt::make_tracked(|| temp::create(path, keep), |temp| temp.path())
            .map_err(|e| no_temp_file(path, e))?;
    // Through the plain file: its errors do not name the temp file, which the user never saw.
    let file = temp.as_file_mut();
    let mut out = io::BufWriter::with_capacity(64 * 1024, &mut *file);
    fill(&mut out)?;
    out.flush()?;
    drop(out);
    file.sync_all()?;
    interrupt::rename_tracked(tracked, || temp.persist(path))
        .map_err(|e| without_temp_name(e.error))?;
    // The rename itself is durable only once the folder is synced; not every system allows it.
    let _ = File::open(temp::folder_of(path)).and_then(|dir| dir.sync_all());
    Ok(())
}

/// The file a chain of symlinks ends at (the path itself when it is no link); a loop, or a
/// chain longer than the kernel follows, is an error rather than a link replaced by a file,
/// and so is a link another user planted in a shared folder.
pub(crate) fn final_target(path: &Path) -> Result<PathBuf, NotWritten> {
    let hops = stream::hops(path);
    planted::refuse_planted(path).map_err(|error| NotWritten {
        error,
        hint: Some(planted::HINT.into()),
    })?;
    let last = hops.last().expect("the path itself is the first hop");
    if hops.len() > stream::MAX_HOPS && fs::read_link(last).is_ok() {
        return Err(io::Error::other("too many levels of symbolic links (a loop?)").into());
    }
    // The path as given when it is no link, so that messages name it as the user wrote it.
    Ok(match hops.len() {
        1 => path.to_path_buf(),
        _ => last.clone(),
    })
}

/// `/dev/fd/N` must be a descriptor the caller passed (`3>>log.csv`): any other number is
/// one the tool opened for itself, such as the cache database, and writing there would
/// corrupt it.
fn refuse_unpassed(fd: u32) -> Result<(), NotWritten> {
    if stream::was_passed(fd) {
        return Ok(());
    }
    Err(NotWritten {
        error: io::Error::other(format!(
            "it names descriptor {fd}, which the caller did not pass to this run (it was not open \
            when the run started)"
        )),
        hint: Some(format!(
            "open descriptor {fd} where the command is run (e.g. {fd}>>FILE in the shell), or give \
            a file name"
        )),
    })
}

/// The config file is replaced, never written through: streamed out, it would print the key.
fn refuse_stream(access: Access, kind: &str) -> Result<(), NotWritten> {
    match access {
        Access::Ordinary => Ok(()),
        Access::Private => Err(NotWritten {
            error: io::Error::other(format!("it is {kind}, not a regular file")),
            hint: Some("point --config or CHAIN_METRICS_CONFIG at a regular file".into()),
        }),
    }
}

/// A read-only file is one its owner chose to protect: replacing it by rename would be allowed
/// by the folder, but not by what the user meant.
fn refuse_read_only(metadata: &Metadata) -> Result<(), NotWritten> {
    if !metadata.permissions().readonly() {
        return Ok(());
    }
    #[cfg(unix)]
    let why = format!(
        "it is read-only (mode {:04o})",
        std::os::unix::fs::PermissionsExt::mode(&metadata.permissions()) & 0o777
    );
    #[cfg(not(unix))]
    let why = "it is read-only".to_owned();
    Err(NotWritten {
        error: io::Error::new(io::ErrorKind::PermissionDenied, why),
        hint: Some("make it writable (chmod u+w) or write to another file".into()),
    })
}

/// The temp file beside the target could not be made (a read-only folder, a full disk): say
/// that one is needed, since the user only asked for the target.
fn no_temp_file(target: &Path, e: io::Error) -> NotWritten {
    use io::ErrorKind::{PermissionDenied, ReadOnlyFilesystem};
    if !matches!(e.kind(), PermissionDenied | ReadOnlyFilesystem) {
        // A missing folder, a full disk: the plain reason says it all.
        return without_temp_name(e).into();
    }
    let folder = match temp::folder_of(target) {
        f if f == Path::new(".") => "the current folder".to_owned(),
        f => f.display().to_string(),
    };
    NotWritten {
        error: io::Error::new(
            e.kind(),
            format!(
                "{folder} refused a temporary file ({}), and one is needed beside the file: the \
                new content goes there first, then is renamed over it",
                without_temp_name(e)
            ),
        ),
        hint: Some(format!(
            "make {folder} writable, or write to a file in another folder"
        )),
    }
}

/// tempfile appends ` at path "<temp name>"`: the user knows only the target's name.
fn without_temp_name(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.split_once(" at path \"") {
        Some((cause, _)) => io::Error::new(e.kind(), cause.to_owned()),
        None => e,
    }
}

/// Writes to a stream at `path` (a FIFO, a device), only one of the user's or root's (see
/// `ownership`): a FIFO another user planted would hand them the export, or hang the run.
fn write_through(path: &Path, bytes: &[u8]) -> Result<(), NotWritten> {
    let mut stream = open_stream(path)?;
    stream.write_all(bytes)?;
    Ok(stream.flush()?)
}

/// Opens the stream without waiting, and keeps it if what was opened is trusted. A FIFO no
/// one reads yet cannot be opened so: one of the user's is then waited for, as the shell
/// waits, and what was opened checked again.
fn open_stream(path: &Path) -> Result<File, NotWritten> {
    match ownership::open_checked(path, fs::OpenOptions::new().write(true)) {
        Ok(file) => Ok(file),
        Err(Opened::Untrusted(refused)) => Err(untrusted(refused)),
        Err(Opened::Io(e)) if is_unread_fifo(&e) => {
            let before = fs::metadata(path)?;
            ownership::check(path, &before).map_err(untrusted)?;
            let file = fs::OpenOptions::new().write(true).open(path)?;
            let after = file.metadata()?;
            ownership::check(path, &after).map_err(untrusted)?;
            Ok(file)
        }
        Err(Opened::Io(e)) => Err(e.into()),
    }
}

#[cfg(unix)]
fn is_unread_fifo(e: &io::Error) -> bool {
    e.raw_os_error() == Some(nix::libc::ENXIO)
}

#[cfg(not(unix))]
fn is_unread_fifo(_: &io::Error) -> bool {
    false
}

/// A file another user owns or can change, refused with what the user can do.
pub(crate) fn untrusted(refused: ownership::Untrusted) -> NotWritten {
    NotWritten {
        error: io::Error::new(io::ErrorKind::PermissionDenied, refused.why),
        hint: Some(refused.hint),
    }
}
