//! The query commands end to end: fees, users, social and chains (`query`), `report`
//! (`report`), calendar ranges (`calendar`) and `--strict` (`strict`).

mod calendar;
mod query;
mod report;
mod strict;
