//! Runs the requests of one command, concurrently, and assembles the rows (with any values
//! from the cache) in a fixed order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

use chrono::NaiveDate;

use crate::client::response::{clean, DataNotes};
use crate::client::{Client, Request};
use crate::error::Result;
use crate::model::Chain;
use crate::model::{describe_days, DayRange};
use crate::model::{Column, Dataset, Endpoint, Metric, Number, Record, Row, SocialMetric};

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
    pub fn endpoint_columns(&self, endpoint: Endpoint) -> Vec<Metric> {
        match endpoint {
            Endpoint::Fees => vec![Metric::Fees],
            Endpoint::ActiveUsers => vec![Metric::ActiveUsers],
            Endpoint::OfficialAccount => self.includes.iter().map(|i| Metric::Social(*i)).collect(),
        }
    }

    /// Every column, endpoint after endpoint: `fees,active_users,<includes>` for `report`.
    pub fn columns(&self) -> Vec<Metric> {
        self.endpoints
            .iter()
            .flat_map(|e| self.endpoint_columns(*e))
            .collect()
    }

    /// The request windows of one series' range, in one place for the plan and the cache:
    /// the whole range, or its `--chunk-days` windows in order.
    pub fn windows(&self, range: DayRange) -> Vec<DayRange> {
        match self.chunk_days {
            Some(days) => range.windows(days),
            None => vec![range],
        }
    }

    /// The requests of one series over `range`, window by window; `includes` are the
    /// official-account items asked (ignored by the other endpoints).
    pub fn series_requests(
        &self,
        chain: Chain,
        endpoint: Endpoint,
        range: DayRange,
        includes: &[SocialMetric],
    ) -> impl Iterator<Item = Request> + use<'_> {
        let includes = (endpoint == Endpoint::OfficialAccount).then(|| includes.to_vec());
        self.windows(range).into_iter().map(move |range| Request {
            endpoint,
            chain,
            range,
            includes: includes.clone(),
        })
    }

    /// One request per chain, endpoint and window: chains in the order asked, then endpoints,
    /// then windows in date order.
    pub fn requests(&self) -> Vec<Request> {
        let mut queries = Vec::new();
        for chain in &self.chains {
            for endpoint in &self.endpoints {
                queries.extend(self.series_requests(*chain, *endpoint, self.range, &self.includes));
            }
        }
        queries
    }

    /// The plan's columns around `rows`: `date[,chain],<columns>`.
    pub fn dataset(&self, rows: Vec<Row>) -> Dataset {
        Dataset {
            chain_column: self.chains.len() > 1,
            columns: self.columns().into_iter().map(Column::value).collect(),
            rows,
        }
    }
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
    /// What `--strict` asks for: the asked values the rows lack.
    pub gaps: Gaps,
}

/// The asked (date, chain, metric) values a result lacks, whatever the reason (a missing
/// date, a member left out, no answer at all).
#[derive(Debug, Default)]
pub struct Gaps {
    /// How many values were asked, and how many of them are missing.
    pub asked: usize,
    pub missing: usize,
    /// `ETHEREUM fees: 2024-01-02, 2024-01-05..2024-01-07`, series by series in plan order.
    pub series: Vec<String>,
}

impl Gaps {
    /// The values of `plan` that `joined` lacks.
    fn of(plan: &Plan, joined: &Joined) -> Gaps {
        let columns = plan.columns();
        let mut gaps = Gaps::default();
        for (position, chain) in plan.chains.iter().enumerate() {
            for (at, column) in columns.iter().enumerate() {
                let lacking: Vec<NaiveDate> = plan
                    .range
                    .days()
                    .filter(|date| {
                        let row = joined.get(*date, Some(position));
                        row.is_none_or(|row| row.values[at].is_none())
                    })
                    .collect();
                gaps.asked += plan.range.days().count();
                if !lacking.is_empty() {
                    gaps.missing += lacking.len();
                    let days = describe_days(&lacking);
                    gaps.series
                        .push(format!("{chain} {}: {days}", column.name()));
                }
            }
        }
        gaps
    }
}

/// Sends every request (at most `jobs` at once) and hands each answer to `take` on the calling
/// thread, in request order, as soon as it and every answer before it are in. `done` is called
/// after each request, from the worker that made it.
///
/// Each answer is joined and dropped while later ones are still on the wire, and no worker
/// runs more than `jobs` requests ahead of the one being joined: a long run never holds every
/// body's records at once (a ten-year `report --chain all` is 18 bodies). The workers parse
/// their own bodies, so parsing stays parallel.
pub fn fetch_each(
    client: &Client,
    requests: &[Request],
    jobs: usize,
    done: &(dyn Fn() + Sync),
    take: &mut dyn FnMut(Result<Fetched>),
) {
    let work = |request: &Request| {
        let result = client
            .fetch_records(request, &request.columns())
            .map(|records| {
                let (records, notes) = clean(records, &request.range, &request.columns());
                Fetched {
                    request: request.clone(),
                    records,
                    notes,
                }
            });
        done();
        result
    };
    in_order_concurrently(requests, jobs, work, take);
}

/// Joins the cached values and the answers by (date, chain) into the plan's rows; the data
/// notes of each (chain, endpoint) are reported once, in plan order.
pub struct Assembly<'a> {
    plan: &'a Plan,
    columns: Vec<Metric>,
    joined: Joined,
    notes: BTreeMap<(usize, usize), DataNotes>,
}

impl<'a> Assembly<'a> {
    pub fn new(plan: &'a Plan) -> Assembly<'a> {
        Assembly {
            plan,
            columns: plan.columns(),
            joined: Joined::new(plan.range, plan.chains.len()),
            notes: BTreeMap::new(),
        }
    }

    /// Joins one value known without asking (from the cache).
    pub fn know(&mut self, chain: Chain, date: NaiveDate, column: Metric, value: Number) {
        self.put(chain, date, column, Some(value));
    }

    /// Joins one answer's records; they are dropped as they are moved into the rows.
    pub fn add(&mut self, answer: Fetched) {
        let Fetched {
            request,
            records,
            notes,
        } = answer;
        self.notes
            .entry(series_position(self.plan, &request))
            .or_default()
            .absorb(notes);
        let asked = request.columns();
        for Record { date, values } in records {
            for (column, value) in asked.iter().zip(values) {
                self.put(request.chain, date, *column, value);
            }
        }
    }

    fn put(&mut self, chain: Chain, date: NaiveDate, column: Metric, value: Option<Number>) {
        let width = self.columns.len();
        let position = self.plan.chains.iter().position(|c| *c == chain);
        let row = self.joined.entry(date, position, || Row {
            date,
            chain: Some(chain),
            values: vec![None; width],
            coverage: None,
        });
        if let Some(at) = self.columns.iter().position(|c| *c == column) {
            row.values[at] = value;
        }
    }

    pub fn finish(self) -> Outcome {
        Outcome {
            gaps: Gaps::of(self.plan, &self.joined),
            dataset: self.plan.dataset(self.joined.into_rows()),
            warnings: warnings(self.plan, self.notes),
        }
    }
}

/// The rows joined so far, by (date, chain position), sorted by that key.
///
/// For a plan's usual ranges the rows sit in one slot per day and chain (no tree: a ten-year
/// `report --chain all` is 21,918 rows); a range so long that its slots would outweigh the rows
/// (above [`GRID_SLOTS`]), or a row outside the plan, goes into a B-tree instead.
enum Joined {
    Grid {
        start: NaiveDate,
        chains: usize,
        slots: Vec<Option<Row>>,
        /// Rows that have no slot (a chain or date the plan did not ask); normally none.
        stray: BTreeMap<(NaiveDate, Option<usize>), Row>,
    },
    Tree(BTreeMap<(NaiveDate, Option<usize>), Row>),
}

/// At most this many (day, chain) slots are set out beforehand (8 MiB): 43,690 days of six
/// chains.
const GRID_SLOTS: usize = 1 << 18;

impl Joined {
    fn new(range: DayRange, chains: usize) -> Joined {
        let days = range.days().take(GRID_SLOTS + 1).count();
        match days.checked_mul(chains.max(1)) {
            Some(slots) if slots <= GRID_SLOTS => Joined::Grid {
                start: range.start,
                chains: chains.max(1),
                slots: std::iter::repeat_with(|| None).take(slots).collect(),
                stray: BTreeMap::new(),
            },
            _ => Joined::Tree(BTreeMap::new()),
        }
    }

    /// The slot of (date, position) in the grid, if it has one (never in the tree).
    fn slot(&self, date: NaiveDate, position: Option<usize>) -> Option<usize> {
        let Joined::Grid {
            start,
            chains,
            slots,
            ..
        } = self
        else {
            return None;
        };
        let day = usize::try_from((date - *start).num_days()).ok()?;
        let at = day
            .checked_mul(*chains)?
            .checked_add(position.filter(|p| p < chains)?)?;
        (at < slots.len()).then_some(at)
    }

    fn entry(
        &mut self,
        date: NaiveDate,
        position: Option<usize>,
        new: impl FnOnce() -> Row,
    ) -> &mut Row {
        match (self.slot(date, position), self) {
            (Some(at), Joined::Grid { slots, .. }) => slots[at].get_or_insert_with(new),
            (_, Joined::Grid { stray: keyed, .. } | Joined::Tree(keyed)) => {
                keyed.entry((date, position)).or_insert_with(new)
            }
        }
    }

    fn get(&self, date: NaiveDate, position: Option<usize>) -> Option<&Row> {
        match (self.slot(date, position), self) {
            (Some(at), Joined::Grid { slots, .. }) => slots[at].as_ref(),
            (_, Joined::Grid { stray: keyed, .. } | Joined::Tree(keyed)) => {
                keyed.get(&(date, position))
            }
        }
    }

    /// Every row, by date, then chain position.
    fn into_rows(self) -> Vec<Row> {
        match self {
            Joined::Grid {
                chains,
                slots,
                stray,
                ..
            } if !stray.is_empty() => {
                let mut tree = stray;
                for (at, row) in slots.into_iter().enumerate() {
                    if let Some(row) = row {
                        tree.insert((row.date, Some(at % chains)), row);
                    }
                }
                tree.into_values().collect()
            }
            // In place: a slot is as large as a row (the row's vector is the niche).
            Joined::Grid { slots, .. } => slots.into_iter().flatten().collect(),
            Joined::Tree(tree) => tree.into_values().collect(),
        }
    }
}

/// The warning lines of the notes in plan order, one per problem and set of days: series with
/// the same days missing (every chain of a `report` on a day the service lacks) share one line
/// that lists them, rather than a line each.
fn warnings(plan: &Plan, notes: BTreeMap<(usize, usize), DataNotes>) -> Vec<String> {
    // (what is said after the subjects, the subjects), in order of first appearance.
    let mut grouped: Vec<(String, Vec<String>)> = Vec::new();
    for ((chain, endpoint), found) in notes {
        let subject = format!(
            "{} {}",
            plan.chains[chain],
            plan.endpoints[endpoint].label()
        );
        for said in found.warnings("") {
            match grouped.iter_mut().find(|(s, _)| *s == said) {
                Some((_, subjects)) => subjects.push(subject.clone()),
                None => grouped.push((said, vec![subject.clone()])),
            }
        }
    }
    grouped
        .into_iter()
        .map(|(said, subjects)| format!("{}{said}", subjects.join(", ")))
        .collect()
}

/// Where a request's (chain, endpoint) comes in the plan: the order its notes are reported in.
fn series_position(plan: &Plan, request: &Request) -> (usize, usize) {
    let chain = plan.chains.iter().position(|c| *c == request.chain);
    let endpoint = plan.endpoints.iter().position(|e| *e == request.endpoint);
    (chain.unwrap_or(0), endpoint.unwrap_or(0))
}

/// Applies `work` to every item on up to `jobs` threads and hands the results to `take` on the
/// calling thread in input order, each as soon as it and every one before it are done.
///
/// No worker starts an item more than `jobs` places ahead of the next one `take` is waiting
/// for: results (response bodies) never pile up faster than they are taken, whatever the order
/// they finish in.
pub fn in_order_concurrently<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    take: &mut dyn FnMut(R),
) {
    let jobs = jobs.clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    let window = Window::default();
    let (sender, results) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (next, work, window) = (&next, &work, &window);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else { break };
                window.wait_for(index.saturating_sub(jobs - 1));
                // The receiver outlives the workers (same scope), so a send cannot fail.
                let _ = sender.send((index, work(item)));
            });
        }
        drop(sender);
        // Results that came early wait here until those before them are in.
        let mut early = BTreeMap::new();
        let mut wanted = 0;
        for (index, result) in results {
            early.insert(index, result);
            while let Some(result) = early.remove(&wanted) {
                take(result);
                wanted += 1;
                window.taken(wanted);
            }
        }
    });
}

/// How many results have been taken, for the workers that must not run too far ahead.
#[derive(Default)]
struct Window {
    taken: Mutex<usize>,
    moved: Condvar,
}

impl Window {
    /// Waits until at least `count` results have been taken.
    fn wait_for(&self, count: usize) {
        // A poisoned lock only means a `take` panicked; the count is still right.
        let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        while *taken < count {
            taken = self.moved.wait(taken).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn taken(&self, count: usize) {
        *self.taken.lock().unwrap_or_else(|e| e.into_inner()) = count;
        self.moved.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_plans_ask_each_chain_for_each_window_in_order() {
        let d = |s| crate::model::parse_date(s).unwrap();
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

    /// The grid, its strays and the tree give the same rows in the same order, whatever
    /// order the values come in.
    #[test]
    fn rows_come_out_by_date_then_chain_however_they_are_joined() {
        let d = |s| crate::model::parse_date(s).unwrap();
        let range = DayRange {
            start: d("2024-01-01"),
            end: d("2024-01-04"),
        };
        let puts = [
            ("2024-01-04", Some(1)),
            ("2024-01-02", Some(0)),
            ("2024-01-04", Some(0)),
            ("2023-12-31", Some(1)),
            ("2024-01-02", None),
            ("2024-01-01", Some(1)),
            ("2024-01-02", Some(0)),
        ];
        let order = |mut joined: Joined, stray: bool| {
            for (date, position) in puts {
                if stray || (position.is_some() && range.contains(d(date))) {
                    joined.entry(d(date), position, || Row {
                        date: d(date),
                        chain: position.map(|p| [Chain::Base, Chain::Bsc][p]),
                        values: Vec::new(),
                        coverage: None,
                    });
                }
            }
            let rows = joined.into_rows();
            rows.iter()
                .map(|r| format!("{} {:?}", r.date, r.chain))
                .collect::<Vec<_>>()
        };
        let grid = order(Joined::new(range, 2), false);
        assert!(matches!(Joined::new(range, 2), Joined::Grid { .. }));
        assert_eq!(
            grid,
            [
                "2024-01-01 Some(Bsc)",
                "2024-01-02 Some(Base)",
                "2024-01-04 Some(Base)",
                "2024-01-04 Some(Bsc)"
            ]
        );
        assert_eq!(order(Joined::Tree(BTreeMap::new()), false), grid);
        let with_strays = order(Joined::new(range, 2), true);
        assert_eq!(with_strays, order(Joined::Tree(BTreeMap::new()), true));
        assert_eq!(with_strays.len(), 6);
        let long = DayRange {
            start: d("0001-01-01"),
            end: d("9999-12-31"),
        };
        assert!(matches!(Joined::new(long, 6), Joined::Tree(_)));
    }

    #[test]
    fn no_worker_runs_more_than_jobs_ahead_of_the_taker() {
        let items: Vec<u64> = (0..30).collect();
        let taken = AtomicUsize::new(0);
        let furthest = AtomicUsize::new(0);
        let work = |n: &u64| {
            let ahead = *n as usize - taken.load(Ordering::SeqCst);
            furthest.fetch_max(ahead, Ordering::SeqCst);
            *n
        };
        in_order_concurrently(&items, 3, work, &mut |_| {
            // A slow taker: the workers would race ahead without the window.
            std::thread::sleep(std::time::Duration::from_millis(2));
            taken.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(taken.load(Ordering::SeqCst), 30);
        assert!(
            furthest.load(Ordering::SeqCst) < 3,
            "ran {} ahead",
            furthest.load(Ordering::SeqCst)
        );
    }

    #[test]
    fn results_keep_input_order() {
        let items: Vec<u64> = (0..20).collect();
        let mut out = Vec::new();
        let work = |n: &u64| {
            std::thread::sleep(std::time::Duration::from_millis(20 - n));
            n * 2
        };
        in_order_concurrently(&items, 4, work, &mut |n| out.push(n));
        assert_eq!(out, (0..20).map(|n| n * 2).collect::<Vec<_>>());
    }
}
