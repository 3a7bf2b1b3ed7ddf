//! completions/ and man/ are exactly what the code generates, and the man pages are lint-clean.

// The man pages are made by the shipped crate (`chain-metrics man`); the example writes them.
pub(crate) use chain_metrics::manual;

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::support::{tools, Env};
use chain_metrics::{write_script, Shell};
use clap::ValueEnum;

const REGENERATE: &str = "cargo run --example generate";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &PathBuf) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; regenerate with `{REGENERATE}`",
            path.display()
        )
    })
}

#[test]
fn checked_in_completions_are_what_the_binary_prints() {
    let env = Env::new();
    for shell in Shell::value_variants() {
        let name = shell.to_possible_value().unwrap().get_name().to_owned();
        let run = env.cmd(&format!("completions {name}")).run();
        let mut generated = Vec::new();
        write_script(*shell, &mut generated).unwrap();
        assert_eq!(run.stdout.as_bytes(), generated, "{name}");
        let path = repo().join("completions").join(shell.file_name());
        assert!(
            read(&path) == generated,
            "{} is out of date: run `{REGENERATE}`",
            path.display()
        );
    }
}

#[test]
fn completions_folder_holds_the_five_scripts_of_cli_md() {
    let names: BTreeSet<String> = std::fs::read_dir(repo().join("completions"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let expected: BTreeSet<String> = [
        "chain-metrics.bash",
        "_chain-metrics",
        "chain-metrics.fish",
        "_chain-metrics.ps1",
        "chain-metrics.elv",
    ]
    .map(String::from)
    .into();
    assert_eq!(names, expected);
}

#[test]
fn checked_in_man_pages_are_what_the_code_generates() {
    let pages = manual::pages();
    let generated: BTreeSet<&str> = pages.iter().map(|p| p.file_name.as_str()).collect();
    let checked_in: BTreeSet<String> = std::fs::read_dir(repo().join("man"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let checked_in: BTreeSet<&str> = checked_in.iter().map(String::as_str).collect();
    assert!(
        generated == checked_in,
        "man/ holds {checked_in:?} but the code makes {generated:?}: run `{REGENERATE}`"
    );
    for page in &pages {
        let path = repo().join("man").join(&page.file_name);
        assert!(
            read(&path) == page.text,
            "{} is out of date: run `{REGENERATE}`",
            path.display()
        );
    }
}

#[test]
fn there_is_a_page_for_the_tool_and_each_subcommand() {
    let names: Vec<String> = manual::pages().into_iter().map(|p| p.file_name).collect();
    assert_eq!(
        names,
        [
            "chain-metrics.1",
            "chain-metrics-fees.1",
            "chain-metrics-users.1",
            "chain-metrics-social.1",
            "chain-metrics-report.1",
            "chain-metrics-chains.1",
            "chain-metrics-auth.1",
            "chain-metrics-auth-login.1",
            "chain-metrics-auth-status.1",
            "chain-metrics-auth-logout.1",
            "chain-metrics-config.1",
            "chain-metrics-config-path.1",
            "chain-metrics-config-show.1",
            "chain-metrics-config-get.1",
            "chain-metrics-config-set.1",
            "chain-metrics-config-unset.1",
            "chain-metrics-cache.1",
            "chain-metrics-cache-path.1",
            "chain-metrics-cache-stats.1",
            "chain-metrics-cache-clear.1",
            "chain-metrics-render.1",
            "chain-metrics-sandbox.1",
            "chain-metrics-completions.1"
        ]
    );
}

#[test]
fn man_pages_are_mandoc_lint_clean() {
    let pages: Vec<PathBuf> = manual::pages()
        .iter()
        .map(|p| repo().join("man").join(&p.file_name))
        .collect();
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "-T".as_ref(),
        "lint".as_ref(),
        "-W".as_ref(),
        "warning".as_ref(),
    ];
    args.extend(pages.iter().map(|page| page.as_os_str()));
    let output = tools::output("mandoc", &args);
    let report = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{report}");
    assert_eq!(report, "");
}

#[test]
fn every_page_has_the_extra_sections_and_a_fixed_date() {
    for page in manual::pages() {
        let text = String::from_utf8(page.text).unwrap();
        let title = text.lines().find(|l| l.starts_with(".TH ")).unwrap();
        let name = page.file_name.trim_end_matches(".1").to_uppercase();
        assert_eq!(
            title,
            format!(
                ".TH {name} 1 {} \"chain-metrics {}\" \"User Commands\"",
                manual::DATE,
                env!("CARGO_PKG_VERSION")
            )
        );
        for section in [
            ".SH EXAMPLES",
            ".SH ENVIRONMENT",
            ".SH FILES",
            ".SH \"EXIT STATUS\"",
        ] {
            assert!(text.contains(section), "{} lacks {section}", page.file_name);
        }
        for (code, _) in manual::EXIT_CODES {
            assert!(text.contains(&format!(".TP\n\\fB{code}\\fR\n")), "{code}");
        }
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error_naming_it() {
    let run = Env::new()
        .cmd("completions tcsh")
        .code(2)
        .error_line("error: invalid value 'tcsh' for '<SHELL>'")
        .stdout("")
        .run();
    assert!(
        run.stderr
            .contains("[possible values: bash, zsh, fish, powershell, elvish]"),
        "{}",
        run.stderr
    );
}
