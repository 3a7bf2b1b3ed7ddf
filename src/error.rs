//! The documented exit codes, and the one error type that carries them to `main`.

use std::fmt;

use crate::model::{Chain, Endpoint};

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

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

pub(crate) type Result<T, E = Failure> = std::result::Result<T, E>;
