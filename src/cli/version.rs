//! `--version`: what a bug report needs, as `rg --version` and `curl -V` print it. `-V` stays
//! clap's one line (`chain-metrics 0.2.0`).

use std::sync::OnceLock;

/// The text after the program name: the version line, then the commit, the build and the back
/// ends, one per line. build.rs supplies the facts only the build knows.
pub(super) fn long() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{version}\n\
             commit {commit}\n\
             built {date} for {target}\n\
             TLS: rustls {rustls} with ring {ring}, the platform's certificate verifier\n\
             SQLite: {sqlite} (bundled, rusqlite {rusqlite})",
            version = env!("CARGO_PKG_VERSION"),
            commit = env!("CHAIN_METRICS_COMMIT"),
            date = env!("CHAIN_METRICS_BUILD_DATE"),
            target = env!("CHAIN_METRICS_TARGET"),
            rustls = env!("CHAIN_METRICS_RUSTLS_VERSION"),
            ring = env!("CHAIN_METRICS_RING_VERSION"),
            sqlite = rusqlite::version(),
            rusqlite = env!("CHAIN_METRICS_RUSQLITE_VERSION"),
        )
    })
}
