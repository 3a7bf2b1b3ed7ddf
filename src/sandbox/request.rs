//! Reads a request body of SERVICE.md §2.1 as the sandbox receives it, refusing what is wrong.

use chrono::NaiveDate;
use serde_json::Value;

use crate::model::chain::Chain;
use crate::model::dates::{parse_date, DayRange};
use crate::model::{Endpoint, SocialMetric};

pub struct Request {
    pub chain: Chain,
    pub range: DayRange,
    pub includes: Vec<SocialMetric>,
}

pub fn parse_request(endpoint: Endpoint, body: &[u8]) -> Result<Request, String> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|_| "the request body is not a JSON object".to_owned())?;
    let object = value
        .as_object()
        .ok_or("the request body is not a JSON object")?;
    let text = |name: &str| -> Result<&str, String> {
        match object.get(name) {
            None | Some(Value::Null) => Err(format!("missing parameter: {name}")),
            Some(Value::String(s)) => Ok(s),
            Some(_) => Err(format!("parameter {name} must be a string")),
        }
    };
    let chain_text = text("chain")?;
    let chain = Chain::ALL
        .into_iter()
        .find(|c| c.name() == chain_text)
        .ok_or_else(|| format!("unknown chain: {chain_text}"))?;
    let day = |name: &str| -> Result<NaiveDate, String> {
        let value = text(name)?;
        parse_date(value).map_err(|_| format!("{name} must be a date YYYY-MM-DD, got {value}"))
    };
    let (start, end) = (day("start_date")?, day("end_date")?);
    if start > end {
        return Err("start_date is after end_date".into());
    }
    let includes = match object.get("includes") {
        Some(Value::String(list)) if endpoint == Endpoint::OfficialAccount => list
            .split(',')
            .map(|item| {
                SocialMetric::ALL
                    .into_iter()
                    .find(|i| i.name() == item.trim())
                    .ok_or_else(|| format!("unknown includes item: {item}"))
            })
            .collect::<Result<_, _>>()?,
        Some(Value::Null) | None => SocialMetric::ALL.to_vec(),
        Some(_) if endpoint == Endpoint::OfficialAccount => {
            return Err("includes must be a string".into())
        }
        Some(_) => SocialMetric::ALL.to_vec(),
    };
    Ok(Request {
        chain,
        range: DayRange { start, end },
        includes,
    })
}
