//! An earlier export read back (csv, tsv, json, ndjson or a SQLite table) as this run's
//! columns, and `--merge`'s upsert of the fresh rows into it; `--resume` and `render FILE` read
//! with the same reader.

mod columns;
mod file;
mod into;
mod stored;
mod text;
mod upsert;

pub(super) use columns::place;
pub use file::read_merge_file;
pub(super) use file::{first_element, implausible, read_rows, to_row, MergeError};
pub(super) use into::{check_before_fetch, merge_into};
pub(super) use stored::{check_database, stored, with_chain_column, Target};
pub(super) use text::read_text;
