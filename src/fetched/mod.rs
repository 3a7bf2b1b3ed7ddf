//! The fetched data: what a query asks (the plan, its requests and windows), the answers
//! joined into rows, the gaps they leave and `--strict`'s verdict on them. Plain values only:
//! this room never talks to the network (the client sends the requests) nor writes anything.

mod gaps;
mod notes;
mod plan;
mod request;

pub(crate) use notes::DataNotes;
pub(crate) use plan::{Assembly, Fetched, Outcome, Plan};
pub(crate) use request::Request;
