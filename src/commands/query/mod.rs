//! One query, resolved once: the query flags and the settings become a [`Query`] at the top,
//! and the rest of the run only reads it (as ripgrep's `HiArgs` and fd's `Config` are made).

mod checks;
mod range;

use chrono::NaiveDate;

use super::resolve_settings;
use crate::cache::Mode as CacheMode;
use crate::cli::{GlobalArgs, QueryArgs};
use crate::fetched::Plan;
use crate::model::{each_once, today_utc, DayRange, Endpoint, Period, SocialMetric};
use crate::output::Output;
use crate::settings::{FileUse, Settings, Terminal};
use range::CatchUp;

/// Everything one run of `fees`, `users`, `social` or `report` does, resolved.
pub(super) struct Query {
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
    /// `--resume`: the file the run catches up with, as named in the notes, and where the
    /// range starts and why.
    pub resume: Option<(String, CatchUp)>,
    pub settings: Settings,
}

/// How a query is run.
pub(super) enum Mode {
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
pub(super) struct Fetch {
    /// How the response cache is used; `None`: not at all.
    pub cache: Option<CacheMode>,
    /// `--strict` (flag or config): a result lacking asked values fails after it is written.
    pub strict: Option<Strict>,
    /// `--keep-going`: write the chains that succeeded.
    pub keep_going: bool,
    /// Requests in flight at once, at most.
    pub jobs: usize,
}

/// Where `--strict` came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Strict {
    Flag,
    Config,
}

impl Query {
    /// The flags first, with every usage error before any key lookup, request or file write;
    /// then the settings.
    pub(super) fn resolve(
        global: &GlobalArgs,
        terminal: Terminal,
        args: &QueryArgs,
        endpoints: &[Endpoint],
        includes: &[SocialMetric],
    ) -> anyhow::Result<Query> {
        let today = today_utc();
        let (endpoints, includes) = (endpoints.to_vec(), items(endpoints, includes));
        let flags = checks::Flags::resolve(args, endpoints, includes, terminal, today)?;
        let resume = range::resume_start(args, &flags.output, &flags.plan, today)?;
        let settings = resolve_settings(global, terminal, args.chunk_days, FileUse::Read)?;
        let catch_up = match resume {
            Some(start) => {
                let settle = settings.cache.settle_days;
                Some(range::catch_up(start, args.resume_overlap, settle, today)?)
            }
            None => None,
        };
        let asked = match &catch_up {
            Some(catch_up) => catch_up.range,
            None => Some(flags.plan.range),
        };
        let mode = match asked {
            None => Mode::UpToDate,
            Some(_) => mode(args, &settings),
        };
        let asked = asked.unwrap_or(flags.plan.range);
        let plan = Plan {
            range: range::widened(args, asked),
            // `--raw` asks the whole range in one request.
            chunk_days: settings.chunk_days.filter(|_| !matches!(mode, Mode::Raw)),
            ..flags.plan
        };
        Ok(Query {
            plan,
            asked,
            by: args.by,
            today,
            mode,
            output: flags.output,
            resume: catch_up.map(|c| (file_name(args), c)),
            settings,
        })
    }
}

/// How the flags and the settings say to run.
fn mode(args: &QueryArgs, settings: &Settings) -> Mode {
    let cache = cache_mode(args, settings);
    if args.raw {
        Mode::Raw
    } else if args.dry_run {
        // Read only; with --refresh every request would be sent, so the cache is not read.
        let look = cache
            .filter(|m| *m != CacheMode::Refresh)
            .map(|_| CacheMode::Look);
        Mode::DryRun { look }
    } else {
        let strict = match (args.strict, settings.strict && !args.no_strict) {
            (true, _) => Some(Strict::Flag),
            (false, true) => Some(Strict::Config),
            (false, false) => None,
        };
        Mode::Fetch(Fetch {
            cache,
            strict,
            keep_going: args.keep_going,
            jobs: settings.jobs,
        })
    }
}

/// How this run uses the response cache: the flags, else config `cache`; `None`: not at all.
fn cache_mode(args: &QueryArgs, settings: &Settings) -> Option<CacheMode> {
    if args.refresh {
        Some(CacheMode::Refresh)
    } else if args.cache || (settings.cache.enabled && !args.no_cache) {
        Some(CacheMode::Use)
    } else {
        None
    }
}

/// The output file as the notes name it (`-`: stdout).
fn file_name(args: &QueryArgs) -> String {
    let file = args.output.as_deref().unwrap_or("-".as_ref());
    file.display().to_string()
}

/// The official-account items asked, each once, in the order given; all four by default (none
/// when the official account is not asked).
fn items(endpoints: &[Endpoint], asked: &[SocialMetric]) -> Vec<SocialMetric> {
    if !endpoints.contains(&Endpoint::OfficialAccount) {
        return Vec::new();
    }
    if asked.is_empty() {
        return SocialMetric::ALL.to_vec();
    }
    each_once(asked)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};
    use crate::model::parse_date;

    fn fees_args(line: &str) -> QueryArgs {
        let cli = Cli::try_parse_from(line.split(' ')).unwrap();
        match cli.command {
            Command::Fees(args) => args,
            _ => unreachable!("a fees command line"),
        }
    }

    #[test]
    fn a_merge_by_month_asks_from_the_first_day_of_the_month() {
        let today = parse_date("2024-06-01").unwrap();
        let line = "chain-metrics fees -c eth -s 2024-03-10 -e 2024-03-20 --merge -o f.csv --by";
        let merged = fees_args(&format!("{line} month"));
        let asked = range::from_flags(&merged, today).unwrap();
        let start = parse_date("2024-03-01").unwrap();
        assert_eq!(range::widened(&merged, asked), DayRange { start, ..asked });
        let daily = fees_args(&format!("{line} day"));
        assert_eq!(range::widened(&daily, asked), asked);
    }

    #[test]
    fn items_are_asked_once_in_the_order_given_and_all_by_default() {
        use SocialMetric::{Quote, Reply, Tweet};
        let social = [Endpoint::OfficialAccount];
        assert_eq!(items(&social, &[Tweet, Reply, Tweet]), [Tweet, Reply]);
        assert_eq!(items(&social, &[]), SocialMetric::ALL);
        assert_eq!(items(&[Endpoint::Fees], &[Quote]), []);
    }
}
