//! The front door of a success body: read as a stream, record by record (`stream`), with the
//! whole-body parser (`response`) giving the verdict and words for anything else.

use super::keep::{Keeper, KeptRecords};
use super::reader::Unread;
use super::stream::{most_records, read_at_most, read_records, RECORDS_PER_DAY};
use crate::model::{DayRange, Endpoint, Metric, Record};

/// Parses the body of `endpoint` into one record per element, values in `columns` order.
///
/// Any departure from the documented shape is an `Err` naming the element, the field and what
/// was found. Fields the client did not ask for are ignored; a missing or null value is a gap.
/// The body is read as a stream would be (see `stream`), so that the parser the client
/// runs on the wire is the one tested and fuzzed.
pub fn parse_records(
    endpoint: Endpoint,
    columns: &[Metric],
    body: &[u8],
) -> Result<Vec<Record>, String> {
    read_body_records(endpoint, columns, &mut &body[..])
}

/// What the client keeps of a body for the days of `range` (see `keep`): at most one record
/// per day, the last of each date, taken as the records are read; refused (`more than N
/// records`) as soon as the record past `most` is read: the bound the client puts on an answer
/// (see `stream::most_records`). For the oracle and fuzz target of tests/oracles/body.rs.
pub fn parse_records_kept(
    endpoint: Endpoint,
    columns: &[Metric],
    range: DayRange,
    most: usize,
    body: &[u8],
) -> Result<KeptRecords, String> {
    read_records_kept(endpoint, columns, range, most, &mut &body[..])
}

/// [`parse_records_kept`] on a body read from `reader` in whatever pieces it gives.
pub fn read_records_kept(
    endpoint: Endpoint,
    columns: &[Metric],
    range: DayRange,
    most: usize,
    reader: &mut dyn std::io::Read,
) -> Result<KeptRecords, String> {
    let mut keeper = Keeper::new(range);
    read_at_most(endpoint, columns, most, reader, &mut keeper).map_err(in_words)?;
    Ok(keeper.finish())
}

/// [`parse_records`] on a body read from `reader` in whatever pieces it gives; a failed read is
/// an `Err` too.
pub fn read_body_records(
    endpoint: Endpoint,
    columns: &[Metric],
    reader: &mut dyn std::io::Read,
) -> Result<Vec<Record>, String> {
    read_records(endpoint, columns, reader).map_err(in_words)
}

/// A body that is not the documented shape: what is wrong, and a body with the same verdict
/// to quote again with the key masked (see `stream::Unread`).
pub(crate) struct Misshapen {
    pub(crate) problem: String,
    pub(crate) body: Vec<u8>,
}

/// What a body keeps for the days of `range` asked: at most one record a day, the last of each
/// date, as the records are read (see `keep`), so that what an answer holds is bounded by the
/// days asked; refused as soon as the records sent pass [`most_records`], so that a hostile
/// body ends early. The one bound on an answer, whether it was streamed or held whole. The
/// outer error is a failed read.
pub(crate) fn bounded_records(
    endpoint: Endpoint,
    columns: &[Metric],
    range: DayRange,
    reader: &mut dyn std::io::Read,
) -> Result<Result<KeptRecords, Misshapen>, std::io::Error> {
    let days = range.days().count() as u64;
    let mut keeper = Keeper::new(range);
    match read_at_most(endpoint, columns, most_records(days), reader, &mut keeper) {
        Ok(()) => Ok(Ok(keeper.finish())),
        Err(Unread::Shape { problem, body }) => Ok(Err(Misshapen { problem, body })),
        Err(Unread::Read(e)) => Err(e),
        Err(Unread::TooMany { most }) => Ok(Err(Misshapen {
            problem: format!(
                "more than {most} records for {days} day{} asked (at most {RECORDS_PER_DAY} a day \
                are taken): refused as they came",
                if days == 1 { "" } else { "s" }
            ),
            body: Vec::new(),
        })),
    }
}

fn in_words(unread: Unread) -> String {
    match unread {
        Unread::Shape { problem, .. } => problem,
        Unread::Read(e) => format!("the body cannot be read ({e})"),
        Unread::TooMany { most } => format!("more than {most} records"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::body::keep::Records;
    use crate::model::{parse_date, DayRange, Number, SocialMetric};

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
        let body = concat!(
            r#"[{"date":"2024-01-01","fees":5E+3},"#,
            r#"{"date":"2024-01-02","fees":12345678901234567890.123456789,"extra":[1]},"#,
            r#"{"date":"2024-01-03","fees":0.1}]"#
        )
        .as_bytes();
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
            "record 0: field active_users: expected a whole number, at least 0 (a count), \
                found 1.5",
        ),
        (
            Endpoint::ActiveUsers,
            br#"[{"date":"2024-01-01","active_users":-5}]"#,
            "record 0: field active_users: expected a whole number, at least 0 (a count), \
                found -5",
        ),
    ];

    #[test]
    fn shape_errors_name_index_field_and_what_was_found() {
        for (endpoint, body, expected) in SHAPE_ERRORS {
            let columns = endpoint.metrics(&[SocialMetric::Tweet]);
            let err = parse_records(endpoint, &columns, body).unwrap_err();
            assert!(
                err.starts_with(expected),
                "{err:?} does not start with {expected:?}"
            );
        }
    }

    #[test]
    fn kept_records_drop_dedup_sort_and_note() {
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
        let mut keeper = Keeper::new(range);
        for record in records {
            keeper.take(record);
        }
        let (kept, notes) = keeper.finish().with_notes(&range, &[Metric::Fees]);
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
