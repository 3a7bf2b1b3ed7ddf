//! `--wide`: pivots a dataset of (date, chain) rows into one row per date and one column per
//! chain (or per chain and metric), before any renderer sees it.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::model::{Chain, Column, Coverage, Dataset, Number, Row};

/// How the pivoted columns are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Naming {
    /// `ETHEREUM`: one metric (fees, users), so the chain says it all.
    Chain,
    /// `ETHEREUM.fees`: several metrics or a choice of them (social, report).
    ChainAndMetric,
}

/// One row per date, columns chain by chain in `chains` order (every chain asked gets its
/// columns, even one without data), then metric by metric. A missing value stays a gap.
pub(crate) fn widen(data: &Dataset, chains: &[Chain], naming: Naming) -> Dataset {
    let per_chain = data.columns.len();
    let columns = columns(&data.columns, chains, naming);
    let mut by_date: BTreeMap<NaiveDate, Vec<Option<Number>>> = BTreeMap::new();
    let mut least: BTreeMap<NaiveDate, Coverage> = BTreeMap::new();
    for row in &data.rows {
        let Some(slot) = row
            .chain
            .and_then(|chain| chains.iter().position(|c| *c == chain))
        else {
            continue;
        };
        if let Some(coverage) = row.coverage {
            let kept = least.entry(row.date).or_insert(coverage);
            if coverage.days < kept.days {
                *kept = coverage;
            }
        }
        let values = by_date
            .entry(row.date)
            .or_insert_with(|| vec![None; per_chain * chains.len()]);
        for (i, value) in row.values.iter().enumerate() {
            values[slot * per_chain + i] = value.clone();
        }
    }
    Dataset {
        chain_column: false,
        columns,
        rows: by_date
            .into_iter()
            .map(|(date, values)| Row {
                date,
                chain: None,
                values,
                // A row of every chain covers what its least-covered chain does (each
                // chain's `days` column says what it covers): a chart marks the period as
                // partial when any chain's is.
                coverage: least.get(&date).copied(),
            })
            .collect(),
    }
}

/// The columns [`widen`] makes of `columns`: each chain's, chain by chain.
pub(super) fn columns(columns: &[Column], chains: &[Chain], naming: Naming) -> Vec<Column> {
    let alone = naming == Naming::Chain && columns.len() == 1;
    let in_chain = |chain: Chain| columns.iter().map(move |c| c.in_chain(chain, alone));
    chains.iter().copied().flat_map(in_chain).collect()
}

/// The rows with a chain column (a file merged into, a database, says which chain each row
/// holds): a dataset of one chain, which has none, gets it, each row naming that chain.
pub(super) fn with_chain_column(mut data: Dataset, chains: &[Chain]) -> Dataset {
    if !data.chain_column {
        data.chain_column = true;
        let chain = chains.first().copied();
        data.rows.iter_mut().for_each(|row| row.chain = chain);
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::column_named;

    #[test]
    fn pivots_by_date_and_keeps_gaps() {
        let d = |day| NaiveDate::from_ymd_opt(2024, 1, day).unwrap();
        let n = |t: &str| Number::from_json_token(t);
        let row = |day, chain, v: &str| Row {
            date: d(day),
            chain: Some(chain),
            values: vec![n(v)],
            coverage: None,
        };
        let long = Dataset {
            chain_column: true,
            columns: vec![column_named("fees")],
            rows: vec![
                row(1, Chain::Ethereum, "1"),
                row(1, Chain::Base, "2"),
                row(2, Chain::Base, "3"),
            ],
        };
        let chains = [Chain::Base, Chain::Ethereum];
        let wide = widen(&long, &chains, Naming::Chain);
        assert_eq!(wide.header(), ["date", "BASE", "ETHEREUM"]);
        assert_eq!(
            wide.rows[1],
            Row {
                date: d(2),
                chain: None,
                values: vec![n("3"), None],
                coverage: None,
            }
        );
        let named = widen(&long, &chains, Naming::ChainAndMetric);
        assert_eq!(named.header(), ["date", "BASE.fees", "ETHEREUM.fees"]);
    }
}
