//! `--output FILE`: replaces a file atomically, so that a failed or killed run leaves either the
//! old file or the new one, never a truncated mix.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::error::{Exit, Failure};

/// Writes `bytes` to `path`: a temp file in the same folder (a rename across file systems would
/// not be atomic), flushed to disk, then renamed over the target. An existing file keeps its
/// permissions; a new one gets the usual ones (0666 less the umask).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let fail = |e: io::Error| {
        // tempfile appends ` at path "<temp name>"`: the user knows only the target's name.
        let text = e.to_string();
        let cause = text.split(" at path \"").next().unwrap_or(&text);
        Failure::new(
            Exit::Output,
            format!("cannot write {}: {cause}", path.display()),
        )
    };
    if fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        // A device, a FIFO, `>(gzip > x.gz)`: nothing to replace, only a stream to write to.
        return write_through(path, bytes).map_err(fail);
    }
    // A symlinked export is replaced where the link points, so the link stays a link.
    let target = follow_links(path);
    let path = target.as_path();
    let folder = folder_of(path);
    let existing = fs::metadata(path).ok();
    let mut temp = create_temp(folder, path).map_err(fail)?;
    // Ctrl-C or SIGTERM from here until the rename removes the temp file before exiting.
    let _tracked = crate::output::interrupt::track(temp.path());
    temp.write_all(bytes).map_err(fail)?;
    if let Some(metadata) = existing {
        temp.as_file()
            .set_permissions(metadata.permissions())
            .map_err(fail)?;
    }
    temp.as_file().sync_all().map_err(fail)?;
    temp.persist(path).map_err(|e| fail(e.error))?;
    // The rename itself is durable only once the folder is synced; not every system allows it.
    let _ = File::open(folder).and_then(|dir| dir.sync_all());
    Ok(())
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
pub fn create_temp(folder: &Path, target: &Path) -> io::Result<NamedTempFile> {
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // tempfile's own default is 0600; an export is an ordinary file, so the umask decides.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder.tempfile_in(folder)
}

/// The folder a path is in; a bare file name is in the current folder.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}
