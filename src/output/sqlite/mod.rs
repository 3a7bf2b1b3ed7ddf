//! The SQLite export: a command's table written into a database others may read, in place and
//! in one transaction; the database opened only when it is a regular SQLite file of ours to
//! change.

mod export;
mod write;

pub(super) use export::{open_existing, store, table_name};
pub(super) use write::{quoted, table_columns};
