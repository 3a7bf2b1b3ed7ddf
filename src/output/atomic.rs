//! Replaces a file atomically (`--output FILE` and the config file), so that a failed or killed
//! run leaves either the old file or the new one, never a truncated mix.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::error::{Exit, Failure};

/// Who may read a replaced file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// An export: an existing file keeps its permissions, a new one gets the usual ones (0666
    /// less the umask).
    Ordinary,
    /// The config file, which may hold the API key: 0600 whatever was there before.
    Private,
}

/// Writes `bytes` to `path` for `--output`; a failure is exit 9 naming the file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    replace(path, bytes, Access::Ordinary).map_err(|e| {
        Failure::new(
            Exit::Output,
            format!("cannot write {}: {e}", path.display()),
        )
    })
}

/// Replaces `path` with `bytes`: a temp file in the same folder (a rename across file systems
/// would not be atomic), flushed to disk, then renamed over the target, so a failed or killed
/// run leaves the old file or the new one, never a truncated mix. The one writer of both
/// output files and the config file.
pub fn replace(path: &Path, bytes: &[u8], access: Access) -> io::Result<()> {
    if fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        // A device, a FIFO, `>(gzip > x.gz)`: nothing to replace, only a stream to write to.
        return write_through(path, bytes);
    }
    // A symlinked file is replaced where the link points, so the link stays a link (a config
    // file kept in a dotfiles repository stays there).
    let target = follow_links(path);
    let path = target.as_path();
    let folder = folder_of(path);
    let existing = fs::metadata(path).ok();
    let mut temp = create_temp(folder, path, access).map_err(without_temp_name)?;
    // Ctrl-C or SIGTERM from here until the rename removes the temp file before exiting.
    let _tracked = crate::output::interrupt::track(temp.path());
    temp.write_all(bytes)?;
    if let (Access::Ordinary, Some(metadata)) = (access, existing) {
        temp.as_file().set_permissions(metadata.permissions())?;
    }
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| without_temp_name(e.error))?;
    // The rename itself is durable only once the folder is synced; not every system allows it.
    let _ = File::open(folder).and_then(|dir| dir.sync_all());
    Ok(())
}

/// tempfile appends ` at path "<temp name>"`: the user knows only the target's name.
fn without_temp_name(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.split_once(" at path \"") {
        Some((cause, _)) => io::Error::new(e.kind(), cause.to_owned()),
        None => e,
    }
}

/// The file a chain of symlinks ends at (the path itself when it is no link).
fn follow_links(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    // As many hops as the kernel follows before it gives up (ELOOP).
    for _ in 0..40 {
        let Ok(next) = fs::read_link(&current) else {
            break;
        };
        current = match current.parent() {
            Some(folder) if next.is_relative() => folder.join(next),
            _ => next,
        };
    }
    current
}

fn write_through(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut stream = fs::OpenOptions::new().write(true).open(path)?;
    stream.write_all(bytes)?;
    stream.flush()
}

/// Creates the temp file beside `target`: the one place a temp file comes into being, so that
/// interrupt handling can register it for removal. Dropping it removes it.
#[cfg_attr(not(unix), allow(unused_variables))]
fn create_temp(folder: &Path, target: &Path, access: Access) -> io::Result<NamedTempFile> {
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // tempfile's own default is 0600; an export is an ordinary file, so the umask decides.
    #[cfg(unix)]
    if access == Access::Ordinary {
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    }
    builder.tempfile_in(folder)
}

/// The folder a path is in; a bare file name is in the current folder.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}
