//! The assembly of a plan's answers (with any values from the cache) into its rows in a fixed
//! order, with the gaps they leave and one warning line per data problem.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::gaps::{Gaps, Lacking};
use super::joined::{Joined, Key};
use super::notes::DataNotes;
use super::plan::Plan;
use super::request::Request;
use crate::model::Chain;
use crate::model::{Dataset, Endpoint, Metric, Number, Record, Row};

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
/// notes of each (chain, endpoint) are reported once, in plan order. The rows of the days that
/// every answer has reached can be taken out before the rest (a streamed join,
/// [`Assembly::take_before`]); their gaps are kept as they go.
pub(crate) struct Assembly<'a> {
    plan: &'a Plan,
    columns: Vec<Metric>,
    joined: Joined,
    notes: BTreeMap<(usize, usize), DataNotes>,
    /// The first day whose rows are still joined here: the days before it were taken out.
    next_day: Option<NaiveDate>,
    /// The gaps of the days taken out; `None` until a row or a day is taken.
    lacking: Option<Lacking>,
}

impl<'a> Assembly<'a> {
    pub(crate) fn new(plan: &'a Plan) -> Assembly<'a> {
        Assembly::holding(plan, |width| Joined::new(plan.range, &plan.chains, width))
    }

    /// An assembly whose rows are taken out window by window ([`Assembly::take_before`]): it
    /// keeps the rows joined and not yet taken by key alone, never a slot for every day of the
    /// range, so that what it holds does not grow with the range.
    pub(crate) fn windowed(plan: &'a Plan) -> Assembly<'a> {
        Assembly::holding(plan, Joined::keyed)
    }

    /// An assembly whose join `joined` makes for rows of as many values as the plan's columns.
    fn holding(plan: &'a Plan, joined: impl FnOnce(usize) -> Joined) -> Assembly<'a> {
        let columns = plan.columns();
        Assembly {
            plan,
            joined: joined(columns.len()),
            columns,
            notes: BTreeMap::new(),
            next_day: Some(plan.range.start),
            lacking: None,
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
        let position = self.plan.chains.iter().position(|c| *c == chain);
        let at = self.columns.iter().position(|c| *c == column);
        self.joined.put((date, position), chain, at, value);
    }

    /// Takes out the rows of every day before `frontier` not taken yet (of every day left:
    /// `None`), by date, then chain, once nothing more can be joined into them: the caller
    /// knows no answer or cached value is still to come for those days.
    pub(crate) fn take_before(&mut self, frontier: Option<NaiveDate>) -> Vec<Row> {
        let (chains, columns) = (self.plan.chains.len(), self.columns.len());
        let mut rows: Vec<(Key, Row)> = Vec::new();
        while let Some(date) = self.next_day {
            if date > self.plan.range.end || frontier.is_some_and(|f| date >= f) {
                break;
            }
            let lacking = (self.lacking).get_or_insert_with(|| Lacking::new(chains, columns));
            let day: Vec<Option<Row>> = (0..chains)
                .map(|position| self.joined.take(date, Some(position)))
                .collect();
            lacking.day(date, |position, at| {
                day[position]
                    .as_ref()
                    .is_some_and(|row| row.values[at].is_some())
            });
            let kept = day.into_iter().enumerate();
            rows.extend(kept.filter_map(|(p, row)| Some(((date, Some(p)), row?))));
            self.next_day = date.succ_opt();
        }
        let strays = self.joined.strays_before(frontier);
        if !strays.is_empty() {
            self.lacking
                .get_or_insert_with(|| Lacking::new(chains, columns));
            rows.extend(strays);
            rows.sort_by_key(|(key, _)| *key);
        }
        rows.into_iter().map(|(_, row)| row).collect()
    }

    /// The rows left, with the warnings and the gaps of every row, taken out before or not.
    pub(crate) fn finish(mut self) -> Outcome {
        let plan = self.plan;
        let (rows, gaps) = match self.lacking.is_some() {
            true => {
                let rows = self.take_before(None);
                let lacking = self.lacking.take().expect("set by take_before");
                (rows, lacking.gaps(&plan.chains, &self.columns))
            }
            false => {
                let columns = &self.columns;
                let joined = &self.joined;
                let gaps = Gaps::of(&plan.chains, columns, plan.range, |date, position, at| {
                    joined.has(date, Some(position), at)
                });
                let joined = std::mem::replace(&mut self.joined, Joined::keyed(0));
                (joined.into_rows(), gaps)
            }
        };
        let (warnings, warning_data) = warnings(plan, self.notes).into_iter().unzip();
        Outcome {
            gaps,
            dataset: plan.dataset(rows),
            warnings,
            warning_data,
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
    use crate::model::{parse_date, DayRange};

    /// Rows taken out window by window, then the rest, are the rows and gaps of one assembly
    /// that gives every row at once: two chains, a day missing for one, answers by window.
    #[test]
    fn rows_taken_by_window_are_the_rows_given_at_once() {
        let d = |text| parse_date(text).unwrap();
        let (start, end) = (d("2024-01-01"), d("2024-01-06"));
        let chains = vec![Chain::Ethereum, Chain::Base];
        let (range, chunk_days) = (DayRange { start, end }, Some(3));
        let (endpoints, includes) = (vec![Endpoint::Fees], Vec::new());
        let plan = Plan {
            endpoints,
            chains,
            range,
            includes,
            chunk_days,
        };
        let mut requests = plan.requests();
        requests.sort_by_key(|r| r.range.start);
        let answer = |request: &Request| Fetched {
            request: request.clone(),
            records: (request.range.days())
                .filter(|day| request.chain == Chain::Ethereum || *day != d("2024-01-05"))
                .map(|date| Record {
                    date,
                    values: vec![Number::from_json_token(&date.format("%-d").to_string())],
                })
                .collect(),
            notes: DataNotes::default(),
        };
        let mut whole = Assembly::new(&plan);
        let mut windowed = Assembly::windowed(&plan);
        let mut taken = Vec::new();
        for (at, request) in requests.iter().enumerate() {
            whole.add(answer(request));
            windowed.add(answer(request));
            // After the last answer, `finish` gives the rest.
            if let Some(next) = requests.get(at + 1) {
                taken.push(windowed.take_before(Some(next.range.start)).len());
            }
        }
        let (whole, windowed) = (whole.finish(), windowed.finish());
        assert_eq!(taken, [0, 6, 0]);
        assert_eq!(windowed.dataset.rows.len(), 5);
        assert_eq!(whole.dataset.rows[6..], windowed.dataset.rows[..]);
        assert_eq!(whole.gaps.series, ["BASE fees: 2024-01-05"]);
        assert_eq!(whole.gaps.series, windowed.gaps.series);
        assert_eq!((whole.gaps.asked, whole.gaps.missing), (12, 1));
        assert_eq!((windowed.gaps.asked, windowed.gaps.missing), (12, 1));
    }
}
