//! Which days to ask the service for, given the settled values the cache holds: per chain and
//! endpoint, the days that lack any asked metric, grouped by the metrics they lack, joined into
//! contiguous ranges, then cut into `chunk_days` windows.

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDate;

use super::{CachedValue, Work};
use crate::fetched::Plan;
use crate::model::Chain;
use crate::model::DayRange;
use crate::model::{Endpoint, Metric, Number};

/// The settled values the cache holds for the plan's range, per chain and column.
pub(crate) type Known = HashMap<(Chain, Metric), BTreeMap<NaiveDate, Number>>;

/// The requests for what `known` lacks, and the values it has. With nothing known this is
/// exactly the plan's own requests, so a run without the cache asks the same.
pub(crate) fn work(plan: &Plan, known: &Known) -> Work {
    let mut work = Work::default();
    for chain in &plan.chains {
        for endpoint in &plan.endpoints {
            for (lacking, range) in lacking_runs(plan, *chain, *endpoint, known, &mut work) {
                let includes: Vec<_> = lacking.iter().filter_map(|c| social(*c)).collect();
                work.requests
                    .extend(plan.series_requests(*chain, *endpoint, range, &includes));
            }
        }
    }
    work
}

/// The day ranges of one series to ask for, each with the columns its days lack, in the order
/// of their first day; what is known goes into `work` as it is.
fn lacking_runs(
    plan: &Plan,
    chain: Chain,
    endpoint: Endpoint,
    known: &Known,
    work: &mut Work,
) -> Vec<(Vec<Metric>, DayRange)> {
    let columns = plan.endpoint_columns(endpoint);
    let mut runs: Vec<(Vec<Metric>, DayRange)> = Vec::new();
    // The run each set of lacking columns is growing.
    let mut growing: HashMap<Vec<Metric>, usize> = HashMap::new();
    for date in plan.range.days() {
        let mut lacking = Vec::new();
        for column in &columns {
            match known
                .get(&(chain, *column))
                .and_then(|days| days.get(&date))
            {
                Some(value) => work.from_cache.push(CachedValue {
                    chain,
                    date,
                    column: *column,
                    value: value.clone(),
                }),
                None => lacking.push(*column),
            }
        }
        if lacking.is_empty() {
            work.days_from_cache += 1;
            continue;
        }
        match growing.get(&lacking).map(|at| &mut runs[*at].1) {
            Some(range) if range.end.succ_opt() == Some(date) => range.end = date,
            _ => {
                growing.insert(lacking.clone(), runs.len());
                runs.push((
                    lacking,
                    DayRange {
                        start: date,
                        end: date,
                    },
                ));
            }
        }
    }
    runs
}

fn social(column: Metric) -> Option<crate::model::SocialMetric> {
    match column {
        Metric::Social(item) => Some(item),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_date;
    use crate::model::SocialMetric::{Quote, Reply, Tweet};

    fn d(text: &str) -> NaiveDate {
        parse_date(text).unwrap()
    }

    fn plan(endpoints: Vec<Endpoint>, chunk_days: Option<u32>) -> Plan {
        Plan {
            endpoints,
            chains: vec![Chain::Ethereum, Chain::Base],
            range: DayRange {
                start: d("2024-01-01"),
                end: d("2024-01-10"),
            },
            includes: vec![Tweet, Reply, Quote],
            chunk_days,
        }
    }

    fn asked(work: &Work) -> Vec<String> {
        work.requests
            .iter()
            .map(|r| {
                let body = r.body().to_json();
                format!("{} {body}", r.endpoint.label())
            })
            .collect()
    }

    fn know(known: &mut Known, chain: Chain, column: Metric, days: &[&str]) {
        let series = known.entry((chain, column)).or_default();
        for day in days {
            series.insert(d(day), Number::from_json_token("1").unwrap());
        }
    }

    #[test]
    fn nothing_known_asks_what_the_plan_asks() {
        for chunk_days in [None, Some(3)] {
            let plan = plan(vec![Endpoint::Fees, Endpoint::OfficialAccount], chunk_days);
            let work = work(&plan, &Known::new());
            let everything = Work::everything(&plan);
            assert_eq!(asked(&work), asked(&everything));
            assert!(work.from_cache.is_empty());
        }
    }

    #[test]
    fn missing_days_are_joined_into_ranges_then_chunked() {
        let plan = plan(vec![Endpoint::Fees], Some(2));
        let mut known = Known::new();
        let days = ["2024-01-02", "2024-01-03", "2024-01-09"];
        know(&mut known, Chain::Ethereum, Metric::Fees, &days);
        let work = work(&plan, &known);
        assert_eq!(
            asked(&work)[..4],
            [
                r#"fees {"chain":"ETHEREUM","start_date":"2024-01-01","end_date":"2024-01-01"}"#,
                r#"fees {"chain":"ETHEREUM","start_date":"2024-01-04","end_date":"2024-01-05"}"#,
                r#"fees {"chain":"ETHEREUM","start_date":"2024-01-06","end_date":"2024-01-07"}"#,
                r#"fees {"chain":"ETHEREUM","start_date":"2024-01-08","end_date":"2024-01-08"}"#,
            ]
        );
        assert_eq!(
            work.requests.len(),
            5 + 5,
            "BASE is asked whole, in 2-day windows"
        );
        assert_eq!((work.days_from_cache, work.from_cache.len()), (3, 3));
    }

    #[test]
    fn social_days_ask_only_the_metrics_they_lack() {
        let mut plan = plan(vec![Endpoint::OfficialAccount], None);
        plan.chains = vec![Chain::Ethereum];
        let mut known = Known::new();
        let all: Vec<String> = plan.range.days().map(|d| d.to_string()).collect();
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        know(&mut known, Chain::Ethereum, Metric::Social(Reply), &all);
        know(
            &mut known,
            Chain::Ethereum,
            Metric::Social(Tweet),
            &all[..8],
        );
        let work = work(&plan, &known);
        assert_eq!(
            asked(&work),
            [
                concat!(
                    r#"official account {"chain":"ETHEREUM","start_date":"2024-01-01","#,
                    r#""end_date":"2024-01-08","includes":"quote"}"#
                ),
                concat!(
                    r#"official account {"chain":"ETHEREUM","start_date":"2024-01-09","#,
                    r#""end_date":"2024-01-10","includes":"tweet,quote"}"#
                ),
            ]
        );
        assert_eq!((work.days_from_cache, work.from_cache.len()), (0, 18));
    }
}
