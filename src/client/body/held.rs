//! What of a body is held, and within what bound: a body that leaves the documented shape is
//! handed, with the records read so far stood for by placeholders, to the whole-body parser
//! for its verdict; past [`HELD_MOST`] it is refused instead, and the rest dropped unread.

use std::io::Read;

use super::keep::Records;
use super::reader::{Body, Place, Unread, HELD_MOST};
use super::response::{read_array, records_array};
use crate::model::{Endpoint, Metric};

/// What stands for a record read before a problem: the shortest valid one (a record holds a
/// date, ten characters in quotes, so no valid record is shorter).
const PLACEHOLDER: &[u8] = br#"{"date":"2000-01-01"}"#;

impl Body<'_> {
    /// The body left to the whole-body parser: the head as sent, a placeholder for each
    /// record read, the separators and white space that bring the line and column to where
    /// reading stopped, then everything not consumed, to the end. Its records go on into
    /// `records` after those read, or instead of them if they are another array's. At most
    /// [`HELD_MOST`] of it is held: past that, the body is refused where it left the shape
    /// and the rest is counted and dropped.
    pub(super) fn fall_back(
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
            "the body leaves the documented shape at line {line} column {column}, and more than {} \
            MiB of it would have to be held to say how: not read further",
            HELD_MOST >> 20
        ),
        body: Vec::new(),
    }
}

/// Reads the rest of `reader` onto `held` while `held` stays within `most` bytes: `true` if
/// it all fit; else `held` keeps its first `most` bytes and the rest is counted and dropped
/// (the reader's own limits, the size cap and the deadline, still apply), `false`.
pub(crate) fn read_held(
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
