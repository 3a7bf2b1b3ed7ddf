//! What a query computes on its result besides `--by`: the derived measures, then the order
//! and the cut, as plain values the output applies.

use crate::model::chain::Chain;
use crate::model::day_range::DayRange;
use crate::model::derived::{derive, Measures};
use crate::model::order::{sort_and_cut, SortKey};
use crate::model::period::Period;
use crate::model::Dataset;

/// `--change`, `--rolling`, `--cumulative`, `--share`, `--per-user`, `--decimals`, `--sort`
/// and `--top`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    pub measures: Measures,
    pub sort: Option<SortKey>,
    pub top: Option<usize>,
}

impl Analysis {
    /// The measures, on rows of one (date, chain) each, before `--wide` pivots them.
    pub fn measure(
        &self,
        data: Dataset,
        chains: &[Chain],
        by: Period,
        range: &DayRange,
    ) -> Result<Dataset, String> {
        derive(data, &self.measures, chains, by, range)
    }

    /// The order and the cut, on the rows as they will be written (wide or not).
    pub fn order(&self, data: Dataset) -> Result<Dataset, String> {
        sort_and_cut(data, self.sort.as_ref(), self.top)
    }
}
