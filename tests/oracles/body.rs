//! Service bodies: every record `parse_records` returns stands for the body's element at its
//! index, with the date the element holds and, for each column, the number text the element
//! holds there, byte for byte (a gap where it holds none or `null`); and what the client keeps
//! of a body as it streams (`parse_records_kept`) is exactly, for the days asked, the last
//! record of each date inside them, sorted, with the dates sent twice and those outside.

use std::collections::HashMap;

use chain_metrics::{parse_held_body, parse_records, read_body_records};
use chain_metrics::{parse_records_kept, read_records_kept, KeptRecords};
use chain_metrics::{DayRange, Endpoint, Metric, SocialMetric};
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
        let range = asked(input.pick);
        for most in [usize::from(input.pick % 5), usize::MAX] {
            kept_as_held(endpoint, &columns, input.rest, range, most)
                .map_err(|why| format!("{endpoint:?}, {range:?}: {why}"))?;
        }
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

/// The days asked, which `pick`'s bits choose: one to four days from 2023-12-31 to
/// 2024-01-03, around the dates the seeds hold.
fn asked(pick: u8) -> DayRange {
    let day = |n: u8| {
        chrono::NaiveDate::from_ymd_opt(2023, 12, 31).unwrap() + chrono::Days::new(u64::from(n))
    };
    let first = (pick >> 3) & 3;
    DayRange {
        start: day(first),
        end: day(first + ((pick >> 5) & 3)),
    }
}

/// What the client keeps of a body for the days of `range`, refusing it past `most` records
/// sent (`parse_records_kept`), however the body arrives: for a body the whole-body parser
/// takes, the refusal if it holds more than `most` records, and otherwise exactly [`kept`] of
/// its records; for any other body, the whole-body parser's words or that refusal; and a
/// refusal at `most` is one at every smaller bound too (the count only grows as the body is
/// read).
fn kept_as_held(
    endpoint: Endpoint,
    columns: &[Metric],
    body: &[u8],
    range: DayRange,
    most: usize,
) -> Result<(), String> {
    let held = parse_held_body(endpoint, columns, body);
    let got = parse_records_kept(endpoint, columns, range, most, body);
    let trickle = &mut Trickle {
        rest: body,
        piece: 3,
    };
    let trickled = read_records_kept(endpoint, columns, range, most, trickle);
    if trickled != got {
        return Err(format!(
            "read 3 bytes at a time: {trickled:?}; at once: {got:?}"
        ));
    }
    let refused = |m: usize| Err(format!("more than {m} records"));
    let expected = match &held {
        Ok(records) if records.len() > most => refused(most),
        Ok(records) => Ok(kept(records, range)),
        Err(_) if got == refused(most) => refused(most),
        Err(problem) => Err(problem.clone()),
    };
    if got != expected {
        return Err(format!("{most} bound: {got:?}, expected {expected:?}"));
    }
    if got == refused(most) {
        for smaller in 0..most {
            let again = parse_records_kept(endpoint, columns, range, smaller, body);
            if again != refused(smaller) {
                return Err(format!("refused at {most}, but at {smaller}: {again:?}"));
            }
        }
    }
    Ok(())
}

/// The rule, record by record as sent: one outside `range` leaves its date; one inside takes
/// the place of an earlier one of its date (whose date is then a duplicate) or a new place.
fn kept(records: &[chain_metrics::Record], range: DayRange) -> KeptRecords {
    let mut kept: Vec<chain_metrics::Record> = Vec::new();
    let (mut duplicated, mut out_of_range) = (Vec::new(), Vec::new());
    for record in records {
        if !range.contains(record.date) {
            out_of_range.push(record.date);
        } else if let Some(place) = kept.iter_mut().find(|k| k.date == record.date) {
            *place = record.clone();
            duplicated.push(record.date);
        } else {
            kept.push(record.clone());
        }
    }
    kept.sort_by_key(|record| record.date);
    for dates in [&mut duplicated, &mut out_of_range] {
        dates.sort();
        dates.dedup();
    }
    KeptRecords {
        records: kept,
        duplicated,
        out_of_range,
    }
}

/// A reader that gives at most `piece` bytes a read, as a slow connection would.
pub struct Trickle<'a> {
    pub rest: &'a [u8],
    pub piece: usize,
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
