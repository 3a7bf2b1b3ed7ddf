//! One request as a plain value: what to ask the service (an endpoint, a chain, a range and,
//! for the official account, includes). How it goes on the wire is the client's business.

use crate::model::Chain;
use crate::model::DayRange;
use crate::model::{Endpoint, Metric, SocialMetric};

/// One request: an endpoint, a chain and a range (and, for the official account, includes).
#[derive(Clone, Debug)]
pub(crate) struct Request {
    pub endpoint: Endpoint,
    pub chain: Chain,
    pub range: DayRange,
    pub includes: Option<Vec<SocialMetric>>,
}

impl Request {
    /// The fields asked, in the order the values of its records come.
    pub(crate) fn columns(&self) -> Vec<Metric> {
        let includes = self.includes.as_deref().unwrap_or_default();
        self.endpoint.metrics(includes)
    }
}
