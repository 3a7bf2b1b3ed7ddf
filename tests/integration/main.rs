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
//! | the terminal chart (`-f chart`) | `chart` |
//! | SVG, HTML and PNG pictures | `pictures/` |
//! | what a terminal changes: colour, the default table, progress | `terminal` |
//! | `--by` periods, alone / with output / with `--merge` | `periods/` (`mod`, `output`, `merge`) |
//! | `--output`, `--merge`, files written by others, streams | `export`, `merge`, `foreign_files`, `streams` |
//! | two runs changing one file at once | `locks` |
//! | the cache | `cache/` (`planning`, `flags`, `file`, `quirks`) |
//! | each exit code with its error line: usage (2), bounds on every number (2, 3), settings (3), the service and the output (4 to 9) | `errors/` (`usage`, `bounds`, `setup`, `service`) |
//! | what goes on the wire (method, headers, body, redirects), `--raw`, `--dry-run` | `wire` |
//! | timeouts, retries, windows, interruption | `reliability` |
//! | each sandbox fault against each command family | `fault_matrix` |
//! | TLS, proxies | `tls`, `proxy` |
//! | where settings come from; `config`; `auth` | `settings`, `config`, `auth` |
//! | the key and passwords never shown | `leaks`, `secrets` |
//! | help text, completions, man pages, reviewed snapshots | `help`, `completion`, `generated`, `snapshots` |
//! | the sandbox as a service | `sandbox` |
//!
//! Every run goes through `support` (`Env::cmd("fees -c eth --last 2")`, `Env::cmd_args` for
//! arguments a line cannot hold, `Env::shell` for pipes): it expects exit 0 and an empty stderr
//! unless the test says otherwise (`.code(5)`, `.error_line(..)`, `.stderr(str![[..]])`), and
//! checks every output for the test key. `support::sandbox_env` starts the sandbox with an
//! environment pointed at it.

mod support;

mod auth;
mod cache;
mod chart;
mod completion;
mod config;
mod errors;
mod export;
mod fault_matrix;
mod foreign_files;
mod formats;
mod generated;
mod help;
mod leaks;
mod locks;
mod merge;
mod periods;
mod pictures;
mod proxy;
mod query;
mod reliability;
mod report;
mod sandbox;
mod secrets;
mod settings;
mod snapshots;
mod streams;
mod terminal;
mod tls;
mod wire;
