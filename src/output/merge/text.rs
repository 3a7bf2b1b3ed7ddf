//! An export read back as a stream of text: checked to be UTF-8 as it passes (a file that is
//! not is refused with the words `read_to_string` gives, whatever else is wrong with it), a
//! spreadsheet's byte order mark dropped, and noted whether it holds only whitespace. Also the
//! line count of csv records as they are met, which keeps only the bytes of one record.

use std::collections::VecDeque;
use std::io::{self, Read};

/// What `std::fs::read_to_string` says of a file that is not UTF-8.
const NOT_UTF8: &str = "stream did not contain valid UTF-8";

/// The UTF-8 byte order mark a spreadsheet may start a file with.
const MARK: &[u8] = b"\xef\xbb\xbf";

/// `read` given the text of `reader` (its byte order mark dropped), then the rest of it read
/// to its end: a file that is not UTF-8, or cannot be read, is refused as such whatever `read`
/// found, as the text was checked whole before it was parsed. With the outcome: whether the
/// text holds nothing but whitespace. `E`: the caller's error, which a failed read becomes.
pub(crate) fn read_text<R: Read, T, E: From<io::Error>>(
    reader: R,
    read: impl FnOnce(&mut Checked<R>) -> Result<T, E>,
) -> Result<(Result<T, E>, bool), E> {
    let mut text = Checked {
        inner: reader,
        head: Vec::new(),
        at_start: true,
        cut: Vec::new(),
        blank: true,
        invalid: false,
    };
    let outcome = read(&mut text);
    io::copy(&mut text, &mut io::sink())?;
    Ok((outcome, text.blank))
}

/// A reader that gives the bytes of its inner one after checking that they are UTF-8.
pub(crate) struct Checked<R> {
    inner: R,
    /// The first bytes, read to see whether they are the byte order mark, still to be given.
    head: Vec<u8>,
    at_start: bool,
    /// The start of a character the last read cut.
    cut: Vec<u8>,
    /// Only whitespace so far.
    blank: bool,
    invalid: bool,
}

impl<R: Read> Checked<R> {
    /// Reads the first bytes, and drops them when they are the byte order mark.
    fn drop_mark(&mut self) -> io::Result<()> {
        let mut byte = [0u8];
        while self.head.len() < MARK.len() && MARK.starts_with(&self.head) {
            if self.inner.read(&mut byte)? == 0 {
                break;
            }
            self.head.push(byte[0]);
        }
        if self.head == MARK {
            self.head.clear();
        }
        self.at_start = false;
        Ok(())
    }

    fn refuse(&mut self) -> io::Result<()> {
        self.invalid = true;
        Err(io::Error::new(io::ErrorKind::InvalidData, NOT_UTF8))
    }

    /// Checks `bytes`, which follow those checked before (a character may span both).
    fn check(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        while !self.cut.is_empty() {
            let Some((first, rest)) = bytes.split_first() else {
                return Ok(());
            };
            self.cut.push(*first);
            bytes = rest;
            match std::str::from_utf8(&self.cut) {
                Ok(text) => {
                    self.blank &= text.chars().all(char::is_whitespace);
                    self.cut.clear();
                }
                Err(e) if e.error_len().is_some() => return self.refuse(),
                Err(_) => {}
            }
        }
        let valid = match std::str::from_utf8(bytes) {
            Ok(_) => bytes.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => return self.refuse(),
        };
        let text = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        self.blank = self.blank && text.chars().all(char::is_whitespace);
        self.cut = bytes[valid..].to_vec();
        Ok(())
    }
}

impl<R: Read> Read for Checked<R> {
    /// Fills `into` whole unless the file ends: however the bytes come, the csv reader's first
    /// look (for a second byte order mark, which it drops) sees what it would of the text whole.
    fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
        let mut filled = 0;
        while filled < into.len() {
            match self.read_some(&mut into[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(filled)
    }
}

impl<R: Read> Checked<R> {
    fn read_some(&mut self, into: &mut [u8]) -> io::Result<usize> {
        if self.invalid {
            self.refuse()?;
        }
        if self.at_start {
            self.drop_mark()?;
        }
        let n = match self.head.is_empty() {
            true => self.inner.read(into)?,
            false => {
                let n = self.head.len().min(into.len());
                into[..n].copy_from_slice(&self.head[..n]);
                self.head.drain(..n);
                n
            }
        };
        match n {
            0 if !self.cut.is_empty() => self.refuse()?,
            _ => self.check(&into[..n])?,
        }
        Ok(n)
    }
}

/// A reader that counts the lines of what passes, for the csv reader. It keeps, from the last
/// record asked about to what was read, not the bytes but their shape: how many bytes of
/// text, then of line ends (and how many of those are LF), so blank lines between records
/// take no room; a record's line is counted on from the one before.
pub(super) struct Counted<R> {
    inner: R,
    window: VecDeque<Stretch>,
    /// The offset of the window's start, and the line it is on.
    offset: u64,
    line: usize,
}

/// Bytes in a row: `ends` (CR or LF) and of those `lfs` LF, or other bytes.
#[derive(Clone, Copy)]
enum Stretch {
    Text(u64),
    Ends { bytes: u64, lfs: usize },
}

impl<R: Read> Counted<R> {
    pub(super) fn new(inner: R) -> Counted<R> {
        Counted {
            inner,
            window: VecDeque::new(),
            offset: 0,
            line: 1,
        }
    }

    /// The line a record starts on, from its byte offset: the csv reader's own count is off
    /// with CRLF line ends, where a record's offset can point at the line end before it, so
    /// the line ends there are passed over. Records come in order: an offset before the last
    /// one asked about is taken as that one.
    pub(super) fn line_at(&mut self, position: Option<&csv::Position>) -> usize {
        let start = position.map_or(0, csv::Position::byte);
        while let Some(front) = self.window.front_mut() {
            match front {
                Stretch::Text(_) if self.offset >= start => break,
                Stretch::Text(bytes) => {
                    let passed = (*bytes).min(start - self.offset);
                    (*bytes, self.offset) = (*bytes - passed, self.offset + passed);
                    if *bytes > 0 {
                        break;
                    }
                }
                // Line ends before the start, or at it (passed over), are passed whole.
                Stretch::Ends { bytes, lfs } => {
                    (self.offset, self.line) = (self.offset + *bytes, self.line + *lfs);
                }
            }
            self.window.pop_front();
        }
        self.line
    }

    fn note(&mut self, bytes: &[u8]) {
        for byte in bytes {
            let end = matches!(byte, b'\r' | b'\n');
            let lf = usize::from(*byte == b'\n');
            match (self.window.back_mut(), end) {
                (Some(Stretch::Text(bytes)), false) => *bytes += 1,
                (Some(Stretch::Ends { bytes, lfs }), true) => {
                    (*bytes, *lfs) = (*bytes + 1, *lfs + lf)
                }
                (_, false) => self.window.push_back(Stretch::Text(1)),
                (_, true) => self.window.push_back(Stretch::Ends { bytes: 1, lfs: lf }),
            }
        }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(into)?;
        self.note(&into[..n]);
        Ok(n)
    }
}
