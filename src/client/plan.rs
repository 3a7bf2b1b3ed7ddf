//! Runs the requests of one command, concurrently, and assembles the rows (with any values
//! from the cache) in a fixed order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use chrono::NaiveDate;

use crate::client::response::{clean, DataNotes};
use crate::client::{Client, Request};
use crate::error::Result;
use crate::model::chain::Chain;
use crate::model::dates::DayRange;
use crate::model::{Column, Dataset, Endpoint, Number, Record, Row, SocialMetric};

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
    pub fn endpoint_columns(&self, endpoint: Endpoint) -> Vec<Column> {
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
}

/// What a run asks the service, and the values it already has from the cache.
#[derive(Debug, Default)]
pub struct Work {
    /// In plan order: chains as asked, then endpoints, then days.
    pub requests: Vec<Request>,
    pub from_cache: Vec<CachedValue>,
    /// The (chain, endpoint, day)s answered wholly from the cache, for `-v`.
    pub days_from_cache: usize,
}

impl Work {
    /// Every request of the plan, nothing known: a run without the cache.
    pub fn everything(plan: &Plan) -> Work {
        Work {
            requests: plan.requests(),
            ..Work::default()
        }
    }
}

/// One value served from the cache instead of the service.
#[derive(Clone, Debug)]
pub struct CachedValue {
    pub chain: Chain,
    pub date: NaiveDate,
    pub column: Column,
    pub value: Number,
}

/// The answer to one request, cleaned against its range (see [`clean`]).
pub struct Fetched {
    pub request: Request,
    pub records: Vec<Record>,
    pub notes: DataNotes,
}

/// The rows of a plan, and one warning line per data problem found.
pub struct Outcome {
    pub dataset: Dataset,
    pub warnings: Vec<String>,
}

/// Sends every request (at most `jobs` at once). `done` is called after each request, from the
/// worker that made it. Answers come back in request order, whatever order they finish in.
pub fn fetch(
    client: &Client,
    requests: &[Request],
    jobs: usize,
    done: &(dyn Fn() + Sync),
) -> Vec<Result<Fetched>> {
    for_each_concurrently(requests, jobs, |request| {
        let result = client
            .fetch_records(request, &request.columns())
            .map(|records| {
                let (records, notes) = clean(records, &request.range);
                Fetched {
                    request: request.clone(),
                    records,
                    notes,
                }
            });
        done();
        result
    })
}

/// Joins the cached values and the answers by (date, chain) into the plan's rows; the data
/// notes of each (chain, endpoint) are reported once, in plan order.
///
/// The error reported is the first failed request in plan order, so it never depends on timing.
pub fn assemble(
    plan: &Plan,
    from_cache: Vec<CachedValue>,
    fetched: Vec<Result<Fetched>>,
) -> Result<Outcome> {
    let columns = plan.columns();
    let mut joined: BTreeMap<(NaiveDate, Option<usize>), Row> = BTreeMap::new();
    let mut put = |chain: Chain, date: NaiveDate, column: Column, value: Option<Number>| {
        let position = plan.chains.iter().position(|c| *c == chain);
        let row = joined.entry((date, position)).or_insert_with(|| Row {
            date,
            chain: Some(chain),
            values: vec![None; columns.len()],
        });
        if let Some(at) = columns.iter().position(|c| *c == column) {
            row.values[at] = value;
        }
    };
    for known in from_cache {
        put(known.chain, known.date, known.column, Some(known.value));
    }
    let mut notes: BTreeMap<(usize, usize), DataNotes> = BTreeMap::new();
    for answer in fetched {
        let Fetched {
            request,
            records,
            notes: found,
        } = answer?;
        notes
            .entry(series_position(plan, &request))
            .or_default()
            .absorb(found);
        let asked = request.columns();
        for Record { date, values } in records {
            for (column, value) in asked.iter().zip(values) {
                put(request.chain, date, *column, value);
            }
        }
    }
    Ok(Outcome {
        dataset: plan.dataset(joined.into_values().collect()),
        warnings: warnings(plan, notes),
    })
}

/// The warning lines of the notes, series by series in plan order.
fn warnings(plan: &Plan, notes: BTreeMap<(usize, usize), DataNotes>) -> Vec<String> {
    notes
        .into_iter()
        .flat_map(|((chain, endpoint), found)| {
            let subject = format!(
                "{} {}",
                plan.chains[chain],
                plan.endpoints[endpoint].label()
            );
            found.warnings(&subject)
        })
        .collect()
}

/// Where a request's (chain, endpoint) comes in the plan: the order its notes are reported in.
fn series_position(plan: &Plan, request: &Request) -> (usize, usize) {
    let chain = plan.chains.iter().position(|c| *c == request.chain);
    let endpoint = plan.endpoints.iter().position(|e| *e == request.endpoint);
    (chain.unwrap_or(0), endpoint.unwrap_or(0))
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
