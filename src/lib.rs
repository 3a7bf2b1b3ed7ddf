//! chain-metrics: a command-line client for the chain-metrics service.
//!
//! The flow is cli (parse) -> settings (resolve) -> client (fetch) -> render (write) -> output
//! (files, terminal); `model` is the data every step shares, `commands` glues the steps for each
//! command and `main` maps the outcome to an exit code. `sandbox` is the reference service.
//!
//! The modules are private so that the compiler keeps each step in its room; what is public
//! below is what the binary, the man-page generator (`examples/generate`) and the tests use.

mod cache;
mod cli;
mod client;
mod commands;
mod error;
mod model;
mod output;
mod render;
mod sandbox;
mod settings;

pub use cli::{completion, Cli};
pub use client::parse_records;
pub use commands::run;
pub use error::{Exit, Failure};
pub use model::dates::{parse_date, parse_last, DayRange, DaySpec};
pub use model::period::{aggregate, Period};
pub use model::{Column, Dataset, Endpoint, Number, Row, SocialMetric};
pub use output::{diag, interrupt};
pub use settings::{ENV_BASE_URL, ENV_CA_BUNDLE, ENV_CONFIG, ENV_KEY, ENV_PROFILE};
