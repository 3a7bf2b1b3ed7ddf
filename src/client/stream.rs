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
use super::response::{parse_object, read_array, records_array};
use crate::model::{Endpoint, Metric, Record};

/// How a body could not be read into records.
pub(super) enum Unread {
    /// Reading failed: the connection, the deadline or the size cap (see `transport`).
    Read(std::io::Error),
    /// Not the documented shape: what is wrong, and a body with the same verdict (the records
    /// read before the problem stood for by placeholders), to quote again with the key masked
    /// (empty when the problem quotes nothing of the body).
    Shape { problem: String, body: Vec<u8> },
    /// More records than `most` (see [`most_records`]): refused as the one past it came.
    TooMany { most: usize },
}

impl From<std::io::Error> for Unread {
    fn from(error: std::io::Error) -> Unread {
        Unread::Read(error)
    }
}

/// How many records an answer may send per day asked: one is what the service sends; a few
/// duplicates or days outside the range pass (the client keeps one record a day, see `keep`),
/// but no more, so that a body within the size cap that is millions of records
/// (`[{"date":"2024-01-01"},...]`) ends as soon as it passes them.
pub(crate) const RECORDS_PER_DAY: usize = 4;

/// The most records an answer for `days` days may hold.
pub(crate) fn most_records(days: u64) -> usize {
    usize::try_from(days)
        .unwrap_or(usize::MAX)
        .saturating_mul(RECORDS_PER_DAY)
}

/// What stands for a record read before a problem: the shortest valid one (a record holds a
/// date, ten characters in quotes, so no valid record is shorter).
const PLACEHOLDER: &[u8] = br#"{"date":"2000-01-01"}"#;

/// How much is asked of the reader at a time.
const CHUNK: usize = 16 * 1024;

/// The most of a body held at once, whatever the server sends: one record being read, or a
/// body off the documented shape kept for the whole-body parser's verdict and words (the
/// records read before stood for by placeholders). Past it, a record or such a body is refused
/// as too long to read; the rest of the body is counted and dropped, within the size cap and
/// the deadline. The per-request part of the peak-memory bound (docs/https-and-proxies.md).
pub(crate) const HELD_MOST: usize = 1024 * 1024;

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

/// Where the reading stands in the documented shape when it leaves it.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// Before the array of records opened: every byte read so far is kept.
    Head,
    /// In the array, after `[` or after a record.
    InArray,
    /// In the array, after a `,`: a record must come.
    AfterComma,
    /// After the array's `]`.
    Closed,
    /// After the official account's closing `}`, past the array.
    Ended,
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

/// The body being read: what has come and is not yet consumed, and where the consumed part
/// ends, as serde_json counts it.
struct Body<'r> {
    reader: &'r mut dyn Read,
    /// Read and not yet consumed: `buffer[at..filled]`; the rest is room for the next read.
    buffer: Vec<u8>,
    at: usize,
    filled: usize,
    place: Place,
    /// The bytes consumed before the array's first record, as sent, through its `[`; at most
    /// [`HELD_MOST`] of them (`head_cut` says whether more came).
    head: Vec<u8>,
    head_cut: bool,
    /// Lines and the column (bytes since the last line feed) the consumed bytes end at.
    line_feeds: usize,
    column: usize,
}

impl<'r> Body<'r> {
    fn new(reader: &'r mut dyn Read) -> Body<'r> {
        Body {
            reader,
            buffer: Vec::new(),
            at: 0,
            filled: 0,
            place: Place::Head,
            head: Vec::new(),
            head_cut: false,
            line_feeds: 0,
            column: 0,
        }
    }

    fn pending(&self) -> &[u8] {
        &self.buffer[self.at..self.filled]
    }

    /// Reads more, keeping what is pending (moved to the front when the room runs out);
    /// `false` at the end of the body.
    fn fill(&mut self) -> std::io::Result<bool> {
        if self.filled == self.buffer.len() {
            self.buffer.copy_within(self.at..self.filled, 0);
            self.filled -= self.at;
            self.at = 0;
            if self.filled + CHUNK / 4 > self.buffer.len() {
                self.buffer.resize(self.filled + CHUNK, 0);
            }
        }
        let read = loop {
            match self.reader.read(&mut self.buffer[self.filled..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other?,
            }
        };
        self.filled += read;
        Ok(read > 0)
    }

    fn peek(&mut self) -> std::io::Result<Option<u8>> {
        if self.at == self.filled && !self.fill()? {
            return Ok(None);
        }
        Ok(self.buffer.get(self.at).copied())
    }

    /// Consumes `count` pending bytes, counting their line feeds; before the array's first
    /// record they are kept as sent.
    fn consume(&mut self, count: usize) {
        let bytes = &self.buffer[self.at..self.at + count];
        match bytes.iter().rposition(|b| *b == b'\n') {
            Some(last) => {
                self.line_feeds += bytes.iter().filter(|b| **b == b'\n').count();
                self.column = count - last - 1;
            }
            None => self.column += count,
        }
        if self.place == Place::Head {
            match self.head.len() + bytes.len() <= HELD_MOST {
                true => self.head.extend_from_slice(bytes),
                false => self.head_cut = true,
            }
        }
        self.at += count;
    }

    /// Consumes the white space that comes next, a run at a time.
    fn skip_space(&mut self) -> std::io::Result<()> {
        while self.peek()?.is_some() {
            let run = self.pending().iter().take_while(|b| is_space(**b)).count();
            self.consume(run);
            if self.at < self.filled {
                break;
            }
        }
        Ok(())
    }

    /// Consumes `expected` if the body goes on with it.
    fn take(&mut self, expected: &[u8]) -> std::io::Result<bool> {
        while self.pending().len() < expected.len() {
            if !self.fill()? {
                return Ok(false);
            }
        }
        let matches = self.pending().starts_with(expected);
        if matches {
            self.consume(expected.len());
        }
        Ok(matches)
    }

    /// The length of the object that starts the pending bytes, read on until it closes; `None`
    /// if the body ends first, or the object passes [`HELD_MOST`]. Only brackets and strings
    /// are followed: whether it is JSON is for the parser to say.
    fn object_length(&mut self) -> std::io::Result<Option<usize>> {
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        let mut scanned = 0;
        loop {
            let pending = self.pending();
            for (offset, byte) in pending.iter().enumerate().skip(scanned) {
                match (in_string, escaped, *byte) {
                    (true, true, _) => escaped = false,
                    (true, false, b'\\') => escaped = true,
                    (true, false, b'"') => in_string = false,
                    (true, false, _) => {}
                    (false, _, b'"') => in_string = true,
                    (false, _, b'{' | b'[') => depth += 1,
                    (false, _, b'}' | b']') => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return Ok(Some(offset + 1).filter(|n| *n <= HELD_MOST));
                        }
                    }
                    (false, _, _) => {}
                }
            }
            scanned = pending.len();
            if scanned > HELD_MOST || !self.fill()? {
                return Ok(None);
            }
        }
    }

    /// The body left to the whole-body parser: the head as sent, a placeholder for each
    /// record read, the separators and white space that bring the line and column to where
    /// reading stopped, then everything not consumed, to the end. Its records go on into
    /// `records` after those read, or instead of them if they are another array's. At most
    /// [`HELD_MOST`] of it is held: past that, the body is refused where it left the shape
    /// and the rest is counted and dropped.
    fn fall_back(
        mut self,
        endpoint: Endpoint,
        columns: &[Metric],
        records: &mut dyn Records,
    ) -> Result<(), Unread> {
        let array_at = self
            .head
            .len()
            .checked_sub(1)
            .filter(|_| self.place != Place::Head);
        let left_at = (self.line_feeds + 1, self.column + 1);
        let Some(mut body) = self.rebuilt(records.count()) else {
            drop_rest(self.reader)?;
            return Err(too_long(left_at));
        };
        drop(self.buffer);
        if !read_held(self.reader, &mut body, HELD_MOST)? {
            return Err(too_long(left_at));
        }
        let read = match records_array(endpoint, &body) {
            // The records of the array read (not of another `data` member after it) begin
            // with the placeholders, which stand for the records already taken.
            Ok((array, at)) => {
                let from = match at.is_some() && at == array_at {
                    true => records.count(),
                    false => {
                        records.restart();
                        0
                    }
                };
                read_array(endpoint, array, from, columns, records)
            }
            Err(problem) => Err(problem),
        };
        read.map_err(|problem| Unread::Shape { problem, body })
    }

    /// The body from its start to the end of what is pending, with `count` placeholders for the
    /// records read (see [`Body::fall_back`]); `None` if that passes [`HELD_MOST`].
    fn rebuilt(&mut self, count: usize) -> Option<Vec<u8>> {
        let mut body = std::mem::take(&mut self.head);
        if self.head_cut {
            return None;
        }
        if self.place != Place::Head {
            let placeholders = count.saturating_mul(PLACEHOLDER.len() + 1);
            if body.len().saturating_add(placeholders) > HELD_MOST {
                return None;
            }
            for n in 0..count {
                if n > 0 {
                    body.push(b',');
                }
                body.extend_from_slice(PLACEHOLDER);
            }
            match self.place {
                Place::AfterComma => body.push(b','),
                Place::Closed => body.push(b']'),
                Place::Ended => body.extend_from_slice(b"]}"),
                _ => {}
            }
            self.pad(&mut body)?;
        }
        if body.len() + self.pending().len() > HELD_MOST {
            return None;
        }
        body.extend_from_slice(self.pending());
        Some(body)
    }

    /// White space after the placeholders that ends `body` at the line and column where
    /// reading stopped (the records stood for are at least as long as their placeholders);
    /// `None` if that would pass [`HELD_MOST`].
    fn pad(&self, body: &mut Vec<u8>) -> Option<()> {
        let line_feeds = body.iter().filter(|b| **b == b'\n').count();
        let column = body.len()
            - body
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |at| at + 1);
        let (feeds, spaces) = match self.line_feeds > line_feeds {
            true => (self.line_feeds - line_feeds, self.column),
            false => (0, self.column.saturating_sub(column)),
        };
        if body.len().saturating_add(feeds).saturating_add(spaces) > HELD_MOST {
            return None;
        }
        body.resize(body.len() + feeds, b'\n');
        body.resize(body.len() + spaces, b' ');
        Some(())
    }
}

/// A body off the shape, too long from `(line, column)` on to be held for its verdict.
fn too_long((line, column): (usize, usize)) -> Unread {
    Unread::Shape {
        problem: format!(
            "the body leaves the documented shape at line {line} column {column}, and more than {} MiB of it would have to be held to say how: not read further",
            HELD_MOST >> 20
        ),
        body: Vec::new(),
    }
}

/// Reads the rest of `reader` onto `held` while `held` stays within `most` bytes: `true` if
/// it all fit; else `held` keeps its first `most` bytes and the rest is counted and dropped
/// (the reader's own limits, the size cap and the deadline, still apply), `false`.
pub(super) fn read_held(
    reader: &mut dyn Read,
    held: &mut Vec<u8>,
    most: usize,
) -> std::io::Result<bool> {
    let room = (most + 1).saturating_sub(held.len()) as u64;
    Read::take(&mut *reader, room).read_to_end(held)?;
    if held.len() <= most {
        return Ok(true);
    }
    held.truncate(most);
    held.shrink_to_fit();
    drop_rest(reader)?;
    Ok(false)
}

/// Reads `reader` to its end, holding nothing of it.
fn drop_rest(reader: &mut dyn Read) -> std::io::Result<()> {
    std::io::copy(reader, &mut std::io::sink()).map(|_| ())
}

/// JSON's white space (not ASCII's, which has a form feed too).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::response::parse_whole;
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
        let lines = "[\n  {\"date\": \"2024-01-01\", \"fees\": 1},\n  {\"date\": \"2024-01-02\",\n   \"fees\": 2}";
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
                assert_eq!(problem, format!("the body leaves the documented shape at {at}, and more than 1 MiB of it would have to be held to say how: not read further"));
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
