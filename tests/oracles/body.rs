//! Service bodies: every record `parse_records` returns stands for the body's element at its
//! index, with the date the element holds and, for each column, the number text the element
//! holds there, byte for byte (a gap where it holds none or `null`).

use std::collections::HashMap;

use chain_metrics::{parse_held_body, parse_records, parse_records_at_most, read_body_records};
use chain_metrics::{Endpoint, Metric, SocialMetric};
use serde_json::value::RawValue;

use super::Input;

pub fn check(data: &[u8]) -> Result<(), String> {
    let input = Input::new(data);
    for endpoint in [
        Endpoint::Fees,
        Endpoint::ActiveUsers,
        Endpoint::OfficialAccount,
    ] {
        let columns = columns(input.pick, endpoint);
        same_as_held(
            endpoint,
            &columns,
            input.rest,
            1 + usize::from(input.pick % 7),
        )
        .map_err(|why| format!("{endpoint:?}: {why}"))?;
        within_bound(endpoint, &columns, input.rest, usize::from(input.pick % 5))
            .map_err(|why| format!("{endpoint:?}: {why}"))?;
        if let Ok(records) = parse_records(endpoint, &columns, input.rest) {
            let values: Vec<_> = records.iter().map(|r| (r.date, &r.values)).collect();
            same_as_body(endpoint, &columns, input.rest, &values)
                .map_err(|why| format!("{endpoint:?}: {why}"))?;
        }
    }
    Ok(())
}

/// The body read as the client reads it off the wire (in the pieces a slice gives, and `piece`
/// bytes at a time) gives what the whole-body parser gives it: the same records, or the same
/// words for the same problem.
fn same_as_held(
    endpoint: Endpoint,
    columns: &[Metric],
    body: &[u8],
    piece: usize,
) -> Result<(), String> {
    let held = parse_held_body(endpoint, columns, body);
    let streamed = parse_records(endpoint, columns, body);
    let trickled = read_body_records(endpoint, columns, &mut Trickle { rest: body, piece });
    let pieces = format!("read {piece} bytes at a time");
    for (how, got) in [("read as one piece", streamed), (pieces.as_str(), trickled)] {
        if got != held {
            return Err(format!("{how}: {got:?}; held whole: {held:?}"));
        }
    }
    Ok(())
}

/// The records bound (`parse_records_at_most`): a body whose records parse gives them when
/// there are at most `most`, and is refused as holding more otherwise; any body gives what
/// the unbounded reader gives or that refusal; and a refusal at `most` is one at every smaller
/// bound too (the count only grows as the body is read).
fn within_bound(
    endpoint: Endpoint,
    columns: &[Metric],
    body: &[u8],
    most: usize,
) -> Result<(), String> {
    let free = parse_records(endpoint, columns, body);
    let bounded = parse_records_at_most(endpoint, columns, most, body);
    let refused = |m: usize| Err(format!("more than {m} records"));
    match &free {
        Ok(records) if records.len() <= most && bounded != free => {
            return Err(format!(
                "{most} bound: {bounded:?} for {} records",
                records.len()
            ))
        }
        Ok(records) if records.len() > most && bounded != refused(most) => {
            return Err(format!(
                "{most} bound: {bounded:?} for {} records",
                records.len()
            ))
        }
        Err(_) if bounded != free && bounded != refused(most) => {
            return Err(format!("{most} bound: {bounded:?}; unbounded: {free:?}"))
        }
        _ => {}
    }
    if bounded == refused(most) {
        for smaller in 0..most {
            let again = parse_records_at_most(endpoint, columns, smaller, body);
            if again != refused(smaller) {
                return Err(format!("refused at {most}, but at {smaller}: {again:?}"));
            }
        }
    }
    Ok(())
}

/// A reader that gives at most `piece` bytes a read, as a slow connection would.
struct Trickle<'a> {
    rest: &'a [u8],
    piece: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, into: &mut [u8]) -> std::io::Result<usize> {
        let n = self.piece.min(into.len()).min(self.rest.len());
        into[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

/// The asked columns: the endpoint's own, or the social metrics `pick`'s bits choose.
pub fn columns(pick: u8, endpoint: Endpoint) -> Vec<Metric> {
    match endpoint {
        Endpoint::Fees => vec![Metric::Fees],
        Endpoint::ActiveUsers => vec![Metric::ActiveUsers],
        Endpoint::OfficialAccount => SocialMetric::ALL
            .into_iter()
            .enumerate()
            .filter(|(i, _)| pick & (1 << i) != 0)
            .map(|(_, m)| Metric::Social(m))
            .collect(),
    }
}

type Parsed<'a> = (chrono::NaiveDate, &'a Vec<Option<chain_metrics::Number>>);

fn same_as_body(
    endpoint: Endpoint,
    columns: &[Metric],
    body: &[u8],
    records: &[Parsed],
) -> Result<(), String> {
    let elements = elements(endpoint, body).ok_or("accepted a body with no array of records")?;
    if elements.len() != records.len() {
        return Err(format!(
            "{} records from {} elements",
            records.len(),
            elements.len()
        ));
    }
    for (index, (element, (date, values))) in elements.iter().zip(records).enumerate() {
        let fields: HashMap<String, &RawValue> = serde_json::from_str(element.get())
            .map_err(|e| format!("record {index}: accepted an element that is no object ({e})"))?;
        let written: Option<String> = fields
            .get("date")
            .and_then(|raw| serde_json::from_str(raw.get()).ok());
        if written.as_deref() != Some(date.to_string().as_str()) {
            return Err(format!(
                "record {index}: date {date}, the body has {written:?}"
            ));
        }
        for (column, value) in columns.iter().zip(values.iter()) {
            let sent = fields
                .get(column.name())
                .map(|r| r.get())
                .filter(|t| *t != "null");
            let parsed = value.as_ref().map(|n| n.as_str());
            if sent != parsed.as_deref() {
                return Err(format!(
                    "record {index}: {} parsed as {parsed:?}, the body has {sent:?}",
                    column.name()
                ));
            }
        }
    }
    Ok(())
}

/// The body's elements, found as the service documents them: an array, or for the official
/// account an object whose `data` is one.
fn elements(endpoint: Endpoint, body: &[u8]) -> Option<Vec<&RawValue>> {
    let top: &RawValue = serde_json::from_slice(body).ok()?;
    let array = match endpoint {
        Endpoint::OfficialAccount => {
            let object: HashMap<String, &RawValue> = serde_json::from_str(top.get()).ok()?;
            *object.get("data")?
        }
        _ => top,
    };
    serde_json::from_str(array.get()).ok()
}
