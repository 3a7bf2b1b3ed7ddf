//! The step between fetching and writing: the fetched rows become the rows a user asked for
//! (`--by` periods, derived measures, the summary's arithmetic, the chart's steps, `--wide`,
//! `--sort`/`--top`), as one resolved [`Shape`]. Imports `model` alone.

mod derived;
mod order;
mod periods;
mod shape;
mod summary;
mod wide;

pub(crate) use derived::{Measures, DEFAULT_DECIMALS};
pub(crate) use order::SortKey;
pub use periods::aggregate;
pub(crate) use periods::steps;
pub(crate) use shape::{Analysis, Layout, Shape, ShapeError};
pub(crate) use summary::{rows as summary_rows, LABELS as SUMMARY_LABELS};
pub(crate) use wide::{widen, Naming};
