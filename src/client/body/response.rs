//! Reads a success body into records, checking it against SERVICE.md, keeping number texts exact.

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;

use super::keep::Records;
use crate::model::parse_date;
use crate::model::{Endpoint, Metric, Number, Record, SocialMetric};

/// [`parse_records`](super::parse_records) as the whole-body parser alone gives it: the
/// reference the stream is held to (the body oracle compares them on every input).
pub fn parse_held_body(
    endpoint: Endpoint,
    columns: &[Metric],
    body: &[u8],
) -> Result<Vec<Record>, String> {
    parse_whole(endpoint, columns, body).map(|(records, _)| records)
}

/// [`parse_records`](super::parse_records) on a body held whole, and where in it the array of
/// records begins (`None` when there is none): the verdict and words for any body the stream
/// leaves to it.
pub(super) fn parse_whole(
    endpoint: Endpoint,
    columns: &[Metric],
    body: &[u8],
) -> Result<(Vec<Record>, Option<usize>), String> {
    let (array, at) = records_array(endpoint, body)?;
    let mut records = Vec::new();
    read_array(endpoint, array, 0, columns, &mut records)?;
    Ok((records, at))
}

/// The array of records of a body held whole (not yet looked into), and where in the body it
/// begins (`None` when it is not in it).
pub(super) fn records_array(
    endpoint: Endpoint,
    body: &[u8],
) -> Result<(&RawValue, Option<usize>), String> {
    let top: &RawValue =
        serde_json::from_slice(body).map_err(|e| format!("the body is not JSON ({e})"))?;
    let array = match endpoint {
        Endpoint::OfficialAccount => {
            let mut walk = serde_json::Deserializer::from_str(top.get());
            let data = walk
                .deserialize_map(LastData)
                .map_err(|_| format!("expected an object with member data, found {}", kind(top)))?;
            data.ok_or("expected an object with member data, found no member data")?
        }
        _ => top,
    };
    let at = (array.get().as_ptr() as usize).checked_sub(body.as_ptr() as usize);
    Ok((array, at))
}

/// The value of an object's last `data` member, walked member by member: nothing else of the
/// object is held (a map of its members would hold every name of a hostile body).
struct LastData;

impl<'de> Visitor<'de> for LastData {
    type Value = Option<&'de RawValue>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut data = None;
        while let Some(name) = map.next_key::<Name<'de>>()? {
            match name.0 == "data" {
                true => data = Some(map.next_value::<&'de RawValue>()?),
                false => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(data)
    }
}

/// Hands the records of `array` (from [`records_array`]) from index `from` on to `records`,
/// one at a time as the array is walked (no list of its elements is held), stopping at the
/// first that is not a record.
pub(super) fn read_array(
    endpoint: Endpoint,
    array: &RawValue,
    from: usize,
    columns: &[Metric],
    records: &mut dyn Records,
) -> Result<(), String> {
    let mut each = Each {
        from,
        columns,
        records,
        problem: None,
    };
    let mut walk = serde_json::Deserializer::from_str(array.get());
    match walk.deserialize_seq(&mut each) {
        Ok(()) => Ok(()),
        Err(_) => Err(each.problem.take().unwrap_or_else(|| {
            let place = if endpoint == Endpoint::OfficialAccount {
                "data: "
            } else {
                ""
            };
            format!("{place}expected an array of records, found {}", kind(array))
        })),
    }
}

/// The walk of an array of records: the first problem with a record, in words (serde's own
/// error would add a place to them).
struct Each<'a> {
    from: usize,
    columns: &'a [Metric],
    records: &'a mut dyn Records,
    problem: Option<String>,
}

impl<'de> Visitor<'de> for &mut Each<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut elements: S) -> Result<(), S::Error> {
        let mut index = 0;
        while let Some(element) = elements.next_element::<&'de RawValue>()? {
            if index >= self.from {
                let fields: Fields = serde_json::from_str(element.get()).map_err(|_| {
                    self.refuse::<S::Error>(format!(
                        "record {index}: expected an object, found {}",
                        kind(element)
                    ))
                })?;
                let record = record(&fields, self.columns)
                    .map_err(|e| self.refuse::<S::Error>(format!("record {index}: {e}")))?;
                self.records.take(record);
            }
            index += 1;
        }
        Ok(())
    }
}

impl Each<'_> {
    fn refuse<E: serde::de::Error>(&mut self, problem: String) -> E {
        self.problem = Some(problem);
        E::custom("not a record")
    }
}

/// One element read on its own, as the stream reads them: `None` for anything [`parse_whole`]
/// would not take as a record (it then says why).
pub(super) fn parse_object(element: &[u8], columns: &[Metric]) -> Option<Record> {
    let fields: Fields = serde_json::from_slice(element).ok()?;
    record(&fields, columns).ok()
}

fn record(fields: &Fields, columns: &[Metric]) -> Result<Record, String> {
    let date_raw = fields.get("date").ok_or("field date is missing")?;
    let date_text: String = serde_json::from_str(date_raw.get()).map_err(|_| {
        format!(
            "field date: expected a YYYY-MM-DD string, found {}",
            kind(date_raw)
        )
    })?;
    let date = parse_date(&date_text).map_err(|e| format!("field date: {e}"))?;
    // Exactly one slot per column (a collect through `Result` would start at four).
    let mut values = Vec::with_capacity(columns.len());
    for column in columns {
        values.push(parse_value(fields, *column)?);
    }
    Ok(Record { date, values })
}

fn parse_value(fields: &Fields, column: Metric) -> Result<Option<Number>, String> {
    let name = column.name();
    let Some(raw) = fields.get(name) else {
        return Ok(None);
    };
    if raw.get() == "null" {
        return Ok(None);
    }
    let number = Number::from_json_token(raw.get())
        .ok_or_else(|| format!("field {name}: expected a number, found {}", kind(raw)))?;
    if column.is_whole() && (!number.is_whole() || number.as_str().starts_with('-')) {
        return Err(format!(
            "field {name}: expected a whole number, at least 0 (a count), found {}",
            number.shown()
        ));
    }
    Ok(Some(number))
}

/// One record's members that the client reads (`date` and the metrics' names), names borrowed
/// from the body where they hold no escape (no map, no hashing: at most one member a name, so a
/// record of a million members holds seven). A name sent twice means its last value, as a map
/// would keep.
struct Fields<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

/// Whether a record's member named `name` may be read: the date, or a metric's value.
fn is_read(name: &str) -> bool {
    name == "date"
        || name == Metric::Fees.name()
        || name == Metric::ActiveUsers.name()
        || SocialMetric::ALL.iter().any(|m| m.name() == name)
}

impl<'a> Fields<'a> {
    fn get(&self, name: &str) -> Option<&&'a RawValue> {
        self.0.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Fields<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = Fields<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Fields<'de>, M::Error> {
                let mut members: Vec<(Cow<'de, str>, &'de RawValue)> = Vec::with_capacity(6);
                while let Some((name, value)) = map.next_entry::<Name<'de>, &'de RawValue>()? {
                    if !is_read(&name.0) {
                        continue;
                    }
                    match members.iter_mut().find(|(n, _)| *n == name.0) {
                        Some(member) => member.1 = value,
                        None => members.push((name.0, value)),
                    }
                }
                Ok(Fields(members))
            }
        }
        deserializer.deserialize_map(Members)
    }
}

/// A member name: borrowed, or decoded when it holds an escape (serde's `borrow` on a `Cow`).
#[derive(serde::Deserialize)]
struct Name<'a>(#[serde(borrow)] Cow<'a, str>);

/// Describes a JSON value briefly for an error message: its type, and its text when short.
fn kind(raw: &RawValue) -> String {
    let text = raw.get();
    let name = match text.as_bytes().first() {
        Some(b'{') => return "an object".into(),
        Some(b'[') => return "an array".into(),
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    };
    if text.len() <= 40 && name != "null" {
        // A string as its decoded text, so that a key escaped in it (`\nKEY`) is masked as
        // the word it is; control characters are replaced where the message is shown.
        let text = match name {
            "a string" => serde_json::from_str::<String>(text)
                .map_or_else(|_| text.to_owned(), |s| format!("\"{s}\"")),
            _ => text.to_owned(),
        };
        format!("{name} {text}")
    } else {
        name.into()
    }
}
