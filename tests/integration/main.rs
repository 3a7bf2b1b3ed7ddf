//! The integration tests: the real binary, run in an isolated home against the sandbox or a
//! scripted server on loopback. One test binary, so the crate links once and libtest runs
//! every test side by side.
//!
//! Where a new test goes:
//!
//! | what it checks | module |
//! |---|---|
//! | fees, users, social, chains against the sandbox | `query` |
//! | `report` | `report` |
//! | output formats, `--wide`, `--summary`, `--no-header` | `formats` |
//! | `--summary` in csv, tsv, json and ndjson; no total of active users | `summaries` |
//! | derived measures: `--change`, `--rolling`, `--cumulative`, `--share`, `--per-user`, `--decimals` | `derived` |
//! | exact division: `--per-user --by` over the exact mean, `--summary`'s mean to `--decimals` | `exact_division` |
//! | `--sort` and `--top` | `ordering` |
//! | calendar ranges: `--month`, `--quarter`, `--year`, `--last 3m`, `-s YYYY-MM`, `--since` | `calendar` |
//! | the terminal chart (`-f chart`); in braille dots | `chart`, `braille` |
//! | SVG, HTML and PNG pictures, also in a real browser | `pictures/` (`mod`, `png`, `browser`) |
//! | what a terminal changes: colour, the default table, progress; tables aligned and wrapped | `terminal`, `tables` |
//! | `--by` periods, alone / with output / with `--merge` | `periods/` (`mod`, `output`, `merge`) |
//! | `--output`, `--merge`, files written by others, streams | `export`, `merge`, `foreign_files`, `streams` |
//! | whose files are trusted: config, key script, cache, CA bundle, merge target, lock, FIFOs | `neighbours` |
//! | two runs changing one file at once | `locks` |
//! | the cache | `cache/` (`planning`, `flags`, `file`, `quirks`) |
//! | each exit code with its error line: usage (2), bounds on every number (2, 3), settings (3), the service and the output (4 to 9) | `errors/` (`usage`, `bounds`, `setup`, `service`) |
//! | every `hint:` leads to a command that is not refused | `hints` |
//! | nothing silently ignored: flags that change nothing noted, unknown file extensions refused | `unheeded` |
//! | what goes on the wire (method, headers, body, redirects), `--raw`, `--dry-run` | `wire` |
//! | timeouts, retries, windows, interruption | `reliability` |
//! | a hostile body bounded by the days asked, peak memory measured | `bounded` |
//! | what a broken server or proxy is called (TLS port, huge headers, redirect loop, 403), the shared throttle | `diagnoses` |
//! | each sandbox fault against each command family | `fault_matrix` |
//! | TLS, proxies | `tls`, `proxy` |
//! | where settings come from; `config`; `auth` | `settings`, `config`, `auth` |
//! | the key and passwords never shown, also against hostile service text and short keys | `leaks`, `secrets`, `secret_scrub` |
//! | the bound on service numbers (digits, exponent) under `--by`, `--summary`, the chart | `number_bound` |
//! | the one-home rules from outside (loopback, number bound, colour, lazy trust store) | `rules` |
//! | the architecture read off the sources: which folder may import which (lib.rs's picture) | `architecture` |
//! | results a script can trust: `--error-format json`, `--keep-going`, `--json-numbers string` | `scripting` |
//! | the README's everyday examples and the guides' recipes (jq, DuckDB, pandas) run as written | `help`, `recipes` |
//! | help text, completions, man pages, reviewed snapshots | `help`, `completion`, `generated`, `snapshots` |
//! | the sandbox as a service | `sandbox` |
//! | cron grade: `--strict`, `--resume`, SQLite, files that grow chains | `strict`, `resume`, `sqlite`, `chains_grow` |
//! | the installed surface: package, `--version`, man SYNOPSIS, cron docs, completions per command | `package`, `version`, `man_synopsis`, `cron_docs`, `shipped_surface` |
//!
//! Every run goes through `support` (`Env::cmd("fees -c eth --last 2")`, `Env::cmd_args` for
//! arguments a line cannot hold, `Env::shell` for pipes): it expects exit 0 and an empty stderr
//! unless the test says otherwise (`.code(5)`, `.error_line(..)`, `.stderr(str![[..]])`), and
//! checks every output for the test key. `support::sandbox_env` starts the sandbox with an
//! environment pointed at it.

mod support;

mod architecture;
mod auth;
mod bounded;
mod braille;
mod cache;
mod calendar;
mod chains_grow;
mod chart;
mod completion;
mod config;
mod cron_docs;
mod derived;
mod diagnoses;
mod errors;
mod exact_division;
mod export;
mod fault_matrix;
mod file_trust;
mod foreign_files;
mod foreign_text;
mod formats;
mod fuzz_findings;
mod fuzz_merge;
mod generated;
mod help;
mod hints;
mod hostile_files;
mod leaks;
mod locks;
mod man_synopsis;
mod merge;
mod neighbours;
mod number_bound;
mod ordering;
mod package;
mod periods;
mod pictures;
mod proxy;
mod query;
mod recipes;
mod reliability;
mod report;
mod resume;
mod rules;
mod sandbox;
mod scripting;
mod secret_scrub;
mod secrets;
mod settings;
mod shipped_surface;
mod snapshots;
mod sqlite;
mod sqlite_shared;
mod streams;
mod strict;
mod summaries;
mod tables;
mod terminal;
mod tls;
mod unheeded;
mod version;
mod wire;
