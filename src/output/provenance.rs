//! Where an export's data came from, recorded in the file's extended attributes (the bytes
//! stay as every reader expects them): `user.chain-metrics.data` says `synthetic` (a sandbox)
//! or `service`, and freedesktop's `user.xdg.origin.url` (as `curl --xattr` and browsers set
//! it) the service's base URL, any password masked. The key is never in a base URL.
//! `render FILE` reads them back; a `--merge` never mixes synthetic data with real data.

use std::path::Path;

use crate::error::{Exit, Failure};
use crate::render::Origin;
use crate::system::{attributes, foreign};

/// Whether the data is synthetic or a service's: `synthetic` or `service`.
const DATA: &str = "user.chain-metrics.data";
/// The base URL the data came from (freedesktop's name, which file managers show).
const URL: &str = "user.xdg.origin.url";
/// The longest URL shown back from a file (anyone may have written the attribute).
const SHOWN: usize = 200;

/// Records `origin` on the export at `path`; an origin not known leaves the file's as it is.
/// Where the file system keeps no attributes, nothing is recorded.
pub(super) fn record(path: &Path, origin: &Origin) {
    let (data, url) = match origin {
        Origin::Sandbox => ("synthetic", None),
        Origin::SyntheticService(url) => ("synthetic", Some(url)),
        Origin::Service(url) => ("service", Some(url)),
        Origin::File { .. } | Origin::Unknown => return,
    };
    if attributes::set(path, DATA, data) {
        match url {
            Some(url) => _ = attributes::set(path, URL, url),
            None => attributes::remove(path, URL),
        }
    }
}

/// Where the data of the export at `path` came from, as it records it; `Unknown` for an
/// export that records nothing (written before exports did, copied without its attributes).
pub(super) fn recorded(path: &Path) -> Origin {
    let url = attributes::get(path, URL).map(|url| foreign::cut(&url, SHOWN));
    match (attributes::get(path, DATA).as_deref(), url) {
        (Some("synthetic"), Some(url)) => Origin::SyntheticService(url),
        (Some("synthetic"), None) => Origin::Sandbox,
        (Some("service"), Some(url)) => Origin::Service(url),
        _ => Origin::Unknown,
    }
}

/// What to record on `path` once the run's data (from `run`) is written there: the run's
/// origin; merged into the file, the file's own when the run's is not known, and refused (see
/// [`check_merge`]) when one is synthetic and the other a service's.
pub(super) fn to_record(path: &Path, run: &Origin, merge: bool) -> Result<Origin, Failure> {
    if !merge {
        return Ok(run.clone());
    }
    let old = recorded(path);
    check_merge(path, &old, run)?;
    Ok(match run {
        Origin::Unknown => old,
        run => run.clone(),
    })
}

/// The origin `render` names for the export at `path`: the file, by its name (the folders
/// above it are the user's business, not a shared picture's), and what it records.
pub(super) fn drawn_from(path: &Path) -> Origin {
    let name = (path.file_name()).map_or_else(
        || path.display().to_string(),
        |name| name.display().to_string(),
    );
    Origin::File {
        name: foreign::cut(&name, usize::MAX),
        data: Box::new(recorded(path)),
    }
}

/// A merge into `path` (whose data came from `old`) of a run's data from `new`: refused
/// (exit 9, the file untouched) when one is synthetic and the other a service's, so that
/// no file holds sandbox rows among real ones. A file that records nothing takes either.
fn check_merge(path: &Path, old: &Origin, new: &Origin) -> Result<(), Failure> {
    let known = |o: &Origin| !matches!(o, Origin::Unknown | Origin::File { .. });
    if !known(old) || !known(new) || old.is_synthetic() == new.is_synthetic() {
        return Ok(());
    }
    let (held, brought) = match old.is_synthetic() {
        true => ("synthetic data from a sandbox", "a service's data"),
        false => ("a service's data", "synthetic data from a sandbox"),
    };
    Err(Failure::new(
        Exit::Output,
        format!(
            "cannot merge into {}: it holds {held}, and this run brought {brought}; not merged",
            path.display()
        ),
    )
    .with_hint(
        "write it to another file (-o OTHER), so that sandbox rows never sit among real ones",
    ))
}
