//! Reads a request body of SERVICE.md §2.1 as the sandbox receives it, refusing what is wrong.

use chrono::NaiveDate;
use serde_json::{Map, Value};

use crate::model::Chain;
use crate::model::{parse_date, DayRange};
use crate::model::{Endpoint, SocialMetric};

pub(super) struct Request {
    pub chain: Chain,
    pub range: DayRange,
    pub includes: Vec<SocialMetric>,
}

pub(super) fn parse_request(endpoint: Endpoint, body: &[u8]) -> Result<Request, String> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|_| "the request body is not a JSON object".to_owned())?;
    let object = value
        .as_object()
        .ok_or("the request body is not a JSON object")?;
    let chain = chain(object)?;
    let (start, end) = (day(object, "start_date")?, day(object, "end_date")?);
    if start > end {
        return Err("start_date is after end_date".into());
    }
    Ok(Request {
        chain,
        range: DayRange { start, end },
        includes: includes(endpoint, object)?,
    })
}

/// A parameter that must be a string; a `null` counts as missing.
fn text<'a>(object: &'a Map<String, Value>, name: &str) -> Result<&'a str, String> {
    match object.get(name) {
        None | Some(Value::Null) => Err(format!("missing parameter: {name}")),
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(format!("parameter {name} must be a string")),
    }
}

fn chain(object: &Map<String, Value>) -> Result<Chain, String> {
    let name = text(object, "chain")?;
    Chain::from_name(name).ok_or_else(|| format!("unknown chain: {name}"))
}

fn day(object: &Map<String, Value>, name: &str) -> Result<NaiveDate, String> {
    let value = text(object, name)?;
    parse_date(value).map_err(|_| format!("{name} must be a date YYYY-MM-DD, got {value}"))
}

/// The social metrics asked for: only `official-account` reads `includes`; the other endpoints
/// ignore it whatever it holds, and all metrics is the default.
fn includes(endpoint: Endpoint, object: &Map<String, Value>) -> Result<Vec<SocialMetric>, String> {
    match object.get("includes") {
        Some(Value::String(list)) if endpoint == Endpoint::OfficialAccount => list
            .split(',')
            .map(|item| {
                SocialMetric::ALL
                    .into_iter()
                    .find(|i| i.name() == item.trim())
                    .ok_or_else(|| format!("unknown includes item: {item}"))
            })
            .collect(),
        Some(Value::Null) | None => Ok(SocialMetric::ALL.to_vec()),
        Some(_) if endpoint == Endpoint::OfficialAccount => Err("includes must be a string".into()),
        Some(_) => Ok(SocialMetric::ALL.to_vec()),
    }
}
