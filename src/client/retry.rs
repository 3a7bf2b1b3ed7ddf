//! When to try a request again, and how long to wait first.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use reqwest::StatusCode;

const FIRST_WAIT: Duration = Duration::from_millis(500);
const MAX_WAIT: Duration = Duration::from_secs(20);
/// A `Retry-After` longer than this fails at once rather than hang a cron job.
pub(super) const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// The statuses CLI.md §3 retries: 429 and the transient 5xx.
pub(super) fn is_retryable(status: StatusCode) -> bool {
    matches!(status.as_u16(), 429 | 500 | 502 | 503 | 504)
}

/// Reads `Retry-After`: delay seconds, or an HTTP date. A number of seconds past u64 is a
/// wait past any other ([`Duration::MAX`]), so the run ends at once as for any wait too long.
/// What cannot be read (a date already past, text) is as if absent: the usual backoff, never
/// "now", so that a hostile header cannot make the run hammer the service.
pub(super) fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return Some(
            value
                .parse::<u64>()
                .map_or(Duration::MAX, Duration::from_secs),
        );
    }
    // httpdate reads all three formats RFC 9110 allows (IMF-fixdate, RFC 850, asctime).
    let when = httpdate::parse_http_date(value).ok()?;
    when.duration_since(SystemTime::now()).ok()
}

/// The retries of a run, by why (`429`, `503`, `timeout`), and the requests they were of, for
/// the line at its end.
#[derive(Default)]
pub(super) struct Tally(Mutex<(usize, BTreeMap<String, usize>)>);

impl Tally {
    /// One retry, for `why`; `first`: the first of its request.
    pub(super) fn count(&self, why: String, first: bool) {
        // A poisoned lock only means another request's thread panicked; the counts stand.
        let mut counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        counts.0 += usize::from(first);
        *counts.1.entry(why).or_default() += 1;
    }

    /// `1 request retried (2 retries): 503 x2`, or `None` when nothing was retried.
    pub(super) fn summary(&self) -> Option<String> {
        let counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (requests, whys) = (counts.0.max(1), &counts.1);
        let retries: usize = whys.values().sum();
        let each: Vec<String> = whys.iter().map(|(why, n)| format!("{why} x{n}")).collect();
        let plural = |n: usize, one: &str, many: &str| match n {
            1 => format!("{n} {one}"),
            _ => format!("{n} {many}"),
        };
        (retries > 0).then(|| {
            format!(
                "{} retried ({}): {}",
                plural(requests, "request", "requests"),
                plural(retries, "retry", "retries"),
                each.join(", ")
            )
        })
    }
}

/// Counts attempts and hands out the wait before each retry: exponential, full jitter.
pub(super) struct Backoff {
    retries: u32,
    attempts: u32,
}

impl Backoff {
    pub(super) fn new(retries: u32) -> Backoff {
        Backoff {
            retries,
            attempts: 1,
        }
    }

    /// Attempts made so far, counting the one under way.
    pub(super) fn attempts(&self) -> u32 {
        self.attempts
    }

    /// The wait before the next attempt, or why there is none: `Err(None)` when the retries
    /// are spent, `Err(Some(reason))` when the service asked for too long a wait.
    pub(super) fn next_wait(
        &mut self,
        asked: Option<Duration>,
    ) -> Result<Duration, Option<String>> {
        if self.attempts > self.retries {
            return Err(None);
        }
        if let Some(asked) = asked.filter(|a| *a > MAX_RETRY_AFTER) {
            let over = if asked == Duration::MAX { "over " } else { "" };
            return Err(Some(format!(
                "the service asked to wait {over}{} s before retrying, longer than the {} s this \
                tool waits",
                asked.as_secs(),
                MAX_RETRY_AFTER.as_secs()
            )));
        }
        let ceiling = FIRST_WAIT
            .saturating_mul(1 << (self.attempts - 1).min(16))
            .min(MAX_WAIT);
        self.attempts += 1;
        Ok(asked.unwrap_or_else(|| ceiling.mul_f64(fastrand::f64())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_seconds_and_dates() {
        assert_eq!(parse_retry_after("7"), Some(Duration::from_secs(7)));
        // A date already past: as if absent (the usual backoff); a number past u64: past any
        // wait, so refused at once.
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("Sunday, 06-Nov-94 08:49:37 GMT"), None);
        assert_eq!(
            parse_retry_after("99999999999999999999999999"),
            Some(Duration::MAX)
        );
        assert_eq!(parse_retry_after(""), None);
        let ahead = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(30));
        let wait = parse_retry_after(&ahead).unwrap();
        assert!(
            wait > Duration::from_secs(28) && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        assert_eq!(parse_retry_after("soon"), None);
        assert_eq!(parse_retry_after("-5"), None);
    }

    #[test]
    fn waits_grow_within_ceiling_then_stop() {
        let mut backoff = Backoff::new(3);
        for ceiling_ms in [500, 1000, 2000] {
            let wait = backoff.next_wait(None).unwrap();
            assert!(wait <= Duration::from_millis(ceiling_ms), "{wait:?}");
        }
        assert_eq!(backoff.attempts(), 4);
        assert_eq!(backoff.next_wait(None), Err(None));
    }

    #[test]
    fn long_retry_after_is_refused() {
        let mut backoff = Backoff::new(3);
        assert_eq!(
            backoff.next_wait(Some(Duration::from_secs(2))),
            Ok(Duration::from_secs(2))
        );
        let err = backoff
            .next_wait(Some(Duration::from_secs(120)))
            .unwrap_err()
            .unwrap();
        assert!(err.starts_with("the service asked to wait 120 s"), "{err}");
    }
}
