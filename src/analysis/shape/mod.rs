//! The shape a query's rows take, as one resolved value: `--by`, the derived measures, the
//! summary's bound, the chart's steps, `--wide` and the chain column, then `--sort`/`--top`;
//! applied once to the fetched rows, and its header read off the same value.

use crate::analysis::derived::{self, derive, Measures};
use crate::analysis::order::{sort_and_cut, SortKey};
use crate::analysis::periods::{self, aggregate, per_day, steps};
use crate::analysis::summary;
use crate::analysis::wide::{self, widen, with_chain_column, Naming};
use chrono::NaiveDate;

use crate::model::{Chain, Dataset, DayRange, Period};

/// What the analysis flags ask (`--change`, `--rolling`, `--cumulative`, `--share`,
/// `--per-user`, `--decimals`, `--sort` and `--top`), as plain values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Analysis {
    pub measures: Measures,
    pub sort: Option<SortKey>,
    pub top: Option<usize>,
    /// `--per-day`: each summed value of a `--by` period over the days it covers.
    pub per_day: bool,
}

/// What the output's format asks of the rows' shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Layout {
    /// A chart: each period drawn as a step over its days, without the `days` column.
    pub steps: bool,
    /// `--wide` (or a chart): one row per date, the columns named so; `None` keeps one row per
    /// (date, chain).
    pub wide: Option<Naming>,
    /// A long result always says its chain (a file merged into, a database), one chain
    /// included: a later run for another chain cannot be mistaken for this one.
    pub chain_column: bool,
}

/// How the fetched rows become the rows written, resolved once with the query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Shape {
    /// `--by`: the rows' period.
    pub by: Period,
    /// The derived measures, `--sort` and `--top`.
    pub analysis: Analysis,
    /// `--summary`: every number is bounded before the summary's arithmetic.
    pub summary: bool,
    pub layout: Layout,
}

/// The rows as they will be written, and the (date or period, chain) pairs whose
/// `fees_per_user` is left empty as no user was active: nothing to divide by.
pub(crate) struct Shaped {
    pub data: Dataset,
    pub undivided: Vec<(NaiveDate, Option<Chain>)>,
}

/// Which step of the shape failed, and why (a number beyond what can be computed exactly).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ShapeError {
    /// `--by`'s sums and means.
    RollUp(String),
    /// A derived measure.
    Measure(String),
    /// `--summary`'s arithmetic.
    Summary(String),
    /// `--sort`.
    Sort(String),
}

impl Shape {
    /// The shape the flags ask, laid out as the output's format needs.
    pub(crate) fn new(analysis: Analysis, by: Period, summary: bool, layout: Layout) -> Shape {
        Shape {
            by,
            analysis,
            summary,
            layout,
        }
    }

    /// The rows as they will be written: rolled up by `--by`, the measures added, bounded for
    /// the summary, drawn as steps for a chart, pivoted when `--wide` (or a chart) asks for it,
    /// then sorted and cut. `data` holds the rows of `chains` over `range`. Tells also where
    /// `fees_per_user` is left empty for want of active users.
    pub(crate) fn apply(
        &self,
        data: Dataset,
        chains: &[Chain],
        range: &DayRange,
    ) -> Result<Shaped, ShapeError> {
        let data = self.measured(data, chains, range)?;
        let undivided = derived::undivided(&data);
        let data = self.laid_out(data, chains, range)?;
        Ok(Shaped { data, undivided })
    }

    /// The rows rolled up by `--by`, with the measures added.
    fn measured(
        &self,
        data: Dataset,
        chains: &[Chain],
        range: &DayRange,
    ) -> Result<Dataset, ShapeError> {
        let measures = &self.analysis.measures;
        let per_user = measures.per_user_decimals();
        let data = aggregate(data, chains, self.by, per_user).map_err(ShapeError::RollUp)?;
        let data = derive(data, measures, chains, self.by, range).map_err(ShapeError::Measure)?;
        match self.analysis.per_day {
            true => per_day(data, measures.decimals).map_err(ShapeError::RollUp),
            false => Ok(data),
        }
    }

    /// The measured rows bounded for the summary, drawn as steps for a chart, pivoted when
    /// `--wide` (or a chart) asks for it, then sorted and cut.
    fn laid_out(
        &self,
        data: Dataset,
        chains: &[Chain],
        range: &DayRange,
    ) -> Result<Dataset, ShapeError> {
        let Analysis {
            measures,
            sort,
            top,
            ..
        } = &self.analysis;
        if self.summary {
            // Every number is bounded before any arithmetic: a huge exponent fails here at
            // once, as `--by` does, instead of when the summary rows are drawn.
            summary::rows(&data, measures.decimals).map_err(ShapeError::Summary)?;
        }
        let data = match self.layout.steps {
            true => steps(data, self.by, range),
            false => data,
        };
        let data = match self.layout.wide {
            Some(naming) => widen(&data, chains, naming),
            None if self.layout.chain_column => with_chain_column(data, chains),
            None => data,
        };
        sort_and_cut(data, sort.as_ref(), *top).map_err(ShapeError::Sort)
    }

    /// Whether [`Shape::apply`] keeps every row as it came, whatever rows come before or after
    /// it (no `--by`, measure, summary, chart steps, `--wide`, added chain column, `--sort` or
    /// `--top`): then the rows can be written a few days at a time, as they come.
    pub(crate) fn row_by_row(&self) -> bool {
        let Analysis {
            measures,
            sort,
            top,
            per_day,
        } = &self.analysis;
        self.by == Period::Day
            && !measures.any()
            && sort.is_none()
            && top.is_none()
            && !per_day
            && !self.summary
            && self.layout == Layout::default()
    }

    /// The header [`Shape::apply`] yields on any rows of `fetched`'s columns, read off the
    /// columns alone (the rows of `fetched` are not looked at): a dataset with no rows.
    pub(crate) fn columns(&self, fetched: &Dataset, chains: &[Chain]) -> Dataset {
        let mut columns = fetched.columns.clone();
        if self.by != Period::Day {
            columns = periods::rolled_up(&columns, self.analysis.measures.per_user_decimals());
        }
        columns = derived::columns(&columns, &self.analysis.measures);
        if self.analysis.per_day && self.by != Period::Day {
            columns = periods::per_day_columns(&columns);
        }
        if self.layout.steps && self.by != Period::Day {
            columns = periods::drawn_columns(&columns);
        }
        let chain_column = match self.layout.wide {
            Some(naming) => {
                columns = wide::columns(&columns, chains, naming);
                false
            }
            None => fetched.chain_column || self.layout.chain_column,
        };
        Dataset {
            chain_column,
            columns,
            rows: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests;
