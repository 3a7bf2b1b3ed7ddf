//! The config file on disk: a private folder and file, atomic replacement, and a warning when
//! others can read a file that may hold the API key.

use std::fs::{self, DirBuilder};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::error::{Failure, Result};
use crate::settings::config_file::ConfigLocation;

const FOLDER_MODE: u32 = 0o700;
/// What `NamedTempFile` creates its files with, and so what every written config file gets.
pub const FILE_MODE: u32 = 0o600;

impl ConfigLocation {
    /// A warning naming the `chmod` that fixes it, when group or others may read or write the
    /// file: reading exposes `api_key`, writing lets them choose `api_key_command`.
    pub fn permission_warning(&self) -> Option<String> {
        let mode = fs::metadata(&self.path).ok()?.permissions().mode() & 0o777;
        (mode & 0o077 != 0).then(|| {
            let path = shell_quote(&self.path);
            format!(
                "other users can read or change config file {} (mode {mode:04o}); fix it with: chmod 600 {path}",
                self.path.display()
            )
        })
    }

    /// Replaces the file with `text` atomically: a temporary file (mode 0600) in the same
    /// folder, flushed to disk, then renamed over the old one, so a failed write leaves the old
    /// file intact. A missing folder is created 0700.
    pub fn write_private(&self, text: &str) -> Result<()> {
        let target = real_target(&self.path);
        let failed = |e: std::io::Error| {
            Failure::config(format!(
                "cannot write config file {}: {e}",
                self.path.display()
            ))
        };
        let folder = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
            _ => PathBuf::from("."),
        };
        if !folder.exists() {
            DirBuilder::new()
                .recursive(true)
                .mode(FOLDER_MODE)
                .create(&folder)
                .map_err(failed)?;
        }
        let mut temp = tempfile::Builder::new()
            .prefix(".config.toml.")
            .tempfile_in(&folder)
            .map_err(failed)?;
        // Ctrl-C before the rename removes it: it may hold the key.
        let _tracked = crate::output::interrupt::track(temp.path());
        temp.write_all(text.as_bytes()).map_err(failed)?;
        temp.as_file().sync_all().map_err(failed)?;
        temp.persist(&target).map_err(|e| failed(e.error))?;
        // The rename is only durable once the folder itself is flushed; failing that is no
        // reason to fail the command.
        if let Ok(dir) = fs::File::open(&folder) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

/// The file a symlinked config points at: replacing the link itself would cut it off from a
/// dotfiles repository.
fn real_target(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
        }
        _ => path.to_owned(),
    }
}

/// The path as a shell word, so the printed `chmod` can be pasted as is.
fn shell_quote(path: &Path) -> String {
    let text = path.display().to_string();
    let plain = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c));
    if plain {
        text
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_paths_for_the_shell() {
        assert_eq!(shell_quote(Path::new("/h/a.toml")), "/h/a.toml");
        assert_eq!(shell_quote(Path::new("/h/my dir/a")), "'/h/my dir/a'");
        assert_eq!(shell_quote(Path::new("/h/it's")), r"'/h/it'\''s'");
    }
}
