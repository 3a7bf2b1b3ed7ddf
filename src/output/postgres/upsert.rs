//! A command's rows upserted into its PostgreSQL table, in one transaction under a lock.

use postgres::types::ToSql;
use postgres::Transaction;

use super::address::Address;
use super::connect::{connect, words, Connection};
use super::table::{check_numeric, find, holds_rows, plain_into_rows, quoted, Table};
use crate::error::{Exit, Failure};
use crate::model::{Dataset, Period};

/// How many rows one INSERT carries (as arrays: one parameter per column).
const ROWS_PER_STATEMENT: usize = 2000;
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
    let Connection { mut client, server } = connect(address)?;
    // The server named as reached (the URI may leave it to PGHOST), its password masked.
    let failed = |e: postgres::Error| {
        Failure::new(
            Exit::Output,
            format!(
                "cannot write {} at {} ({server}): {}; nothing was written, the table is as it \
                    was",
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
