//! The body reader: a success body read into records as it arrives (`stream`, on the bytes of
//! `reader`), the whole-body parser that gives the verdict and words for anything else
//! (`response`), and what an answer keeps of its records (`keep`). Its front door is what the
//! fuzz targets, the oracles and the property tests call, and the few things the client needs.

mod held;
mod keep;
mod parse;
mod reader;
mod response;
mod stream;

// What the fuzz targets and tests/oracles/body.rs call (through `lib.rs`).
pub use keep::KeptRecords;
pub use parse::{parse_records, parse_records_kept, read_body_records, read_records_kept};
pub use response::parse_held_body;

// What the rest of the client uses.
pub(super) use held::read_held;
pub(super) use parse::{bounded_records, Misshapen};
