//! Runs the requests of one command, concurrently, and assembles the rows in a fixed order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use chrono::NaiveDate;

use crate::client::response::{clean, DataNotes};
use crate::client::{Client, Request};
use crate::error::Result;
use crate::model::chain::Chain;
use crate::model::dates::DayRange;
use crate::model::{Column, Dataset, Endpoint, Record, Row, SocialMetric};

/// What one command asks: which endpoints (one, or all three for `report`), which chains,
/// which days, which columns.
#[derive(Clone, Debug)]
pub struct Plan {
    pub endpoints: Vec<Endpoint>,
    pub chains: Vec<Chain>,
    pub range: DayRange,
    /// The official-account items, in the order the user gave them.
    pub includes: Vec<SocialMetric>,
    /// Days per request (`--chunk-days`); `None`: the whole range in one request.
    pub chunk_days: Option<u32>,
}

impl Plan {
    /// The columns one endpoint fills.
    fn endpoint_columns(&self, endpoint: Endpoint) -> Vec<Column> {
        match endpoint {
            Endpoint::Fees => vec![Column::Fees],
            Endpoint::ActiveUsers => vec![Column::ActiveUsers],
            Endpoint::OfficialAccount => self.includes.iter().map(|i| Column::Social(*i)).collect(),
        }
    }

    /// Every column, endpoint after endpoint: `fees,active_users,<includes>` for `report`.
    pub fn columns(&self) -> Vec<Column> {
        self.endpoints
            .iter()
            .flat_map(|e| self.endpoint_columns(*e))
            .collect()
    }

    /// The ranges each chain is asked for: the whole range, or its windows in order.
    pub fn windows(&self) -> Vec<DayRange> {
        match self.chunk_days {
            Some(days) => self.range.windows(days),
            None => vec![self.range],
        }
    }

    /// One request per chain, endpoint and window: chains in the order asked, then endpoints,
    /// then windows in date order.
    pub fn requests(&self) -> Vec<Request> {
        let windows = self.windows();
        let mut queries = Vec::new();
        for chain in &self.chains {
            for endpoint in &self.endpoints {
                queries.extend(windows.iter().map(|range| Request {
                    endpoint: *endpoint,
                    chain: *chain,
                    range: *range,
                    includes:
                        (*endpoint == Endpoint::OfficialAccount).then(|| self.includes.clone()),
                }));
            }
        }
        queries
    }

    /// The plan's columns around `rows`: `date[,chain],<columns>`.
    pub fn dataset(&self, rows: Vec<Row>) -> Dataset {
        Dataset {
            chain_column: self.chains.len() > 1,
            columns: self.columns().iter().map(|c| c.name().to_owned()).collect(),
            rows,
        }
    }

    /// Where an endpoint's values start in a row.
    fn offset(&self, endpoint: Endpoint) -> usize {
        self.endpoints
            .iter()
            .take_while(|e| **e != endpoint)
            .map(|e| self.endpoint_columns(*e).len())
            .sum()
    }
}

/// The rows of a plan, and one warning line per data problem found.
pub struct Outcome {
    pub dataset: Dataset,
    pub warnings: Vec<String>,
}

/// Fetches every request of the plan (at most `jobs` at once) and joins the rows by (date,
/// chain). `done` is called after each request, from the worker that made it.
///
/// Results are taken in plan order whatever order they finish in, so the output, the warnings
/// and the error reported (the first failed request of the plan) never depend on timing.
pub fn run(client: &Client, plan: &Plan, jobs: usize, done: &(dyn Fn() + Sync)) -> Result<Outcome> {
    let width = plan.columns().len();
    let queries = plan.requests();
    let results = for_each_concurrently(&queries, jobs, |request| {
        let result = client.fetch_records(request, &plan.endpoint_columns(request.endpoint));
        done();
        result
    });
    let position = |chain: Chain| plan.chains.iter().position(|c| *c == chain);
    let mut warnings = Vec::new();
    let mut joined: BTreeMap<(NaiveDate, Option<usize>), Row> = BTreeMap::new();
    let mut results = results.into_iter();
    // The windows of one (chain, endpoint) are consecutive: each is cleaned against its own
    // range, and their notes are reported once.
    for series in queries.chunks(plan.windows().len()) {
        let mut notes = DataNotes::default();
        let (chain, endpoint) = (series[0].chain, series[0].endpoint);
        let offset = plan.offset(endpoint);
        for (request, result) in series.iter().zip(results.by_ref()) {
            let (records, window_notes) = clean(result?, &request.range);
            notes.absorb(window_notes);
            for Record { date, values } in records {
                let row = joined
                    .entry((date, position(chain)))
                    .or_insert_with(|| Row {
                        date,
                        chain: Some(chain),
                        values: vec![None; width],
                    });
                for (i, value) in values.into_iter().enumerate() {
                    row.values[offset + i] = value;
                }
            }
        }
        warnings.extend(notes.warnings(&format!("{chain} {}", endpoint.label())));
    }
    Ok(Outcome {
        dataset: plan.dataset(joined.into_values().collect()),
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
        let d = |s| crate::model::dates::parse_date(s).unwrap();
        let plan = Plan {
            endpoints: vec![Endpoint::Fees],
            chains: vec![Chain::Base, Chain::Ethereum],
            range: DayRange {
                start: d("2024-01-30"),
                end: d("2024-02-05"),
            },
            includes: Vec::new(),
            chunk_days: Some(3),
        };
        let asked: Vec<String> = plan
            .requests()
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
