//! Test support for tests that write files: reading, writing and listing a test's folder.

use std::path::Path;

use super::Env;

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
