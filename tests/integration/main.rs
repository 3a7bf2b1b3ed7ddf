//! The integration tests: the real binary, run in an isolated home against the sandbox or a
//! scripted server on loopback. One test binary, so the crate links once and libtest runs
//! every test side by side.
//!
//! Where a new test goes: find the row that says what it checks and add the test to that
//! module. The folders group the modules by behaviour; each folder's `mod.rs` says what its
//! modules hold and keeps the helpers they share. A new module gets a row here and a `mod`
//! line in its folder's `mod.rs` (`map_names_every_module` below fails until it has both).
//!
//! | what it checks | module |
//! |---|---|
//! | fees, users, social, chains against the sandbox | `queries/`, `queries/query` |
//! | `report` | `queries/report` |
//! | calendar ranges: `--month`, `--quarter`, `--year`, `--last 3m`, `-s YYYY-MM`, `--since` | `queries/calendar` |
//! | cron grade: `--strict`, a member left out, the retry line, rate-limit headers under `-v` | `queries/strict` |
//! | derived measures: `--change`, `--rolling`, `--cumulative`, `--share`, `--per-user`, `--decimals` | `analysis/`, `analysis/derived` |
//! | a `fees_per_user` left empty for want of active users, said once | `analysis/undivided` |
//! | `--summary` in csv, tsv, json and ndjson; no total of active users | `analysis/summaries` |
//! | `--sort` and `--top` | `analysis/ordering` |
//! | exact division: `--per-user --by` over the exact mean, `--summary`'s mean to `--decimals` | `analysis/exact_division` |
//! | the bound on service numbers (digits, exponent) under `--by`, `--summary`, the chart | `analysis/number_bound` |
//! | `--by` periods, alone / with the rest of the output / with `--merge` | `periods/`, `periods/output`, `periods/merge` |
//! | output formats, `--wide`, `--summary`, `--no-header` | `output/`, `output/formats` |
//! | tables aligned on the decimal point and wrapped in blocks | `output/tables` |
//! | what a terminal changes: colour, the default table, progress | `output/terminal` |
//! | styles on a terminal: `error:`/`hint:` as clap's, none under NO_COLOR; TERM=dumb: nothing but text | `output/terminal_styles` |
//! | the terminal chart (`-f chart`); in braille dots | `output/chart`, `output/braille` |
//! | `-o` naming a stream the run holds, a stderr that is gone | `output/streams` |
//! | results a script can trust: `--error-format json`, `--keep-going`, `--json-numbers string` | `output/scripting` |
//! | SVG and HTML pictures checked by `tidy`, `rsvg-convert` and Chromium | `pictures/`, `pictures/browser`, `pictures/png`, `pictures/print` |
//! | what a picture shows: axes, `--scale log`, hover (and the pointer hitting it), partial periods, `--per-day`, left-out values, social panels, `--summary`, its words and hints | `pictures/axes`, `pictures/log_scale`, `pictures/hover`, `pictures/hit`, `pictures/partial`, `pictures/per_day`, `pictures/left_out`, `pictures/social`, `pictures/summary`, `pictures/words`, `pictures/hints` |
//! | where a picture's data came from, its size, `render FILE` | `pictures/provenance`, `pictures/size`, `pictures/render_file`, `pictures/render_choice` |
//! | `--output`: atomic files, the format from the extension | `files/`, `files/export` |
//! | `--merge`, and merge files the reader refuses (from the fuzz harness's mutator) | `files/merge`, `files/fuzz_merge` |
//! | the SQLite export, also as a database others read and change, and in folders they share | `files/sqlite`, `files/sqlite_shared`, `files/sqlite_readers` |
//! | the PostgreSQL export against a real server: make, merge, resume, refusals, passwords, TLS, a server lost mid-transaction | `files/postgres` |
//! | libpq's ways as psql has them: the password file over a host list, `hostaddr`, client certificates, parameters refused by name | `files/postgres_libpq` |
//! | cron grade: `--resume`, files that grow chains, files that say what they hold | `files/resume`, `files/holes`, `files/chains_grow`, `files/file_trust`, `files/cron_month` |
//! | two runs changing one file at once | `files/locks` |
//! | a signal the instant a temp file is made, or the instant it is renamed over the file | `files/signals` |
//! | whose files are trusted: config, key script, cache, CA bundle, merge target, lock, FIFOs; the rule on real machines (umask 002, team folders, another user) | `files/neighbours`, `files/trust_rule` |
//! | files the tool did not write, and files a hostile user put in the way | `files/foreign_files`, `files/hostile_files` |
//! | the cache: planning, flags, the file, a quirky service | `cache/`, `cache/planning`, `cache/flags`, `cache/file`, `cache/quirks` |
//! | each exit code with its error line: usage (2), bounds on every number (2, 3), settings (3), the service and the output (4 to 9) | `errors/`, `errors/usage`, `errors/bounds`, `errors/setup`, `errors/service` |
//! | every `hint:` leads to a command that is not refused | `errors/hints` |
//! | nothing silently ignored: flags that change nothing noted, unknown file extensions refused | `errors/unheeded` |
//! | what goes on the wire (method, headers, body, redirects), `--raw`, `--dry-run` | `wire/`, `wire/requests` |
//! | TLS, proxies | `wire/tls`, `wire/proxy` |
//! | timeouts, retries, windows, interruption | `wire/reliability` |
//! | requests on the wire abandoned once the outcome is decided | `wire/abandoned` |
//! | rows written window by window as the answers come (the join streamed) | `wire/streamed` |
//! | a hostile body bounded by the days asked, peak memory measured | `wire/bounded` |
//! | what a broken server or proxy is called (TLS port, huge headers, redirect loop, 403), the shared throttle | `wire/diagnoses` |
//! | each sandbox fault against each command family | `wire/fault_matrix` |
//! | the sandbox as a service | `wire/sandbox` |
//! | the one-home rules from outside (loopback, number bound, colour, lazy trust store) | `wire/rules` |
//! | the key and passwords never shown, also against hostile service text and short keys | `secrets/`, `secrets/leaks`, `secrets/beyond_the_key`, `secrets/secret_scrub`, `secrets/foreign_text` |
//! | `auth login`, `status`, `logout` | `secrets/auth` |
//! | where settings come from; `config` | `settings/`, `settings/precedence`, `settings/config` |
//! | what the fuzz targets found in config files and base URLs | `settings/fuzz_findings` |
//! | output defaults in the config file (`format`, `color`, `decimals`, `chains`); `config profiles` | `settings/output_defaults` |
//! | help text, completions, man pages, reviewed snapshots | `cli/`, `cli/help`, `cli/completion`, `cli/generated`, `cli/snapshots` |
//! | the installed surface: package, `--version`, man SYNOPSIS, completions per command | `cli/package`, `cli/version`, `cli/man_synopsis`, `cli/shipped_surface` |
//! | the guides' recipes (jq, DuckDB, pandas) and the cron guide, run as written | `docs/`, `docs/recipes`, `docs/cron_docs` |
//! | the guides name what ships: docs/service.md, every sandbox fault | `docs/guides` |
//! | the README's picture: its report example, as docs/screenshots.sh draws it now | `docs/readme_picture` |
//! | the architecture read off the sources: folders import one way (lib.rs's picture, from one table) | `architecture` |
//!
//! Every run goes through `support` (`Env::cmd("fees -c eth --last 2")`, `Env::cmd_args` for
//! arguments a line cannot hold, `Env::shell` for pipes): it expects exit 0 and an empty stderr
//! unless the test says otherwise (`.code(5)`, `.error_line(..)`, `.stderr(str![[..]])`), checks
//! every output for the test key, and on a mismatch prints the run as a command to paste into a
//! shell, its exit code and both streams. `support::sandbox_env` starts the sandbox with an
//! environment pointed at it.

mod support;

mod analysis;
mod architecture;
mod cache;
mod cli;
mod docs;
mod errors;
mod files;
mod output;
mod periods;
mod pictures;
mod queries;
mod secrets;
mod settings;
mod wire;

use std::collections::BTreeSet;
use std::path::Path;

/// The map above names every module of this crate and nothing else: each file on disk (a
/// folder's `mod.rs` as `folder/`), each `mod` line of main.rs and of the folders' `mod.rs`,
/// and each entry of the map are the same set; support/ is the helpers, not a place for tests.
#[test]
fn map_names_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration");
    let main = std::fs::read_to_string(root.join("main.rs")).unwrap();
    let mapped = map_entries(&main);
    let mut on_disk = BTreeSet::new();
    let mut declared = BTreeSet::new();
    declared.extend(declared_modules(&main, ""));
    for path in support::files::rust_files(&root) {
        let relative = path.strip_prefix(&root).unwrap().with_extension("");
        let name = relative.to_str().unwrap().to_owned();
        if name == "main" || name.starts_with("support/") {
            continue;
        }
        match name.strip_suffix("/mod") {
            Some(folder) => {
                let text = std::fs::read_to_string(&path).unwrap();
                declared.extend(declared_modules(&text, &format!("{folder}/")));
                on_disk.insert(format!("{folder}/"));
            }
            None => {
                on_disk.insert(name);
            }
        }
    }
    let mut wrong = Vec::new();
    for module in on_disk.difference(&mapped) {
        wrong.push(format!("{module} is on disk but not in the map of main.rs"));
    }
    for module in mapped.difference(&on_disk) {
        wrong.push(format!("{module} is in the map of main.rs but has no file"));
    }
    for module in on_disk.difference(&declared) {
        wrong.push(format!("{module} is on disk but no `mod` line declares it"));
    }
    assert!(on_disk.len() > 60, "only {} modules found", on_disk.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The modules the map's rows name in their last column (`files/`, `files/merge`).
fn map_entries(main: &str) -> BTreeSet<String> {
    let rows = main.lines().filter_map(|line| line.strip_prefix("//! |"));
    let cells = rows.filter_map(|row| row.trim_end().trim_end_matches('|').rsplit('|').next());
    let words = cells.flat_map(|cell| cell.split('`').skip(1).step_by(2));
    words.map(str::to_owned).collect()
}

/// The modules `text` declares with `mod NAME;` (as `mod.rs` of `folder`): `folder/NAME`, or
/// `folder/NAME/` where NAME is a folder of its own.
fn declared_modules(text: &str, folder: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration");
    let lines = text.lines().map(str::trim);
    let lines = lines.map(|line| {
        line.trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ")
    });
    let names = lines.filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';'));
    let names = names.filter(|name| *name != "support");
    let in_folder = |name: &str| match root.join(folder).join(name).is_dir() {
        true => format!("{folder}{name}/"),
        false => format!("{folder}{name}"),
    };
    names.map(in_folder).collect()
}
