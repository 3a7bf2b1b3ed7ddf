//! Reads a success body into records, checking it against SERVICE.md, keeping number texts exact.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDate;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::stream::{read_records, Unread};
use crate::model::{describe_days, parse_date, DayRange};
use crate::model::{Endpoint, Metric, Number, Record};

/// Parses the body of `endpoint` into one record per element, values in `columns` order.
///
/// Any departure from the documented shape is an `Err` naming the element, the field and what
/// was found. Fields the client did not ask for are ignored; a missing or null value is a gap.
/// The body is read as a stream would be (see [`read_records`]), so that the parser the client
/// runs on the wire is the one tested and fuzzed.
pub fn parse_records(
    endpoint: Endpoint,
    columns: &[Metric],
    body: &[u8],
) -> Result<Vec<Record>, String> {
    read_body_records(endpoint, columns, &mut &body[..])
}

/// [`parse_records`] on a body read from `reader` in whatever pieces it gives; a failed read is
/// an `Err` too.
pub fn read_body_records(
    endpoint: Endpoint,
    columns: &[Metric],
    reader: &mut dyn std::io::Read,
) -> Result<Vec<Record>, String> {
    read_records(endpoint, columns, reader).map_err(|unread| match unread {
        Unread::Shape { problem, .. } => problem,
        Unread::Read(e) => format!("the body cannot be read ({e})"),
    })
}

/// [`parse_records`] as the whole-body parser alone gives it: the reference the stream is held
/// to (the body oracle compares them on every input).
pub fn parse_held_body(
    endpoint: Endpoint,
    columns: &[Metric],
    body: &[u8],
) -> Result<Vec<Record>, String> {
    parse_whole(endpoint, columns, body).map(|(records, _)| records)
}

/// [`parse_records`] on a body held whole, and where in it the array of records begins (`None`
/// when there is none): the verdict and words for any body the stream leaves to it.
pub(super) fn parse_whole(
    endpoint: Endpoint,
    columns: &[Metric],
    body: &[u8],
) -> Result<(Vec<Record>, Option<usize>), String> {
    let top: &RawValue =
        serde_json::from_slice(body).map_err(|e| format!("the body is not JSON ({e})"))?;
    let array = match endpoint {
        Endpoint::OfficialAccount => {
            let object: HashMap<String, &RawValue> = serde_json::from_str(top.get())
                .map_err(|_| format!("expected an object with member data, found {}", kind(top)))?;
            *object
                .get("data")
                .ok_or("expected an object with member data, found no member data")?
        }
        _ => top,
    };
    let elements: Vec<&RawValue> = serde_json::from_str(array.get()).map_err(|_| {
        let place = if endpoint == Endpoint::OfficialAccount {
            "data: "
        } else {
            ""
        };
        format!("{place}expected an array of records, found {}", kind(array))
    })?;
    // Room for every record at once: collecting through a `Result` would grow the vector by
    // doubling, holding up to twice the records' room (and both while it moves).
    let mut records = Vec::with_capacity(elements.len());
    for (index, element) in elements.iter().enumerate() {
        let fields: Fields = serde_json::from_str(element.get()).map_err(|_| {
            format!(
                "record {index}: expected an object, found {}",
                kind(element)
            )
        })?;
        records.push(record(&fields, columns).map_err(|e| format!("record {index}: {e}"))?);
    }
    let at = (array.get().as_ptr() as usize).checked_sub(body.as_ptr() as usize);
    Ok((records, at))
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

/// One record's members, in the order sent, names borrowed from the body where they hold no
/// escape (no map, no hashing: a record has a handful of members). A name sent twice means its
/// last value, as a map would keep.
struct Fields<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

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
                let mut members = Vec::with_capacity(map.size_hint().unwrap_or(6));
                while let Some((name, value)) = map.next_entry::<Name<'de>, &'de RawValue>()? {
                    members.push((name.0, value));
                }
                Ok(Fields(members))
            }
        }
        deserializer.deserialize_map(Members)
    }
}

/// A member name: borrowed, or decoded when it holds an escape.
struct Name<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Name<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text;
        impl<'de> Visitor<'de> for Text {
            type Value = Name<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Borrowed(text)))
            }
            fn visit_str<E>(self, text: &str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(text.to_owned())))
            }
        }
        deserializer.deserialize_str(Text)
    }
}

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

/// Problems found while cleaning one series, each to be reported once.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct DataNotes {
    pub missing: Vec<NaiveDate>,
    pub duplicated: Vec<NaiveDate>,
    pub out_of_range: Vec<NaiveDate>,
    /// By column name: the dates whose record left that member out (or sent it as null).
    pub left_out: BTreeMap<&'static str, Vec<NaiveDate>>,
}

impl DataNotes {
    /// Adds the notes of another window of the same series, keeping each list sorted.
    pub fn absorb(&mut self, other: DataNotes) {
        for (mine, theirs) in [
            (&mut self.missing, other.missing),
            (&mut self.duplicated, other.duplicated),
            (&mut self.out_of_range, other.out_of_range),
        ] {
            mine.extend(theirs);
            mine.sort();
            mine.dedup();
        }
        for (column, days) in other.left_out {
            let mine = self.left_out.entry(column).or_default();
            mine.extend(days);
            mine.sort();
            mine.dedup();
        }
    }

    /// One warning line per kind of problem, prefixed by what was queried.
    pub fn warnings(&self, subject: &str) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.missing.is_empty() {
            let days = describe_days(&self.missing);
            lines.push(format!(
                "{subject}: no data for {days} (left out, not zero)"
            ));
        }
        if !self.duplicated.is_empty() {
            let days = describe_days(&self.duplicated);
            lines.push(format!(
                "{subject}: several records for {days}; kept the last"
            ));
        }
        if !self.out_of_range.is_empty() {
            let days = describe_days(&self.out_of_range);
            lines.push(format!(
                "{subject}: dropped records outside the asked range: {days}"
            ));
        }
        for (column, days) in &self.left_out {
            let days = describe_days(days);
            lines.push(format!(
                "{subject}: the records for {days} have no {column} (left empty, not zero)"
            ));
        }
        lines
    }
}

/// Keeps the records inside `range`, the last one of each date, sorted; notes what was wrong,
/// down to a member (of `columns`, the values' order) a kept record left out.
pub fn clean(
    records: Vec<Record>,
    range: &DayRange,
    columns: &[Metric],
) -> (Vec<Record>, DataNotes) {
    let mut notes = DataNotes::default();
    let mut records = records;
    records.retain(|record| {
        let inside = range.contains(record.date);
        if !inside {
            notes.out_of_range.push(record.date);
        }
        inside
    });
    // Sorted in place (no tree): of the records of one date, the last one sent is kept.
    records.sort_by_key(|record| record.date);
    records.dedup_by(|later, kept| {
        let same = later.date == kept.date;
        if same {
            std::mem::swap(later, kept);
            notes.duplicated.push(later.date);
        }
        same
    });
    let mut sent = records.iter().map(|record| record.date).peekable();
    notes.missing = range
        .days()
        .filter(|day| sent.next_if_eq(day).is_none())
        .collect();
    for record in &records {
        for (column, value) in columns.iter().zip(&record.values) {
            if value.is_none() {
                let days = notes.left_out.entry(column.name()).or_default();
                days.push(record.date);
            }
        }
    }
    notes.out_of_range.sort();
    notes.out_of_range.dedup();
    notes.duplicated.sort();
    notes.duplicated.dedup();
    (records, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SocialMetric;

    fn texts(records: &[Record]) -> Vec<Vec<Option<String>>> {
        records
            .iter()
            .map(|r| {
                r.values
                    .iter()
                    .map(|v| v.as_ref().map(|n| n.as_str().into()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn fees_keep_exact_number_text() {
        let body = br#"[{"date":"2024-01-01","fees":5E+3},{"date":"2024-01-02","fees":12345678901234567890.123456789,"extra":[1]},{"date":"2024-01-03","fees":0.1}]"#;
        let records = parse_records(Endpoint::Fees, &[Metric::Fees], body).unwrap();
        assert_eq!(
            texts(&records),
            vec![
                vec![Some("5E+3".to_owned())],
                vec![Some("12345678901234567890.123456789".to_owned())],
                vec![Some("0.1".to_owned())]
            ]
        );
    }

    #[test]
    fn social_is_wrapped_and_gaps_are_none() {
        let body = br#"{"data":[{"date":"2024-01-01","reply":3,"quote":null}]}"#;
        let columns = [
            Metric::Social(SocialMetric::Reply),
            Metric::Social(SocialMetric::Quote),
            Metric::Social(SocialMetric::Tweet),
        ];
        let records = parse_records(Endpoint::OfficialAccount, &columns, body).unwrap();
        assert_eq!(
            texts(&records),
            vec![vec![Some("3".to_owned()), None, None]]
        );
    }

    /// A body that is not the shape SERVICE.md gives, and the start of the error it gets.
    const SHAPE_ERRORS: [(Endpoint, &[u8], &str); 10] = [
            (Endpoint::Fees, b"<html>", "the body is not JSON"),
            (
                Endpoint::Fees,
                br#"{"data":[]}"#,
                "expected an array of records, found an object",
            ),
            (
                Endpoint::OfficialAccount,
                b"[]",
                "expected an object with member data, found an array",
            ),
            (
                Endpoint::OfficialAccount,
                br#"{"rows":[]}"#,
                "expected an object with member data, found no member data",
            ),
            (
                Endpoint::Fees,
                br#"[{"date":"2024-01-01","fees":1},2]"#,
                "record 1: expected an object, found a number 2",
            ),
            (
                Endpoint::Fees,
                br#"[{"fees":1}]"#,
                "record 0: field date is missing",
            ),
            (
                Endpoint::Fees,
                br#"[{"date":20240101,"fees":1}]"#,
                "record 0: field date: expected a YYYY-MM-DD string, found a number 20240101",
            ),
            (
                Endpoint::Fees,
                br#"[{"date":"2024-01-01","fees":"12.5"}]"#,
                "record 0: field fees: expected a number, found a string \"12.5\"",
            ),
            (
                Endpoint::ActiveUsers,
                br#"[{"date":"2024-01-01","active_users":1.5}]"#,
                "record 0: field active_users: expected a whole number, at least 0 (a count), found 1.5",
            ),
            (
                Endpoint::ActiveUsers,
                br#"[{"date":"2024-01-01","active_users":-5}]"#,
                "record 0: field active_users: expected a whole number, at least 0 (a count), found -5",
            ),
    ];

    #[test]
    fn shape_errors_name_index_field_and_what_was_found() {
        for (endpoint, body, expected) in SHAPE_ERRORS {
            let column = match endpoint {
                Endpoint::Fees => Metric::Fees,
                Endpoint::ActiveUsers => Metric::ActiveUsers,
                Endpoint::OfficialAccount => Metric::Social(SocialMetric::Tweet),
            };
            let err = parse_records(endpoint, &[column], body).unwrap_err();
            assert!(
                err.starts_with(expected),
                "{err:?} does not start with {expected:?}"
            );
        }
    }

    #[test]
    fn clean_drops_dedups_sorts_and_notes() {
        let d = |s| parse_date(s).unwrap();
        let rec = |date, v: &str| Record {
            date: d(date),
            values: vec![Number::from_json_token(v)],
        };
        let range = DayRange {
            start: d("2024-01-01"),
            end: d("2024-01-04"),
        };
        let records = vec![
            rec("2024-01-03", "3"),
            rec("2024-01-01", "1"),
            rec("2024-01-03", "33"),
            rec("2023-12-31", "0"),
        ];
        let (kept, notes) = clean(records, &range, &[Metric::Fees]);
        assert_eq!(
            texts(&kept),
            vec![vec![Some("1".to_owned())], vec![Some("33".to_owned())]]
        );
        assert_eq!(notes.missing, vec![d("2024-01-02"), d("2024-01-04")]);
        assert_eq!(notes.duplicated, vec![d("2024-01-03")]);
        assert_eq!(notes.out_of_range, vec![d("2023-12-31")]);
        assert_eq!(
            notes.warnings("ETHEREUM fees"),
            vec![
                "ETHEREUM fees: no data for 2024-01-02, 2024-01-04 (left out, not zero)",
                "ETHEREUM fees: several records for 2024-01-03; kept the last",
                "ETHEREUM fees: dropped records outside the asked range: 2023-12-31",
            ]
        );
    }
}
