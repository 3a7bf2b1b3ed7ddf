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
        "only what the binary links: libc and libgcc (.ci/release checks the .deb says so)"
    );
    assert_eq!(deb["profile"].as_str(), Some("dist"));
    // The release's binary is built against glibc 2.28 (.ci/release), and says so.
    let release = &deb["variants"]["glibc-2-28"];
    assert_eq!(release["name"].as_str(), Some("chain-metrics"));
    assert_eq!(release["depends"].as_str(), Some("libc6 (>= 2.28)"));
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
/// generator and what it reads, the generated files, the licences, the guides and the tests
/// (with the fuzz seeds and CI scripts they read); never the benchmarks or the fuzz project.
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
            ".ci",
            "BENCHMARKS.md",
            "CHANGELOG.md",
            "Cargo.lock",
            "Cargo.toml",
            "Cargo.toml.orig",
            "LICENSE-APACHE",
            "LICENSE-MIT",
            "README.md",
            "benches",
            "build.rs",
            "completions",
            "contrib",
            "debian",
            "docs",
            "examples",
            "man",
            "src",
            "tests",
        ]
        .into_iter()
        .filter(|name| *name != ".cargo_vcs_info.json" || files.contains(name))
        .collect::<Vec<_>>(),
    );
    // A packager runs the tests from the crate: every test source. fuzz/ is a cargo project of
    // its own, which cargo leaves out, seeds included (the tests that read them need a checkout).
    for file in [
        "src/main.rs",
        "man/chain-metrics.1",
        "completions/chain-metrics.bash",
        "tests/integration/main.rs",
        "tests/properties.rs",
        "docs/exports.md",
    ] {
        assert!(files.contains(&file), "{file} is not shipped: {files:?}");
    }
}

/// The RPM's assets (`[package.metadata.generate-rpm]`): the Debian package's files, each from
/// the same source, in Fedora's folders (zsh's site-functions, the licences under licenses/).
#[test]
fn the_rpm_ships_what_the_deb_ships_in_fedoras_folders() {
    let text = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let manifest: toml::Table = toml::from_str(&text).unwrap();
    let rpm: Vec<(String, String)> = manifest["package"]["metadata"]["generate-rpm"]["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|asset| {
            let text = |key: &str| asset[key].as_str().unwrap().to_owned();
            (text("source"), text("dest"))
        })
        .collect();
    let fedora = |dest: &str| {
        let dest = format!("/{dest}");
        dest.replace("/zsh/vendor-completions/", "/zsh/site-functions/")
            .replace(
                "/doc/chain-metrics/LICENSE",
                "/licenses/chain-metrics/LICENSE",
            )
    };
    let expected: Vec<(String, String)> = assets()
        .into_iter()
        .map(|(source, dest)| (source, fedora(&dest)))
        .collect();
    assert_eq!(rpm, expected);
}

/// The README and the guides, as the packages install them: every relative link of a shipped
/// Markdown file leads to a file the package ships too.
#[test]
fn the_packaged_readme_and_guides_link_to_shipped_files() {
    let mut markdown = vec!["README.md".to_owned(), "BENCHMARKS.md".to_owned()];
    markdown.extend(files_in("docs").into_iter().filter(|f| f.ends_with(".md")));
    for source in markdown {
        let dest = destination(&source).unwrap_or_else(|| panic!("{source} is not shipped"));
        let text = std::fs::read_to_string(repo().join(&source)).unwrap();
        for link in relative_links(&text) {
            let target = link.split('#').next().unwrap();
            if target.is_empty() {
                continue;
            }
            let from = |file: &str| Path::new(file).parent().unwrap().join(target);
            let in_repo = normal(&from(&source));
            let in_package = normal(&from(&dest));
            assert_eq!(
                destination(&in_repo),
                Some(in_package.clone()),
                "{source} links to {link}: the package has no {in_package}"
            );
        }
    }
}

/// The targets of `[text](target)` that are not URLs.
fn relative_links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(link, _)| link.to_owned()))
        .filter(|link| {
            !link.contains("://") && !link.starts_with('#') && !link.starts_with("mailto:")
        })
        .collect()
}

/// `a/b/../c` as `a/c`.
fn normal(path: &Path) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.to_str().unwrap().split('/') {
        match part {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// One version everywhere: Cargo.toml's, the newest release of CHANGELOG.md and the Debian
/// changelog's (checked above); the changelog ships as the package's `changelog`.
#[test]
fn the_changelog_names_this_version_and_ships() {
    let changelog = std::fs::read_to_string(repo().join("CHANGELOG.md")).unwrap();
    let release = changelog
        .lines()
        .find(|line| line.starts_with("## [") && !line.starts_with("## [Unreleased]"))
        .expect("CHANGELOG.md names a release");
    assert!(
        release.starts_with(&format!("## [{}] - ", env!("CARGO_PKG_VERSION"))),
        "CHANGELOG.md's newest release is {release}, Cargo.toml's version {}",
        env!("CARGO_PKG_VERSION")
    );
    assert!(changelog.contains("## [Unreleased]"));
    assert_eq!(
        destination("CHANGELOG.md").as_deref(),
        Some("usr/share/doc/chain-metrics/changelog")
    );
}

/// `release` builds quickly (for `cargo build --release` and `cargo install`); `dist`, for the
/// packages and the published binaries, keeps fat LTO and one codegen unit, and optimises as
/// much as `release` does every package `release` leaves less optimised (the bundled SQLite);
/// `cargo deb` (its `profile`, checked above) and .ci/release build with `dist`.
#[test]
fn release_builds_fast_and_dist_keeps_fat_lto() {
    let text = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let manifest: toml::Table = toml::from_str(&text).unwrap();
    let release = manifest["profile"]["release"].as_table().unwrap();
    assert!(
        release.get("lto").is_none_or(
            |lto| matches!(lto.as_str(), Some("thin" | "off")) || lto.as_bool() == Some(false)
        ),
        "{release:?}"
    );
    assert!(release.get("codegen-units").is_none(), "{release:?}");
    let dist = manifest["profile"]["dist"].as_table().unwrap();
    assert_eq!(dist["inherits"].as_str(), Some("release"));
    assert_eq!(dist["lto"].as_str(), Some("fat"));
    assert_eq!(dist["codegen-units"].as_integer(), Some(1));
    let lowered = release.get("package").and_then(|p| p.as_table());
    for (name, settings) in lowered.into_iter().flatten() {
        if settings.get("opt-level").is_some() {
            assert_eq!(
                dist["package"][name]["opt-level"], release["opt-level"],
                "dist does not optimise {name} as release optimises the rest"
            );
        }
    }
    let text = std::fs::read_to_string(repo().join(".ci/release")).unwrap();
    assert!(
        text.contains("--profile dist"),
        ".ci/release does not build with dist"
    );
}
