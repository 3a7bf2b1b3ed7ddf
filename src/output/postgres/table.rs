//! A command's table in PostgreSQL: connected to and checked before any request (a table with
//! other columns, a view, no key on (date, chain), or rows under a plain `-o` is refused);
//! written in one transaction under an advisory lock keyed on the table (made if missing,
//! every row upserted, exact numbers sent as text and cast to NUMERIC in SQL); read back for
//! `--resume`.

use super::address::Address;
use super::connect::{connect, words};
use crate::error::{Exit, Failure};
use crate::model::{parse_date, Chain, Dataset, Number, Row};
use crate::system::foreign;

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
    pub(super) fn sql(&self) -> String {
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
pub(super) fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// What the table is now, as a check reads it.
pub(super) struct Found {
    /// `relkind`: `r` a table, `p` a partitioned one, `v` a view...; `None`: no such relation.
    pub(super) kind: Option<String>,
    /// Its columns and their types.
    pub(super) columns: Vec<(String, String)>,
}

pub(super) fn find(
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
    let mut client = connect(address)?.client;
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

pub(super) fn holds_rows(
    client: &mut impl postgres::GenericClient,
    table: &Table,
) -> Result<bool, postgres::Error> {
    let sql = format!("SELECT EXISTS (SELECT 1 FROM {})", table.sql());
    Ok(client.query_one(&sql, &[])?.get(0))
}

/// A plain `-o` into a table that holds rows: refused, never emptied.
pub(super) fn plain_into_rows(address: &Address, table: &Table) -> Failure {
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
pub(super) fn check_numeric(text: &str) -> Result<(), String> {
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

/// The rows the table holds, read as `shape`'s columns (a column it lacks reads as gaps);
/// none when there is no such table. For `--resume`.
pub(crate) fn stored_rows(
    address: &Address,
    table: &Table,
    shape: &Dataset,
) -> Result<Vec<Row>, Failure> {
    let mut client = connect(address)?.client;
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
