//! `cache path | stats | clear [--before DAY]`: the response cache, looked at and emptied by hand.

use std::path::{Path, PathBuf};

use crate::cache::{self, CacheError, Store};
use crate::cli::CacheCommand;
use crate::error::Failure;
use crate::model::{today_utc, DaySpec};
use crate::output::{format_or_default, write_stdout};
use crate::render::{self, Format};
use crate::settings::{Settings, Terminal};
use crate::system::{diag, foreign};

/// How many characters of a name read from the cache file a row shows.
const CELL_CHARS: usize = 200;

const HEADER: [&str; 6] = ["service", "endpoint", "chain", "values", "oldest", "newest"];

/// `settings`: the config file located, not read (the cache does not depend on it).
pub(super) fn run(
    command: &CacheCommand,
    settings: &Settings,
    terminal: Terminal,
) -> anyhow::Result<()> {
    let path = settings.cache.file.clone().map_err(|why| {
        Failure::config(format!("no response cache: {why}"))
            .with_hint("set HOME, or XDG_CACHE_HOME to an absolute path")
    })?;
    match command {
        CacheCommand::Path => write_stdout(|out| writeln!(out, "{}", path.display())),
        CacheCommand::Stats { format } => {
            let format = format_or_default(*format, terminal);
            stats(&path, format, terminal.utf8)
        }
        CacheCommand::Clear { before } => clear(&path, *before),
    }
}

/// One row per (service, endpoint, chain) on stdout; the file and its size on stderr.
fn stats(path: &Path, format: Format, utf8: bool) -> anyhow::Result<()> {
    let store = Store::open_read_only(path).map_err(|e| unusable(path, &e))?;
    let series = match &store {
        Some(store) => store.stats().map_err(|e| unusable(path, &e))?,
        None => Vec::new(),
    };
    let values: i64 = series.iter().map(|s| s.values).sum();
    let rows: Vec<Vec<serde_json::Value>> = series
        .into_iter()
        .map(|s| {
            // The names come from a file anyone could have written: shown as foreign text.
            let cells = [s.service, s.endpoint, s.chain].map(|c| foreign::cut(&c, CELL_CHARS));
            let mut row: Vec<serde_json::Value> = cells.into_iter().map(Into::into).collect();
            row.extend([s.values.into(), s.oldest.into(), s.newest.into()]);
            row
        })
        .collect();
    diag::status(format!(
        "{}: {values} values, {} bytes",
        path.display(),
        size(path)
    ));
    write_stdout(|out| render::write_listing(&HEADER, &rows, format, utf8, out))
}

/// Removes values (those before `before` only, when given); an unreadable file is removed whole.
fn clear(path: &Path, before: Option<DaySpec>) -> anyhow::Result<()> {
    if !path.exists() {
        diag::status(format!(
            "{}: no response cache yet, nothing to clear",
            path.display()
        ));
        return Ok(());
    }
    let before = before.map(|day| day.resolve(today_utc()));
    let opened = Store::open(path);
    if let (Err(e), None) = (&opened, before) {
        if e.is_unreadable() {
            remove_files(path)?;
            let path = path.display();
            let removed =
                format!("removed the response cache {path}, which this version cannot read");
            diag::status(removed);
            return Ok(());
        }
    }
    let removed = opened
        .and_then(|mut store| store.clear(before))
        .map_err(|e| unusable(path, &e))?;
    let which = match before {
        Some(day) => format!(" of days before {day}"),
        None => String::new(),
    };
    diag::status(format!(
        "removed {removed} values{which} from {}",
        path.display()
    ));
    Ok(())
}

fn remove_files(path: &Path) -> Result<(), Failure> {
    for file in cache::files(path) {
        match std::fs::remove_file(&file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(Failure::config(format!(
                    "cannot remove {}: {e}",
                    file.display()
                )))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The bytes the cache takes on disk: the file and its WAL and shared-memory companions.
fn size(path: &Path) -> u64 {
    cache::files(path)
        .iter()
        .filter_map(|f: &PathBuf| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum()
}

fn unusable(path: &Path, error: &CacheError) -> Failure {
    Failure::config(format!("the response cache {} {error}", path.display()))
}
