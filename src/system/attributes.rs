//! Extended attributes: short notes a file carries beside its bytes (`getfattr -d FILE`
//! shows them), where the file system keeps them. An export says there where its data came
//! from without a byte of it changed for the programs that read it.

use std::path::Path;

/// The longest note read back: a URL, not a document.
const MOST: usize = 2048;

/// Sets the attribute `name` of the regular file at `path` to `value`; `false` where it
/// cannot be kept (no regular file, a file system without user attributes, another OS).
pub(crate) fn set(path: &Path, name: &str, value: &str) -> bool {
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    imp::set(path, name, value)
}

/// Removes the attribute `name` of the regular file at `path`, if it has one.
pub(crate) fn remove(path: &Path, name: &str) {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        imp::remove(path, name);
    }
}

/// The attribute `name` of the file at `path`, as UTF-8 text; `None` when it has none (or
/// one that is no text, or longer than a URL would be).
pub(crate) fn get(path: &Path, name: &str) -> Option<String> {
    imp::get(path, name).and_then(|bytes| String::from_utf8(bytes).ok())
}

#[cfg(any(target_os = "linux", target_os = "android", target_os = "macos"))]
mod imp {
    use std::path::Path;

    use rustix::fs::XattrFlags;

    // Written without following a link: a link put in the export's place since it was written
    // (in a folder others can write) leads nowhere (Linux keeps no user attributes on links).
    pub(super) fn set(path: &Path, name: &str, value: &str) -> bool {
        rustix::fs::lsetxattr(path, name, value.as_bytes(), XattrFlags::empty()).is_ok()
    }

    pub(super) fn remove(path: &Path, name: &str) {
        // Absent already, or not kept here: either way the file has none.
        let _ = rustix::fs::lremovexattr(path, name);
    }

    pub(super) fn get(path: &Path, name: &str) -> Option<Vec<u8>> {
        let mut buffer = vec![0u8; super::MOST];
        let length = rustix::fs::getxattr(path, name, &mut buffer[..]).ok()?;
        buffer.truncate(length);
        Some(buffer)
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "macos")))]
mod imp {
    use std::path::Path;

    pub(super) fn set(_: &Path, _: &str, _: &str) -> bool {
        false
    }

    pub(super) fn remove(_: &Path, _: &str) {}

    pub(super) fn get(_: &Path, _: &str) -> Option<Vec<u8>> {
        None
    }
}
