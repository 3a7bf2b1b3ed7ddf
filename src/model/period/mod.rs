//! The calendar of periods (see `calendar`), the one home of period arithmetic; `--by`'s
//! roll-up of rows into periods is the analysis's (`analysis/periods/`).

mod calendar;

pub use calendar::{Coverage, Period};

#[cfg(test)]
mod tests;
