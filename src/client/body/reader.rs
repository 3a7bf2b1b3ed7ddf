//! The bytes of a body as the stream reads them: what has come and is not yet consumed, where
//! the consumed part ends (its line and column, as serde_json counts them), and the head kept
//! as sent; and how a body could not be read into records.

use std::io::Read;

/// How a body could not be read into records.
pub(super) enum Unread {
    /// Reading failed: the connection, the deadline or the size cap (see `transport`).
    Read(std::io::Error),
    /// Not the documented shape: what is wrong, and a body with the same verdict (the records
    /// read before the problem stood for by placeholders), to quote again with the key masked
    /// (empty when the problem quotes nothing of the body).
    Shape { problem: String, body: Vec<u8> },
    /// More records than `most` (see [`most_records`](super::stream::most_records)): refused
    /// as the one past it came.
    TooMany { most: usize },
}

impl From<std::io::Error> for Unread {
    fn from(error: std::io::Error) -> Unread {
        Unread::Read(error)
    }
}

/// How much is asked of the reader at a time.
pub(super) const CHUNK: usize = 16 * 1024;

/// The most of a body held at once, whatever the server sends: one record being read, or a
/// body off the documented shape kept for the whole-body parser's verdict and words (the
/// records read before stood for by placeholders). Past it, a record or such a body is refused
/// as too long to read; the rest of the body is counted and dropped, within the size cap and
/// the deadline. The per-request part of the peak-memory bound (docs/https-and-proxies.md).
pub(super) const HELD_MOST: usize = 1024 * 1024;

/// Where the reading stands in the documented shape when it leaves it.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Place {
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

/// The body being read: what has come and is not yet consumed, and where the consumed part
/// ends, as serde_json counts it.
pub(super) struct Body<'r> {
    pub(super) reader: &'r mut dyn Read,
    /// Read and not yet consumed: `buffer[at..filled]`; the rest is room for the next read.
    pub(super) buffer: Vec<u8>,
    pub(super) at: usize,
    pub(super) filled: usize,
    pub(super) place: Place,
    /// The bytes consumed before the array's first record, as sent, through its `[`; at most
    /// [`HELD_MOST`] of them (`head_cut` says whether more came).
    pub(super) head: Vec<u8>,
    pub(super) head_cut: bool,
    /// Lines and the column (bytes since the last line feed) the consumed bytes end at.
    pub(super) line_feeds: usize,
    pub(super) column: usize,
}

impl<'r> Body<'r> {
    pub(super) fn new(reader: &'r mut dyn Read) -> Body<'r> {
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

    pub(super) fn pending(&self) -> &[u8] {
        &self.buffer[self.at..self.filled]
    }

    /// Reads more, keeping what is pending (moved to the front when the room runs out);
    /// `false` at the end of the body.
    pub(super) fn fill(&mut self) -> std::io::Result<bool> {
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

    pub(super) fn peek(&mut self) -> std::io::Result<Option<u8>> {
        if self.at == self.filled && !self.fill()? {
            return Ok(None);
        }
        Ok(self.buffer.get(self.at).copied())
    }

    /// Consumes `count` pending bytes, counting their line feeds; before the array's first
    /// record they are kept as sent.
    pub(super) fn consume(&mut self, count: usize) {
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
    pub(super) fn skip_space(&mut self) -> std::io::Result<()> {
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
    pub(super) fn take(&mut self, expected: &[u8]) -> std::io::Result<bool> {
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
    pub(super) fn object_length(&mut self) -> std::io::Result<Option<usize>> {
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
}

/// JSON's white space (not ASCII's, which has a form feed too).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}
