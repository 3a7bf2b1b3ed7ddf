//! The man pages' SYNOPSIS and OPTIONS as a reader needs them: value names, the
//! required choice of --start or --last, and the global flags apart from the command's own.

use std::collections::BTreeMap;

use super::generated::manual;

/// Every page as plain text, by file name: font escapes dropped, `\-` as `-`.
fn pages() -> BTreeMap<String, String> {
    manual::pages()
        .into_iter()
        .map(|page| {
            let text = String::from_utf8(page.text).unwrap();
            (page.file_name, plain(&text))
        })
        .collect()
}

fn plain(roff: &str) -> String {
    ["\\fB", "\\fI", "\\fR"]
        .iter()
        .fold(roff.replace("\\-", "-"), |text, font| {
            text.replace(font, "")
        })
}

/// The lines of `section` (`.SH NAME` to the next `.SH`).
fn section<'a>(page: &'a str, name: &str) -> Vec<&'a str> {
    let heading = format!(".SH {name}");
    page.lines()
        .skip_while(|line| *line != heading)
        .skip(1)
        .take_while(|line| !line.starts_with(".SH "))
        .collect()
}

/// The SYNOPSIS lines of the page named `page` (`chain-metrics-fees.1`).
fn synopsis(page: &str) -> Vec<String> {
    let pages = pages();
    let lines = section(&pages[page], "SYNOPSIS");
    lines.into_iter().map(str::to_owned).collect()
}

/// The text of the OPTIONS sections before GLOBAL OPTIONS (the command's own flags).
fn own_options(page: &str) -> &str {
    let start = page.find(".SH OPTIONS").unwrap_or(page.len());
    let end = page
        .find(".SH \"GLOBAL OPTIONS\"")
        .unwrap_or(page.find(".SH ENVIRONMENT").unwrap());
    &page[start.min(end)..end]
}

#[test]
fn fees_synopsis_names_values_and_the_required_first_day() {
    assert_eq!(
        synopsis("chain-metrics-fees.1"),
        ["chain-metrics [GLOBAL OPTIONS] fees --chain CHAIN... (--start DAY | --last N | --month YYYY-MM | --quarter YYYYQn | --year YYYY | --resume) [--end DAY] [--resume-overlap N] [--strict] [--no-strict] [--by PERIOD] [--format FMT] [--output FILE] [--merge] [--file-chain CHAIN] [--table [SCHEMA.]NAME] [--wide] [--no-header] [--summary] [--json-numbers AS] [--scale SCALE] [--change] [--rolling N] [--cumulative] [--share] [--per-day] [--decimals N] [--sort COLUMN[:desc]] [--top N] [--raw] [--keep-going] [--dry-run] [--chunk-days N] [--cache] [--no-cache] [--refresh]"]
    );
}

#[test]
fn every_query_page_requires_a_chain_and_a_first_day() {
    let pages = pages();
    for command in ["fees", "users", "social", "report"] {
        let synopsis =
            section(&pages[&format!("chain-metrics-{command}.1")], "SYNOPSIS").join("\n");
        let head = format!(
            "chain-metrics [GLOBAL OPTIONS] {command} --chain CHAIN... (--start DAY | --last N | --month YYYY-MM | --quarter YYYYQn | --year YYYY | --resume) [--end DAY]"
        );
        assert!(synopsis.starts_with(&head), "{command}: {synopsis}");
    }
}

#[test]
fn the_tool_page_shows_the_command_and_the_version_form() {
    assert_eq!(
        synopsis("chain-metrics.1"),
        [
            "chain-metrics [GLOBAL OPTIONS] COMMAND",
            ".br",
            "chain-metrics --version"
        ]
    );
    assert_eq!(
        synopsis("chain-metrics-config-set.1"),
        ["chain-metrics [GLOBAL OPTIONS] config set KEY VALUE"]
    );
    assert_eq!(
        synopsis("chain-metrics-chains.1"),
        ["chain-metrics [GLOBAL OPTIONS] chains [--format FMT]"]
    );
}

#[test]
fn global_flags_are_apart_from_the_commands_own() {
    let pages = pages();
    let fees = &pages["chain-metrics-fees.1"];
    let synopsis = section(fees, "SYNOPSIS").join(" ");
    let own = own_options(fees);
    for global in [
        "--base-url",
        "--timeout",
        "--retries",
        "--quiet",
        "--color",
        "--lock-timeout",
        "--allow-http",
        "--no-allow-http",
    ] {
        assert!(!synopsis.contains(global), "{global} in {synopsis}");
        assert!(!own.contains(global), "{global} among fees' own options");
        assert!(
            section(fees, "\"GLOBAL OPTIONS\"")
                .iter()
                .any(|line| line.contains(global)),
            "{global} missing from GLOBAL OPTIONS"
        );
    }
    assert!(
        own.contains("--chain <CHAIN>") && own.contains("--raw"),
        "{own}"
    );
}

#[test]
fn cache_and_chains_pages_list_only_the_global_flags_that_act_there() {
    let pages = pages();
    let listed = |name: &str| -> Vec<String> {
        section(&pages[name], "\"GLOBAL OPTIONS\"")
            .iter()
            .filter(|line| line.starts_with('-'))
            .map(|line| line.to_string())
            .collect()
    };
    for name in [
        "chain-metrics-cache.1",
        "chain-metrics-cache-stats.1",
        "chain-metrics-cache-clear.1",
    ] {
        assert_eq!(
            listed(name),
            ["-q, --quiet", "--error-format <FMT>"],
            "{name}"
        );
    }
    // --error-format acts under every command.
    for name in ["chain-metrics-chains.1", "chain-metrics-completions.1"] {
        assert_eq!(listed(name), ["--error-format <FMT>"], "{name}");
        assert!(!pages[name].contains("--timeout"), "{name}");
    }
}
