//! The flags of the query commands (`fees`, `users`, `social`, `report`): what to fetch and
//! where the result goes.

use std::path::PathBuf;

use clap::{ArgGroup, Args};
use clap_complete::{ArgValueCandidates, ArgValueCompleter};

use super::completion;
use super::suggest::Suggesting;
use crate::model::Period;
use crate::model::SocialMetric;
use crate::model::{chain_names, ChainArg};
use crate::model::{parse_last, DaySpec};
use crate::render::Format;

#[derive(Debug, Args)]
// The first day comes from --start or --last: clap's error for neither names both.
#[command(group(ArgGroup::new("first_day").args(["start", "last"]).required(true)))]
pub struct QueryArgs {
    /// Chain(s): a name, alias or EVM chain id; repeat or comma-separate; `all` for every chain
    #[arg(help_heading = "What to fetch", short, long = "chain", value_name = "CHAIN", required = true, value_delimiter = ',', value_parser = Suggesting::new(ChainArg::parse, chain_names), add = ArgValueCompleter::new(completion::chains))]
    pub chains: Vec<ChainArg>,

    /// First day: YYYY-MM-DD, today or yesterday (UTC)
    #[arg(help_heading = "What to fetch", short, long, value_name = "DAY", value_parser = DaySpec::parse)]
    pub start: Option<DaySpec>,

    /// Last day, inclusive [default: yesterday, the last complete UTC day]
    #[arg(help_heading = "What to fetch", short, long, value_name = "DAY", value_parser = DaySpec::parse)]
    pub end: Option<DaySpec>,

    /// The N days ending at --end: 30, 30d or 4w
    // A negative count reaches the parser, which says what --last takes (clap would call
    // `-3` an unexpected argument).
    #[arg(help_heading = "What to fetch", long, value_name = "N", value_parser = parse_last, conflicts_with = "start", allow_negative_numbers = true)]
    pub last: Option<u32>,

    /// One row per period (and chain): fees and counts summed, active users averaged; `date` is the period's first day [default: day]
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

    /// Write to FILE atomically instead of stdout (.csv .tsv .json .ndjson/.jsonl .md set the format)
    #[arg(help_heading = "Output", short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// With --output: upsert into the existing file by (date, chain), by date with --wide
    #[arg(help_heading = "Output", long, requires = "output")]
    pub merge: bool,

    /// One column per chain (per chain and metric for social and report)
    #[arg(help_heading = "Output", long)]
    pub wide: bool,

    /// csv/tsv: leave out the header row
    #[arg(help_heading = "Output", long, conflicts_with = "merge")]
    pub no_header: bool,

    /// table/markdown: add total, mean, min and max rows
    #[arg(help_heading = "Output", long)]
    pub summary: bool,

    /// Print the service's body unchanged (one chain, one request; not for report)
    #[arg(help_heading = "Output", long, conflicts_with_all = ["format", "merge", "wide", "no_header", "summary", "chunk_days", "cache", "refresh"])]
    pub raw: bool,

    /// Print the equivalent curl command lines and send nothing (needs no key)
    #[arg(help_heading = "Output", long, conflicts_with_all = ["output", "raw"])]
    pub dry_run: bool,

    /// Split the range into windows of N days, fetched concurrently and stitched in order
    #[arg(help_heading = "Connection", long, value_name = "N", value_parser = super::parse_chunk_days)]
    pub chunk_days: Option<u32>,

    /// Serve settled days from the response cache and keep what the service sends [config: cache]
    #[arg(help_heading = "Connection", long)]
    pub cache: bool,

    /// Leave the response cache alone for this run, whatever the config says
    #[arg(help_heading = "Connection", long, conflicts_with_all = ["cache", "refresh"])]
    pub no_cache: bool,

    /// Ask the service for every day and update the response cache with its answers
    #[arg(help_heading = "Connection", long)]
    pub refresh: bool,
}

#[derive(Debug, Args)]
pub struct SocialArgs {
    #[command(flatten)]
    pub query: QueryArgs,

    /// Metrics, comma-separated, in the column order wanted [default: reply,retweet,tweet,quote]
    #[arg(help_heading = "What to fetch", short, long = "include", value_name = "ITEMS", value_delimiter = ',', value_parser = Suggesting::new(SocialMetric::parse, SocialMetric::names), add = ArgValueCandidates::new(completion::includes))]
    pub includes: Vec<SocialMetric>,
}
