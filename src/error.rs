//! The documented exit codes, and the one error type that carries them to `main`.

use std::fmt;

/// The exit codes of CLI.md §6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Internal = 1,
    Usage = 2,
    Config = 3,
    KeyRejected = 4,
    RequestRejected = 5,
    ServiceFailed = 6,
    Network = 7,
    BadResponse = 8,
    Output = 9,
    /// `--strict`: the result lacks asked values; everything that arrived was written.
    Incomplete = 10,
    Interrupted = 130,
}

/// A failure the user can act on: one `error:` line, an optional `hint:` line, an exit code.
#[derive(Debug)]
pub struct Failure {
    pub exit: Exit,
    pub message: String,
    pub hint: Option<String>,
}

impl Failure {
    pub fn new(exit: Exit, message: impl Into<String>) -> Self {
        Failure {
            exit,
            message: message.into(),
            hint: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Failure::new(Exit::Usage, message)
    }

    pub fn config(message: impl Into<String>) -> Self {
        Failure::new(Exit::Config, message)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

pub type Result<T, E = Failure> = std::result::Result<T, E>;
