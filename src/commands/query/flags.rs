//! The query flags taken apart once, into plain values: every field of `QueryArgs` and of the
//! structs it holds is named here with no `..`, so a flag added to them fails to compile until
//! it is resolved.

use crate::analysis::{Analysis, Measures, DEFAULT_DECIMALS};
use crate::cli::{AnalysisArgs, CalendarArgs, QueryArgs};
use crate::error::Failure;
use crate::model::{expand_chains, Chain, DayRange, DaySpec, Endpoint, Span};
use crate::output::OutputRequest;
use crate::render::Format;
use crate::settings::{OutputDefaults, Switch};
use crate::system::foreign;

/// The query flags as plain values, grouped by what they decide.
pub(super) struct QueryFlags {
    /// `--chain`, each chain once (`all`: every chain).
    pub chains: Vec<Chain>,
    /// The days asked: `--start`, `--end`, `--last`, a calendar range (`--by`, which `--last`
    /// counts in, is the output's).
    pub days: DayFlags,
    /// `--resume-overlap N`: the file's last N days asked again.
    pub resume_overlap: Option<u32>,
    /// Where the result goes and what is derived from it.
    pub output: OutputRequest,
    /// The notes for flags given that change nothing here.
    pub without_effect: Vec<String>,
    /// `--raw`: one body as sent.
    pub raw: bool,
    /// `--dry-run`: the curl lines, nothing sent.
    pub dry_run: bool,
    /// `--keep-going`: write the chains that succeeded.
    pub keep_going: bool,
    /// `--strict` or `--no-strict`, over config `strict`.
    pub strict: Switch,
    /// `--cache` or `--no-cache`, over config `cache`.
    pub cache: Switch,
    /// `--refresh`: ask for every day and update the cache.
    pub refresh: bool,
    /// `--chunk-days N`, over config `chunk_days`.
    pub chunk_days: Option<u32>,
    /// `--decimals N` as given, over config `decimals` (`output` holds the one in effect).
    pub decimals: Option<u32>,
}

impl QueryFlags {
    /// The flags of a command that asks `endpoints`.
    pub(super) fn new(args: &QueryArgs, endpoints: &[Endpoint]) -> QueryFlags {
        let QueryArgs {
            chains,
            start,
            end,
            last,
            calendar,
            resume,
            resume_overlap,
            strict,
            no_strict,
            by,
            format,
            output,
            merge,
            file_chain,
            table,
            wide,
            no_header,
            summary,
            json_numbers,
            scale,
            analysis,
            raw,
            keep_going,
            dry_run,
            chunk_days,
            cache,
            no_cache,
            refresh,
        } = args;
        let (asked, without_effect) = analysis_flags(analysis, endpoints, *summary);
        QueryFlags {
            chains: expand_chains(chains),
            days: day_flags((start, end, last), calendar),
            resume_overlap: *resume_overlap,
            output: OutputRequest {
                format: *format,
                file: output.clone(),
                merge: *merge,
                resume: *resume,
                wide: *wide,
                no_header: *no_header,
                summary: *summary,
                by: *by,
                analysis: asked,
                json_numbers: *json_numbers,
                file_chain: *file_chain,
                table: table.clone(),
                scale: scale.unwrap_or_default(),
            },
            without_effect,
            raw: *raw,
            dry_run: *dry_run,
            keep_going: *keep_going,
            strict: Switch::new(*strict, *no_strict),
            cache: Switch::new(*cache, *no_cache),
            refresh: *refresh,
            chunk_days: *chunk_days,
            decimals: analysis.decimals,
        }
    }

    /// The config file's output defaults where a flag was not given: `chains` without
    /// `--chain`, `decimals` without `--decimals`, `format` for stdout without `--format` (a
    /// file's extension says more than a default). A format name that is none is exit 3.
    pub(super) fn with_defaults(&mut self, defaults: &OutputDefaults) -> Result<(), Failure> {
        if self.chains.is_empty() {
            if let Some(chains) = &defaults.chains {
                self.chains = expand_chains(&chains.value);
            }
        }
        if let (None, Some(decimals)) = (self.decimals, defaults.decimals) {
            self.output.analysis.measures.decimals = decimals;
        }
        let to_stdout = self
            .output
            .file
            .as_ref()
            .is_none_or(|f| f.as_os_str() == "-");
        if let (None, true, Some(name)) = (self.output.format, to_stdout, &defaults.format) {
            let format = Format::for_stdout(&name.value).ok_or_else(|| {
                Failure::config(format!(
                    "format '{}' from {} is not a format for stdout: expected one of {}",
                    foreign::cut(&name.value, 80),
                    name.source,
                    Format::names(&Format::all_that(|c| !c.file_only), "or")
                ))
                .with_hint("set another with: chain-metrics config set format csv")
            })?;
            self.output.format = Some(format);
        }
        Ok(())
    }
}

/// The days asked, as plain values: `--start`, `--end`, `--last`; `--month`, `--quarter` or
/// `--year` (clap lets one through).
fn day_flags(
    (start, end, last): (&Option<DaySpec>, &Option<DaySpec>, &Option<Span>),
    calendar: &CalendarArgs,
) -> DayFlags {
    let CalendarArgs {
        month,
        quarter,
        year,
    } = calendar;
    DayFlags {
        start: *start,
        end: *end,
        last: *last,
        calendar: month.or(*quarter).or(*year),
    }
}

/// Derived measures, `--sort` and `--top` as plain values, with the notes for those given that
/// change nothing here.
fn analysis_flags(
    args: &AnalysisArgs,
    endpoints: &[Endpoint],
    summary: bool,
) -> (Analysis, Vec<String>) {
    let AnalysisArgs {
        change,
        rolling,
        cumulative,
        share,
        per_user,
        per_day,
        decimals,
        sort,
        top,
    } = args;
    let measures = Measures {
        change: *change,
        rolling: *rolling,
        cumulative: *cumulative,
        share: *share,
        per_user: *per_user,
        decimals: decimals.unwrap_or(DEFAULT_DECIMALS),
    };
    let mut notes = without_effect(&measures, decimals.is_some(), endpoints, summary);
    if *per_day && endpoints == [Endpoint::ActiveUsers] {
        notes.push(
            "--per-day divides summed values (fees, social counts), and active_users_avg is a \
            mean per day already; it has no effect"
                .to_owned(),
        );
    }
    let analysis = Analysis {
        measures,
        sort: sort.clone(),
        top: top.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        per_day: *per_day,
    };
    (analysis, notes)
}

/// The notes for flags given that change nothing here: `--decimals` without a measure that
/// rounds (nor `--summary`'s mean), `--cumulative` on active users alone (a sum of daily
/// actives counts no users).
fn without_effect(
    measures: &Measures,
    decimals: bool,
    endpoints: &[Endpoint],
    summary: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    let rounds = measures.change
        || measures.rolling.is_some()
        || measures.share
        || measures.per_user
        || summary;
    if decimals && !rounds {
        let add = match endpoints.len() {
            1 => "--change, --rolling, --share or --summary",
            _ => "--change, --rolling, --share, --per-user or --summary",
        };
        let why = "--decimals rounds percents, means and per-user values, and nothing asked";
        notes.push(format!("{why} makes one (add {add}); it has no effect"));
    }
    if measures.cumulative && endpoints == [Endpoint::ActiveUsers] {
        let why = "--cumulative adds no column to users: a running total of daily active users";
        notes.push(format!(
            "{why} counts no real users (--change or --rolling N do work)"
        ));
    }
    notes
}

/// The flags that say which days to ask, as plain values.
pub(super) struct DayFlags {
    pub start: Option<DaySpec>,
    pub end: Option<DaySpec>,
    pub last: Option<Span>,
    /// `--month`, `--quarter` or `--year`.
    pub calendar: Option<DayRange>,
}
