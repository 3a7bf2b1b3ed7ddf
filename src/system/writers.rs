//! Who a file belongs to and who else can change it: the user, root, a group with no member
//! but them (a user private group), and the names messages give users and groups. Both the trust
//! rule (`ownership`) and the planted-link check (`planted`) read these.

#[cfg(unix)]
use std::fs::Metadata;
use std::path::{Path, PathBuf};

/// Who else may write to a file or folder through its mode: "other users" for the other-write
/// bit, the group's members for the group-write bit of a group that is not private to the user
/// or root; `None` when only its owner may.
#[cfg(unix)]
pub(super) fn writers(metadata: &Metadata) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let mode = metadata.mode();
    if mode & 0o002 != 0 {
        return Some("other users".into());
    }
    if mode & 0o020 != 0 && !group_is_private(metadata.gid()) {
        return Some(format!("the members of {}", group_name(metadata.gid())));
    }
    None
}

/// Whether someone besides the user and root can write to the folder `metadata` describes
/// (its owner, or anyone through its mode), sticky or not: a link there may have been put
/// there by them.
#[cfg(unix)]
pub(super) fn others_can_write_folder(metadata: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    !is_ours(metadata.uid()) || writers(metadata).is_some()
}

/// The folder `file` is really in (its links followed; the file need not exist yet), when
/// someone besides the user and root can write to it (see [`others_can_write_folder`]): what
/// a reader there may leave beside the file is theirs. `None` for a private folder.
#[cfg(unix)]
pub(crate) fn shared_folder(file: &Path) -> Option<Metadata> {
    let folder = real_folder(file)?;
    std::fs::metadata(folder)
        .ok()
        .filter(others_can_write_folder)
}

#[cfg(not(unix))]
pub(crate) fn shared_folder(_: &Path) -> Option<std::fs::Metadata> {
    None
}

/// The folder of the file `file` names, links followed, or of where it would be made.
#[cfg(unix)]
fn real_folder(file: &Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(file) {
        return real.parent().map(Path::to_path_buf);
    }
    let parent = match file.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new("."),
        Some(p) => p,
        None => return None,
    };
    std::fs::canonicalize(parent).ok()
}

/// The owner of `file` (whose `lstat` is `metadata`) when they and root alone may remove it
/// from its folder `folder`: a sticky folder neither the user nor root owns, a file that is
/// not the user's, and a user who is not root.
#[cfg(unix)]
pub(crate) fn only_owner_removes(metadata: &Metadata, folder: &Metadata) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let me = nix::unistd::geteuid().as_raw();
    let sticky = folder.mode() & 0o1000 != 0;
    (sticky && me != 0 && folder.uid() != me && metadata.uid() != me).then_some(metadata.uid())
}

#[cfg(not(unix))]
pub(crate) fn only_owner_removes(_: &std::fs::Metadata, _: &std::fs::Metadata) -> Option<u32> {
    None
}

/// Whether `uid` is the user's or root's.
#[cfg(unix)]
pub(super) fn is_ours(uid: u32) -> bool {
    uid == 0 || uid == nix::unistd::geteuid().as_raw()
}

/// Whether group `gid` has no member but the user or root: none listed in the group database
/// but them, and no one else's primary group (a user private group, as Debian's OpenSSH
/// accepts one). A group that cannot be looked up is not private.
#[cfg(unix)]
fn group_is_private(gid: u32) -> bool {
    let Ok(Some(group)) = nix::unistd::Group::from_gid(nix::unistd::Gid::from_raw(gid)) else {
        return false;
    };
    let listed_ours = group.mem.iter().all(|name| {
        nix::unistd::User::from_name(name)
            .ok()
            .flatten()
            .is_some_and(|user| is_ours(user.uid.as_raw()))
    });
    listed_ours
        && primary_groups()
            .iter()
            .all(|&(uid, primary)| primary != gid || is_ours(uid))
}

/// Every user's (id, primary group id), read once from the user database (NSS included).
#[cfg(unix)]
fn primary_groups() -> &'static [(u32, u32)] {
    static ALL: std::sync::OnceLock<Vec<(u32, u32)>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        // SAFETY: setpwent/getpwent/endpwent walk the user database with one static cursor
        // and buffer; this is their only caller, run once (OnceLock), and each entry is copied
        // out before the next call.
        unsafe {
            nix::libc::setpwent();
            loop {
                let entry = nix::libc::getpwent();
                if entry.is_null() {
                    break;
                }
                all.push(((*entry).pw_uid, (*entry).pw_gid));
            }
            nix::libc::endpwent();
        }
        all
    })
}

/// A group as messages name it: "group id 65534 (nogroup)".
#[cfg(unix)]
fn group_name(gid: u32) -> String {
    let group = nix::unistd::Group::from_gid(nix::unistd::Gid::from_raw(gid));
    id_named("group", gid, group.ok().flatten().map(|group| group.name))
}

/// A user as messages name them: "user id 65534 (nobody)".
#[cfg(unix)]
pub(crate) fn who(uid: u32) -> String {
    let user = nix::unistd::User::from_uid(nix::unistd::Uid::from_raw(uid));
    id_named("user", uid, user.ok().flatten().map(|user| user.name))
}

#[cfg(not(unix))]
pub(crate) fn who(uid: u32) -> String {
    id_named("user", uid, None)
}

/// `kind` (user, group) and its number, then its name when the system has one.
fn id_named(kind: &str, id: u32, name: Option<String>) -> String {
    match name {
        Some(name) => format!("{kind} id {id} ({name})"),
        None => format!("{kind} id {id}"),
    }
}
