//! The config file on disk: a private folder and file, atomic replacement, and a warning when
//! others can read a file that may hold the API key.

use std::fs::DirBuilder;
use std::path::Path;

use crate::error::{Failure, Result};
use crate::output::atomic::{self, Access};
use crate::settings::config_file::ConfigLocation;

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

/// A folder only its owner can enter (0700), on Unix.
fn private_folder() -> DirBuilder {
    let mut builder = DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
}

impl ConfigLocation {
    /// A warning naming the `chmod` that fixes it, when group or others may read or write the
    /// file: reading exposes `api_key`, writing lets them choose `api_key_command`.
    pub fn permission_warning(&self) -> Option<String> {
        let mode = mode_of(&self.path)?;
        (mode & 0o077 != 0).then(|| {
            let path = shell_quote(&self.path);
            format!(
                "other users can read or change config file {} (mode {mode:04o}); fix it with: chmod 600 {path}",
                self.path.display()
            )
        })
    }

    /// Replaces the file with `text` atomically and privately (0600), so a failed write
    /// leaves the old file intact. A missing folder is created 0700.
    pub fn write_private(&self, text: &str) -> Result<()> {
        let failed = |e: std::io::Error| {
            Failure::config(format!(
                "cannot write config file {}: {e}",
                self.path.display()
            ))
        };
        if let Some(folder) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            if !folder.exists() {
                private_folder().create(folder).map_err(failed)?;
            }
        }
        atomic::replace(&self.path, text.as_bytes(), Access::Private).map_err(failed)
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
