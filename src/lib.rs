//! chain-metrics: a command-line client for the chain-metrics service.
//!
//! The flow is cli (parse) -> settings (resolve) -> client (fetch) -> render (write) -> output
//! (files, terminal); `model` is the data every step shares, `commands` glues the steps for each
//! command and `main` maps the outcome to an exit code. `sandbox` is the reference service.

pub mod cli;
pub mod client;
pub mod commands;
pub mod error;
pub mod model;
pub mod output;
pub mod render;
pub mod sandbox;
pub mod settings;
