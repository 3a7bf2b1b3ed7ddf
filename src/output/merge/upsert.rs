//! The upsert of `--merge`: fresh rows into the stored ones by (date, chain), or by date for
//! `--wide`; a fresh gap never erases a stored value, and under `--by` a period row that covers
//! fewer days never replaces a fuller one.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::model::Chain;
use crate::model::Period;
use crate::model::{Dataset, Number, Row};

/// The old rows with the fresh ones upserted, sorted by date, then chain in the service's
/// order (SERVICE.md), whatever order `chain_order` (the order asked) has, so that two runs that
/// hold the same data write the same bytes. Also the periods the file keeps because they cover more
/// days than this run's (`2024-01-01 ETHEREUM (31 days; this run has 7)`).
pub(super) fn upsert(
    old: Vec<Row>,
    mut fresh: Dataset,
    chain_order: &[Chain],
    by: Period,
) -> (Dataset, Vec<String>) {
    let rank = |chain: Option<Chain>| chain.map(|c| c.rank(&[]));
    let by_chain = fresh.chain_column;
    let key = |row: &Row| (row.date, if by_chain { rank(row.chain) } else { None });
    let mut rows: BTreeMap<(NaiveDate, Option<usize>), Row> = BTreeMap::new();
    for row in old {
        rows.insert(key(&row), row);
    }
    let width = group_width(&fresh, chain_order.len(), by);
    let mut kept = Vec::new();
    for row in fresh.rows.drain(..) {
        match rows.entry(key(&row)) {
            Entry::Vacant(slot) => {
                slot.insert(row);
            }
            Entry::Occupied(mut slot) => {
                kept.extend(update(slot.get_mut(), row, width, by, chain_order));
            }
        }
    }
    fresh.rows = rows.into_values().collect();
    (fresh, kept)
}

/// How many cells are replaced together: one a day. Under `--by`, a chain's days and metrics,
/// which one computation made (a whole row in the long shape, a chain's columns in the wide
/// one): mixing them across runs would pair a sum with another run's day count.
fn group_width(data: &Dataset, chains: usize, by: Period) -> usize {
    let width = match by {
        Period::Day => 1,
        _ if data.chain_column => data.columns.len(),
        _ => data.columns.len() / chains.max(1),
    };
    width.max(1)
}

/// Replaces the stored row's groups with the fresh ones, except where the fresh group is a gap
/// (no record this time) or, under `--by`, covers fewer days; returns the periods so kept.
fn update(
    stored: &mut Row,
    fresh: Row,
    width: usize,
    by: Period,
    chain_order: &[Chain],
) -> Vec<String> {
    let mut kept = Vec::new();
    let groups = stored
        .values
        .chunks_mut(width)
        .zip(fresh.values.chunks(width));
    for (index, (old, new)) in groups.enumerate() {
        let Some(fresh_days) = &new[0] else { continue };
        match (by, &old[0]) {
            (Period::Day, _) | (_, None) => {}
            (_, Some(stored_days)) if fewer(fresh_days, stored_days) => {
                let chain = stored.chain.or_else(|| chain_order.get(index).copied());
                kept.push(format!(
                    "{} {}({} days; this run has {})",
                    stored.date,
                    chain.map(|c| format!("{c} ")).unwrap_or_default(),
                    stored_days.as_str(),
                    fresh_days.as_str()
                ));
                continue;
            }
            _ => {}
        }
        old.clone_from_slice(new);
    }
    kept
}

/// Whether a fresh day count is below the stored one (a stored count that is no number loses).
fn fewer(fresh: &Number, stored: &Number) -> bool {
    match (fresh.to_decimal(), stored.to_decimal()) {
        (Ok(fresh), Ok(stored)) => fresh < stored,
        _ => false,
    }
}
