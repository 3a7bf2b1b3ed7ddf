//! Test support for tests that write files: reading, writing and listing a test's folder.

use std::path::{Path, PathBuf};

use super::{Cmd, Env};

/// The names in a folder, sorted: a temp file left behind would show here.
pub fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

pub fn read(env: &Env, name: &str) -> String {
    std::fs::read_to_string(env.home.path().join(name)).unwrap()
}

pub fn write(env: &Env, name: &str, text: &str) {
    std::fs::write(env.home.path().join(name), text).unwrap();
}

/// Writes `old` to the file `name` in the test's folder, runs `refused` (a run that must not
/// change it: the test says its exit code and what it prints), and checks that the file is
/// still `old`, byte for byte.
#[track_caller]
pub fn refused_keeps(env: &Env, name: &str, old: &str, refused: Cmd) {
    write(env, name, old);
    refused.run();
    assert_eq!(read(env, name), old, "{name} was changed by a refused run");
}

/// Writes `text` to the file `name` in the test's folder with the mode `mode`: its path.
pub fn write_with_mode(env: &Env, name: &str, text: &str, mode: u32) -> PathBuf {
    write(env, name, text);
    let path = env.home.path().join(name);
    super::owners::chmod(&path, mode);
    path
}

/// Runs `sql` (one or more statements) on the SQLite database at `path`, made if missing.
pub fn run_sql(path: &Path, sql: &str) {
    let db = rusqlite::Connection::open(path).unwrap();
    db.execute_batch(sql).unwrap();
}

/// The user and group ids of a file this test makes: the binary's own, as it sees them.
pub fn made_ids(env: &Env) -> (u32, u32) {
    use std::os::unix::fs::MetadataExt;
    let probe = env.home.path().join("id-probe");
    std::fs::write(&probe, "").unwrap();
    let metadata = std::fs::metadata(&probe).unwrap();
    std::fs::remove_file(probe).unwrap();
    (metadata.uid(), metadata.gid())
}

/// The `.rs` files below `dir`, in every subfolder, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}
