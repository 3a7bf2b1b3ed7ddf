//! The config file on disk: a private folder and file, atomic replacement, and a warning when
//! others can read a file that may hold the API key.

use std::path::Path;

use super::file::ConfigLocation;
use crate::error::{Exit, Failure, Result};
use crate::system::atomic::{self, Access, NotWritten};
use crate::system::lock::{self, FileLock, LockWait};
use crate::system::{private_dir, shell};

/// The file's permission bits; Windows has none to check (its folder is the user's own).
#[cfg(unix)]
fn mode_of(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::metadata(path).ok()?.permissions().mode() & 0o777)
}

#[cfg(not(unix))]
fn mode_of(_path: &Path) -> Option<u32> {
    None
}

impl ConfigLocation {
    /// A warning naming the `chmod` that fixes it, when group or others may read or write the
    /// file: reading exposes `api_key`, writing lets them choose `api_key_command`.
    pub(crate) fn permission_warning(&self) -> Option<String> {
        let mode = mode_of(&self.path)?;
        (mode & 0o077 != 0).then(|| {
            let path = shell::quote(&self.path.display().to_string()).into_owned();
            format!(
                "other users can read or change config file {} (mode {mode:04o}); fix it with: \
                chmod 600 {path}",
                self.path.display()
            )
        })
    }

    /// Replaces the file with `text` atomically and privately (0600), so a failed write
    /// leaves the old file intact. A missing folder is created 0700.
    pub(crate) fn write_private(&self, text: &str) -> Result<()> {
        let failed = |e: NotWritten| {
            let failure = Failure::config(format!(
                "cannot write config file {}: {}",
                self.path.display(),
                e.error
            ));
            match e.hint {
                Some(hint) => failure.with_hint(hint),
                None => failure,
            }
        };
        self.make_folder().map_err(|e| failed(e.into()))?;
        atomic::replace(&self.path, text.as_bytes(), Access::Private).map_err(failed)
    }

    /// Takes the lock that config edits hold from reading the file to replacing it, so that
    /// two edits at once (`config set` in parallel) keep both changes.
    pub(crate) fn lock(&self, wait: LockWait) -> Result<FileLock> {
        let what = format!("config file {}", self.path.display());
        // The lock file goes beside the config file, so its folder must exist first.
        self.make_folder()
            .map_err(|e| Failure::config(format!("cannot create the folder of {what}: {e}")))?;
        lock::lock_beside(&self.path, wait)
            .map_err(|e| e.failure(Exit::Config, &what, "nothing was changed"))
    }

    /// Creates the file's folder, private (0700), when it is missing.
    fn make_folder(&self) -> std::io::Result<()> {
        private_dir::create_parent(&self.path)
    }
}
