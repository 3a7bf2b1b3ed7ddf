//! What a query does to the rows it fetched, each value against an independent computation:
//! derived measures (`derived`), `--summary` (`summaries`), `--sort`/`--top` (`ordering`), exact
//! division under `--per-user --by` (`exact_division`) and the bound on the service's numbers
//! (`number_bound`).

pub(crate) mod derived;
mod exact_division;
pub(crate) mod number_bound;
mod ordering;
mod summaries;
mod undivided;
