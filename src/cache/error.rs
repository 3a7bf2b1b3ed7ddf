//! What can go wrong with the cache file, as the cache's own type: SQLite's codes are read in
//! one place ([`From<rusqlite::Error>`]), and the tool's own failures (a file of another schema
//! version, a folder that cannot be made) are said as themselves rather than dressed up as
//! SQLite codes.

use std::fmt;
use std::time::Duration;

use rusqlite::ErrorCode;

/// How long a run waits for another run's write before going on without the cache; the
/// store waits it, and [`CacheError::Busy`] says it.
pub(crate) const BUSY_WAIT: Duration = Duration::from_secs(2);

#[derive(Debug)]
pub enum CacheError {
    /// Another run held the file past the busy wait.
    Busy,
    /// Not a SQLite file, or a damaged one.
    Damaged,
    /// Written by a chain-metrics with another schema version.
    OtherVersion { found: i64, reads: i64 },
    /// The file or its folder cannot be created, opened or written.
    Unwritable(String),
    /// Anything else SQLite reports.
    Other(String),
    /// The folder or a file of it belongs to another user, or others can write to it: what it
    /// holds would be shown as the service's values.
    Untrusted(String),
}

impl CacheError {
    /// What the file holds can never be served: `cache clear` removes it whole.
    pub(crate) fn is_unreadable(&self) -> bool {
        matches!(self, CacheError::Damaged | CacheError::OtherVersion { .. })
    }
}

/// The failure in words, after "the response cache PATH".
impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CacheError::Busy => write!(
                f,
                "is locked by another run (waited {} s)",
                BUSY_WAIT.as_secs()
            ),
            CacheError::Damaged => f.write_str(
                "is damaged or not a cache file (`chain-metrics cache clear` removes it)",
            ),
            CacheError::OtherVersion { found, reads } => write!(
                f,
                "cannot be used (schema version {found}, written by another version of \
                chain-metrics (this one reads {reads}))"
            ),
            CacheError::Unwritable(why) => write!(f, "cannot be written ({why})"),
            CacheError::Other(why) => write!(f, "cannot be used ({why})"),
            CacheError::Untrusted(why) => write!(f, "is not used: {why}"),
        }
    }
}

impl From<rusqlite::Error> for CacheError {
    fn from(error: rusqlite::Error) -> CacheError {
        match error.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => CacheError::Busy,
            Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => CacheError::Damaged,
            Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => {
                CacheError::Unwritable(error.to_string())
            }
            _ => CacheError::Other(error.to_string()),
        }
    }
}

impl From<std::io::Error> for CacheError {
    fn from(error: std::io::Error) -> CacheError {
        CacheError::Unwritable(error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_codes_are_read_in_one_place() {
        let sqlite = |code| rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None);
        assert!(matches!(
            CacheError::from(sqlite(rusqlite::ffi::SQLITE_BUSY)),
            CacheError::Busy
        ));
        let damaged = CacheError::from(sqlite(rusqlite::ffi::SQLITE_NOTADB));
        assert!(damaged.is_unreadable());
        let unwritable = CacheError::from(sqlite(rusqlite::ffi::SQLITE_READONLY));
        assert!(unwritable.to_string().starts_with("cannot be written ("));
        assert!(!unwritable.is_unreadable());
        let version = CacheError::OtherVersion { found: 9, reads: 1 };
        assert!(version.is_unreadable());
        assert!(version.to_string().contains("schema version 9"));
    }
}
