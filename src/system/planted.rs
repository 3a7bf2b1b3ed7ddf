//! Symlinks another user planted in a shared folder (`/tmp`, a team's drop folder): the tool
//! resolves `-o`'s links itself, so the kernel's `protected_symlinks` check never runs for
//! them, and this one does its job. A link in a sticky or world-writable folder is followed
//! only when it belongs to the user or to the folder's owner, as the kernel allows it.

use std::io;
use std::path::{Path, PathBuf};

/// The first of `hops` (a path, then each link it leads through) that is such a link, refused.
pub(super) fn refuse_planted(hops: &[PathBuf]) -> io::Result<()> {
    match hops.iter().find_map(|hop| planted(hop)) {
        Some(why) => Err(io::Error::new(io::ErrorKind::PermissionDenied, why)),
        None => Ok(()),
    }
}

/// Why `link` is not followed, when it is a planted link.
#[cfg(unix)]
fn planted(link: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let owner = std::fs::symlink_metadata(link)
        .ok()
        .filter(|m| m.file_type().is_symlink())?
        .uid();
    let folder = std::fs::metadata(link.parent()?).ok()?;
    let shared = folder.mode() & 0o1002 != 0;
    let me = nix::unistd::geteuid().as_raw();
    if !shared || owner == me || owner == folder.uid() {
        return None;
    }
    Some(format!(
        "{} is a symbolic link owned by user id {owner}, neither you (user id {me}) nor the owner \
        of its folder, which others may write to (mode {:04o}): it is not followed, as the \
        kernel's protected_symlinks would not follow it",
        link.display(),
        folder.mode() & 0o7777
    ))
}

/// Elsewhere links carry no owner the kernel checks.
#[cfg(not(unix))]
fn planted(_: &Path) -> Option<String> {
    None
}

/// What to do about a planted link.
pub(super) const HINT: &str =
    "remove the link if it is not meant to be there (or have the folder's owner make it), or write \
    to another file";
