//! chain-metrics: a command-line client for the chain-metrics service.
//!
//! The flow is cli (parse) -> settings (resolve) -> client (fetch) -> render (write); `commands` runs
//! it and `main` maps the outcome to an exit code.

pub mod base_url;
pub mod chain;
pub mod cli;
pub mod client;
pub mod commands;
pub mod completion;
pub mod config_edit;
pub mod config_file;
pub mod config_store;
pub mod dates;
pub mod dry_run;
pub mod error;
pub mod interrupt;
pub mod key_command;
pub mod manual;
pub mod merge;
pub mod model;
pub mod output_file;
pub mod progress;
pub mod query;
pub mod render;
pub mod response;
pub mod retry;
pub mod sandbox;
pub mod secret;
pub mod service_error;
pub mod settings;
pub mod terminal;
pub mod transport;
pub mod wide;
