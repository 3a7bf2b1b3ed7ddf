//! The cache file: SQLite in WAL mode (readers never wait, writers wait a bounded time), in a
//! private folder and file, with a schema version, holding each value's exact text keyed by
//! (service, endpoint, chain, metric, day). The API key is never part of it.

use std::fs::OpenOptions;
#[cfg(unix)]
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use chrono::NaiveDate;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};

use super::error::{CacheError, BUSY_WAIT};

use crate::model::Number;
use crate::system::ownership;

type Result<T> = std::result::Result<T, CacheError>;

/// The layout below; a file with a higher number was written by a newer chain-metrics.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS series (
    id INTEGER PRIMARY KEY,
    service TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    chain TEXT NOT NULL,
    metric TEXT NOT NULL,
    UNIQUE (service, endpoint, chain, metric)
);
CREATE TABLE IF NOT EXISTS value (
    series INTEGER NOT NULL REFERENCES series (id),
    day TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (series, day)
) WITHOUT ROWID;
";

/// One series of values: what the service was asked, minus the key.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SeriesKey {
    /// The base URL without user name or password, or `(--sandbox)`.
    pub service: String,
    /// The endpoint's path, `/api/chain-insights/fees`.
    pub endpoint: String,
    pub chain: String,
    /// The field: `fees`, `active_users`, `reply`...
    pub metric: String,
}

/// What one answer says about a series over the days asked: every value to keep, replacing
/// whatever was kept for those days before.
pub struct Replacement<'a> {
    pub key: SeriesKey,
    pub first: NaiveDate,
    pub last: NaiveDate,
    pub values: Vec<(NaiveDate, &'a Number)>,
}

/// The values kept for one (service, endpoint, chain), for `cache stats`.
pub struct SeriesStats {
    pub service: String,
    pub endpoint: String,
    pub chain: String,
    pub values: i64,
    pub oldest: String,
    pub newest: String,
}

pub struct Store {
    db: Connection,
}

impl Store {
    /// Opens the file for reading and writing, creating the folder (0700) and file (0600).
    pub fn open(path: &Path) -> Result<Store> {
        trusted(path)?;
        create_private(path)?;
        // SQLite answers "busy" at once, without waiting, where waiting could deadlock: two
        // runs turning a new file to WAL together. Setting up is short, so it is tried again.
        let deadline = Instant::now() + BUSY_WAIT;
        loop {
            match Store::set_up(path) {
                Err(CacheError::Busy) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                result => return result,
            }
        }
    }

    /// Connects, in WAL mode, with the tables made on first use.
    fn set_up(path: &Path) -> Result<Store> {
        let db = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
        db.busy_timeout(BUSY_WAIT)?;
        // WAL: a reader never waits for a writer; NORMAL is safe from corruption in WAL mode.
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "NORMAL")?;
        let store = Store { db };
        if store.version()? == 0 {
            store.create_schema()?;
        }
        store.check_version()?;
        Ok(store)
    }

    /// Opens an existing file for reading only (`--dry-run`); `None` when there is none yet.
    pub fn open_read_only(path: &Path) -> Result<Option<Store>> {
        if !path.exists() {
            return Ok(None);
        }
        trusted(path)?;
        let db = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        db.busy_timeout(BUSY_WAIT)?;
        let store = Store { db };
        if store.version()? == 0 {
            return Ok(None);
        }
        store.check_version()?;
        Ok(Some(store))
    }

    fn version(&self) -> Result<i64> {
        Ok(self
            .db
            .pragma_query_value(None, "user_version", |row| row.get(0))?)
    }

    fn check_version(&self) -> Result<()> {
        let version = self.version()?;
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        Err(CacheError::OtherVersion {
            found: version,
            reads: SCHEMA_VERSION,
        })
    }

    /// Creates the tables once; two runs creating them at once are serialised by the lock.
    fn create_schema(&self) -> Result<()> {
        Ok(self.db.execute_batch(&format!(
            "BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
        ))?)
    }

    /// The values kept for a series from `first` to `last`, in day order.
    pub fn values(
        &self,
        key: &SeriesKey,
        first: NaiveDate,
        last: NaiveDate,
    ) -> Result<Vec<(NaiveDate, Number)>> {
        let mut query = self.db.prepare_cached(
            "SELECT value.day, value.value FROM value JOIN series ON series.id = value.series
             WHERE series.service = ?1 AND series.endpoint = ?2 AND series.chain = ?3
               AND series.metric = ?4 AND value.day BETWEEN ?5 AND ?6 ORDER BY value.day",
        )?;
        let rows = query.query_map(
            params![
                key.service,
                key.endpoint,
                key.chain,
                key.metric,
                first.to_string(),
                last.to_string()
            ],
            |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)),
        )?;
        let mut values = Vec::new();
        for row in rows {
            let (day, text) = row?;
            // A row this version did not write is skipped: the day is then asked again.
            let day = crate::model::parse_date(&day).ok();
            if let (Some(day), Some(number)) = (day, Number::from_json_token(&text)) {
                values.push((day, number));
            }
        }
        Ok(values)
    }

    /// Applies every replacement in one transaction: all of them are kept, or none.
    pub fn replace(&mut self, replacements: &[Replacement]) -> Result<()> {
        let tx = self
            .db
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        for replacement in replacements {
            let series = series_id(&tx, &replacement.key)?;
            tx.prepare_cached("DELETE FROM value WHERE series = ?1 AND day BETWEEN ?2 AND ?3")?
                .execute(params![
                    series,
                    replacement.first.to_string(),
                    replacement.last.to_string()
                ])?;
            let mut insert =
                tx.prepare_cached("INSERT INTO value (series, day, value) VALUES (?1, ?2, ?3)")?;
            for (day, value) in &replacement.values {
                insert.execute(params![series, day.to_string(), &*value.as_str()])?;
            }
        }
        Ok(tx.commit()?)
    }

    /// Per (service, endpoint, chain): how many values, the oldest and the newest day.
    pub fn stats(&self) -> Result<Vec<SeriesStats>> {
        let mut query = self.db.prepare(
            "SELECT series.service, series.endpoint, series.chain, COUNT(*), MIN(value.day),
                    MAX(value.day)
             FROM value JOIN series ON series.id = value.series
             GROUP BY series.service, series.endpoint, series.chain
             ORDER BY series.service, series.endpoint, series.chain",
        )?;
        let rows = query.query_map([], |row| {
            Ok(SeriesStats {
                service: row.get(0)?,
                endpoint: row.get(1)?,
                chain: row.get(2)?,
                values: row.get(3)?,
                oldest: row.get(4)?,
                newest: row.get(5)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Removes the values of days before `before` (all of them without it); how many went.
    pub fn clear(&mut self, before: Option<NaiveDate>) -> Result<usize> {
        let tx = self
            .db
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let removed = match before {
            Some(day) => tx.execute("DELETE FROM value WHERE day < ?1", [day.to_string()])?,
            None => tx.execute("DELETE FROM value", [])?,
        };
        tx.execute(
            "DELETE FROM series WHERE NOT EXISTS (SELECT 1 FROM value WHERE value.series = \
            series.id)",
            [],
        )?;
        tx.commit()?;
        // Gives the space back to the file system; a failure only leaves the file larger.
        let _ = self.db.execute_batch("VACUUM");
        Ok(removed)
    }
}

/// The series' id, made on first use.
fn series_id(db: &Connection, key: &SeriesKey) -> Result<i64> {
    let find =
        "SELECT id FROM series WHERE service = ?1 AND endpoint = ?2 AND chain = ?3 AND metric = ?4";
    let args = params![key.service, key.endpoint, key.chain, key.metric];
    if let Some(id) = db
        .prepare_cached(find)?
        .query_row(args, |row| row.get(0))
        .optional()?
    {
        return Ok(id);
    }
    db.prepare_cached(
        "INSERT INTO series (service, endpoint, chain, metric) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(args)?;
    Ok(db.last_insert_rowid())
}

/// The folder, the file and its companions are used only when trusted (see
/// `system::ownership`): a cache another user planted or can change would have the run show
/// their values as the service's. SQLite opens the files itself, so they are checked by name,
/// just before.
fn trusted(path: &Path) -> Result<()> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    let names = folder
        .into_iter()
        .map(Path::to_path_buf)
        .chain(super::files(path));
    for name in names {
        ownership::check_path(&name).map_err(|refused| {
            CacheError::Untrusted(format!("{}; {}", refused.why, refused.hint))
        })?;
    }
    Ok(())
}

/// The folder (0700) and an empty file (0600) before SQLite opens it: SQLite gives its WAL
/// and shared-memory files the database file's mode. (On Windows the user's profile folder
/// is already private to the user.)
fn create_private(path: &Path) -> std::io::Result<()> {
    crate::system::private_dir::create_parent(path)?;
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    options.mode(0o600);
    match options.write(true).create_new(true).open(path) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(e),
        _ => Ok(()),
    }
}
