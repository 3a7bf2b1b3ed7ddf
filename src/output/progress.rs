//! Progress of a run of several requests, on stderr, only when stderr is a terminal that can
//! rewrite a line: redirected stderr (cron mail, CI logs) stays free of carriage-return noise,
//! and a dumb terminal (TERM=dumb) gets nothing but text, as cargo leaves out its bar there.

use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A `requests: done/total` line rewritten in place, and erased when the work is over.
pub(crate) struct Progress {
    total: usize,
    done: AtomicUsize,
    shown: bool,
}

impl Progress {
    /// Shows progress when there are several requests, stderr is a terminal that can rewrite
    /// a line (`rewrites`, as asked once at the start: not TERM=dumb) and diagnostics let it
    /// through (not `-q`, not one JSON object a line).
    pub(crate) fn new(total: usize, rewrites: bool) -> Progress {
        Progress {
            total,
            done: AtomicUsize::new(0),
            shown: total > 1 && rewrites && crate::system::diag::progress_shown(),
        }
    }

    /// Counts one finished request.
    pub(crate) fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if self.shown {
            let mut err = io::stderr().lock();
            let _ = write!(err, "\rrequests: {done}/{} done", self.total);
            let _ = err.flush();
        }
    }

    /// Erases the line, so that warnings and errors start at the left margin.
    pub(crate) fn finish(&self) {
        if self.shown {
            let mut err = io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}
