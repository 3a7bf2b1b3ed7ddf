//! The query flags that compute on the result: derived measures, sorting and `--top`.

use clap::Args;

use crate::model::{Analysis, Measures, SortKey};

#[derive(Debug, Args)]
pub struct AnalysisArgs {
    /// Add <metric>_change and <metric>_change_pct: against the previous day (or --by period) of the same chain
    #[arg(help_heading = "Output", long, conflicts_with_all = ["merge", "raw"])]
    pub change: bool,

    /// Add <metric>_rolling_N: the mean of the last N rows that have values (empty until N are there)
    #[arg(help_heading = "Output", long, value_name = "N", value_parser = super::parse_rolling, conflicts_with_all = ["merge", "raw"])]
    pub rolling: Option<u32>,

    /// Add <metric>_cumulative: the running total (not for active users; empty from a gap on)
    #[arg(help_heading = "Output", long, conflicts_with_all = ["merge", "raw"])]
    pub cumulative: bool,

    /// Add <metric>_share_pct: each chain's percent of the date's total over the asked chains
    // A share depends on the chains of one run: merged with another run's, they stop adding up.
    #[arg(help_heading = "Output", long, conflicts_with_all = ["merge", "raw"])]
    pub share: bool,

    /// report: add fees_per_user, the fees over the active users of the same date and chain
    #[arg(help_heading = "Output", long, conflicts_with = "raw")]
    pub per_user: bool,

    /// Decimals of percents, means and per-user values, rounded half to even [default: 2]
    #[arg(help_heading = "Output", long, value_name = "N", value_parser = super::parse_decimals)]
    pub decimals: Option<u32>,

    /// Order the rows by a column of the output, highest first with :desc (gaps last)
    #[arg(help_heading = "Output", long, value_name = "COLUMN[:desc]", value_parser = SortKey::parse, conflicts_with_all = ["merge", "raw"])]
    pub sort: Option<SortKey>,

    /// Keep only the first N rows (after --sort)
    #[arg(help_heading = "Output", long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["merge", "raw"])]
    pub top: Option<u64>,
}

impl AnalysisArgs {
    /// The measures asked, as plain values.
    pub fn measures(&self) -> Measures {
        Measures {
            change: self.change,
            rolling: self.rolling,
            cumulative: self.cumulative,
            share: self.share,
            per_user: self.per_user,
            decimals: self.decimals.unwrap_or(crate::model::DEFAULT_DECIMALS),
        }
    }

    /// Everything these flags ask, as plain values.
    pub fn analysis(&self) -> Analysis {
        Analysis {
            measures: self.measures(),
            sort: self.sort.clone(),
            top: self.top.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        }
    }
}
