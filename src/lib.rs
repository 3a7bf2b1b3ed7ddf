//! chain-metrics: a command-line client for the chain-metrics service.
//!
//! A run flows cli (parse) -> settings (resolve flags, environment, config file) -> one
//! resolved query (`commands`) -> client (fetch, with the cache) -> fetched (the answers joined
//! into rows, their gaps) -> analysis (the query's `Shape` applied once: periods, measures,
//! summary, wide, sort) -> output (render to stdout or a file); `main` maps the outcome to an
//! exit code (`report`). The folders depend one way only, downwards:
//!
//! ```text
//!   commands ──> cli           glue each command's steps | the command line (clap)
//!      │
//!   output        sandbox      where a result goes | the reference service, apart
//!      │
//!   cache    client            settled days on disk | HTTP to the service
//!      │
//!   fetched  render  settings  what a query asks and what came back (plan, requests, rows,
//!      │                       gaps, the strict verdict) | write a dataset in a format |
//!      │                       resolve flags, environment, file
//!   analysis                   the rows a user asked made of the fetched ones, as one
//!      │                       `Shape`: --by periods, measures, summary, wide, sort/top
//!   model ──> system           the data every step shares | what the OS is asked (files,
//!                              locks, signals, process groups, stderr) and foreign text
//!                              made safe to print, which model's parse errors quote
//! ```
//!
//! A folder imports only folders on rows below its own, and on its own row only along the
//! arrow drawn. `sandbox` uses `model` and `system` alone, so the reference service shares no
//! code with the client it checks. The test `tests/integration/architecture.rs` holds these
//! arrows and the nevers below that are about imports, from one table, naming the file and
//! line of an import against them.
//!
//! Invariants, things deliberately absent: `output` and `fetched` never talk to the service
//! (neither imports `client`; a `Request` is a plain value the client sends; the one peer
//! `output` has is the PostgreSQL server `-o postgresql://` names); the query flags
//! are read once, taken apart with no `..` (`commands/query/flags.rs`), and nothing after
//! `Query::resolve` reads them (the pipeline, `commands/query/pipeline.rs`, reads the `Query`
//! alone); an on/off flag pair over a config key resolves through one `settings::Switch`,
//! which names the value's source; which format takes which flag is answered by the format's
//! capability table alone (`Format::can`); `render` writes text only (a SQLite or PostgreSQL
//! database is the output's to write); a column's meaning is never read from its name; no
//! function is longer than 60 lines (clippy's `too_many_lines`, clippy.toml).
//!
//! Where a new thing goes:
//!
//! - a new **query flag**: its clap field (`cli/query.rs`, `cli/analysis.rs`, `cli/calendar.rs`),
//!   its name in the pattern that takes `QueryArgs` apart (`commands/query/flags.rs`, which fails
//!   to compile until it is there) and its resolution into `Query` (`commands/query/resolve.rs`); a
//!   `--name`/`--no-name` pair over a config key goes through `settings::Switch`; nothing else
//!   reads it
//! - a new **global flag**: its clap field (`cli/mod.rs`, `GlobalArgs`) and its layer in `settings`
//!   (flag, environment, config key in `settings/keys.rs`, default in `settings::defaults`, bound
//!   in `settings::limits`)
//! - a new **output format**: a `Format` variant with its row in `Format::can` and its extension
//!   (`render/format.rs`), and one writer file in `render/` called by `render::render`; every check
//!   and hint follows the table
//! - a new **endpoint**: an `Endpoint` in `model/mod.rs` with its path, the `Metric`s it fills
//!   (`Endpoint::metrics`, whose inverse is `Metric::endpoint`) and its command and table name
//!   (`Endpoint::command`); the body's shape (`client/body/response.rs`, followed as it arrives in
//!   `client/body/stream.rs`); and the sandbox's answer (`sandbox/`)
//! - a new **derived measure**: a `Measure` (`model/column/`: its name, unit and what adds up, in
//!   one place), its arithmetic and its columns in `analysis/derived/` (divisions through
//!   `model::divide`), its flag (`cli/analysis.rs`) and `Measures` in the query's `Shape`
//! - a new **period**: a `Period` variant and its calendar in `model/period/calendar.rs` (start,
//!   next, back, length); its roll-up (sums, means, the chart's steps) in `analysis/periods/`; rows
//!   carry their `Coverage`
//! - **foreign text shown**: through `system::foreign::shown` (or `echo`/`cut`), never
//!   printed raw
//!
//! Every folder has one front door: its modules are private and its `mod.rs` re-exports what
//! the others use (`system`'s modules are namespaces instead: `diag::note`, `interrupt::stop`).
//! Each small rule has one home: loopback in `settings/loopback.rs`, foreign text made safe
//! to print (controls and reordering marks replaced, every known secret masked, then cut) in
//! `system::foreign::shown`, whose registered secrets `system::diag` masks in every line, the
//! key's whole-value mask for `--raw` data in `settings/secret.rs`, shell quoting in
//! `system/shell.rs`, private folders in `system/private_dir.rs`, request windows in
//! `Plan::windows`, what each format can do in `Format::can`, the strict verdict in
//! `Gaps::strict_verdict`, chain order in `Chain::rank`,
//! bounded arithmetic in `Number::to_decimal`, defaults in `settings::defaults`, bounds in
//! `settings::limits`, config key names in `ConfigKey::name`. What is public below is what the
//! binary, the man-page generator
//! (`examples/generate`) and the tests use.
//!
//! An output column is a `model::Column` (metric, measure, unit, `--by` aggregation, `--wide`
//! chain) whose name `Column::name` makes. Exact division lives in `model::divide` and period
//! arithmetic in `model::Period`. The header of the rows written is `Shape::columns`, read off
//! the same value that `Shape::apply` shapes the rows with, never off rows shaped to learn it.

#![warn(unreachable_pub)]

mod analysis;
mod cache;
mod cli;
mod client;
mod commands;
mod error;
mod fetched;
mod model;
mod output;
mod render;
mod report;
mod sandbox;
mod settings;
mod system;

// What the property tests and the fuzz targets (`fuzz/`) call: every parser of foreign input,
// and the masker of foreign text.
pub use analysis::aggregate;
pub use cache::{CacheError, Replacement, SeriesKey, SeriesStats, Store};
pub use cli::manual;
pub use cli::{globals_acting_under, write_script, Cli, Shell};
pub use client::{parse_held_body, parse_records, read_body_records};
pub use client::{parse_records_kept, read_records_kept, KeptRecords};
pub use error::{Exit, Failure};
pub use model::{
    chain_names, Chain, ChainArg, Dataset, Endpoint, Metric, Number, NumberText, Record, Row,
    SocialMetric,
};
pub use model::{divide, parse_date, parse_last, DayRange, DaySpec, Period};
pub use model::{Aggregation, Column, Coverage, Measure, Unit};
pub use output::{read_merge_file, read_sqlite_rows};
pub use render::{render, AxisScale, Format, RenderOptions};
pub use settings::limits::{seconds, Count, CACHE_SETTLE_DAYS, CHUNK_DAYS, JOBS, RETRIES};
pub use settings::{
    check_base_url, parse_config_file, plain as config_text, ConfigKey, FileSettings,
};
pub use settings::{ENV_BASE_URL, ENV_CA_BUNDLE, ENV_CONFIG, ENV_KEY, ENV_PROFILE};
pub use system::foreign::message_shown;

/// The whole run of the binary: answer a completion request, parse the command line, handle
/// signals, run the command, and report the outcome as an exit code.
pub fn main() -> std::process::ExitCode {
    // Before anything is opened: `-o /dev/fd/N` may name only a descriptor the caller passed.
    system::stream::note_passed_descriptors();
    // A TAB in a shell with our completion script runs us this way; nothing else may print first.
    cli::answer_if_asked();
    // `--version` alone needs no command tree: the quickest answer a script can get.
    if let Some(text) = cli::version_asked() {
        report::version_shown(&text);
    }
    let cli = match cli::parse() {
        Ok(cli) => cli,
        Err(e) => report::usage_error(e),
    };
    let error_format = cli.error_format();
    let json = error_format == report::ErrorFormat::Json;
    // The terminal is asked once; every decision that depends on it reads this answer.
    let terminal = settings::Terminal::ask();
    let styled = settings::stderr_color(cli.global.color.unwrap_or_default(), terminal);
    system::diag::start(json, cli.global.quiet, styled);
    // The key is masked in every message from here on, before any file is read.
    settings::register_environment_key();
    if let Err(e) = system::interrupt::install() {
        // Without the handler Ctrl-C still stops the run; only temp-file cleanup is lost.
        let text =
            format!("cannot handle Ctrl-C ({e}); an interrupted run may leave a temporary file");
        system::diag::Notice::warning(text).loud().write();
    }
    match commands::run(cli, terminal) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => report::report(&err, error_format),
    }
}
