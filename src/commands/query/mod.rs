//! The query commands (`fees`, `users`, `social`, `report`), in one room. The flags are taken
//! apart once (`flags`), checked with no settings read (`checks`, `range`) and resolved with
//! the settings into one [`Query`] (`resolve`), as ripgrep's `HiArgs` and fd's `Config` are
//! made; the run then reads only that value (`pipeline`; `streamed` writes rows as they come;
//! both send through `sent`): one body as sent or the curl lines (`as_sent`), or the cache's
//! work (`cached`), the requests over a connection (`connect`), `--keep-going`'s answers
//! (`keep_going`) and the rows written.

mod as_sent;
mod cached;
mod checks;
mod connect;
mod flags;
mod keep_going;
mod pipeline;
mod range;
mod resolve;
mod sent;
mod streamed;

use chrono::NaiveDate;

use crate::cache::Mode as CacheMode;
use crate::cli::{GlobalArgs, QueryArgs};
use crate::fetched::Plan;
use crate::model::{DayRange, Endpoint, Period, SocialMetric};
use crate::output::Output;
use crate::settings::{Settings, Sourced, Terminal};
use range::CatchUp;

/// Runs one query command: resolves it, then runs what the [`Query`] says.
pub(super) fn run(
    global: &GlobalArgs,
    terminal: Terminal,
    args: &QueryArgs,
    endpoints: &[Endpoint],
    includes: &[SocialMetric],
) -> anyhow::Result<()> {
    let query = Query::resolve(global, terminal, args, endpoints, includes)?;
    pipeline::run(&query)
}

/// Everything one run of `fees`, `users`, `social` or `report` does, resolved.
struct Query {
    /// What to fetch: endpoints, chains, includes, the range to ask (under `--merge --by`
    /// from the first day of the period holding the first day asked) and its windows.
    pub plan: Plan,
    /// The range asked, by the flags or, under `--resume`, by the file.
    pub asked: DayRange,
    /// `--by`: the rows' period.
    pub by: Period,
    /// Today (UTC), once for the whole run.
    pub today: NaiveDate,
    /// How: send the requests, print one body as sent, print curl lines, or nothing at all.
    pub mode: Mode,
    /// Where the result goes (format, file, `--merge`), carrying the one `Shape` the rows
    /// take on the way (periods, measures, summary, wide, sort), resolved with it.
    pub output: Output,
    /// `--resume`: where the range starts and why (the file is the output's).
    pub resume: Option<CatchUp>,
    /// The notes for flags given that change nothing here (`--decimals` with nothing to
    /// round), said first.
    pub without_effect: Vec<String>,
    pub settings: Settings,
}

/// How a query is run.
enum Mode {
    /// `--resume` found the file up to date for every chain asked: nothing to ask.
    UpToDate,
    /// `--raw`: one body as sent, the whole range in one request whatever the chunking.
    Raw,
    /// `--dry-run`: the curl lines; `look`: read the cache to leave out what it has.
    DryRun {
        look: Option<CacheMode>,
    },
    Fetch(Fetch),
}

/// How the requests of a fetch are sent, and what ends the run.
struct Fetch {
    /// How the response cache is used; `None`: not at all.
    pub cache: Option<CacheMode>,
    /// `--strict`/`--no-strict`, else config `strict`: a result lacking asked values fails
    /// after it is written.
    pub strict: Sourced<bool>,
    /// `--keep-going`: write the chains that succeeded.
    pub keep_going: bool,
    /// Requests in flight at once, at most.
    pub jobs: usize,
}
