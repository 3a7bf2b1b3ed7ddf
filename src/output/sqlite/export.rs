//! The SQLite export (`-o FILE.sqlite`, `.db`, `-f sqlite`): one table per command (`fees`,
//! `users`, `social`, `report`) with the csv columns, every cell TEXT (the date in ISO form,
//! each number as the exact text the service sent: never a float, and SQLite's arithmetic
//! still sums it), primary key (date, chain). Other tables in the file are left alone.

use std::io::Read;
use std::path::Path;

use rusqlite::{Connection, OpenFlags, MAIN_DB};

use super::write::{write_in_place, Journal};
use crate::error::{Exit, Failure};
use crate::fetched::Plan;
use crate::model::Dataset;
use crate::output::write_atomically;
use crate::system::lock::LockWait;
use crate::system::{atomic, ownership, stream};

/// The first bytes of every SQLite 3 database file.
const MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// The table of a command: named after it.
pub(crate) fn table_name(plan: &Plan) -> &'static str {
    match plan.endpoints.as_slice() {
        [endpoint] => endpoint.command(),
        _ => "report",
    }
}

/// Writes `data` as `table`'s rows at `path` (`replace`: the table's other rows go): in
/// place, in one transaction, in an existing database (its other tables, indexes and
/// triggers stay), else as a new file, written atomically; in WAL mode in a private folder,
/// in rollback mode in one others can write ([`Journal::for_folder_of`]).
pub(crate) fn store(
    path: &Path,
    table: &str,
    data: &Dataset,
    replace: bool,
    wait: LockWait,
) -> anyhow::Result<()> {
    let failed = |why: String| {
        Failure::new(
            Exit::Output,
            format!("cannot write {}: {why}", path.display()),
        )
    };
    let journal = Journal::for_folder_of(path);
    match open_existing(path).map_err(failed)? {
        Some(mut conn) => Ok(write_in_place(
            &mut conn, path, table, data, replace, wait, journal,
        )?),
        None => {
            let mut conn = Connection::open_in_memory().map_err(|e| failed(e.to_string()))?;
            write_in_place(&mut conn, path, table, data, true, wait, journal)?;
            let bytes = conn.serialize(MAIN_DB).map_err(|e| failed(e.to_string()))?;
            write_atomically(path, &journal.mark(bytes.to_vec()))
        }
    }
}

/// The database at `path`, opened for writing; `None` when there is no file or an empty one
/// (a new database is written whole). Anything but a regular SQLite file is refused.
pub(crate) fn open_existing(path: &Path) -> Result<Option<Connection>, String> {
    if stream::own_descriptor(path).is_some() {
        return Err(not_a_file("one of this run's own streams"));
    }
    // A link another user planted on the way (the file's name or a folder above it) is not
    // followed, not even to read what is there.
    atomic::final_target(path).map_err(|refused| match refused.hint {
        Some(hint) => format!("{}; {hint}", refused.error),
        None => refused.error.to_string(),
    })?;
    // A new database too: SQLite would take a journal or WAL already there for its own.
    refuse_foreign_journal(path)?;
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    if !metadata.is_file() {
        return Err(not_a_file(stream::kind_of(&metadata)));
    }
    if metadata.len() == 0 {
        return Ok(None);
    }
    let mut head = [0u8; 16];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head));
    if read.is_err() || &head != MAGIC {
        return Err(
            "it is not a SQLite database; it is not replaced: write the table to a .sqlite \
            file of its own, or remove this one"
                .into(),
        );
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| e.to_string())?;
    // Another program (a reader such as Datasette) may hold it for a moment.
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(|e| e.to_string())?;
    Ok(Some(conn))
}

/// A journal, WAL or WAL index beside the database (an existing one, or one about to be made)
/// that the trust rule refuses (another user's, one others can change, a link) would be taken
/// for the database's own when it is opened: refused before that, the file left as it is,
/// with what the user can do about it where they are.
fn refuse_foreign_journal(path: &Path) -> Result<(), String> {
    for (suffix, use_of) in [
        ("-journal", "roll that file beside it into the database"),
        ("-wal", "roll that file beside it into the database"),
        ("-shm", "read the database through that file beside it"),
    ] {
        let mut beside = path.as_os_str().to_owned();
        beside.push(suffix);
        let beside = Path::new(&beside);
        let Ok(metadata) = std::fs::symlink_metadata(beside) else {
            continue;
        };
        let refused = match metadata.file_type().is_symlink() {
            true => Some(format!("{} is a symbolic link", beside.display())),
            false => ownership::check(beside, &metadata).err().map(|u| u.why),
        };
        if let Some(why) = refused {
            return Err(format!(
                "{why}; SQLite would {use_of} when it is opened, so it is not opened: {}",
                removal(beside, &metadata)
            ));
        }
    }
    Ok(())
}

/// What the user can do about a side file refused: remove it, or, in a sticky folder where
/// only its owner (or root) can, ask them or write elsewhere.
fn removal(beside: &Path, metadata: &std::fs::Metadata) -> String {
    let folder = match beside.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new("."),
        Some(p) => p,
        None => Path::new("/"),
    };
    let only = std::fs::metadata(folder)
        .ok()
        .and_then(|folder| ownership::only_owner_removes(metadata, &folder));
    match only {
        Some(owner) => format!(
            "only {} or root can remove it from that sticky folder: ask them to, or write the \
                export to a folder of your own",
            ownership::who(owner)
        ),
        None => "remove that file if you trust neither it nor its owner".into(),
    }
}

fn not_a_file(kind: &str) -> String {
    format!(
        "it is {kind}, not a regular file: a SQLite database is a file that is read back and \
        changed in place"
    )
}
