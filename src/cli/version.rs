//! `--version`: what a bug report needs, as `rg --version` and `curl -V` print it. `-V` stays
//! clap's one line (`chain-metrics 0.2.0`). Either alone is answered before any command tree is
//! built, in clap's words.

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

/// What `chain-metrics --version` or `chain-metrics -V` prints, byte for byte as clap prints it
/// (`{name} {version}\n`), when the flag is the only argument; `None` otherwise (clap then
/// answers, or refuses the line).
pub(crate) fn asked_alone() -> Option<String> {
    let mut args = std::env::args_os().skip(1);
    let (Some(flag), None) = (args.next(), args.next()) else {
        return None;
    };
    let version = match flag.to_str()? {
        "--version" => long(),
        "-V" => env!("CARGO_PKG_VERSION"),
        _ => return None,
    };
    Some(format!("chain-metrics {version}\n"))
}
