//! The Debian package's asset list in Cargo.toml (`[package.metadata.deb]`) stays in step with
//! the files it ships: every page of man/, the bash, zsh and fish scripts of completions/ in
//! their vendor folders, README and both licences. `.ci/package-check` builds,
//! installs and uses the package; this test fails first, without root, when a file is added.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn deb_metadata() -> toml::Table {
    let text = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let manifest: toml::Table = toml::from_str(&text).unwrap();
    manifest["package"]["metadata"]["deb"]
        .as_table()
        .expect("Cargo.toml has [package.metadata.deb]")
        .clone()
}

/// The assets as (source, destination) pairs.
fn assets() -> Vec<(String, String)> {
    deb_metadata()["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|asset| {
            let fields = asset.as_array().unwrap();
            assert_eq!(fields.len(), 3, "{asset:?}");
            let text = |i: usize| fields[i].as_str().unwrap().to_owned();
            assert_eq!(text(2), if text(1) == "usr/bin/" { "755" } else { "644" });
            (text(0), text(1))
        })
        .collect()
}

/// Where the package puts `file` (a path relative to the repository), if anywhere: an asset
/// names it or matches it with one `*`; a destination ending in `/` keeps the file's name.
fn destination(file: &str) -> Option<String> {
    assets().into_iter().find_map(|(source, dest)| {
        let matches = match source.split_once('*') {
            Some((head, tail)) => {
                file.len() >= head.len() + tail.len()
                    && file.starts_with(head)
                    && file.ends_with(tail)
                    && !file[head.len()..file.len() - tail.len()].contains('/')
            }
            None => source == file,
        };
        let name = Path::new(file).file_name().unwrap().to_str().unwrap();
        matches.then(|| match dest.ends_with('/') {
            true => format!("{dest}{name}"),
            false => dest,
        })
    })
}

fn files_in(folder: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join(folder))
        .unwrap()
        .map(|e| format!("{folder}/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    names.sort();
    names
}

#[test]
fn every_man_page_is_shipped_in_man1() {
    let pages = files_in("man");
    assert!(pages.len() > 20, "{pages:?}");
    for page in pages {
        let name = page.trim_start_matches("man/");
        assert_eq!(
            destination(&page),
            Some(format!("usr/share/man/man1/{name}")),
            "{page}"
        );
    }
}

#[test]
fn bash_zsh_and_fish_completions_are_shipped_in_their_vendor_folders() {
    // PowerShell and elvish have no system folder that loads scripts: they are not shipped.
    let expected: BTreeMap<String, Option<&str>> = [
        (
            "chain-metrics.bash",
            Some("usr/share/bash-completion/completions/chain-metrics"),
        ),
        (
            "_chain-metrics",
            Some("usr/share/zsh/vendor-completions/_chain-metrics"),
        ),
        (
            "chain-metrics.fish",
            Some("usr/share/fish/vendor_completions.d/chain-metrics.fish"),
        ),
        ("_chain-metrics.ps1", None),
        ("chain-metrics.elv", None),
    ]
    .into_iter()
    .map(|(name, dest)| (format!("completions/{name}"), dest))
    .collect();
    let present = files_in("completions");
    assert_eq!(present, expected.keys().cloned().collect::<Vec<_>>());
    for (script, dest) in expected {
        assert_eq!(destination(&script).as_deref(), dest, "{script}");
    }
}

#[test]
fn the_binary_readme_and_both_licences_are_shipped() {
    assert_eq!(
        destination("target/release/chain-metrics").as_deref(),
        Some("usr/bin/chain-metrics")
    );
    for doc in ["README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(repo().join(doc).is_file(), "{doc}");
        assert_eq!(
            destination(doc),
            Some(format!("usr/share/doc/chain-metrics/{doc}"))
        );
    }
}

#[test]
fn every_asset_source_exists() {
    for (source, _) in assets() {
        if source.starts_with("target/") {
            continue;
        }
        let found = match source.rsplit_once('/') {
            Some((folder, _)) if source.contains('*') => {
                files_in(folder).iter().any(|f| destination(f).is_some())
            }
            _ => repo().join(&source).is_file(),
        };
        assert!(found, "{source} matches no file");
    }
}

#[test]
fn copyright_changelog_and_dependencies_are_what_debian_needs() {
    let deb = deb_metadata();
    assert_eq!(
        deb["depends"].as_str(),
        Some("$auto"),
        "only what the binary links: libc"
    );
    assert!(deb["maintainer"].as_str().unwrap().ends_with('>'));
    let copyright = std::fs::read_to_string(repo().join("debian/copyright")).unwrap();
    assert!(copyright.starts_with(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
    ));
    assert!(copyright.contains("License: MIT or Apache-2.0\n"));
    assert!(copyright.contains("/usr/share/common-licenses/Apache-2.0"));
    let changelog = std::fs::read_to_string(repo().join("debian/changelog")).unwrap();
    let first = changelog.lines().next().unwrap();
    assert_eq!(
        first,
        format!(
            "chain-metrics ({}-1) unstable; urgency=medium",
            env!("CARGO_PKG_VERSION")
        ),
        "move debian/changelog along with the version"
    );
}

#[test]
fn the_systemd_units_are_shipped_as_examples() {
    let units = files_in("contrib/systemd");
    assert_eq!(
        units,
        [
            "contrib/systemd/chain-metrics-export.service",
            "contrib/systemd/chain-metrics-export.timer"
        ]
    );
    for unit in units {
        let name = unit.trim_start_matches("contrib/systemd/");
        assert_eq!(
            destination(&unit),
            Some(format!("usr/share/doc/chain-metrics/examples/{name}"))
        );
    }
}

/// `cargo package --list`: what a crate user gets. The sources, build script, the man page
/// generator and what it reads, the generated files and the licences; never the benchmarks'
/// output, the fuzz corpora, the tests or CI.
#[test]
fn the_crate_ships_what_a_user_builds_from_and_nothing_of_the_workshop() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let listed = std::process::Command::new(cargo)
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(listed.status.success(), "{listed:?}");
    let files = String::from_utf8(listed.stdout).unwrap();
    let files: Vec<&str> = files.lines().collect();
    let top: std::collections::BTreeSet<&str> = files
        .iter()
        .map(|file| file.split('/').next().unwrap())
        .collect();
    assert_eq!(
        top.into_iter().collect::<Vec<_>>(),
        [
            ".cargo_vcs_info.json",
            "Cargo.lock",
            "Cargo.toml",
            "Cargo.toml.orig",
            "LICENSE-APACHE",
            "LICENSE-MIT",
            "README.md",
            "build.rs",
            "completions",
            "contrib",
            "debian",
            "examples",
            "man",
            "src",
        ]
        .into_iter()
        .filter(|name| *name != ".cargo_vcs_info.json" || files.contains(name))
        .collect::<Vec<_>>(),
    );
    for file in [
        "src/main.rs",
        "man/chain-metrics.1",
        "completions/chain-metrics.bash",
    ] {
        assert!(files.contains(&file), "{file} is not shipped: {files:?}");
    }
}
