//! The files a run keeps beside its target: the temporary file a replacement is written to
//! (`.NAME.chain-metrics.XXXXXX.tmp`, named so a user can tell whose it is) and the `--merge`
//! lock file (`.NAME.lock`). Both names fit the file-name limit whatever the target's length,
//! and temp files left by killed runs are removed by the next write to the same target.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use tempfile::NamedTempFile;

/// The longest file name most file systems take (NAME_MAX), in bytes.
const NAME_MAX: usize = 255;
/// What marks a temp file as ours, after the target's name.
const MARK: &str = ".chain-metrics.";
const RANDOM_LEN: usize = 6;
const SUFFIX: &str = ".tmp";
/// A temp file this old whose writer holds no lock on it was left by a killed run. The age
/// covers the moment between a writer creating its temp file and locking it.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// `.NAME<tail>` beside `target`, the name shortened (at a character) so that it fits.
pub(super) fn sibling(target: &Path, tail: &str) -> PathBuf {
    target.with_file_name(format!(".{}{tail}", fitted_name(target, tail.len() + 1)))
}

/// The target's name, cut so that `room` more bytes still fit the limit.
fn fitted_name(target: &Path, room: usize) -> String {
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let mut end = name.len().min(NAME_MAX.saturating_sub(room));
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].to_owned()
}

/// The start of every temp file name for `target`.
fn temp_prefix(target: &Path) -> String {
    let room = 1 + MARK.len() + RANDOM_LEN + SUFFIX.len();
    format!(".{}{MARK}", fitted_name(target, room))
}

/// What the temp file must have before any byte is written, so the content is never readable
/// by more people than the finished file: the mode, and the group, of the file it replaces.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Keep {
    /// The exact mode; `None`: 0666 less the umask, a new export's usual one.
    mode: Option<u32>,
    /// The group of the file replaced, kept where the user may set it.
    group: Option<u32>,
}

impl Keep {
    /// The config file's: 0600 whatever was there before.
    pub(super) fn private() -> Keep {
        Keep {
            mode: Some(0o600),
            group: None,
        }
    }

    /// An export's: the mode and group of the file it replaces, else a new file's usual ones.
    #[cfg(unix)]
    pub(super) fn ordinary(existing: Option<&fs::Metadata>) -> Keep {
        use std::os::unix::fs::MetadataExt;
        // Never the set-id bits: a file another user left 04755 would become a set-id
        // program of this user's; and their group only where this user is in it, or is root
        // (who may keep any group: a `root:www-data` 0640 export stays readable by the web).
        existing.map_or_else(Keep::default, |old| Keep {
            mode: Some(old.mode() & 0o777),
            group: Some(old.gid()).filter(|gid| may_give(*gid)),
        })
    }

    #[cfg(not(unix))]
    pub(super) fn ordinary(_: Option<&fs::Metadata>) -> Keep {
        Keep::default()
    }

    /// Gives the new, still empty file the group, then the mode (a change of group may clear
    /// the set-id bits). The umask cut the mode at creation; this sets it exactly.
    #[cfg(unix)]
    fn apply(self, file: &File) -> io::Result<()> {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        if let Some(group) = self.group {
            if file.metadata()?.gid() != group {
                // The kernel refuses it unless the user is in that group, root excepted.
                let _ = std::os::unix::fs::fchown(file, None, Some(group));
            }
        }
        match self.mode {
            Some(mode) => file.set_permissions(fs::Permissions::from_mode(mode)),
            None => Ok(()),
        }
    }

    #[cfg(not(unix))]
    fn apply(self, _: &File) -> io::Result<()> {
        Ok(())
    }
}

/// Whether the user may give a file group `gid`: root, or a member (their own group, or one of
/// their others).
#[cfg(unix)]
fn may_give(gid: u32) -> bool {
    let gid = nix::unistd::Gid::from_raw(gid);
    nix::unistd::geteuid().is_root()
        || nix::unistd::getegid() == gid
        || nix::unistd::getgroups().is_ok_and(|all| all.contains(&gid))
}

/// Creates the temp file beside `target` with what `keep` says, locked while it is written so
/// that no other run takes it for a leftover. Dropping it removes it.
pub(super) fn create(target: &Path, keep: Keep) -> io::Result<NamedTempFile> {
    let prefix = temp_prefix(target);
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(&prefix)
        .rand_bytes(RANDOM_LEN)
        .suffix(SUFFIX);
    // Never wider than the final mode, from the first moment: tempfile's own default is 0600,
    // and a new export is an ordinary file (0666 less the umask).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(
        keep.mode.unwrap_or(0o666) & 0o777,
    ));
    let temp = builder.tempfile_in(folder_of(target))?;
    keep.apply(temp.as_file())?;
    // A file system without locks still gets its replacement; only the cleanup is lost.
    let _ = temp.as_file().try_lock();
    Ok(temp)
}

/// Removes the temp files of `target` that killed runs left: old, and locked by no one.
pub(super) fn remove_leftovers(target: &Path) {
    let prefix = temp_prefix(target);
    let Ok(entries) = fs::read_dir(folder_of(target)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let ours = name.len() == prefix.len() + RANDOM_LEN + SUFFIX.len()
            && name.starts_with(&prefix)
            && name.ends_with(SUFFIX);
        if ours && is_left_over(&entry.path()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

fn is_left_over(path: &Path) -> bool {
    let old = fs::symlink_metadata(path).is_ok_and(|m| {
        m.is_file()
            && m.modified()
                .ok()
                .and_then(|t| SystemTime::now().duration_since(t).ok())
                .is_some_and(|age| age >= STALE_AFTER)
    });
    // The lock taken here is let go when the file closes, right after the removal.
    old && File::open(path).is_ok_and(|f| f.try_lock().is_ok())
}

/// The folder a path is in; a bare file name is in the current folder.
pub(super) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_the_limit_and_keep_whole_characters() {
        let long = format!("{}.csv", "é".repeat(200));
        let lock = sibling(Path::new(&format!("out/{long}")), ".lock");
        let name = lock.file_name().unwrap().to_str().unwrap();
        assert!(
            name.len() <= NAME_MAX && name.len() > NAME_MAX - 2,
            "{}",
            name.len()
        );
        assert!(name.starts_with(".é") && name.ends_with("é.lock"), "{name}");
        assert_eq!(lock.parent().unwrap(), Path::new("out"));
        assert_eq!(
            sibling(Path::new("f.csv"), ".lock"),
            Path::new(".f.csv.lock")
        );
        let prefix = temp_prefix(Path::new(&long));
        assert_eq!(prefix.len() + RANDOM_LEN + SUFFIX.len(), NAME_MAX - 1);
        assert_eq!(temp_prefix(Path::new("a/f.csv")), ".f.csv.chain-metrics.");
    }
}
