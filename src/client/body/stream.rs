//! Reads a success body as it arrives, record by record, so that no run holds a whole body: the
//! documented shape (an array of records, or `{"data": [...]}` for the official account) is
//! followed byte by byte, and each record is parsed on its own once it is complete.
//!
//! Anything else (a body that is not JSON, another shape, a bad record, members after `data`)
//! goes, with the rest of the body, to the whole-body parser, which gives the verdict and its
//! words. The records read before stand there as placeholders that keep their count (a problem
//! names its record by index) and the line and column serde_json reports.

use std::io::Read;

use super::keep::Records;
use super::reader::{Body, Place, Unread};
use super::response::parse_object;
use crate::model::{Endpoint, Metric, Record};

/// How many records an answer may send per day asked: one is what the service sends; a few
/// duplicates or days outside the range pass (the client keeps one record a day, see `keep`),
/// but no more, so that a body within the size cap that is millions of records
/// (`[{"date":"2024-01-01"},...]`) ends as soon as it passes them.
pub(super) const RECORDS_PER_DAY: usize = 4;

/// The most records an answer for `days` days may hold.
pub(super) fn most_records(days: u64) -> usize {
    usize::try_from(days)
        .unwrap_or(usize::MAX)
        .saturating_mul(RECORDS_PER_DAY)
}

/// Reads the body of `endpoint` from `reader` into one record per element, values in `columns`
/// order; the verdicts and words of [`parse_whole`](super::response::parse_whole) for any body.
pub(super) fn read_records(
    endpoint: Endpoint,
    columns: &[Metric],
    reader: &mut dyn Read,
) -> Result<Vec<Record>, Unread> {
    let mut records = Vec::new();
    read_at_most(endpoint, columns, usize::MAX, reader, &mut records)?;
    Ok(records)
}

/// [`read_records`] into `records` as each is read, refusing the body as soon as it holds more
/// than `most` records.
pub(super) fn read_at_most(
    endpoint: Endpoint,
    columns: &[Metric],
    most: usize,
    reader: &mut dyn Read,
    records: &mut dyn Records,
) -> Result<(), Unread> {
    let mut body = Body::new(reader);
    if follow(endpoint, columns, most, &mut body, records)? {
        return Ok(());
    }
    // The whole-body parser may take what the stream left (a repeated `data`): the same
    // bound, once it has given its verdict on every record (its words come first).
    body.fall_back(endpoint, columns, records)?;
    match records.count() > most {
        true => Err(Unread::TooMany { most }),
        false => Ok(()),
    }
}

/// Follows the documented shape, pushing each record as it completes: `Ok(true)` at the end of a
/// body wholly of that shape; `Ok(false)` where the body leaves it (`body.place` says where).
fn follow(
    endpoint: Endpoint,
    columns: &[Metric],
    most: usize,
    body: &mut Body,
    records: &mut dyn Records,
) -> Result<bool, Unread> {
    body.skip_space()?;
    if endpoint == Endpoint::OfficialAccount {
        for expected in [&b"{"[..], b"\"data\"", b":"] {
            if !body.take(expected)? {
                return Ok(false);
            }
            body.skip_space()?;
        }
    }
    if !body.take(b"[")? {
        return Ok(false);
    }
    body.place = Place::InArray;
    loop {
        body.skip_space()?;
        match body.peek()? {
            Some(b']') if body.place == Place::InArray => {
                body.consume(1);
                body.place = Place::Closed;
                break;
            }
            Some(b',') if body.place == Place::InArray && records.count() > 0 => {
                body.consume(1);
                body.place = Place::AfterComma;
            }
            Some(b'{') if body.place == Place::AfterComma || records.count() == 0 => {
                let Some(length) = body.object_length()? else {
                    return Ok(false);
                };
                let Some(record) = parse_object(&body.pending()[..length], columns) else {
                    return Ok(false);
                };
                body.consume(length);
                if records.count() == most {
                    return Err(Unread::TooMany { most });
                }
                records.take(record);
                body.place = Place::InArray;
            }
            _ => return Ok(false),
        }
    }
    ends_after_array(endpoint, body)
}

/// Whether what follows the array is what may: nothing, or the end of the official account's
/// object; white space after it is read and dropped as it comes, never held.
fn ends_after_array(endpoint: Endpoint, body: &mut Body) -> Result<bool, Unread> {
    body.skip_space()?;
    if endpoint == Endpoint::OfficialAccount {
        if body.peek()? != Some(b'}') {
            return Ok(false);
        }
        body.consume(1);
        body.place = Place::Ended;
        body.skip_space()?;
    }
    Ok(body.peek()?.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::body::reader::{CHUNK, HELD_MOST};
    use crate::client::body::response::parse_whole;
    use crate::model::SocialMetric;

    /// Gives `piece` bytes a read, then fails with `fail_at` bytes given, if set.
    struct Wire<'a> {
        rest: &'a [u8],
        piece: usize,
        given: usize,
        fail_at: Option<usize>,
    }

    impl std::io::Read for Wire<'_> {
        fn read(&mut self, into: &mut [u8]) -> std::io::Result<usize> {
            if self.fail_at.is_some_and(|at| self.given >= at) {
                return Err(std::io::ErrorKind::ConnectionReset.into());
            }
            let n = self.piece.min(into.len()).min(self.rest.len());
            into[..n].copy_from_slice(&self.rest[..n]);
            self.rest = &self.rest[n..];
            self.given += n;
            Ok(n)
        }
    }

    fn read(
        endpoint: Endpoint,
        columns: &[Metric],
        body: &[u8],
        piece: usize,
    ) -> Result<Vec<Record>, String> {
        let mut wire = Wire {
            rest: body,
            piece,
            given: 0,
            fail_at: None,
        };
        read_records(endpoint, columns, &mut wire).map_err(|unread| match unread {
            Unread::Shape { problem, .. } => problem,
            Unread::Read(e) => panic!("a read failed: {e}"),
            Unread::TooMany { most } => panic!("more than {most}"),
        })
    }

    /// Bodies that leave the shape after records, on later lines: the stream's words are the
    /// whole-body parser's, line and column included, however the bytes arrive.
    #[test]
    fn problems_after_records_read_are_told_as_the_whole_body_tells_them() {
        let lines = "[\n  {\"date\": \"2024-01-01\", \"fees\": 1},\n  \
            {\"date\": \"2024-01-02\",\n   \"fees\": 2}";
        let bodies = [
            format!("{lines},\n  {{\"date\": \"2024-01-03\", \"fees\": \"3\"}}\n]"),
            format!("{lines},\n  {{\"date\": \"2024-01-03\", \"fees\": 3,}}\n]"),
            format!("{lines}\n  {{\"date\": \"2024-01-03\"}}]"),
            format!("{lines},\n]"),
            format!("{lines}]\n  x"),
            format!("{lines},\n  {{\"date\": \"2024-01-03\", \"fees\": 3"),
        ];
        let expected = [
            "record 2: field fees: expected a number, found a string \"3\"",
            "the body is not JSON (key must be a string at line 5 column 36)",
            "the body is not JSON (expected `,` or `]` at line 5 column 3)",
            "the body is not JSON (expected value at line 5 column 1)",
            "the body is not JSON (trailing characters at line 5 column 3)",
            "the body is not JSON (EOF while parsing an object at line 5 column 34)",
        ];
        for (body, expected) in bodies.iter().zip(expected) {
            let held =
                parse_whole(Endpoint::Fees, &[Metric::Fees], body.as_bytes()).map(|(r, _)| r);
            assert_eq!(
                held.as_ref().err().map(String::as_str),
                Some(expected),
                "{body}"
            );
            for piece in [1, 2, 5, 64, CHUNK * 2] {
                assert_eq!(
                    read(Endpoint::Fees, &[Metric::Fees], body.as_bytes(), piece),
                    held,
                    "{body}, {piece} bytes a read"
                );
            }
        }
    }

    /// The official account's records come from its `data` member, read as a stream when it
    /// comes first; a later `data` wins, as in the whole body.
    #[test]
    fn official_account_records_come_from_the_last_data_member() {
        let columns = [Metric::Social(SocialMetric::Reply)];
        let dates = |body: &str| -> Vec<String> {
            read(Endpoint::OfficialAccount, &columns, body.as_bytes(), 3)
                .unwrap()
                .iter()
                .map(|r| r.date.to_string())
                .collect()
        };
        let first = r#"{"data":[{"date":"2024-01-01","reply":1},{"date":"2024-01-02"}]"#;
        assert_eq!(dates(&format!("{first} }}")), ["2024-01-01", "2024-01-02"]);
        assert_eq!(
            dates(&format!(r#"{first},"meta":{{"next":null}}}}"#)),
            ["2024-01-01", "2024-01-02"]
        );
        assert_eq!(
            dates(&format!(r#"{first},"data":[{{"date":"2024-01-09"}}]}}"#)),
            ["2024-01-09"]
        );
        assert_eq!(
            dates(r#"{"meta":1,"data":[{"date":"2024-01-05"}]}"#),
            ["2024-01-05"]
        );
    }

    /// A body off the shape is held for its verdict only within `HELD_MOST`: past it, it is
    /// refused where it left the shape (however it arrives), never held whole; within it, and
    /// with white space of any length after the array, it reads as before.
    #[test]
    fn a_body_off_the_shape_is_held_only_within_the_bound() {
        let long = |open: &str, fill: u8, close: &str| {
            let mut body = open.as_bytes().to_vec();
            body.resize(open.len() + HELD_MOST + 10, fill);
            body.extend_from_slice(close.as_bytes());
            body
        };
        let refused = [
            (long(r#"{"meta":""#, b'x', r#""}"#), "line 1 column 1"),
            (
                long(r#"[{"date":"2024-01-01","x":""#, b'x', r#""}]"#),
                "line 1 column 2",
            ),
            (
                long("[{\"date\":\"2024-01-01\"}", b'\n', "x"),
                "line 1048587 column 1",
            ),
            (
                long("[{\"date\":\"2024-01-01\"}]", b' ', "x"),
                "line 1 column 1048610",
            ),
        ];
        for (body, at) in refused {
            for piece in [7, CHUNK * 3] {
                let problem = read(Endpoint::Fees, &[Metric::Fees], &body, piece).expect_err(at);
                assert_eq!(
                    problem,
                    format!(
                        "the body leaves the documented shape at {at}, and \
                    more than 1 MiB of it would have to be held to say how: not read further"
                    )
                );
            }
        }
        let spaced = long("[{\"date\":\"2024-01-01\"}]", b' ', "");
        assert_eq!(
            read(Endpoint::Fees, &[Metric::Fees], &spaced, 5)
                .unwrap()
                .len(),
            1
        );
    }

    /// A connection that breaks mid-body is a failed read (the client retries it), never a
    /// body of the wrong shape.
    #[test]
    fn a_read_that_fails_mid_body_is_not_a_shape_problem() {
        let body = br#"[{"date":"2024-01-01","fees":1},{"date":"2024-01-02","fees":2}]"#;
        for fail_at in [0, 1, 10, 40, body.len() - 1] {
            let mut wire = Wire {
                rest: body,
                piece: 7,
                given: 0,
                fail_at: Some(fail_at),
            };
            match read_records(Endpoint::Fees, &[Metric::Fees], &mut wire) {
                Err(Unread::Read(e)) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset),
                Err(Unread::Shape { problem, .. }) => panic!("failing at {fail_at}: {problem}"),
                Err(Unread::TooMany { .. }) => panic!("failing at {fail_at}: too many"),
                Ok(_) => panic!("failing at {fail_at}: read whole"),
            }
        }
    }
}
