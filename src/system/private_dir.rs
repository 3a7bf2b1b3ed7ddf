//! Private folders, in one place: the config file's and the cache's folders are created 0700
//! (on Windows the user's profile folder is already private to the user).

use std::fs::DirBuilder;
use std::path::Path;

/// Creates the parent folder of `file` and every missing folder above it, each 0700, when it
/// is missing; an existing folder is left as it is.
pub(crate) fn create_parent(file: &Path) -> std::io::Result<()> {
    match file.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(folder) if !folder.exists() => {
            let mut builder = DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder.create(folder)
        }
        _ => Ok(()),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn missing_folders_are_made_private_and_existing_ones_are_left() {
        let root = std::env::temp_dir().join(format!("cm-private-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        create_parent(&root.join("a/b/file")).unwrap();
        for folder in [root.join("a"), root.join("a/b")] {
            let mode = std::fs::metadata(&folder).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700, "{}", folder.display());
        }
        std::fs::set_permissions(root.join("a/b"), std::fs::Permissions::from_mode(0o755)).unwrap();
        create_parent(&root.join("a/b/other")).unwrap();
        let mode = std::fs::metadata(root.join("a/b"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        create_parent(Path::new("bare-name")).unwrap();
        std::fs::remove_dir_all(&root).unwrap();
    }
}
