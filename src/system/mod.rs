//! What the tool asks of the operating system, below every other room: files replaced
//! atomically, locks beside them, private folders, shell quoting, temp files, signals and process
//! groups, and stderr lines that
//! cannot panic nor show a secret, with foreign text made safe for the terminal (`foreign`). It
//! imports nothing of the crate: its refusals are its own types (`atomic::NotWritten`,
//! `lock::LockError`), which `error.rs` turns into the failures the user reads.

pub(crate) mod atomic;
pub(crate) mod attributes;
pub(crate) mod command_group;
pub(crate) mod diag;
pub(crate) mod foreign;
pub(crate) mod interrupt;
pub(crate) mod lock;
pub(crate) mod memory;
pub(crate) mod ownership;
mod planted;
pub(crate) mod private_dir;
pub(crate) mod secrecy;
pub(crate) mod shell;
pub(crate) mod stream;
mod temp;
mod writers;
