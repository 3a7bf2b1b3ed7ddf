//! `--raw`: one request's success body as the service sent it, written out as it arrives (so
//! no body is held whole, whatever its length), the key masked wherever the service echoed it.

use std::io::{self, Write};

use super::retry::Backoff;
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

impl Client {
    /// Fetches the body of one request and writes it to `out` as it arrives, for `--raw`:
    /// byte for byte, but for the key, masked wherever the service echoed it (the key never
    /// shows, even cut between two pieces of the body). A body cut short after some of it was
    /// written is not asked again (it would be written twice).
    pub(crate) fn fetch_raw(
        &self,
        request: &Request,
        out: &mut dyn Write,
    ) -> std::result::Result<RawBody, RawFailed> {
        let failed = |f: Failure| {
            let f = raw_range_hint(f).with_detail(request.detail());
            RawFailed::Fetch(self.scrubbed(f))
        };
        let (mut answer, method) = self.fetch(request, None).map_err(failed)?;
        check_content_type(&|t| self.mask(t), request, &method, &answer).map_err(failed)?;
        let mut scrub = self.key.raw_scrub();
        let write = |out: &mut dyn Write, bytes: &[u8]| out.write_all(bytes);
        if let Some(mut body) = answer.unread.take() {
            let mut piece = vec![0; PIECE];
            loop {
                let read = body.next_piece(&mut piece).map_err(|problem| {
                    failed(self.transport_failure(request, &method, &problem, &Backoff::new(0)))
                })?;
                if read == 0 {
                    break;
                }
                write(out, &scrub.piece(&piece[..read])).map_err(RawFailed::Write)?;
            }
            self.trace(|| format!("{} bytes of body ({})", body.count(), request.label()));
        } else {
            // Held already (no success is, but a held body is written all the same).
            write(out, &scrub.piece(&answer.body)).map_err(RawFailed::Write)?;
        }
        let (rest, key_masked) = scrub.end();
        write(out, &rest).map_err(RawFailed::Write)?;
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
