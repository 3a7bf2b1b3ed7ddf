//! An earlier export read back (csv, tsv, json, ndjson or a SQLite table) as this run's
//! columns, and `--merge`'s upsert of the fresh rows into it; `--resume` and `render FILE` read
//! with the same reader.

mod columns;
mod file;
mod into;
mod json;
mod rows;
mod stored;
mod table;
mod text;
mod upsert;

pub use file::read_merge_file;
pub(super) use file::read_rows_with;
pub(super) use into::{check_before_fetch, merge_into};
pub(super) use json::first_row;
pub(super) use rows::{MergeError, Summaries};
pub(super) use stored::{check_database, stored, Target};
pub use table::read_sqlite_rows;
pub(super) use table::{export_table_names, stored_rows, tables_of};
pub(super) use text::read_text;
