//! Runs the requests of one command, concurrently, and assembles the rows in a fixed order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::chain::Chain;
use crate::client::{Client, Query};
use crate::dates::DayRange;
use crate::error::Result;
use crate::model::{Column, Dataset, Endpoint, Item, Record, Row};
use crate::response::clean;

/// What one command asks: which endpoint, which chains, which days, which columns.
#[derive(Clone, Debug)]
pub struct Plan {
    pub endpoint: Endpoint,
    pub chains: Vec<Chain>,
    pub range: DayRange,
    /// The official-account items, in the order the user gave them.
    pub includes: Vec<Item>,
}

impl Plan {
    pub fn columns(&self) -> Vec<Column> {
        match self.endpoint {
            Endpoint::Fees => vec![Column::Fees],
            Endpoint::ActiveUsers => vec![Column::ActiveUsers],
            Endpoint::OfficialAccount => self.includes.iter().map(|i| Column::Social(*i)).collect(),
        }
    }

    /// One request per chain, in the order asked.
    pub fn queries(&self) -> Vec<Query> {
        self.chains
            .iter()
            .map(|chain| Query {
                endpoint: self.endpoint,
                chain: *chain,
                range: self.range,
                includes: (self.endpoint == Endpoint::OfficialAccount)
                    .then(|| self.includes.clone()),
            })
            .collect()
    }
}

/// The rows of a plan, and one warning line per data problem found.
pub struct Outcome {
    pub dataset: Dataset,
    pub warnings: Vec<String>,
}

/// Fetches every chain of the plan (at most `jobs` at once) and assembles the rows.
pub fn run(client: &Client, plan: &Plan, jobs: usize) -> Result<Outcome> {
    let columns = plan.columns();
    let queries = plan.queries();
    let results = for_each_concurrently(&queries, jobs, |query| {
        client.fetch_records(query, &columns)
    });
    let mut warnings = Vec::new();
    let mut rows = Vec::new();
    for (query, result) in queries.iter().zip(results) {
        let (records, notes) = clean(result?, &plan.range);
        warnings.extend(notes.warnings(&format!("{} {}", query.chain, query.endpoint.label())));
        rows.extend(records.into_iter().map(|Record { date, values }| Row {
            date,
            chain: query.chain,
            values,
        }));
    }
    let position = |chain: Chain| plan.chains.iter().position(|c| *c == chain);
    rows.sort_by_key(|row| (row.date, position(row.chain)));
    Ok(Outcome {
        dataset: Dataset {
            chain_column: plan.chains.len() > 1,
            columns,
            rows,
        },
        warnings,
    })
}

/// Applies `work` to every item on up to `jobs` threads; results come back in input order.
pub fn for_each_concurrently<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else { break };
                let result = work(item);
                results.lock().expect("no worker panics while holding it")[index] = Some(result);
            });
        }
    });
    results
        .into_inner()
        .expect("workers are done")
        .into_iter()
        .map(|r| r.expect("every item was worked on"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_input_order() {
        let items: Vec<u64> = (0..20).collect();
        let out = for_each_concurrently(&items, 4, |n| {
            std::thread::sleep(std::time::Duration::from_millis(20 - n));
            n * 2
        });
        assert_eq!(out, (0..20).map(|n| n * 2).collect::<Vec<_>>());
    }
}
