//! Symlinks another user planted in a folder they can write (`/tmp`, a team's `root:team 2775`
//! drop folder, another user's own folder): the tool resolves `-o`'s links itself, so the
//! kernel's `protected_symlinks` check never runs for them, and this one does more than its
//! job. A link in a folder that someone besides the user and root can write (its owner, its
//! group, anyone; sticky or not) is followed only when it belongs to the user or to root.

use std::io;
use std::path::{Path, PathBuf};

#[cfg(unix)]
use super::writers;

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
    let parent = match link.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new("."),
        Some(p) => p,
        None => return None,
    };
    let folder = std::fs::metadata(parent).ok()?;
    if writers::is_ours(owner) || !writers::others_can_write_folder(&folder) {
        return None;
    }
    let me = nix::unistd::geteuid().as_raw();
    Some(format!(
        "{} is a symbolic link owned by {}, neither you ({}) nor root, in a folder another user \
            can write to (mode {:04o}, owned by {}): it is not followed, since whoever made it \
                could point it at any file of yours",
        link.display(),
        writers::who(owner),
        writers::who(me),
        folder.mode() & 0o7777,
        writers::who(folder.uid())
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
