//! The guides say what ships: the service described in docs/service.md (SERVICE.md ships
//! nowhere, so no shipped guide names it), and docs/sandbox.md lists every fault the sandbox takes.
//! The guides run as written: every command of the exports guide against the sandbox, the
//! README's two forms of its first command, and the man-page install recipes with man-db's real
//! `man`, for a `cargo install` user whose PATH has `~/.cargo/bin` and not `~/.local/bin`.

use std::path::PathBuf;

use crate::cli::generated::manual::CRONTAB;
use crate::support::{link_binary_into, Env};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap()
}

#[test]
fn no_shipped_guide_names_service_md_and_the_readme_links_service_md() {
    let mut guides = vec!["README.md".to_owned()];
    for entry in std::fs::read_dir(repo().join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            guides.push(format!("docs/{name}"));
        }
    }
    for guide in &guides {
        assert!(
            !read(guide).contains("SERVICE.md"),
            "{guide} names SERVICE.md"
        );
    }
    assert!(read("README.md").contains("](docs/service.md)"));
    assert!(read("docs/sandbox.md").contains("](service.md)"));
}

/// Every fault `sandbox --help` names has its row in the guide's table.
#[test]
fn the_sandbox_guide_lists_every_fault() {
    let help = Env::new().cmd("sandbox --help").any_stdout().run().stdout;
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let (_, faults) = flat
        .split_once("Misbehave on purpose (repeatable): ")
        .unwrap();
    let (faults, _) = faults.split_once("; NAME@N").unwrap();
    // The examples in parentheses are not faults of their own.
    let faults: String = faults
        .split('(')
        .map(|part| part.split_once(')').map_or(part, |(_, rest)| rest))
        .collect();
    let guide = read("docs/sandbox.md");
    let names: Vec<&str> = faults
        .split(", ")
        .map(|fault| fault.split([':', ' ']).next().unwrap())
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    for name in names {
        let row = match name {
            "CODE[" | "CODE" => "| `CODE[:RETRY_AFTER]` |".to_owned(),
            _ => format!("| `{name}"),
        };
        assert!(
            guide.contains(&row),
            "docs/sandbox.md has no row for {name}"
        );
    }
}

/// The ```sh blocks of `text`, each as its lines.
fn sh_blocks(text: &str) -> Vec<String> {
    text.split("```sh\n")
        .skip(1)
        .map(|rest| rest.split_once("\n```").unwrap().0.to_owned())
        .collect()
}

/// Every command block of docs/exports.md runs as written with `--sandbox` after each
/// `chain-metrics`, in a bash that stops at the first failing command of a pipe (the jq and
/// sqlite3 recipes too; the recipes module checks their digits). The PostgreSQL line needs a
/// server (files/postgres runs the export against one): it is the daily crontab line with the
/// URI in place of the file, as the guide says.
#[test]
fn every_command_of_the_exports_guide_runs_against_the_sandbox() {
    let guide = read("docs/exports.md");
    let (mut ran, mut postgres) = (0, 0);
    for block in sh_blocks(&guide) {
        if block.contains("postgresql://") {
            let (_, daily) = CRONTAB.split_once("  ").unwrap();
            let daily = daily.replace("\"$HOME/chain-metrics/fees.csv\"", "postgresql:///metrics");
            assert_eq!(block, daily);
            postgres += 1;
            continue;
        }
        let script = block
            .lines()
            .map(|line| match line.strip_prefix("chain-metrics ") {
                Some(rest) => format!("chain-metrics --sandbox {rest}"),
                None => line.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("\n");
        // The sandbox's note on stderr.
        Env::new()
            .shell(&format!("set -e -o pipefail\n{script}"))
            .any_stdout()
            .any_stderr()
            .run();
        ran += 1;
    }
    assert_eq!((ran, postgres), (10, 1));
}

/// The daily export of the guide is the crontab line of the man page and the cron guide,
/// which cron_docs runs.
#[test]
fn the_exports_guide_shows_the_one_crontab_line() {
    let guide = read("docs/exports.md");
    let block = format!("```cron\n# m h dom mon dow  command\n{CRONTAB}\n```");
    assert!(guide.contains(&block), "docs/exports.md lacks\n{block}");
}

/// "Try it": the README's first command is the `cargo run` form, and the installed form
/// beside it is the same command, which runs.
#[test]
fn the_readme_tries_it_in_both_forms() {
    let readme = read("README.md");
    let (_, try_it) = readme.split_once("## Try it").unwrap();
    let blocks = sh_blocks(try_it);
    let first = "cargo run -- --sandbox fees --chain eth --last 7";
    assert_eq!(sh_blocks(&readme)[0], first, "the README's first command");
    assert_eq!(blocks[1], first.replace("cargo run -- ", "chain-metrics "));
    let run = Env::new().shell(&blocks[1]).any_stderr().run();
    assert_eq!(run.stdout.lines().count(), 8, "{}", run.stdout);
}

/// man-db's `man`, which the install recipes are for; missing, the test says where it comes
/// from instead of passing without it.
fn man_db() {
    let version = std::process::Command::new("man").arg("--version").output();
    let version = version.unwrap_or_else(|e| {
        panic!(
            "cannot run man ({e}): the man-page recipes are tested with man-db's man; \
             .ci/run installs it (apt-get install man-db)"
        )
    });
    assert!(version.status.success(), "man --version: {version:?}");
}

/// A `cargo install` user's environment: the binary in `~/.cargo/bin` of a fresh HOME, and a
/// PATH of that and the system's folders alone (no `~/.local/bin`, no MANPATH).
fn cargo_install_user() -> Env {
    let mut env = Env::new();
    let bin = env.home.path().join(".cargo/bin");
    link_binary_into(&bin);
    let path = format!("{}:/usr/bin:/bin", bin.display());
    env.set("PATH", &path);
    env
}

/// `man -w chain-metrics-fees` finds the page under `folder` of the home, and `man` shows it.
fn man_finds_the_page(env: &Env, folder: &str) {
    let page = env
        .home
        .path()
        .join(folder)
        .join("man1/chain-metrics-fees.1");
    env.program("man", &["-w", "chain-metrics-fees"])
        .stdout(format!("{}\n", page.display()))
        .run();
    let shown = env.shell("man chain-metrics-fees | head -n 5").run().stdout;
    assert!(
        shown.contains("chain-metrics-fees - Daily transaction fees"),
        "{shown}"
    );
}

#[test]
fn the_readmes_man_install_line_works_for_a_cargo_install_user() {
    man_db();
    let readme = read("README.md");
    let (_, install) = readme.split_once("## Install\n").unwrap();
    let block = &sh_blocks(install)[0];
    assert!(block.starts_with("cargo install "), "{block}");
    let line = block
        .lines()
        .find(|line| line.starts_with("chain-metrics man --dir"))
        .expect("the README installs the man pages");
    let env = cargo_install_user();
    env.shell(line).run();
    man_finds_the_page(&env, ".cargo/share/man");
}

#[test]
fn the_guides_man_recipe_works_for_a_cargo_install_user() {
    man_db();
    let guide = read("docs/completion-and-man-pages.md");
    let block = sh_blocks(&guide)
        .into_iter()
        .find(|block| block.contains("chain-metrics man --dir"))
        .expect("the guide installs the man pages");
    let env = cargo_install_user();
    // Read one without installing, install them all, read one installed: the page twice.
    let shown = env.shell(&block).run().stdout;
    let name = "chain-metrics-fees - Daily transaction fees";
    assert_eq!(shown.matches(name).count(), 2, "{shown}");
    man_finds_the_page(&env, ".cargo/share/man");
}

/// The guide's MANPATH line, for a folder man does not derive from PATH: the pages are found
/// there, and the trailing colon keeps the system's folders in the search.
#[test]
fn the_guides_manpath_line_finds_pages_elsewhere() {
    man_db();
    let guide = read("docs/completion-and-man-pages.md");
    let (_, export) = guide.split_once("`export MANPATH=").unwrap();
    let value = export.split_once('`').unwrap().0;
    assert_eq!(value, "\"$HOME/my/man:\"");
    let env = cargo_install_user();
    env.shell("chain-metrics man --dir ~/my/man/man1").run();
    let mut env = env;
    let home = env.home.path().display().to_string();
    let manpath = value.trim_matches('"').replace("$HOME", &home);
    env.set("MANPATH", &manpath);
    man_finds_the_page(&env, "my/man");
    let search = env.program("manpath", &["-q"]).run().stdout;
    assert!(search.starts_with(&format!("{home}/my/man:")), "{search}");
    assert!(search.contains("/usr/share/man"), "{search}");
}

/// The anchor GitHub gives a heading: lower case, punctuation but `-` and `_` left out,
/// spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every link from the README or a guide to a heading (`exports.md#into-duckdb`,
/// `#a-daily-export`) lands on a heading of that file.
#[test]
fn every_link_to_a_heading_of_a_guide_lands() {
    let mut guides = vec!["README.md".to_owned()];
    for entry in std::fs::read_dir(repo().join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            guides.push(format!("docs/{name}"));
        }
    }
    let mut checked = 0;
    for guide in &guides {
        let text = read(guide);
        let folder = std::path::Path::new(guide).parent().unwrap();
        for link in text.split("](").skip(1) {
            let target = link.split(')').next().unwrap();
            let Some((file, heading)) = target.split_once('#') else {
                continue;
            };
            if file.starts_with("http") {
                continue;
            }
            let file = match file {
                "" => guide.clone(),
                file => folder.join(file).to_string_lossy().replace("docs/../", ""),
            };
            let mut in_code = false;
            let anchors: Vec<String> = read(&file)
                .lines()
                .filter(|line| {
                    in_code ^= line.starts_with("```");
                    !in_code
                })
                .filter_map(|line| line.strip_prefix('#'))
                .map(|line| anchor(line.trim_start_matches('#')))
                .collect();
            assert!(
                anchors.iter().any(|a| a == heading),
                "{guide} links {target}, a heading {file} lacks"
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
}
