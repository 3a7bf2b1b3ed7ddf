//! The calendar flags of the query commands: a whole month, quarter or year as the range.

use clap::Args;

use crate::model::{parse_month, parse_quarter, parse_year, DayRange};

#[derive(Debug, Args)]
pub struct CalendarArgs {
    /// A whole month instead of --start/--end: YYYY-MM, e.g. 2024-03
    #[arg(help_heading = "What to fetch", long, value_name = "YYYY-MM", value_parser = parse_month,
          conflicts_with_all = ["end", "start", "last", "quarter", "year", "resume"])]
    pub month: Option<DayRange>,

    /// A whole quarter instead of --start/--end: YYYYQn, e.g. 2024Q1
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "What to fetch", long, value_name = "YYYYQn", value_parser = parse_quarter,
          conflicts_with_all = ["end", "start", "last", "year", "resume"])]
    pub quarter: Option<DayRange>,

    /// A whole year instead of --start/--end: YYYY, e.g. 2024
    #[arg(hide_short_help = true)]
    #[arg(help_heading = "What to fetch", long, value_name = "YYYY", value_parser = parse_year,
          conflicts_with_all = ["end", "start", "last", "resume"])]
    pub year: Option<DayRange>,
}
