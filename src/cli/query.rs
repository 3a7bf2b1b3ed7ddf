//! The flags of the query commands (`fees`, `users`, `social`, `report`): what to fetch and
//! where the result goes. An expert flag carries `#[arg(hide_short_help = true)]`: `--help`
//! shows it, `-h` (one screen, see `short_help.rs`) does not.

use std::path::PathBuf;

use clap::{ArgGroup, Args};
use clap_complete::{ArgValueCandidates, ArgValueCompleter};

use super::completion;
use super::suggest::Suggesting;
use crate::model::Period;
use crate::model::SocialMetric;
use crate::model::{chain_names, Chain, ChainArg};
use crate::model::{parse_span, DaySpec, Span};
use crate::render::{AxisScale, Format, JsonNumbers};

#[derive(Debug, Args)]
// The first day comes from --start or --last: clap's error for neither names both.
// With --resume a later run's first day comes from the file (--start/--last: the first run's);
// a calendar range (--month, --quarter, --year) stands for --start and --end together.
#[command(
    group(
        ArgGroup::new("first_day")
            .args(["start", "last", "resume", "month", "quarter", "year"])
            .multiple(true)
            .required(true)
    ),
)]
pub struct QueryArgs {
    /// Chain(s): a name, alias or EVM chain id; repeat or comma-separate; `all` for every chain
    #[arg(
        help_heading = "What to fetch", short, long = "chain", value_name = "CHAIN",
        required = true, value_delimiter = ',',
        value_parser = Suggesting::new(ChainArg::parse, chain_names),
        add = ArgValueCompleter::new(super::candidates::chain_list),
    )]
    pub chains: Vec<ChainArg>,

    /// First day: YYYY-MM-DD, YYYY-MM (its first day), today or yesterday (UTC)
    #[arg(
        help_heading = "What to fetch", short, long, visible_alias = "since", value_name = "DAY",
        value_parser = DaySpec::parse,
    )]
    pub start: Option<DaySpec>,

    /// Last day, inclusive; YYYY-MM is its last day [default: yesterday, the last complete UTC day]
    #[arg(
        help_heading = "What to fetch", short, long, value_name = "DAY",
        value_parser = DaySpec::parse,
    )]
    pub end: Option<DaySpec>,

    /// The N days ending at --end (30, 30d, 4w), or whole months, quarters, years (3m, 2q, 1y)
    // A negative count reaches the parser, which says what --last takes (clap would call
    // `-3` an unexpected argument).
    #[arg(
        help_heading = "What to fetch", long, value_name = "N", value_parser = parse_span,
        conflicts_with = "start", allow_negative_numbers = true,
        add = ArgValueCompleter::new(super::candidates::last_forms),
    )]
    pub last: Option<Span>,

    #[command(flatten)]
    pub calendar: super::calendar::CalendarArgs,

    /// With --merge: start the day after the file's newest day (of every chain asked), less the
    /// days still unsettled; --start/--last only while it has no rows
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "What to fetch", long, requires = "merge")]
    pub resume: bool,

    /// With --resume: ask the file's last N days again, which the service may still revise
    /// [default: those less than cache_settle_days old; 0: none]
    #[arg(hide_short_help = true)]
    #[arg(
        help_heading = "What to fetch", long, value_name = "N", requires = "resume",
        value_parser = clap::value_parser!(u32).range(0..=36525),
    )]
    pub resume_overlap: Option<u32>,

    /// Exit 10 when the result lacks any asked value (a gap, a left-out member, no data), after
    /// writing what came [config: strict]
    #[arg(help_heading = "What to fetch", long)]
    pub strict: bool,

    /// Not --strict for this run, whatever config strict says
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "What to fetch", long, conflicts_with = "strict")]
    pub no_strict: bool,

    /// One row per period (and chain): fees and counts summed, active users averaged; `date` is the
    /// period's first day [default: day]
    #[arg(
        help_heading = "What to fetch",
        long,
        value_name = "PERIOD",
        default_value = "day",
        hide_default_value = true,
        ignore_case = true
    )]
    pub by: Period,

    /// Output format [default: from --output's extension, else table on a terminal, csv otherwise]
    #[arg(
        help_heading = "Output",
        short,
        long,
        value_name = "FMT",
        ignore_case = true
    )]
    pub format: Option<Format>,

    /// Write to FILE atomically instead of stdout; its extension sets the format (.csv .tsv .json
    /// .ndjson .md .svg .html .sqlite; csv without one, another is refused);
    /// postgresql://[user@][host][:port]/dbname writes a PostgreSQL table
    // The help text shows libpq's URI as its users write it; rustdoc reads its brackets as links.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[arg(help_heading = "Output", short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// With --output: upsert into the existing file (csv, tsv, json, ndjson, sqlite) or PostgreSQL
    /// table by (date, chain), by date with --wide; columns matched by name; the file always has a
    /// chain column, one chain too
    #[arg(help_heading = "Output", long, requires = "output")]
    pub merge: bool,

    /// With --merge: the chain an old file without a chain column holds (it then gains one); a file
    /// merged into always names its chains
    #[arg(hide_short_help = true)]
    #[arg(
        help_heading = "Output", long, value_name = "CHAIN", requires = "merge",
        value_parser = one_chain, add = ArgValueCompleter::new(super::candidates::chains),
    )]
    pub file_chain: Option<Chain>,

    /// With -o postgresql://...: the table to write, in a schema or on the search path [default:
    /// the command's name: fees, users, social, report]
    #[arg(hide_short_help = true)]
    #[arg(
        help_heading = "Output",
        long,
        value_name = "[SCHEMA.]NAME",
        requires = "output"
    )]
    pub table: Option<String>,

    /// One column per chain (per chain and metric for social and report)
    #[arg(help_heading = "Output", long)]
    pub wide: bool,

    /// csv/tsv: leave out the header row
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Output", long, conflicts_with = "merge")]
    pub no_header: bool,

    /// Add total, mean, min and max rows of the rows written (after --top; a summary object in
    /// json); active users get no total
    #[arg(help_heading = "Output", long)]
    pub summary: bool,

    /// json/ndjson: numbers as JSON numbers (exact text) or as strings, which jq keeps whole
    /// [default: number]
    #[arg(hide_short_help = true)]
    #[arg(
        help_heading = "Output",
        long,
        value_name = "AS",
        default_value = "number",
        hide_default_value = true,
        ignore_case = true
    )]
    pub json_numbers: JsonNumbers,

    /// svg/html: value axes from zero (linear) or in powers of ten (log), for chains of very
    /// different size; a change stays linear [default: linear]
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Output", long, ignore_case = true)]
    pub scale: Option<AxisScale>,

    #[command(flatten)]
    pub analysis: super::analysis::AnalysisArgs,

    /// Print the service's body unchanged (one chain, one request; not for report)
    #[arg(hide_short_help = true)]
    #[arg(
        help_heading = "Output", long,
        conflicts_with_all = [
            "format", "merge", "wide", "no_header", "summary", "chunk_days", "cache", "refresh"
        ],
    )]
    pub raw: bool,

    /// With several chains: write every chain that succeeded, warn for each that failed, exit with
    /// the failure's code
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Connection", long, conflicts_with = "raw")]
    pub keep_going: bool,

    /// Print the equivalent curl command lines and send nothing (needs no key; with --merge
    /// --resume: the range it would ask)
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Output", long, conflicts_with = "raw")]
    pub dry_run: bool,

    /// Split the range into windows of N days, fetched concurrently and stitched in order
    #[arg(hide_short_help = true)]
    #[arg(
        help_heading = "Connection", long, value_name = "N", value_parser = super::parse_chunk_days,
    )]
    pub chunk_days: Option<u32>,

    /// Serve settled days from the response cache and keep what the service sends [config: cache]
    #[arg(help_heading = "Connection", long)]
    pub cache: bool,

    /// Leave the response cache alone for this run, whatever the config says
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Connection", long, conflicts_with_all = ["cache", "refresh"])]
    pub no_cache: bool,

    /// Ask the service for every day and update the response cache with its answers
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Connection", long)]
    pub refresh: bool,
}

/// The value of `--file-chain`: one chain, as `--chain` names it (`all` is no chain).
pub(super) fn one_chain(text: &str) -> Result<Chain, String> {
    match ChainArg::parse(text)? {
        ChainArg::One(chain) => Ok(chain),
        ChainArg::All => Err("a file holds the rows of one chain: name it".to_owned()),
    }
}

#[derive(Debug, Args)]
pub struct SocialArgs {
    #[command(flatten)]
    pub query: QueryArgs,

    /// Metrics, comma-separated, in the column order wanted [default: reply,retweet,tweet,quote]
    #[arg(
        help_heading = "What to fetch", short, long = "include", value_name = "ITEMS",
        value_delimiter = ',',
        value_parser = Suggesting::new(SocialMetric::parse, SocialMetric::names),
        add = ArgValueCandidates::new(completion::includes),
    )]
    pub includes: Vec<SocialMetric>,
}

/// clap's own refusal of a query command run without `--chain` when the config file gives no
/// `chains` either: the parser lets a missing `--chain` through (`inherited::parse`), since
/// only the settings can tell whether the config file names the chains.
pub(crate) fn missing_chain(command: &str) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let mut cli = <super::Cli as clap::CommandFactory>::command();
    cli.build();
    let Some(sub) = cli.find_subcommand_mut(command) else {
        return clap::Error::new(ErrorKind::MissingRequiredArgument);
    };
    let usage = sub.render_usage();
    let mut error = clap::Error::new(ErrorKind::MissingRequiredArgument).with_cmd(sub);
    let arg = vec!["--chain <CHAIN>".to_owned()];
    error.insert(ContextKind::InvalidArg, ContextValue::Strings(arg));
    error.insert(ContextKind::Usage, ContextValue::StyledStr(usage));
    let tip = "or set a default: chain-metrics config set chains eth,arb";
    let tip = vec![clap::builder::StyledStr::from(tip)];
    error.insert(ContextKind::Suggested, ContextValue::StyledStrs(tip));
    error
}
