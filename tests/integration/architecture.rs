//! The architecture invariants of src/lib.rs, read off the sources as a reviewer would: folders
//! import one way (no circle among them, `model` and `system` at the bottom, `output` never
//! reaching the network), and no function is longer than a screen.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::support::files::rust_files;

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The code of `text` with comments, string and character literals blanked (kept as spaces, so
/// lines keep their numbers): what is left of braces and paths is the code's own.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let rest = &chars[i..];
        let skip = if rest.starts_with(&['/', '/']) {
            rest.iter().position(|c| *c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            2 + (2..rest.len())
                .find(|&k| rest[k - 2..k] == ['*', '/'])
                .unwrap_or(rest.len())
                - 2
        } else if let Some(hashes) = raw_string_start(rest) {
            let close: Vec<char> = std::iter::once('"')
                .chain("#".repeat(hashes).chars())
                .collect();
            let open = hashes + 2 + usize::from(rest[0] == 'b');
            open + (open..rest.len())
                .find(|&k| rest[k..].starts_with(&close))
                .map_or(rest.len() - open, |k| k - open + close.len())
        } else if rest[0] == '"' {
            1 + (1..rest.len())
                .scan(false, |escaped, k| {
                    let end = !*escaped && rest[k] == '"';
                    *escaped = !*escaped && rest[k] == '\\';
                    Some((k, end))
                })
                .find(|(_, end)| *end)
                .map_or(rest.len() - 1, |(k, _)| k)
        } else if rest[0] == '\'' && char_literal_len(rest).is_some() {
            char_literal_len(rest).unwrap()
        } else {
            0
        };
        if skip == 0 {
            out.push(chars[i]);
            i += 1;
        } else {
            let end = (i + skip).min(chars.len());
            out.extend(chars[i..end].iter().map(|c| blank(*c)));
            i = end;
        }
    }
    out
}

/// `r"`, `r#"`, `br##"` ...: the number of hashes of a raw string opening here.
fn raw_string_start(rest: &[char]) -> Option<usize> {
    let after_b = usize::from(rest.first() == Some(&'b'));
    if rest.get(after_b) != Some(&'r') {
        return None;
    }
    let hashes = rest[after_b + 1..]
        .iter()
        .take_while(|c| **c == '#')
        .count();
    (rest.get(after_b + 1 + hashes) == Some(&'"')).then_some(hashes)
}

/// The length of a character literal opening here (`'a'`, `'\n'`, `'\u{202e}'`), not a lifetime.
fn char_literal_len(rest: &[char]) -> Option<usize> {
    match rest.get(1)? {
        '\\' => rest[2..].iter().position(|c| *c == '\'').map(|k| k + 3),
        _ => (rest.get(2) == Some(&'\'')).then_some(3),
    }
}

/// Each function of `code` (comments and literals blanked) as (name, first line, lines).
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(fn_at) = words.iter().position(|w| *w == "fn") else {
            continue;
        };
        let Some(name) = words.get(fn_at + 1) else {
            continue;
        };
        let name: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let mut depth = 0i32;
        let mut opened = false;
        for (end, body) in lines.iter().enumerate().skip(at) {
            if !opened && body.trim_end().ends_with(';') {
                break;
            }
            for c in body.chars() {
                match c {
                    '{' => (depth, opened) = (depth + 1, true),
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth <= 0 {
                found.push((name.clone(), at + 1, end - at + 1));
                break;
            }
        }
    }
    found
}

#[test]
fn no_function_is_longer_than_sixty_lines() {
    let mut long = Vec::new();
    for file in rust_files(&src()) {
        let code = code_only(&std::fs::read_to_string(&file).unwrap());
        for (name, line, length) in functions(&code) {
            if length > 60 {
                let file = file.strip_prefix(src()).unwrap().display().to_string();
                long.push(format!("src/{file}:{line} {name}: {length} lines"));
            }
        }
    }
    assert_eq!(long, Vec::<String>::new(), "split these by concern");
}

#[test]
fn the_length_count_reads_code_not_literals() {
    let code = code_only("fn a() {\n    let s = \"}}\"; // }\n    let c = '{';\n    /* { */ let r = r#\"}\"#;\n}\nfn b<'a>(x: &'a str) {}\n");
    assert_eq!(
        functions(&code),
        [("a".to_owned(), 1, 5), ("b".to_owned(), 6, 1)]
    );
}

/// Which top-level folders (and top-level files) of src each folder names by `crate::`.
fn folder_imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(&src()) {
        let relative = file.strip_prefix(src()).unwrap();
        if relative.components().count() < 2 {
            continue;
        }
        let folder = relative
            .iter()
            .next()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let code = code_only(&std::fs::read_to_string(&file).unwrap());
        let named = imports.entry(folder.clone()).or_default();
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name != folder && !name.is_empty() {
                named.insert(name);
            }
        }
        // A `use crate::{a, b::c}` group names its folders after the brace.
        for (at, _) in code.match_indices("crate::{") {
            let group = &code[at + 8..];
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let name = item.trim().split("::").next().unwrap_or("").trim();
                if !name.is_empty() && name != folder && name != "self" {
                    named.insert(name.to_owned());
                }
            }
        }
    }
    imports
}

#[test]
fn folders_import_one_way_only() {
    let imports = folder_imports();
    // Depth-first: a folder met again while it is still being walked closes a circle.
    fn walk(
        at: &str,
        imports: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|p| p == at) {
            return Some(
                path[start..]
                    .iter()
                    .cloned()
                    .chain([at.to_owned()])
                    .collect(),
            );
        }
        if !done.insert(at.to_owned()) {
            return None;
        }
        path.push(at.to_owned());
        for next in imports.get(at).into_iter().flatten() {
            if let Some(circle) = walk(next, imports, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for folder in imports.keys() {
        let circle = walk(folder, &imports, &mut Vec::new(), &mut done);
        assert_eq!(circle, None, "folders import each other: {imports:#?}");
    }
}

#[test]
fn the_bottom_rooms_import_only_along_their_arrow_and_output_never_talks_to_the_network() {
    let imports = folder_imports();
    let folders = |name: &str| -> Vec<String> {
        let all = imports.get(name).cloned().unwrap_or_default();
        all.into_iter().filter(|n| src().join(n).is_dir()).collect()
    };
    // model quotes foreign text through system's one function (the arrow lib.rs draws).
    assert_eq!(folders("model"), ["system"]);
    // The shaping of rows (periods, measures, summary, wide, sort) reads the data alone.
    assert_eq!(folders("analysis"), ["model"]);
    assert_eq!(folders("system"), Vec::<String>::new());
    assert!(
        !folders("output").contains(&"client".to_owned()),
        "{:?}",
        folders("output")
    );
    for apart in [
        "client", "cache", "output", "render", "settings", "cli", "commands",
    ] {
        assert!(
            !folders("sandbox").contains(&apart.to_owned()),
            "the sandbox shares no code with the client it checks"
        );
    }
}
