//! The output file: checked before any request, locked while it is changed, and replaced
//! atomically (`system::atomic`); what `system` refuses is said here as exit 9, naming the file
//! as the user gave it.

use std::io;
use std::path::Path;

use crate::error::{Exit, Failure};
use crate::system::atomic::{self, Access, Fill};
use crate::system::lock::{self, FileLock, LockError, LockWait};
use crate::system::{ownership, stream};

/// Writes `bytes` to `path` for `--output`; a failure is exit 9 naming the file, and a closed
/// pipe (`-o /dev/stdout | head -1`) the quiet end it is for stdout.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_rendered(path, &mut |out| out.write_all(bytes))
}

/// [`write_atomically`] of what `fill` writes, written as it comes into the temp file of a
/// regular file (a large merge is never held as rows and text at once).
pub(crate) fn write_rendered(path: &Path, fill: Fill<'_>) -> anyhow::Result<()> {
    atomic::replace_with(path, Access::Ordinary, fill).map_err(|refused| {
        if refused.error.kind() == io::ErrorKind::BrokenPipe {
            return anyhow::Error::new(refused.error);
        }
        refused.failure(path).into()
    })
}

/// Before any request: `path` may be written by [`write_atomically`] as far as its name
/// tells (see `atomic::check_output_path`).
pub(crate) fn check_output_path(path: &Path) -> Result<(), Failure> {
    atomic::check_output_path(path).map_err(|refused| refused.failure(path))
}

/// Before any request: a file that is read back (`--merge`) or changed in place (a database)
/// is used only when trusted (see `ownership`): another user's rows would become this run's.
/// `done` says what did not happen ("not merged"), for a lock refused.
pub(super) fn check_merge_target(path: &Path, done: &str) -> Result<(), Failure> {
    if stream::own_descriptor(path).is_some() {
        return Ok(());
    }
    // A link refused is said by the checks that follow, in their words.
    let Ok(target) = atomic::final_target(path) else {
        return Ok(());
    };
    ownership::check_path(&target).map_err(|refused| atomic::untrusted(refused).failure(path))?;
    lock::check_lock_of(&target).map_err(|e| lock_refused(e, path, done))
}

/// The lock of the file at `path`, waited for as `wait` allows; `done` says what did not
/// happen ("not merged") when it is refused.
pub(super) fn lock(path: &Path, wait: LockWait, done: &str) -> Result<FileLock, Failure> {
    lock::lock_beside(path, wait).map_err(|e| lock_refused(e, path, done))
}

/// A lock refused: exit 9, the file left as it was.
fn lock_refused(e: LockError, path: &Path, done: &str) -> Failure {
    let what = path.display().to_string();
    e.failure(
        Exit::Output,
        &what,
        &format!("{done}; the file is left as it was"),
    )
}
