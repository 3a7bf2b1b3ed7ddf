//! A query's requests or answer as they are, with no rows made: `--raw`'s body and
//! `--dry-run`'s curl lines.

use std::io::{self, Write};

use super::cached::plan_work;
use super::connect::{add_key_hint, connect};
use super::Query;
use crate::cache::Mode as CacheMode;
use crate::client::{curl_lines, RawFailed};
use crate::error::Failure;
use crate::output::write_stdout;
use crate::settings::MASK;
use crate::system::diag;
use crate::system::foreign::TerminalPieces;

/// `--raw`: one body as sent, the whole range in one request, written as it arrives (to a
/// file, the file is replaced once all of it came).
pub(super) fn print_raw(query: &Query) -> anyhow::Result<()> {
    let settings = &query.settings;
    let (client, _sandbox) = connect(settings)?;
    let request = &query.plan.requests()[0];
    // To a pipe or a file byte for byte; a terminal gets no control characters, which
    // would let the service drive it (write the clipboard, change the title).
    let terminal = query.output.to_terminal();
    let (mut failed, mut key_masked) = (None, false);
    let written = query.output.write_streamed(&mut |out| {
        let mut shown = Shown {
            out,
            terminal: terminal.then(TerminalPieces::default),
            last: None,
        };
        match client.fetch_raw(request, &mut shown) {
            Ok(raw) => {
                key_masked = raw.key_masked;
                shown.end()
            }
            Err(RawFailed::Write(e)) => Err(e),
            Err(RawFailed::Fetch(failure)) => {
                failed = Some(failure);
                Err(io::Error::other("the request failed"))
            }
        }
    });
    if let Some(failure) = failed {
        return Err(add_key_hint(failure, settings).into());
    }
    if key_masked {
        let line =
            format!("the service echoed the API key in its answer; --raw shows it as {MASK}");
        diag::warning(line);
    }
    written
}

/// The body on its way out: made safe for a terminal when it goes to one, and ended with the
/// newline a text file and a shell prompt expect after it.
struct Shown<'a> {
    out: &'a mut dyn Write,
    terminal: Option<TerminalPieces>,
    /// The body's last byte so far.
    last: Option<u8>,
}

impl Write for Shown<'_> {
    fn write(&mut self, piece: &[u8]) -> io::Result<usize> {
        let Some(&last) = piece.last() else {
            return Ok(0);
        };
        match &mut self.terminal {
            Some(terminal) => self.out.write_all(&terminal.piece(piece))?,
            None => self.out.write_all(piece)?,
        }
        self.last = Some(last);
        Ok(piece.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

impl Shown<'_> {
    fn end(mut self) -> io::Result<()> {
        if let Some(terminal) = self.terminal.take() {
            self.out.write_all(&terminal.end())?;
        }
        if self.last != Some(b'\n') {
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// `--dry-run`: the curl lines of the requests the cache (read only) cannot answer.
pub(super) fn print_curl_lines(query: &Query, look: Option<CacheMode>) -> anyhow::Result<()> {
    let settings = &query.settings;
    if settings.sandbox {
        return Err(Failure::usage(
            "--dry-run prints commands for a service that outlives the run; --sandbox lasts only \
            one run",
        )
        .with_hint("start `chain-metrics sandbox` and set CHAIN_METRICS_BASE_URL to its URL")
        .into());
    }
    let (work, _) = plan_work(settings, &query.plan, look)?;
    if work.requests.is_empty() {
        diag::note("every day asked is in the cache: nothing would be sent");
    }
    let lines = curl_lines(&settings.service_url()?, settings.method, &work.requests);
    write_stdout(|out| lines.iter().try_for_each(|line| writeln!(out, "{line}")))
}
