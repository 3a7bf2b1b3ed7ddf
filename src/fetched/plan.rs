//! What one query asks: the plan of endpoints, chains, days and columns, its request windows
//! and the requests they make.

use super::request::Request;
use crate::model::Chain;
use crate::model::DayRange;
use crate::model::{Column, Dataset, Endpoint, Metric, Row, SocialMetric};

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
}
