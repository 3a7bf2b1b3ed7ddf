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
            "chain-metrics-config-profiles.1",
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
        assert!(
            text.starts_with(".TH "),
            "{} starts with {title}",
            page.file_name
        );
        for section in [
            ".SH EXAMPLES",
            ".SH ENVIRONMENT",
            ".SH FILES",
            ".SH \"EXIT STATUS\"",
            ".SH \"REPORTING BUGS\"",
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

/// The page as `chain-metrics man` names it: `chain-metrics-auth-login.1` is `auth login`.
fn words_of(file_name: &str) -> Vec<String> {
    let name = file_name.trim_end_matches(".1");
    let rest = name.strip_prefix("chain-metrics").unwrap();
    rest.split('-')
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_binary_prints_every_checked_in_page() {
    let env = Env::new();
    for page in manual::pages() {
        let args: Vec<String> = ["man".to_owned()]
            .into_iter()
            .chain(words_of(&page.file_name))
            .collect();
        let run = env.cmd_args(&args).any_stdout().run();
        let checked_in = read(&repo().join("man").join(&page.file_name));
        assert!(
            run.stdout.as_bytes() == checked_in,
            "chain-metrics {} differs from man/{}",
            args.join(" "),
            page.file_name
        );
    }
    let run = env.cmd("man fees").any_stdout().run();
    let first = run.stdout.lines().next().unwrap();
    assert!(first.starts_with(".TH CHAIN-METRICS-FEES 1 "), "{first}");
}

#[test]
fn man_dir_writes_every_page_as_man_finds_them() {
    let env = Env::new();
    let dir = env.home.path().join(".cargo/share/man/man1");
    env.cmd_args(&["man", "--dir", dir.to_str().unwrap()]).run();
    let written: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let pages = manual::pages();
    assert_eq!(
        written,
        pages
            .iter()
            .map(|p| p.file_name.clone())
            .collect::<BTreeSet<_>>()
    );
    for page in pages {
        assert!(std::fs::read(dir.join(&page.file_name)).unwrap() == page.text);
    }
}

#[test]
fn a_page_that_does_not_exist_is_a_usage_error_naming_the_pages() {
    let run = Env::new()
        .cmd("man feez")
        .code(2)
        .error_line("error: no man page for 'feez'")
        .run();
    assert!(
        run.stderr
            .contains("hint: the commands with a page: fees, users,"),
        "{}",
        run.stderr
    );
}

/// The derived measures of `fees --help` are a table on the page: tbl lines them up in columns,
/// where a paragraph would run them together.
#[test]
fn the_derived_measures_are_a_table_in_man() {
    let page = repo().join("man/chain-metrics-fees.1");
    let output = tools::output(
        "mandoc",
        &[
            "-T".as_ref(),
            "utf8".as_ref(),
            "-O".as_ref(),
            "width=120".as_ref(),
            page.as_os_str(),
        ],
    );
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    // mandoc's utf8 output overstrikes bold text: `-\b-` for a bold `-`.
    let plain: String = strip_overstrike(&text);
    let rows: Vec<&str> = plain
        .lines()
        .filter(|line| {
            line.trim_start().starts_with("--change ") || line.trim_start().starts_with("--share ")
        })
        .collect();
    assert_eq!(rows.len(), 2, "{plain}");
    let column = |row: &str| row.find("fees -c").unwrap();
    assert_eq!(column(rows[0]), column(rows[1]), "{rows:?}");
    assert!(rows[0].contains("fees_change, fees_change_pct"), "{rows:?}");
}

/// Text without the overstrike of bold (`c\bc`) and underline (`_\bc`) that mandoc writes.
fn strip_overstrike(text: &str) -> String {
    let mut out: Vec<char> = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if chars.peek() == Some(&'\u{8}') {
            chars.next();
            continue;
        }
        out.push(c);
    }
    out.into_iter().collect()
}

#[test]
fn completions_help_shows_the_zsh_fpath_step() {
    let run = Env::new().cmd("completions --help").any_stdout().run();
    assert!(
        run.stdout.contains(
            "mkdir -p ~/.zfunc && chain-metrics completions zsh > ~/.zfunc/_chain-metrics"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("fpath=(~/.zfunc $fpath)"),
        "{}",
        run.stdout
    );
}
