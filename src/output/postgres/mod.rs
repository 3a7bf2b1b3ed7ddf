//! The PostgreSQL export (`-o postgresql://...`): a command's table in a shared database,
//! connected to and checked before any request, upserted exactly in one transaction under an
//! advisory lock, read back by `--resume`. The password never shows: the URI is masked
//! wherever it is printed, and the password registered as a secret.

mod address;
mod connect;
mod params;
mod passfile;
mod server;
mod service;
mod table;
mod tls;
mod upsert;
mod uri;

use crate::error::Failure;
use crate::model::{Dataset, Period, Row};
use crate::settings::LibpqEnvironment;
use crate::system::diag::Notice;
use address::Address;
use table::Table;

/// A PostgreSQL target: where, and which table.
#[derive(Clone, Debug)]
pub(crate) struct Database {
    address: Address,
    table: Table,
}

impl Database {
    /// Reads the URI `-o` gave (completed from libpq's environment, which the settings read,
    /// and the password file) for the table `table`; `tell` gets the warning of a password
    /// written in the URI.
    pub(crate) fn resolve(
        uri: &str,
        table: &str,
        env: &LibpqEnvironment,
        tell: &dyn Fn(Notice),
    ) -> Result<Database, Failure> {
        let address = Address::resolve(uri, env)?;
        if address.password_in_uri() {
            tell(Notice::warning(
                "the PostgreSQL URI holds a password, which other users can see in `ps` and your \
                    shell keeps in its history; keep it in PGPASSWORD or ~/.pgpass (mode 0600) \
                        instead",
            ));
        }
        let bad = |part: &str| part.is_empty() || part.len() > 63;
        if table.split('.').count() > 2 || table.split('.').any(bad) {
            return Err(Failure::usage(format!(
                "--table {}: a table is NAME or SCHEMA.NAME, each 1 to 63 bytes",
                crate::system::foreign::echo(table)
            ))
            .with_hint("e.g. --table fees or --table metrics.fees"));
        }
        let table = match table.split_once('.') {
            Some((schema, name)) => Table {
                schema: Some(schema.to_owned()),
                name: name.to_owned(),
            },
            None => Table {
                schema: None,
                name: table.to_owned(),
            },
        };
        Ok(Database { address, table })
    }

    /// The URI with its password masked: how every message names the target.
    pub(crate) fn shown(&self) -> &str {
        &self.address.shown
    }

    /// Where it connects, for `-v` (no password).
    pub(crate) fn describe(&self) -> String {
        self.address.describe()
    }

    /// Before any request: connects, authenticates and checks the table against `header`
    /// (this run's columns); a plain write (`merge` false) needs the table empty or missing.
    pub(crate) fn check(&self, header: &Dataset, merge: bool) -> Result<(), Failure> {
        table::check(&self.address, &self.table, header, merge)
    }

    /// Writes the rows in one transaction: upserted under `--merge`, inserted into an empty
    /// table otherwise. Under `--by`, `tell` gets the periods the table keeps because they
    /// cover more days than this run's.
    pub(crate) fn store(
        &self,
        data: &Dataset,
        merge: bool,
        by: Period,
        tell: &dyn Fn(Notice),
    ) -> Result<(), Failure> {
        let kept = upsert::store(&self.address, &self.table, data, merge, by)?;
        if !kept.is_empty() {
            tell(Notice::warning(format!(
                "{} at {} keeps its rows for {}: this run covers fewer days of those periods; to \
                    replace them, ask up to each period's last day",
                self.table.shown(),
                self.address.shown,
                kept.join(", ")
            )));
        }
        Ok(())
    }

    /// The rows the table holds, read as `shape`'s columns, for `--resume`.
    pub(crate) fn stored_rows(&self, shape: &Dataset) -> Result<Vec<Row>, Failure> {
        table::stored_rows(&self.address, &self.table, shape)
    }
}
