//! A command's table in PostgreSQL: connected to and checked before any request (a table with
//! other columns, a view, no key on (date, chain), or rows under a plain `-o` is refused);
//! written in one transaction under an advisory lock keyed on the table (made if missing,
//! every row upserted, exact numbers sent as text and cast to NUMERIC in SQL); read back for
//! `--resume`.

use std::error::Error as _;

use postgres::types::ToSql;
use postgres::{Client, Transaction};

use super::address::{Address, Host, SslMode};
use super::tls::Tls;
use crate::error::{Exit, Failure};
use crate::model::{parse_date, Chain, Dataset, Number, Period, Row};
use crate::system::foreign;

/// How many rows one INSERT carries (as arrays: one parameter per column).
const ROWS_PER_STATEMENT: usize = 2000;

/// NUMERIC's range: digits before the decimal point, and after it.
const NUMERIC_INTEGER_DIGITS: i64 = 131_072;
const NUMERIC_FRACTION_DIGITS: i64 = 16_383;

/// A table, `schema.name` or `name` (found on the search path).
#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub schema: Option<String>,
    pub name: String,
}

impl Table {
    /// The table as SQL names it: each part in double quotes.
    fn sql(&self) -> String {
        match &self.schema {
            Some(schema) => format!("{}.{}", quoted(schema), quoted(&self.name)),
            None => quoted(&self.name),
        }
    }

    /// The table as a message names it.
    pub(super) fn shown(&self) -> String {
        match &self.schema {
            Some(schema) => format!("{schema}.{}", self.name),
            None => self.name.clone(),
        }
    }
}

/// An SQL identifier in double quotes.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Connects and authenticates, as libpq would with this address: TLS as `sslmode` says (never
/// over a Unix socket). Failing, exit 9 with the server's own words (foreign text, masked).
pub(super) fn connect(address: &Address) -> Result<Client, Failure> {
    let mut config = postgres::Config::new();
    for host in &address.hosts {
        match host {
            Host::Tcp(name) => config.host(name),
            Host::Socket(folder) => config.host_path(folder),
        };
    }
    config
        .port(address.port)
        .user(&address.user)
        .dbname(&address.dbname);
    config.application_name(
        address
            .application_name
            .as_deref()
            .unwrap_or("chain-metrics"),
    );
    if let Some(password) = address.password() {
        config.password(password);
    }
    if let Some(timeout) = address.connect_timeout {
        config.connect_timeout(timeout);
    }
    let sockets_only = address.hosts.iter().all(|h| matches!(h, Host::Socket(_)));
    config.ssl_mode(match address.sslmode {
        _ if sockets_only => postgres::config::SslMode::Disable,
        SslMode::Disable => postgres::config::SslMode::Disable,
        SslMode::Allow | SslMode::Prefer => postgres::config::SslMode::Prefer,
        SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => {
            postgres::config::SslMode::Require
        }
    });
    let tls = Tls::new(address.sslmode, address.sslrootcert.as_deref()).map_err(|why| {
        Failure::new(
            Exit::Output,
            format!(
                "cannot connect to {}: {}",
                address.shown,
                shown(address, &why)
            ),
        )
    })?;
    config.connect(tls).map_err(|e| {
        Failure::new(
            Exit::Output,
            format!(
                "cannot connect to {}: {}",
                address.shown,
                words(address, &e)
            ),
        )
        .with_hint(
            "check the URI, PGHOST/PGPORT/PGUSER, and the password (PGPASSWORD or \
            ~/.pgpass); nothing was asked of the service",
        )
    })
}

/// A PostgreSQL error in words: the server's message when it sent one, else the chain of
/// causes (a refused connection, a certificate), shown as foreign text.
fn words(address: &Address, error: &postgres::Error) -> String {
    let text = match error.as_db_error() {
        Some(db) => format!("{}: {}", db.severity(), db.message()),
        None => {
            let mut text = error.to_string();
            let mut source = error.source();
            while let Some(cause) = source {
                text.push_str(&format!(": {cause}"));
                source = cause.source();
            }
            text
        }
    };
    shown(address, &text)
}

/// Foreign text with this address's password masked, whatever its length.
fn shown(address: &Address, text: &str) -> String {
    let password = address.password().unwrap_or_default().to_owned();
    foreign::shown(text, &move |t| foreign::mask_every(t, &password), 400)
}

/// What the table is now, as a check reads it.
struct Found {
    /// `relkind`: `r` a table, `p` a partitioned one, `v` a view...; `None`: no such relation.
    kind: Option<String>,
    /// Its columns and their types.
    columns: Vec<(String, String)>,
}

fn find(
    client: &mut impl postgres::GenericClient,
    table: &Table,
) -> Result<Found, postgres::Error> {
    let name = table.sql();
    let kind: Option<String> = client
        .query_opt(
            "SELECT relkind::text FROM pg_class WHERE oid = to_regclass($1)",
            &[&name],
        )?
        .map(|row| row.get(0));
    let columns = client
        .query(
            "SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute WHERE \
                attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
            &[&name],
        )?
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
    Ok(Found { kind, columns })
}

/// Before any request: connected and authenticated, the table (if there) a table with this
/// run's columns (by name, of types that hold them exactly) and a key on (date, chain); a
/// plain `-o` (no `merge`) needs it empty or missing: a shared table is never emptied.
pub(crate) fn check(
    address: &Address,
    table: &Table,
    header: &Dataset,
    merge: bool,
) -> Result<(), Failure> {
    let mut client = connect(address)?;
    let failed = |e: postgres::Error| read_failure(address, table, &e);
    let found = find(&mut client, table).map_err(failed)?;
    let refuse = |(why, hint): (String, String)| {
        Failure::new(
            Exit::Output,
            format!(
                "{} at {}: {why}; nothing was asked of the service",
                table.shown(),
                address.shown
            ),
        )
        .with_hint(hint)
    };
    let Some(kind) = &found.kind else {
        return Ok(());
    };
    refuse_kind(kind).map_err(refuse)?;
    refuse_columns(&found.columns, header).map_err(refuse)?;
    let keyed: bool = client
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = to_regclass($1) AND \
                i.indisunique AND i.indpred IS NULL AND i.indnkeyatts = 2 AND (SELECT \
                    array_agg(a.attname::text ORDER BY a.attname) FROM pg_attribute a WHERE \
                        a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)) = ARRAY['chain', \
                            'date'])",
            &[&table.sql()],
        )
        .map_err(failed)?
        .get(0);
    if !keyed {
        return Err(refuse((
            "it has no primary key or unique index on (date, chain), so a key may be held twice \
                and an upsert cannot find its row"
                .to_owned(),
            format!("ALTER TABLE {} ADD PRIMARY KEY (date, chain)", table.sql()),
        )));
    }
    if !merge && holds_rows(&mut client, table).map_err(failed)? {
        return Err(plain_into_rows(address, table));
    }
    Ok(())
}

/// Why, and what to do: a refusal of the table before any request.
type Refusal = (String, String);

/// A relation of another kind than a table (`relkind` `r`, or `p` partitioned) takes no rows.
fn refuse_kind(kind: &str) -> Result<(), Refusal> {
    let what = match kind {
        "r" | "p" => return Ok(()),
        "v" => "a view",
        "m" => "a materialized view",
        "f" => "a foreign table",
        _ => "not a table",
    };
    Err((
        format!("it is {what}, not a table, so rows cannot be upserted into it"),
        "name another database in --output, or drop that relation".to_owned(),
    ))
}

/// The table's columns must be this run's (by name; a column of a new include may be
/// missing), of types that hold its values exactly, with the key columns (and `days`).
fn refuse_columns(columns: &[(String, String)], header: &Dataset) -> Result<(), Refusal> {
    let names: Vec<String> = header.header();
    for (column, kind) in columns {
        let Some(at) = names.iter().position(|n| n == column) else {
            return Err((
                format!(
                    "it has the column {}, which this command with these flags does not write",
                    foreign::echo(column)
                ),
                "write into a table of its own, or drop that column".to_owned(),
            ));
        };
        let fits = match at {
            0 => kind == "date",
            1 => kind == "text" || kind.starts_with("character varying"),
            _ if header.columns[at - 2].is_days() => {
                ["integer", "bigint", "smallint"].contains(&kind.as_str())
                    || kind.starts_with("numeric")
            }
            _ => kind.starts_with("numeric"),
        };
        if !fits {
            return Err((
                format!(
                    "its column {} is of type {}, which does not hold this tool's values exactly",
                    foreign::echo(column),
                    foreign::echo(kind)
                ),
                "make date a date, chain text, days integer and the metrics numeric".to_owned(),
            ));
        }
    }
    let days = names.iter().any(|n| n == "days").then_some("days");
    match ["date", "chain"]
        .into_iter()
        .chain(days)
        .find(|key| !columns.iter().any(|(c, _)| c == key))
    {
        Some(key) => Err((
            format!("it has no {key} column"),
            "write into a table of its own".to_owned(),
        )),
        None => Ok(()),
    }
}

fn holds_rows(
    client: &mut impl postgres::GenericClient,
    table: &Table,
) -> Result<bool, postgres::Error> {
    let sql = format!("SELECT EXISTS (SELECT 1 FROM {})", table.sql());
    Ok(client.query_one(&sql, &[])?.get(0))
}

/// A plain `-o` into a table that holds rows: refused, never emptied.
fn plain_into_rows(address: &Address, table: &Table) -> Failure {
    Failure::new(
        Exit::Output,
        format!(
            "{} at {} already holds rows, and a shared table is never emptied; nothing was written",
            table.shown(),
            address.shown
        ),
    )
    .with_hint("add --merge to upsert this run's rows into it")
}

fn read_failure(address: &Address, table: &Table, error: &postgres::Error) -> Failure {
    Failure::new(
        Exit::Output,
        format!(
            "cannot read {} at {}: {}",
            table.shown(),
            address.shown,
            words(address, error)
        ),
    )
}

/// A number's text refused by NUMERIC (more digits before or after the point than it holds),
/// named; checked before the transaction.
fn check_numeric(text: &str) -> Result<(), String> {
    let lower = text.to_ascii_lowercase();
    let (mantissa, exponent) = match lower.split_once('e') {
        Some((m, e)) => (
            m,
            e.trim_start_matches('+').parse::<i64>().unwrap_or(i64::MAX),
        ),
        None => (lower.as_str(), 0),
    };
    let mantissa = mantissa.trim_start_matches(['-', '+']);
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let whole = whole.trim_start_matches('0');
    let fraction = fraction.trim_end_matches('0');
    let before = (whole.len() as i64).saturating_add(exponent);
    let after = (fraction.len() as i64).saturating_sub(exponent);
    let zero = whole.is_empty() && fraction.is_empty();
    match zero || (before <= NUMERIC_INTEGER_DIGITS && after <= NUMERIC_FRACTION_DIGITS) {
        true => Ok(()),
        false => Err(format!(
            "the value {} is outside PostgreSQL's NUMERIC range (131072 digits before the point, \
                16383 after)",
            Number::from_json_token(text).map_or_else(|| foreign::echo(text), |n| n.shown())
        )),
    }
}

/// Writes `data` into the table in one transaction under the table's advisory lock: made if
/// missing (and given a column for a new include), every row upserted by (date, chain). A
/// fresh gap never erases a stored value; under `--by` a period covering fewer days never
/// replaces a fuller one. A plain `-o` finds the table still empty, or writes nothing.
pub(crate) fn store(
    address: &Address,
    table: &Table,
    data: &Dataset,
    merge: bool,
    by: Period,
) -> Result<Vec<String>, Failure> {
    for row in &data.rows {
        for value in row.values.iter().flatten() {
            check_numeric(&value.as_str()).map_err(|why| {
                Failure::new(
                    Exit::Output,
                    format!(
                        "{why} ({} {}); nothing was written",
                        row.date,
                        Dataset::chain_cell(row)
                    ),
                )
            })?;
        }
    }
    let mut client = connect(address)?;
    let failed = |e: postgres::Error| {
        Failure::new(
            Exit::Output,
            format!(
                "cannot write {} at {}: {}; nothing was written, the table is as it was",
                table.shown(),
                address.shown,
                words(address, &e)
            ),
        )
    };
    let mut transaction = client.transaction().map_err(failed)?;
    let lock = format!("chain-metrics {}", table.sql());
    transaction
        .execute(
            "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
            &[&lock],
        )
        .map_err(failed)?;
    if !merge && holds_rows_or_missing(&mut transaction, table).map_err(failed)? {
        return Err(plain_into_rows(address, table));
    }
    make(&mut transaction, table, data).map_err(failed)?;
    let kept = upsert(&mut transaction, table, data, by).map_err(failed)?;
    transaction.commit().map_err(failed)?;
    Ok(kept)
}

/// Whether the table is there and holds rows (a run between the check and now wrote some).
fn holds_rows_or_missing(
    transaction: &mut Transaction,
    table: &Table,
) -> Result<bool, postgres::Error> {
    match find(transaction, table)?.kind {
        Some(_) => holds_rows(transaction, table),
        None => Ok(false),
    }
}

/// The table made if missing, with a column added for each of this run's it lacks. Only what
/// is missing is asked: `CREATE` and `ALTER` check privileges (the schema's, ownership) even
/// where `IF NOT EXISTS` would change nothing, and a job's role may only upsert.
fn make(
    transaction: &mut Transaction,
    table: &Table,
    data: &Dataset,
) -> Result<(), postgres::Error> {
    let header = data.header();
    let types = column_types(data);
    let found = find(transaction, table)?;
    if found.kind.is_none() {
        let columns: Vec<String> = (header.iter().zip(&types))
            .enumerate()
            .map(|(at, (name, kind))| match at < 2 {
                true => format!("{} {kind} NOT NULL", quoted(name)),
                false => format!("{} {kind}", quoted(name)),
            })
            .collect();
        let sql = format!(
            "CREATE TABLE {} ({}, PRIMARY KEY (\"date\", \"chain\"))",
            table.sql(),
            columns.join(", ")
        );
        return transaction.batch_execute(&sql);
    }
    let missing = (header.iter().zip(&types).skip(2))
        .filter(|(name, _)| !found.columns.iter().any(|(c, _)| c == *name));
    for (name, kind) in missing {
        let sql = format!(
            "ALTER TABLE {} ADD COLUMN {} {kind}",
            table.sql(),
            quoted(name)
        );
        transaction.batch_execute(&sql)?;
    }
    Ok(())
}

/// Each column's SQL type: `date`, `text`, `integer` for `days`, `numeric` for every value.
fn column_types(data: &Dataset) -> Vec<&'static str> {
    let values = data.columns.iter().map(|c| match c.is_days() {
        true => "integer",
        false => "numeric",
    });
    ["date", "text"].into_iter().chain(values).collect()
}

/// The upsert's SQL: every row inserted, or updated where its key is, from arrays of text cast
/// in SQL; under `--by` (`days` at that place of the header) a stored period is kept where this
/// run covers fewer of its days, and the rows written are returned.
fn upsert_sql(table: &Table, data: &Dataset, by: Period) -> (String, Option<usize>) {
    let header = data.header();
    let types = column_types(data);
    let names: Vec<String> = header.iter().map(|h| quoted(h)).collect();
    let arrays: Vec<String> = (1..=header.len())
        .map(|n| format!("${n}::text[]"))
        .collect();
    let aliases: Vec<String> = (0..header.len()).map(|n| format!("c{n}")).collect();
    let casts: Vec<String> = (aliases.iter().zip(&types))
        .map(|(a, t)| format!("u.{a}::{t}"))
        .collect();
    let days = header
        .iter()
        .position(|h| h == "days")
        .filter(|_| by != Period::Day);
    let set: Vec<String> = (names.iter().skip(2))
        .map(|n| match days {
            Some(_) => format!("{n} = EXCLUDED.{n}"),
            None => format!("{n} = COALESCE(EXCLUDED.{n}, old.{n})"),
        })
        .collect();
    let action = match (set.is_empty(), days) {
        (true, _) => "DO NOTHING".to_owned(),
        (false, None) => format!("DO UPDATE SET {}", set.join(", ")),
        (false, Some(at)) => {
            let d = &names[at];
            format!(
                "DO UPDATE SET {} WHERE EXCLUDED.{d} IS NOT NULL AND (old.{d} IS NULL OR \
                    EXCLUDED.{d} >= old.{d}) RETURNING \"date\"::text, \"chain\"",
                set.join(", ")
            )
        }
    };
    let sql = format!(
        "INSERT INTO {} AS old ({}) SELECT {} FROM unnest({}) AS u({}) ON CONFLICT (\"date\", \
            \"chain\") {action}",
        table.sql(),
        names.join(", "),
        casts.join(", "),
        arrays.join(", "),
        aliases.join(", ")
    );
    (sql, days)
}

/// Writes every row (see [`upsert_sql`]); returns the periods the table keeps because they
/// cover more days than this run's (`2024-01-01 ETHEREUM (this run has 10 days)`).
fn upsert(
    transaction: &mut Transaction,
    table: &Table,
    data: &Dataset,
    by: Period,
) -> Result<Vec<String>, postgres::Error> {
    let (sql, days) = upsert_sql(table, data, by);
    let statement = transaction.prepare(&sql)?;
    let width = data.header().len();
    let mut kept = Vec::new();
    for rows in data.rows.chunks(ROWS_PER_STATEMENT) {
        let mut columns: Vec<Vec<Option<String>>> = vec![Vec::with_capacity(rows.len()); width];
        for row in rows {
            columns[0].push(Some(row.date.to_string()));
            columns[1].push(Some(Dataset::chain_cell(row).to_owned()));
            for (at, value) in row.values.iter().enumerate() {
                columns[at + 2].push(value.as_ref().map(|n| n.as_str().to_string()));
            }
        }
        let params: Vec<&(dyn ToSql + Sync)> =
            columns.iter().map(|c| c as &(dyn ToSql + Sync)).collect();
        let Some(days) = days else {
            transaction.execute(&statement, &params)?;
            continue;
        };
        let written: std::collections::HashSet<(String, String)> = (transaction
            .query(&statement, &params)?)
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
        for row in rows {
            let Some(count) = &row.values[days - 2] else {
                continue;
            };
            let (date, chain) = (row.date.to_string(), Dataset::chain_cell(row));
            if !written.contains(&(date.clone(), chain.to_owned())) {
                kept.push(format!(
                    "{date} {chain} (this run has {} days)",
                    count.as_str()
                ));
            }
        }
    }
    Ok(kept)
}

/// The rows the table holds, read as `shape`'s columns (a column it lacks reads as gaps);
/// none when there is no such table. For `--resume`.
pub(crate) fn stored_rows(
    address: &Address,
    table: &Table,
    shape: &Dataset,
) -> Result<Vec<Row>, Failure> {
    let mut client = connect(address)?;
    let failed = |e: postgres::Error| read_failure(address, table, &e);
    let found = find(&mut client, table).map_err(failed)?;
    if found.kind.is_none() {
        return Ok(Vec::new());
    }
    let listed: Vec<String> = (shape.header().iter().skip(2))
        .map(|name| match found.columns.iter().any(|(c, _)| c == name) {
            true => format!("{}::text", quoted(name)),
            false => "NULL::text".to_owned(),
        })
        .collect();
    let sql = format!(
        "SELECT \"date\"::text, \"chain\"::text{} FROM {}",
        listed.iter().map(|l| format!(", {l}")).collect::<String>(),
        table.sql()
    );
    let bad = |why: String| {
        Failure::new(
            Exit::Output,
            format!("{} at {}: {why}", table.shown(), address.shown),
        )
    };
    let mut rows = Vec::new();
    for row in client.query(&sql, &[]).map_err(failed)? {
        let date_text: String = row.get(0);
        let date = parse_date(&date_text).map_err(bad)?;
        let chain_text: String = row.get(1);
        let chain = Chain::from_name(&chain_text).ok_or_else(|| {
            bad(format!(
                "{} is not a chain name",
                foreign::echo(&chain_text)
            ))
        })?;
        let values = (2..row.len())
            .map(|at| {
                let text: Option<String> = row.get(at);
                text.map(|t| {
                    Number::from_json_token(&t)
                        .ok_or_else(|| bad(format!("{} is not a number", foreign::echo(&t))))
                })
                .transpose()
            })
            .collect::<Result<Vec<_>, _>>()?;
        rows.push(Row {
            date,
            chain: Some(chain),
            values,
            coverage: None,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_takes_what_it_can_hold_and_names_the_rest() {
        for fits in [
            "0",
            "5E+3",
            "12345678901234567890.123456789",
            "-0.000",
            "1e131071",
            "1e-16383",
            "0e99999999",
        ] {
            assert!(check_numeric(fits).is_ok(), "{fits}");
        }
        for too_big in ["1e131072", "1e-16384", "1.5e999999999999999999"] {
            assert!(check_numeric(too_big).is_err(), "{too_big}");
        }
    }
}
