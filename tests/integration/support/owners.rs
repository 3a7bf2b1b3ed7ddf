//! Files given to another user for the trust tests: `nobody` (65534), whose primary group
//! `nogroup` is private to no one else; giving a file away needs root (CI runs as root), so a
//! test that cannot is skipped, said on stderr.

use std::os::unix::fs::{lchown, PermissionsExt};
use std::path::Path;

/// `nobody`, and `nogroup`: the other user of the trust tests, and their group.
pub const OTHER: u32 = 65534;

/// Gives `path` (not followed) to `uid` and `gid` (`None` keeps it); false where the tests
/// are not root, and then the test is skipped.
pub fn give(path: &Path, uid: Option<u32>, gid: Option<u32>) -> bool {
    match lchown(path, uid, gid) {
        Ok(()) => true,
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            eprintln!("skipped: only root can give a file to another user (CI runs as root)");
            false
        }
        Err(e) => panic!("lchown {}: {e}", path.display()),
    }
}

/// Gives `path` (not followed) to `nobody` and `nogroup`; false where the tests are not root.
pub fn give_away(path: &Path) -> bool {
    give(path, Some(OTHER), Some(OTHER))
}

/// Sets the mode of `path` (followed).
pub fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}
