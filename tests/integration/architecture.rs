//! The picture of src/lib.rs, read off the sources as a reviewer would: which folder may import
//! which, from one table, so that every "never" the picture draws is held (the length of a
//! function is clippy's `too_many_lines`, see clippy.toml).

use std::path::{Path, PathBuf};

use crate::support::files::rust_files;

/// Each folder of src, top row of the picture first, with the folders it may import: those on
/// rows below its own, on its own row only along an arrow (`commands ──> cli`, `model ──>
/// system`), less every "never" written beside the picture. So no two folders import each other
/// (each imports only folders listed after it), and:
/// - `output` and `fetched` never talk to the network: neither imports `client`;
/// - `cache` never imports `client`, nor `client` `cache` (one row, no arrow);
/// - `render` never imports `settings` or `fetched` (one row, no arrow): it writes what it is
///   handed;
/// - `sandbox` uses `model` and `system` alone: the reference service shares no code with the
///   client it checks;
/// - `analysis` (the shaping of rows: derived measures, ordering, periods' aggregation, the wide
///   pivot, the summary's arithmetic) uses `model` alone, and only `render`, `output` and the top
///   row use it;
/// - `model` uses only `system` (foreign text quoted in its parse errors), and `system` nothing:
///   not even `error` (the exit codes and `Failure`, in `src/error.rs`, which has a row of its
///   own for this), so that `model ──> system` closes no circle through it; system's refusals
///   are its own types, made failures in `error.rs`.
///
/// A folder listed here that src does not have (yet) is no failure. Of the files at the top of
/// src, `error.rs` is held by its row; `report.rs` (the top's, with `main`) is not held here.
const PICTURE: &[(&str, &[&str])] = &[
    (
        "commands",
        &[
            "cli", "output", "sandbox", "cache", "client", "fetched", "render", "settings",
            "analysis", "error", "model", "system",
        ],
    ),
    (
        "cli",
        &[
            "output", "sandbox", "cache", "client", "fetched", "render", "settings", "analysis",
            "error", "model", "system",
        ],
    ),
    (
        "output",
        &[
            "cache", "fetched", "render", "settings", "analysis", "error", "model", "system",
        ],
    ),
    ("sandbox", &["model", "system"]),
    (
        "cache",
        &["fetched", "render", "settings", "error", "model", "system"],
    ),
    (
        "client",
        &["fetched", "render", "settings", "error", "model", "system"],
    ),
    ("fetched", &["error", "model", "system"]),
    ("render", &["analysis", "error", "model", "system"]),
    ("settings", &["error", "model", "system"]),
    ("analysis", &["model"]),
    ("error", &["model", "system"]),
    ("model", &["system"]),
    ("system", &[]),
];

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The folders of the crate `code` names on each line (1-based), from `crate::x` paths and
/// `crate::{x, y::z}` groups; what follows `//` on a line is a comment and is skipped (no line
/// of src has `//` in a literal before a path, nor a literal holding `crate::`).
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let mut named = Vec::new();
    let mut group_open = false;
    for (at, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        let mut items: Vec<&str> = Vec::new();
        // A group may run over several lines: its items until the closing brace.
        let mut rest = line;
        if group_open {
            let (inside, closed) = group_items(rest);
            items.extend(inside);
            group_open = !closed;
            rest = "";
        }
        for (start, _) in rest.match_indices("crate::") {
            let after = &rest[start + "crate::".len()..];
            match after.strip_prefix('{') {
                Some(group) => {
                    let (inside, closed) = group_items(group);
                    items.extend(inside);
                    group_open = !closed;
                }
                None => items.push(after),
            }
        }
        for item in items {
            let name: String = item
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != "self" {
                named.push((at + 1, name));
            }
        }
    }
    named
}

/// The items of a `{...}` group opening before `text`, at its own depth only (a nested
/// `b::{c, d}` is one item, `b`), and whether the group closes on this line.
fn group_items(text: &str) -> (Vec<&str>, bool) {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&text[start..at]);
                return (items, true);
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&text[start..]);
    (items, false)
}

/// Every import of one folder of src by another that the picture does not allow, as
/// `src/FILE:LINE: FOLDER imports NAME`; a folder missing from the picture is named too.
fn imports_against_the_picture(src: &Path) -> Vec<String> {
    let mut wrong = Vec::new();
    let folders: Vec<&str> = PICTURE.iter().map(|(folder, _)| *folder).collect();
    for file in rust_files(src) {
        let relative = file.strip_prefix(src).unwrap();
        let shown = format!("src/{}", relative.display());
        // A file at the top of src is held only when it has a row (`error.rs`).
        let is_top_file = relative.components().count() < 2;
        let folder = match is_top_file {
            true => relative.file_stem().unwrap().to_string_lossy().into_owned(),
            false => relative
                .iter()
                .next()
                .unwrap()
                .to_string_lossy()
                .into_owned(),
        };
        if is_top_file && !folders.contains(&folder.as_str()) {
            continue;
        }
        let Some((_, allowed)) = PICTURE.iter().find(|(name, _)| *name == folder) else {
            wrong.push(format!(
                "{shown}: the folder {folder} has no row in PICTURE"
            ));
            continue;
        };
        let code = std::fs::read_to_string(&file).unwrap();
        for (line, name) in crate_paths(&code) {
            let is_folder = folders.contains(&name.as_str()) || src.join(&name).is_dir();
            if is_folder && name != folder && !allowed.contains(&name.as_str()) {
                wrong.push(format!("{shown}:{line}: {folder} imports {name}"));
            }
        }
    }
    wrong
}

#[test]
fn every_folder_imports_only_what_the_picture_of_lib_rs_allows() {
    let wrong = imports_against_the_picture(&src());
    assert!(
        wrong.is_empty(),
        "imports against the picture of src/lib.rs (the table PICTURE in {}):\n{}",
        file!(),
        wrong.join("\n")
    );
}

#[test]
fn the_picture_has_rows_so_no_two_folders_import_each_other() {
    for (at, (folder, allowed)) in PICTURE.iter().enumerate() {
        let below: Vec<&str> = PICTURE[at + 1..].iter().map(|(name, _)| *name).collect();
        for name in *allowed {
            assert!(
                below.contains(name),
                "{folder} may import {name}, which is not below it in PICTURE"
            );
        }
    }
}

#[test]
fn imports_are_read_from_paths_and_groups_but_not_comments() {
    let code = "use crate::model::Chain; // crate::client\n\
                /// [`crate::output`]\n\
                let x = crate::render::render(crate::settings::limits::JOBS);\n\
                use crate::{cache::Store, fetched::{Plan, Rows},\n    self, system};\n";
    assert_eq!(
        crate_paths(code),
        [
            (1, "model"),
            (3, "render"),
            (3, "settings"),
            (4, "cache"),
            (4, "fetched"),
            (5, "system"),
        ]
        .map(|(line, name)| (line, name.to_owned()))
    );
}

/// No line of src is wider than 100 columns (rustfmt's `max_width`): rustfmt cannot enforce it
/// on its own (`error_on_line_overflow` is unstable), so a long text is bound to a name or
/// continued with `\`, and a long comment is wrapped.
#[test]
fn no_line_of_src_is_over_100_columns() {
    let src = src();
    let mut long = Vec::new();
    for path in rust_files(&src) {
        let text = std::fs::read_to_string(&path).unwrap();
        for (at, line) in text.lines().enumerate() {
            let width = line.chars().count();
            if width > 100 {
                let shown = path.strip_prefix(&src).unwrap().display();
                long.push(format!("src/{shown}:{}: {width} columns", at + 1));
            }
        }
    }
    assert!(
        long.is_empty(),
        "lines over 100 columns:\n{}",
        long.join("\n")
    );
}

/// `output` reads no environment variable: libpq's (PGHOST, PGPASSWORD...) and the home
/// folder come from the settings' one environment reader (`settings/environment.rs`) as
/// plain values, so that what a run honours is listed in one place.
#[test]
fn output_reads_no_environment_variable() {
    let src = src();
    let mut read = Vec::new();
    for path in rust_files(&src.join("output")) {
        let text = std::fs::read_to_string(&path).unwrap();
        for (at, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if ["env::var", "env::vars", "dirs::"]
                .iter()
                .any(|r| code.contains(r))
            {
                let shown = path.strip_prefix(&src).unwrap().display();
                read.push(format!("src/{shown}:{}: {}", at + 1, line.trim()));
            }
        }
    }
    assert!(
        read.is_empty(),
        "the environment read in output:\n{}",
        read.join("\n")
    );
}
