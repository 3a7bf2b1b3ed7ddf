//! Symlinks another user planted in a folder they can write (`/tmp`, a team's `root:team 2775`
//! drop folder, another user's own folder): the tool resolves `-o`'s links itself, so the
//! kernel's `protected_symlinks` check never runs for them, and this one does more than its
//! job. A link in a folder that someone besides the user and root can write (its owner, its
//! group, anyone; sticky or not) is followed only when it belongs to the user or to root,
//! wherever it is on the way: the file's own name, or any folder above it (`team/sub` of
//! `-o team/sub/out.csv`), and the links those lead through in turn.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

#[cfg(unix)]
use super::writers;

/// The first link on the way to `path` that is such a link, refused.
pub(super) fn refuse_planted(path: &Path) -> io::Result<()> {
    match links_on_the_way(path).iter().find_map(|link| planted(link)) {
        Some(why) => Err(io::Error::new(io::ErrorKind::PermissionDenied, why)),
        None => Ok(()),
    }
}

/// Each symlink the kernel follows to reach `path`, in order, by the path it is at (its folder
/// resolved, so its parent is the folder it really is in): in the folders of the path as in its
/// last part, and in what each link points to. As many as the kernel follows, at most.
fn links_on_the_way(path: &Path) -> Vec<PathBuf> {
    let start = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut parts: VecDeque<OsString> = owned_parts(&start).collect();
    let mut reached = PathBuf::from("/");
    let mut links = Vec::new();
    while let Some(part) = parts.pop_front() {
        match part.to_str() {
            Some("/") => reached = PathBuf::from("/"),
            Some(".") => {}
            Some("..") => {
                reached.pop();
            }
            _ => {
                let next = reached.join(&part);
                let target = std::fs::symlink_metadata(&next)
                    .ok()
                    .filter(|m| m.file_type().is_symlink())
                    .and_then(|_| std::fs::read_link(&next).ok());
                match target {
                    Some(target) if links.len() < super::stream::MAX_HOPS => {
                        links.push(next);
                        for part in owned_parts(&target).collect::<Vec<_>>().into_iter().rev() {
                            parts.push_front(part);
                        }
                    }
                    _ => reached = next,
                }
            }
        }
    }
    links
}

/// A path's parts as names, its root as "/", "." and ".." as such.
fn owned_parts(path: &Path) -> impl Iterator<Item = OsString> + '_ {
    path.components().filter_map(|part| match part {
        Component::RootDir => Some("/".into()),
        Component::CurDir => Some(".".into()),
        Component::ParentDir => Some("..".into()),
        Component::Normal(name) => Some(name.to_owned()),
        Component::Prefix(_) => None,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Links are found as the kernel follows them: in a folder of the path, in what a link
    /// points to, relative to the folder the link really is in, and `..` after a link taken
    /// from where the link led.
    #[cfg(unix)]
    #[test]
    fn every_link_on_the_way_is_found_in_order() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join("real/inner")).unwrap();
        symlink("real", root.join("team")).unwrap();
        symlink("inner/../inner", root.join("real/via")).unwrap();
        symlink("../file", root.join("real/inner/out")).unwrap();
        assert_eq!(
            links_on_the_way(&root.join("team/via/out")),
            [
                root.join("team"),
                root.join("real/via"),
                root.join("real/inner/out")
            ]
        );
        assert_eq!(
            links_on_the_way(&root.join("team/../real/inner/x")),
            [root.join("team")]
        );
        assert!(links_on_the_way(&root.join("real/inner/x")).is_empty());
    }
}
