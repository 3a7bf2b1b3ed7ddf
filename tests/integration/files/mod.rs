//! The files a run writes and reads: `--output` (`export`), `--merge` (`merge`, `fuzz_merge`),
//! the SQLite export (`sqlite`, `sqlite_shared`, and read by others in shared folders:
//! `sqlite_readers`), the PostgreSQL export (`postgres`, and libpq's files and parameters:
//! `postgres_libpq`), `--resume`
//! and growing chains (`resume`, `chains_grow`), the holes `--resume` asks again (`holes`), files
//! that say what they hold (`file_trust`), two runs at once (`locks`), a signal
//! the instant a temp file is made or renamed (`signals`), whose files are trusted
//! (`neighbours`, and on machines as they are: `trust_rule`), and files others or a hostile export made
//! (`foreign_files`, `hostile_files`).

mod chains_grow;
mod cron_month;
mod export;
mod file_trust;
mod foreign_files;
mod fuzz_merge;
mod holes;
mod hostile_files;
mod locks;
mod merge;
mod neighbours;
mod postgres;
mod postgres_libpq;
mod resume;
mod signals;
mod sqlite;
mod sqlite_readers;
mod sqlite_shared;
mod trust_rule;
