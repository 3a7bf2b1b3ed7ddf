//! Runs the requests of one command, concurrently, and assembles the rows in a fixed order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::chain::Chain;
use crate::client::{Client, Query};
use crate::dates::DayRange;
use crate::error::Result;
use crate::model::{Column, Dataset, Endpoint, Item, Record, Row};
use crate::response::{clean, DataNotes};

/// What one command asks: which endpoint, which chains, which days, which columns.
#[derive(Clone, Debug)]
pub struct Plan {
    pub endpoint: Endpoint,
    pub chains: Vec<Chain>,
    pub range: DayRange,
    /// The official-account items, in the order the user gave them.
    pub includes: Vec<Item>,
    /// Days per request (`--chunk-days`); `None`: the whole range in one request.
    pub chunk_days: Option<u32>,
}

impl Plan {
    pub fn columns(&self) -> Vec<Column> {
        match self.endpoint {
            Endpoint::Fees => vec![Column::Fees],
            Endpoint::ActiveUsers => vec![Column::ActiveUsers],
            Endpoint::OfficialAccount => self.includes.iter().map(|i| Column::Social(*i)).collect(),
        }
    }

    /// The ranges each chain is asked for: the whole range, or its windows in order.
    pub fn windows(&self) -> Vec<DayRange> {
        match self.chunk_days {
            Some(days) => self.range.windows(days),
            None => vec![self.range],
        }
    }

    /// One request per chain and window: chains in the order asked, windows in date order.
    pub fn queries(&self) -> Vec<Query> {
        let windows = self.windows();
        self.chains
            .iter()
            .flat_map(|chain| {
                windows.iter().map(move |range| Query {
                    endpoint: self.endpoint,
                    chain: *chain,
                    range: *range,
                    includes: (self.endpoint == Endpoint::OfficialAccount)
                        .then(|| self.includes.clone()),
                })
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
    let per_chain = plan.windows().len();
    let mut results = results.into_iter();
    for chain_queries in queries.chunks(per_chain) {
        // Each window is cleaned against its own range; the notes of a chain are reported once.
        let mut notes = DataNotes::default();
        for (query, result) in chain_queries.iter().zip(results.by_ref()) {
            let (records, window_notes) = clean(result?, &query.range);
            notes.absorb(window_notes);
            rows.extend(records.into_iter().map(|Record { date, values }| Row {
                date,
                chain: query.chain,
                values,
            }));
        }
        let first = &chain_queries[0];
        warnings.extend(notes.warnings(&format!("{} {}", first.chain, first.endpoint.label())));
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
    fn chunked_plans_ask_each_chain_for_each_window_in_order() {
        let d = |s| crate::dates::parse_date(s).unwrap();
        let plan = Plan {
            endpoint: Endpoint::Fees,
            chains: vec![Chain::Base, Chain::Ethereum],
            range: DayRange {
                start: d("2024-01-30"),
                end: d("2024-02-05"),
            },
            includes: Vec::new(),
            chunk_days: Some(3),
        };
        let asked: Vec<String> = plan
            .queries()
            .iter()
            .map(|q| format!("{} {}..{}", q.chain, q.range.start, q.range.end))
            .collect();
        assert_eq!(
            asked,
            [
                "BASE 2024-01-30..2024-02-01",
                "BASE 2024-02-02..2024-02-04",
                "BASE 2024-02-05..2024-02-05",
                "ETHEREUM 2024-01-30..2024-02-01",
                "ETHEREUM 2024-02-02..2024-02-04",
                "ETHEREUM 2024-02-05..2024-02-05",
            ]
        );
    }

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
