//! The SQLite export: a command's table written into a database others may read, in place and
//! in one transaction; the database opened only when it is a regular SQLite file of ours to
//! change.

mod export;
mod write;

pub use export::read_sqlite_rows;
pub(super) use export::{check_plain, export_table, store, stored_rows, table_name};
