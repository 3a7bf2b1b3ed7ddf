//! `--raw`: one request's success body as the service sent it, written out as it arrives (so
//! no body is held whole, whatever its length), the key masked wherever the service echoed it.

use std::io::{self, Write};

use super::retry::Backoff;
use super::transport::{Answer, TransportError};
use super::{check_content_type, raw_range_hint, Client};
use crate::error::{Exit, Failure, Result};
use crate::fetched::Request;

/// How much of the body is read at a time.
const PIECE: usize = 64 * 1024;

/// What `--raw` learned of the body it wrote.
pub(crate) struct RawBody {
    /// Whether the key had to be masked in it.
    pub key_masked: bool,
}

/// Why `--raw` ended before the body's end: the request failed (nothing of the body written
/// unless it failed while the body came), or the place it was written to refused it.
pub(crate) enum RawFailed {
    Fetch(Failure),
    Write(io::Error),
}

/// How a body's streaming ended early.
enum Cut {
    /// Before any of it was written: it may be asked again.
    Unwritten(TransportError),
    /// After some was: asking again would write it twice.
    Written(TransportError),
    Write(io::Error),
}

impl Client {
    /// Fetches the body of one request and writes it to `out` as it arrives, for `--raw`:
    /// byte for byte, but for the key, masked wherever the service echoed it (the key never
    /// shows, even cut between two pieces of the body). A body cut short before any of it was
    /// written is asked again, as the retries allow; after, it is not (it would be written
    /// twice).
    pub(crate) fn fetch_raw(
        &self,
        request: &Request,
        out: &mut dyn Write,
    ) -> std::result::Result<RawBody, RawFailed> {
        let failed = |f: Failure| {
            let f = raw_range_hint(f).with_detail(request.detail());
            RawFailed::Fetch(self.scrubbed(f))
        };
        let mut backoff = Backoff::new(self.retries);
        loop {
            let (mut answer, method) = self.fetch(request, None).map_err(failed)?;
            check_content_type(&|t| self.mask(t), request, &method, &answer).map_err(failed)?;
            let problem = match self.stream(&mut answer, request, out) {
                Ok(raw) => return Ok(raw),
                Err(Cut::Write(e)) => return Err(RawFailed::Write(e)),
                Err(Cut::Unwritten(problem)) if problem.is_transient() => problem,
                Err(Cut::Unwritten(problem) | Cut::Written(problem)) => {
                    return Err(failed(
                        self.transport_failure(request, &method, &problem, &backoff),
                    ))
                }
            };
            let Ok(wait) = backoff.next_wait(None) else {
                return Err(failed(
                    self.transport_failure(request, &method, &problem, &backoff),
                ));
            };
            self.retried
                .count(problem.short().to_owned(), backoff.attempts() == 2);
            self.trace(|| {
                format!(
                    "retry {} of {} in {} ms: {method} {}: {} ({})",
                    backoff.attempts() - 1,
                    self.retries,
                    wait.as_millis(),
                    self.url(request.endpoint),
                    self.describe(&problem),
                    request.label()
                )
            });
            std::thread::sleep(wait);
        }
    }

    /// Writes the answer's body to `out` as it is read, the key masked.
    fn stream(
        &self,
        answer: &mut Answer,
        request: &Request,
        out: &mut dyn Write,
    ) -> std::result::Result<RawBody, Cut> {
        let mut scrub = self.key.raw_scrub();
        let mut written = false;
        let mut write = |bytes: &[u8]| {
            written |= !bytes.is_empty();
            out.write_all(bytes).map_err(Cut::Write)
        };
        if let Some(body) = answer.unread.as_mut() {
            let mut piece = vec![0; PIECE];
            loop {
                let read = match body.next_piece(&mut piece) {
                    Ok(read) => read,
                    Err(problem) if written => return Err(Cut::Written(problem)),
                    Err(problem) => return Err(Cut::Unwritten(problem)),
                };
                if read == 0 {
                    break;
                }
                write(&scrub.piece(&piece[..read]))?;
            }
            self.trace(|| format!("{} bytes of body ({})", body.count(), request.label()));
        } else {
            // Held already (no success is, but a held body is written all the same).
            write(&scrub.piece(&answer.body))?;
        }
        let (rest, key_masked) = scrub.end();
        write(&rest)?;
        Ok(RawBody { key_masked })
    }

    /// Fetches one request's body and drops it as it arrives: whether the service takes the
    /// key (`auth`), within the same bounds as `--raw`.
    pub(crate) fn fetch_dropped(&self, request: &Request) -> Result<()> {
        match self.fetch_raw(request, &mut io::sink()) {
            Ok(_) => Ok(()),
            Err(RawFailed::Fetch(failure)) => Err(failure),
            Err(RawFailed::Write(e)) => Err(Failure::new(Exit::Internal, e.to_string())),
        }
    }
}
