//! `--sort COLUMN[:desc]` and `--top N`: the rows reordered by one column's exact value, then
//! cut to the first N.

use std::cmp::Ordering;

use crate::model::{Dataset, Row};

/// A `--sort` key: a column of the output as its header names it, and the direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortKey {
    pub column: String,
    pub descending: bool,
}

impl SortKey {
    /// The clap value parser of `--sort`: `COLUMN`, `COLUMN:asc` or `COLUMN:desc`.
    pub fn parse(text: &str) -> Result<SortKey, String> {
        let (column, direction) = match text.rsplit_once(':') {
            Some((column, direction)) => (column, Some(direction)),
            None => (text, None),
        };
        let descending = match direction.map(str::to_ascii_lowercase).as_deref() {
            None | Some("asc") => false,
            Some("desc") => true,
            Some(other) => {
                return Err(format!(
                    "'{other}' is not a direction: expected COLUMN, COLUMN:asc or COLUMN:desc"
                ))
            }
        };
        if column.is_empty() {
            return Err(format!(
                "'{text}' names no column: expected COLUMN[:desc], e.g. fees:desc"
            ));
        }
        Ok(SortKey {
            column: column.to_owned(),
            descending,
        })
    }

    /// Fails, naming the columns there are, when the output has no such column.
    pub fn check(&self, data: &Dataset) -> Result<(), String> {
        let header = data.header();
        if header.contains(&self.column) {
            return Ok(());
        }
        Err(format!(
            "--sort {}: the output has no such column; it has {}",
            self.column,
            header.join(", ")
        ))
    }
}

/// Sorts the rows by `key` (stable: ties keep date order; gaps last either way), then keeps
/// the first `top`. Fails, naming the value, on a number too large to compare exactly.
pub(super) fn sort_and_cut(
    mut data: Dataset,
    key: Option<&SortKey>,
    top: Option<usize>,
) -> Result<Dataset, String> {
    if let Some(key) = key {
        let header = data.header();
        // `SortKey::check` has made sure, before any request, that the column is there.
        let Some(at) = header.iter().position(|h| *h == key.column) else {
            return Ok(data);
        };
        let first_value = header.len() - data.columns.len();
        let turn = |o: Ordering| if key.descending { o.reverse() } else { o };
        match at {
            0 => data.rows.sort_by(|a, b| turn(a.date.cmp(&b.date))),
            // By name, as a reader of the column expects, not by the order the chains were asked.
            _ if at < first_value => data.rows.sort_by(|a, b| {
                let name = |row: &Row| row.chain.map(|c| c.name());
                turn(name(a).cmp(&name(b)))
            }),
            _ => sort_by_value(&mut data.rows, at - first_value, key)?,
        }
    }
    if let Some(top) = top {
        data.rows.truncate(top);
    }
    Ok(data)
}

/// Rows in order of column `i`'s exact value, gaps last.
fn sort_by_value(rows: &mut Vec<Row>, i: usize, key: &SortKey) -> Result<(), String> {
    let mut keyed = Vec::with_capacity(rows.len());
    for row in rows.drain(..) {
        let value =
            match &row.values[i] {
                Some(n) => Some(n.to_decimal().map_err(|why| {
                    format!("cannot sort by {} of {}: {why}", key.column, row.date)
                })?),
                None => None,
            };
        keyed.push((value, row));
    }
    keyed.sort_by(|a, b| match (&a.0, &b.0) {
        (Some(x), Some(y)) if key.descending => y.cmp(x),
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    });
    rows.extend(keyed.into_iter().map(|(_, row)| row));
    Ok(())
}
