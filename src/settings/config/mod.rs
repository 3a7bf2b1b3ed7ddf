//! The config file: where it lives and reading it strictly (`file`), editing it with the
//! user's comments and layout kept (`edit`, `comments`), and writing it privately (`store`).

mod comments;
mod edit;
mod file;
mod store;

pub use edit::plain;
pub(crate) use edit::ConfigDocument;
pub(crate) use file::ConfigLocation;
pub use file::{parse, FileSettings};
