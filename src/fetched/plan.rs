//! What one query asks (the plan and its requests), and the assembly of the answers (with any
//! values from the cache) into the plan's rows in a fixed order.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::gaps::Gaps;
use super::notes::DataNotes;
use super::request::Request;
use crate::model::Chain;
use crate::model::DayRange;
use crate::model::{Column, Dataset, Endpoint, Metric, Number, Record, Row, SocialMetric};

/// What one command asks: which endpoints (one, or all three for `report`), which chains,
/// which days, which columns.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
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
    pub(crate) fn endpoint_columns(&self, endpoint: Endpoint) -> Vec<Metric> {
        endpoint.metrics(&self.includes)
    }

    /// Every column, endpoint after endpoint: `fees,active_users,<includes>` for `report`.
    pub(crate) fn columns(&self) -> Vec<Metric> {
        self.endpoints
            .iter()
            .flat_map(|e| self.endpoint_columns(*e))
            .collect()
    }

    /// The request windows of one series' range, in one place for the plan and the cache:
    /// the whole range, or its `--chunk-days` windows in order.
    pub(crate) fn windows(&self, range: DayRange) -> Vec<DayRange> {
        match self.chunk_days {
            Some(days) => range.windows(days),
            None => vec![range],
        }
    }

    /// The requests of one series over `range`, window by window; `includes` are the
    /// official-account items asked (ignored by the other endpoints).
    pub(crate) fn series_requests(
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
    pub(crate) fn requests(&self) -> Vec<Request> {
        let mut queries = Vec::new();
        for chain in &self.chains {
            for endpoint in &self.endpoints {
                queries.extend(self.series_requests(*chain, *endpoint, self.range, &self.includes));
            }
        }
        queries
    }

    /// The plan's columns around `rows`: `date[,chain],<columns>`.
    pub(crate) fn dataset(&self, rows: Vec<Row>) -> Dataset {
        Dataset {
            chain_column: self.chains.len() > 1,
            columns: self.columns().into_iter().map(Column::value).collect(),
            rows,
        }
    }
}

/// The answer to one request, cleaned against its range (the client's `clean`).
pub(crate) struct Fetched {
    pub request: Request,
    pub records: Vec<Record>,
    pub notes: DataNotes,
}

/// The rows of a plan, and one warning line per data problem found.
pub(crate) struct Outcome {
    pub dataset: Dataset,
    pub warnings: Vec<String>,
    /// Beside each warning, what it is about as data (for `--error-format json`): `series`,
    /// each `{"chain", "metric"}`, and `days`.
    pub warning_data: Vec<serde_json::Map<String, serde_json::Value>>,
    /// What `--strict` asks for: the asked values the rows lack.
    pub gaps: Gaps,
}

/// Joins the cached values and the answers by (date, chain) into the plan's rows; the data
/// notes of each (chain, endpoint) are reported once, in plan order.
pub(crate) struct Assembly<'a> {
    plan: &'a Plan,
    columns: Vec<Metric>,
    joined: Joined,
    notes: BTreeMap<(usize, usize), DataNotes>,
}

impl<'a> Assembly<'a> {
    pub(crate) fn new(plan: &'a Plan) -> Assembly<'a> {
        Assembly {
            plan,
            columns: plan.columns(),
            joined: Joined::new(plan.range, plan.chains.len()),
            notes: BTreeMap::new(),
        }
    }

    /// Joins one value known without asking (from the cache).
    pub(crate) fn know(&mut self, chain: Chain, date: NaiveDate, column: Metric, value: Number) {
        self.put(chain, date, column, Some(value));
    }

    /// Joins one answer's records; they are dropped as they are moved into the rows.
    pub(crate) fn add(&mut self, answer: Fetched) {
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

    pub(crate) fn finish(self) -> Outcome {
        let (plan, joined) = (self.plan, &self.joined);
        let gaps = Gaps::of(
            &plan.chains,
            &self.columns,
            plan.range,
            |date, position, at| {
                let row = joined.get(date, Some(position));
                row.is_some_and(|row| row.values[at].is_some())
            },
        );
        let (warnings, warning_data) = warnings(plan, self.notes).into_iter().unzip();
        Outcome {
            gaps,
            dataset: plan.dataset(self.joined.into_rows()),
            warnings,
            warning_data,
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
/// that lists them, rather than a line each. Each line comes with its series and days as data.
fn warnings(
    plan: &Plan,
    notes: BTreeMap<(usize, usize), DataNotes>,
) -> Vec<(String, serde_json::Map<String, serde_json::Value>)> {
    // (what is said after the subjects, the subjects, the days), in order of first appearance.
    type Said = (String, Vec<(Chain, Endpoint)>, Vec<NaiveDate>);
    let mut grouped: Vec<Said> = Vec::new();
    for ((chain, endpoint), found) in notes {
        let subject = (plan.chains[chain], plan.endpoints[endpoint]);
        for (said, days) in found.warnings_with_days("") {
            match grouped.iter_mut().find(|(s, _, _)| *s == said) {
                Some((_, subjects, _)) => subjects.push(subject),
                None => grouped.push((said, vec![subject], days)),
            }
        }
    }
    grouped
        .into_iter()
        .map(|(said, subjects, days)| {
            let named: Vec<String> = (subjects.iter())
                .map(|(chain, endpoint)| format!("{chain} {}", endpoint.label()))
                .collect();
            let series = subjects.iter().map(|(chain, endpoint)| {
                serde_json::json!({"chain": chain.name(), "metric": endpoint.label()})
            });
            let days: Vec<String> = days.iter().map(NaiveDate::to_string).collect();
            let mut data = serde_json::Map::new();
            data.insert("series".into(), series.collect());
            data.insert("days".into(), days.into());
            (format!("{}{said}", named.join(", ")), data)
        })
        .collect()
}

/// Where a request's (chain, endpoint) comes in the plan: the order its notes are reported in.
fn series_position(plan: &Plan, request: &Request) -> (usize, usize) {
    let chain = plan.chains.iter().position(|c| *c == request.chain);
    let endpoint = plan.endpoints.iter().position(|e| *e == request.endpoint);
    (chain.unwrap_or(0), endpoint.unwrap_or(0))
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
}
