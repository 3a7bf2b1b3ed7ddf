//! The SQLite export in a folder others share (issue 40, point 2): another user who reads it
//! there with the sqlite3 CLI leaves no `-wal`/`-shm` of theirs beside it (the export is
//! written in rollback mode there), so the next day's export still runs; a side file of
//! another user's that is there already is refused, saying who alone can remove it.

use std::fs;
use std::os::unix::fs::{lchown, PermissionsExt};
use std::path::Path;

use crate::support::files::names;
use crate::support::users::{second_user, User};
use crate::support::{fees_on, sandbox_env, Env};

fn chmod(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// `folder` made in the home (which others may enter), owned by root and `gid`, of `mode`.
fn shared(env: &Env, name: &str, gid: u32, mode: u32) -> std::path::PathBuf {
    chmod(env.home.path(), 0o755);
    let folder = env.home.path().join(name);
    fs::create_dir(&folder).unwrap();
    lchown(&folder, Some(0), Some(gid)).unwrap();
    chmod(&folder, mode);
    folder
}

/// `sql` run on `db` by the sqlite3 CLI as `user`, with their own group only.
fn sqlite3_as(env: &Env, user: &User, db: &Path, sql: &str) -> String {
    let mut words = user.as_them();
    words.extend(["sqlite3".into(), db.display().to_string(), sql.into()]);
    env.program("setpriv", &words).any_stdout().run().stdout
}

/// For a sticky folder anyone can write (`/tmp`'s 1777) and a team's sticky folder its group
/// can write (3775, the reader a member): on three days, the day's export merges into the
/// database the other user read the day before, and their read leaves nothing beside it.
#[test]
fn another_user_reading_the_export_in_a_shared_folder_never_stops_the_next_one() {
    let Some(user) = second_user() else {
        return;
    };
    let (_sandbox, env) = sandbox_env(&[]);
    for (name, gid, mode) in [("shared", 0, 0o1777), ("team", user.gid, 0o3775)] {
        let folder = shared(&env, name, gid, mode);
        let db = folder.join("m.db");
        let out = format!("{name}/m.db");
        for (count, day) in ["2024-01-01", "2024-01-02", "2024-01-03"]
            .iter()
            .enumerate()
        {
            env.cmd_args(&[&fees_on(day)[..], &["-o", &out, "--merge"]].concat())
                .run();
            let read = sqlite3_as(&env, user, &db, "SELECT count(*) FROM fees;");
            assert_eq!(read, format!("{}\n", count + 1), "{name}, {day}");
            assert_eq!(
                names(&folder),
                ["m.db"],
                "{name}, {day}: the read left files"
            );
        }
        let mode = sqlite3_as(&env, user, &db, "PRAGMA journal_mode;");
        assert_eq!(mode, "delete\n", "{name}");
    }
}

/// A second user, and this user's export `shared/m.db` of one day in a sticky 1777 folder of
/// the home (`None`: no second user can be had here).
fn exported_in_a_sticky_folder() -> Option<(
    &'static User,
    crate::support::Sandbox,
    Env,
    std::path::PathBuf,
    std::path::PathBuf,
)> {
    let user = second_user()?;
    let (sandbox, env) = sandbox_env(&[]);
    let folder = shared(&env, "shared", 0, 0o1777);
    let db = folder.join("m.db");
    env.cmd_args(&[&fees_on("2024-01-01")[..], &["-o", "shared/m.db"]].concat())
        .run();
    Some((user, sandbox, env, folder, db))
}

/// An export of the user's made in WAL mode (by an earlier version, or by sqlite3) in a shared
/// folder is switched to rollback mode by the next write, its own side files going with it.
#[test]
fn a_wal_export_in_a_shared_folder_is_switched_to_rollback_mode() {
    let Some((user, _sandbox, env, folder, db)) = exported_in_a_sticky_folder() else {
        return;
    };
    let wal = ["shared/m.db", "PRAGMA journal_mode=WAL;"];
    assert_eq!(
        env.program("sqlite3", &wal).any_stdout().run().stdout,
        "wal\n"
    );
    env.cmd_args(
        &[
            &fees_on("2024-01-02")[..],
            &["-o", "shared/m.db", "--merge"],
        ]
        .concat(),
    )
    .run();
    assert_eq!(
        sqlite3_as(&env, user, &db, "PRAGMA journal_mode;"),
        "delete\n"
    );
    assert_eq!(names(&folder), ["m.db"]);
}

/// A `-wal` and `-shm` another user left beside the export: refused, the file as it was; in a
/// sticky folder, a user who cannot remove them is told who can (or to write elsewhere), and
/// root, who can, to remove them.
#[test]
fn a_side_file_another_user_left_in_a_sticky_folder_names_who_can_remove_it() {
    let Some((user, _sandbox, env, folder, db)) = exported_in_a_sticky_folder() else {
        return;
    };
    lchown(&db, Some(user.uid), Some(user.gid)).unwrap();
    for side in ["m.db-wal", "m.db-shm"] {
        let path = folder.join(side);
        fs::write(&path, b"").unwrap();
        lchown(&path, Some(65534), Some(65534)).unwrap();
    }
    let before = fs::read(&db).unwrap();
    // The binary is first on the PATH of the programs a test runs.
    let mut words = user.as_them();
    let line = format!(
        "chain-metrics {} -o shared/m.db --merge",
        fees_on("2024-01-02").join(" ")
    );
    words.extend(["bash".into(), "-c".into(), line]);
    env.program("setpriv", &words)
        .code(9)
        .error_line(format!(
            "error: shared/m.db cannot be merged: shared/m.db-wal belongs to user id 65534 (nobody), not to you (user id {0} (chain-metrics-peer)) nor to root (mode 0644): another user's file is not used, since it could steer this run or take what it writes; SQLite would roll that file beside it into the database when it is opened, so it is not opened: only user id 65534 (nobody) or root can remove it from that sticky folder: ask them to, or write the export to a folder of your own; the file is left as it was",
            user.uid
        ))
        .run();
    assert_eq!(fs::read(&db).unwrap(), before);
    // Root can remove them: told to.
    lchown(&db, Some(0), Some(0)).unwrap();
    fs::remove_file(folder.join("m.db-wal")).unwrap();
    env.cmd_args(&[&fees_on("2024-01-02")[..], &["-o", "shared/m.db", "--merge"]].concat())
        .code(9)
        .error_line("error: shared/m.db cannot be merged: shared/m.db-shm belongs to user id 65534 (nobody), not to you (user id 0 (root)) nor to root (mode 0644): another user's file is not used, since it could steer this run or take what it writes; SQLite would read the database through that file beside it when it is opened, so it is not opened: remove that file if you trust neither it nor its owner; the file is left as it was")
        .run();
    assert_eq!(fs::read(&db).unwrap(), before);
}
