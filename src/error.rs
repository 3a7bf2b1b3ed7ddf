//! The documented exit codes, and the one error type that carries them to `main`.

use std::fmt;
use std::path::Path;

use crate::model::{Chain, Endpoint};
use crate::system::atomic::NotWritten;
use crate::system::interrupt;
use crate::system::lock::{self, LockError};

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
    /// Ctrl-C: 128 + SIGINT, the number the signal handler exits with.
    Interrupted = interrupt::CTRL_C_EXIT as isize,
}

/// A failure the user can act on: one `error:` line, an optional `hint:` line, an exit code.
#[derive(Debug)]
pub struct Failure {
    pub exit: Exit,
    pub message: String,
    pub hint: Option<String>,
    /// The request that failed, for `--error-format json`; boxed to keep `Result`s small.
    pub detail: Option<Box<RequestDetail>>,
}

/// What is known of a failed request: the endpoint, the chain (named only where the failure
/// is printed), the HTTP status and the service's own message (masked like the error line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestDetail {
    pub endpoint: Option<Endpoint>,
    pub chain: Option<Chain>,
    pub status: Option<u16>,
    pub service_message: Option<String>,
    /// Further members of the `--error-format json` object, as data a script reads without
    /// parsing the message: a usage error's `tip` and `possible_values`, `--strict`'s `missing`.
    pub members: Vec<(&'static str, serde_json::Value)>,
}

impl Failure {
    pub fn new(exit: Exit, message: impl Into<String>) -> Self {
        Failure {
            exit,
            message: message.into(),
            hint: None,
            detail: None,
        }
    }

    /// Adds to what is known of the request: the fields `detail` has, over those already set.
    pub fn with_detail(mut self, detail: RequestDetail) -> Self {
        let known = self.detail.get_or_insert_with(Default::default);
        known.endpoint = detail.endpoint.or(known.endpoint);
        known.chain = detail.chain.or(known.chain);
        known.status = detail.status.or(known.status);
        known.service_message = detail.service_message.or(known.service_message.take());
        known.members.extend(detail.members);
        self
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

// The refusals of `system` (which knows no exit code) as the failures the user reads.

impl NotWritten {
    /// Exit 9, naming the file as the user gave it.
    pub(crate) fn failure(self, path: &Path) -> Failure {
        let failure = Failure::new(
            Exit::Output,
            format!("cannot write {}: {}", path.display(), self.error),
        );
        match self.hint {
            Some(hint) => failure.with_hint(hint),
            None => failure,
        }
    }
}

impl LockError {
    /// The failure to report, for `what` (the file, as the user knows it), with `exit`;
    /// `untouched` says what was not done.
    pub(crate) fn failure(self, exit: Exit, what: &str, untouched: &str) -> Failure {
        match self {
            LockError::Busy { waited } => Failure::new(
                exit,
                format!(
                    "another run was still changing {what} after {} s; {untouched}",
                    waited.as_secs_f64()
                ),
            )
            .with_hint("try again when that run is done, or wait longer with --lock-timeout SECS"),
            LockError::Target(refused) => Failure::new(
                exit,
                format!("cannot write {what}: {}; {untouched}", refused.error),
            )
            .with_hint(refused.hint.unwrap_or_default()),
            LockError::Failed { lock_file, error } => {
                let hint = lock::lock_hint(&lock_file);
                Failure::new(
                    exit,
                    format!(
                        "cannot lock {what}: cannot use the lock file {} ({error}); {untouched}",
                        lock_file.display()
                    ),
                )
                .with_hint(hint)
            }
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

pub(crate) type Result<T, E = Failure> = std::result::Result<T, E>;
