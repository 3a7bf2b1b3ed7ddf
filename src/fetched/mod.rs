//! The fetched data: what a query asks (the plan, its requests and windows), the answers
//! joined into rows, the gaps they leave and `--strict`'s verdict on them. Plain values only:
//! this room never talks to the network (the client sends the requests) nor writes anything.

mod assembly;
mod gaps;
mod joined;
mod notes;
mod plan;
mod request;

pub(crate) use assembly::{Assembly, Fetched, Outcome};
pub(crate) use gaps::Gaps;
pub(crate) use notes::DataNotes;
pub(crate) use plan::Plan;
pub(crate) use request::Request;
