//! The query flags that compute on the result: derived measures, sorting and `--top` (taken
//! apart into plain values in `commands/query/flags.rs`).

use clap::Args;
use clap_complete::ArgValueCompleter;

use crate::analysis::SortKey;

// The field docs are the --help text: `<metric>` is a placeholder there, not an HTML tag.
#[allow(rustdoc::invalid_html_tags)]
#[derive(Debug, Args)]
pub struct AnalysisArgs {
    /// Add <metric>_change and <metric>_change_pct: against the previous day (or --by period) of
    /// the same chain
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Output", long, conflicts_with_all = ["merge", "raw"])]
    pub change: bool,

    /// Add <metric>_rolling_N: the mean of the last N rows that have values (after a gap they span
    /// more than N days)
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Output", long, value_name = "N", value_parser = super::parse_rolling,
          conflicts_with_all = ["merge", "raw"])]
    pub rolling: Option<u32>,

    /// Add <metric>_cumulative: the running total (not for active users; empty from a gap on)
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Output", long, conflicts_with_all = ["merge", "raw"])]
    pub cumulative: bool,

    /// Add <metric>_share_pct: each chain's percent of the date's total over the asked chains
    // A share depends on the chains of one run: merged with another run's, they stop adding up.
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Output", long, conflicts_with_all = ["merge", "raw"])]
    pub share: bool,

    /// report: add fees_per_user, the fees over the active users of the same date and chain
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Output", long, conflicts_with = "raw")]
    pub per_user: bool,

    /// svg/html/chart with --by week, month, quarter or year: draw each summed value (fees, social
    /// counts) as its mean per covered day, so partial periods and short months compare honestly
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Output", long, conflicts_with = "raw")]
    pub per_day: bool,

    /// Decimals of percents, means and per-user values, rounded half to even [default: 2]
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "Output", long, value_name = "N", value_parser = super::parse_decimals)]
    pub decimals: Option<u32>,

    /// Order the rows by a column of the output, highest first with :desc (gaps last)
    #[arg(help_heading = "Output", long, value_name = "COLUMN[:desc]",
          value_parser = SortKey::parse, conflicts_with_all = ["merge", "raw"],
          add = ArgValueCompleter::new(super::candidates::sort_columns))]
    pub sort: Option<SortKey>,

    /// Keep only the first N rows (after --sort); --summary then sums up only those rows
    #[arg(help_heading = "Output", long, value_name = "N", value_parser = parse_top,
          conflicts_with_all = ["merge", "raw"])]
    pub top: Option<u64>,
}

/// `--top`: a number of rows, 1 or more, worded as the other bounds are.
fn parse_top(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| format!("'{text}' is not a number of rows of 1 or more"))
}
