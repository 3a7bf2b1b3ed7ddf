//! What goes on the wire (CLI.md §3): one request's body, the endpoint URL under the base URL,
//! and the fixed headers. The client sends them and `--dry-run` prints them: one definition.
//! (What a request asks, [`Request`], is a plain value of the fetched data's room.)

use reqwest::Url;
use serde::Serialize;

use crate::fetched::Request;
use crate::model::DayRange;
use crate::model::Endpoint;

/// The User-Agent every request carries.
pub(super) const USER_AGENT: &str = concat!("chain-metrics/", env!("CARGO_PKG_VERSION"));

/// The header that carries the API key (SERVICE.md §5).
pub(crate) const KEY_HEADER: &str = "X-API-Key";

/// Every header but the key's, in the order they are sent.
pub(crate) const FIXED_HEADERS: [(&str, &str); 3] = [
    ("Content-Type", "application/json"),
    ("Accept", "application/json"),
    ("User-Agent", USER_AGENT),
];

/// The endpoint's URL: the base URL, path prefix kept (with or without a trailing `/`), then
/// the endpoint path.
pub(crate) fn endpoint_url(base_url: &Url, endpoint: Endpoint) -> String {
    format!(
        "{}{}",
        base_url.as_str().trim_end_matches('/'),
        endpoint.path()
    )
}

/// The JSON body of SERVICE.md §2.1, members in the documented order.
#[derive(Serialize)]
pub(crate) struct RequestBody {
    chain: &'static str,
    start_date: String,
    end_date: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    includes: Option<String>,
}

impl Request {
    /// The endpoint and chain of this request, for an error about it.
    pub(crate) fn detail(&self) -> crate::error::RequestDetail {
        crate::error::RequestDetail {
            endpoint: Some(self.endpoint),
            chain: Some(self.chain),
            ..Default::default()
        }
    }

    pub(crate) fn body(&self) -> RequestBody {
        RequestBody {
            chain: self.chain.name(),
            start_date: self.range.start.to_string(),
            end_date: self.range.end.to_string(),
            includes: self
                .includes
                .as_ref()
                .map(|items| items.iter().map(|i| i.name()).collect::<Vec<_>>().join(",")),
        }
    }

    /// How the request is named in messages: `fees for ETHEREUM`.
    pub(super) fn subject(&self) -> String {
        format!("{} for {}", self.endpoint.path(), self.chain)
    }

    /// What was asked, for `--verbose` lines: `ETHEREUM fees, 2024-01-01 to 2024-01-07`.
    pub(super) fn label(&self) -> String {
        let DayRange { start, end } = self.range;
        let days = match start == end {
            true => start.to_string(),
            false => format!("{start} to {end}"),
        };
        format!("{} {}, {days}", self.chain, self.endpoint.label())
    }
}

impl RequestBody {
    /// The body as sent: compact JSON.
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a plain struct serialises")
    }
}
