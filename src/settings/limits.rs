//! The bounds of every number a user sets, checked the same way at each door (flags, the config
//! file, `config set`): past them a timer overflows (`--timeout 1e19` panicked) or a run never
//! ends, so a value out of bounds is refused where it enters, naming it.

use std::time::Duration;

use crate::model::{DAY_SECONDS, MAX_RANGE_DAYS};

/// The longest wait a seconds setting takes: a day. Longer never ends a cron job, and far
/// longer overflows the clock.
pub(crate) const MAX_SECONDS: f64 = DAY_SECONDS as f64;

/// The shortest wait a seconds setting takes: a millisecond. Shorter ends every request before
/// it starts (and `1e-10` rounds to no time at all).
pub(crate) const MIN_SECONDS: f64 = 0.001;

/// The shortest API key taken: a shorter one could not be masked in output without masking
/// ordinary text (a key `1` would turn `2024-01-01` into `2024-0****-0****`), CLI.md §2.
pub(crate) const MIN_KEY_CHARS: usize = 8;

/// The most bytes read for a key (an `api_key_command`'s output, `auth login`'s line of stdin):
/// a key is one short line, and a command such as `yes` never stops printing.
pub(crate) const MAX_KEY_BYTES: usize = 4096;

/// Why a number of seconds is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondsRefused {
    NotANumber,
    UnderAMillisecond,
    OverADay,
}

impl SecondsRefused {
    /// As said of the value: "'1e19' is more than a day (86400 seconds)".
    pub fn phrase(self) -> &'static str {
        match self {
            SecondsRefused::NotANumber => "is not a number of seconds",
            SecondsRefused::UnderAMillisecond => {
                "is less than 0.001 seconds (a millisecond), the shortest wait"
            }
            SecondsRefused::OverADay => "is more than a day (86400 seconds)",
        }
    }

    /// As said to the user of what is wanted: "expected at least 0.001 seconds (a millisecond)".
    pub fn expected(self) -> &'static str {
        match self {
            SecondsRefused::NotANumber => "expected a number of seconds from 0.001 to 86400",
            SecondsRefused::UnderAMillisecond => "expected at least 0.001 seconds (a millisecond)",
            SecondsRefused::OverADay => "expected at most 86400 seconds (a day)",
        }
    }
}

/// `value` seconds as a duration: at least a millisecond and at most a day.
pub fn seconds(value: f64) -> Result<Duration, SecondsRefused> {
    match value {
        _ if value.is_nan() => Err(SecondsRefused::NotANumber),
        _ if value > MAX_SECONDS => Err(SecondsRefused::OverADay),
        _ if value < MIN_SECONDS => Err(SecondsRefused::UnderAMillisecond),
        _ => Ok(Duration::from_secs_f64(value)),
    }
}

/// The bounds of a whole-number setting, both included.
#[derive(Clone, Copy, Debug)]
pub struct Count {
    pub least: u32,
    pub most: u32,
}

/// Further attempts after a transient failure: at most 20 s apart, 100 of them already take
/// more than half an hour.
pub const RETRIES: Count = Count {
    least: 0,
    most: 100,
};
/// Requests in flight at once: one thread each, and a service answers many at once with 429.
pub const JOBS: Count = Count { least: 1, most: 64 };
/// Days per request: as long as the longest range (`--last` allows 100 years).
pub const CHUNK_DAYS: Count = Count {
    least: 1,
    most: MAX_RANGE_DAYS,
};

/// Days before today from which a day is settled: today's values are not final; past the
/// longest range (`--last` allows 100 years) nothing would ever be settled.
pub const CACHE_SETTLE_DAYS: Count = Count {
    least: 1,
    most: MAX_RANGE_DAYS,
};

/// Decimals of a divided value (`--decimals`): a percent or a mean past 30 decimals says
/// nothing more, and each decimal is a digit of every exact division.
pub(crate) const DECIMALS: Count = Count { least: 0, most: 30 };
/// Rows of a rolling mean (`--rolling`): as many as the longest range has days.
pub(crate) const ROLLING_ROWS: Count = Count {
    least: 1,
    most: MAX_RANGE_DAYS,
};

impl Count {
    /// `text` as a number within the bounds, or `None`.
    pub fn parse(self, text: &str) -> Option<u32> {
        text.trim().parse::<u64>().ok().and_then(|n| self.check(n))
    }

    /// `value` when it is within the bounds.
    pub fn check(self, value: u64) -> Option<u32> {
        u32::try_from(value)
            .ok()
            .filter(|n| (self.least..=self.most).contains(n))
    }

    /// "from 1 to 64", for messages.
    pub fn span(self) -> String {
        format!("from {} to {}", self.least, self.most)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_bounded_on_both_sides() {
        assert_eq!(seconds(2.5), Ok(Duration::from_millis(2500)));
        assert_eq!(seconds(86_400.0), Ok(Duration::from_secs(86_400)));
        assert_eq!(seconds(0.001), Ok(Duration::from_millis(1)));
        for (value, why) in [
            (0.0, SecondsRefused::UnderAMillisecond),
            (-1.0, SecondsRefused::UnderAMillisecond),
            (1e-10, SecondsRefused::UnderAMillisecond),
            (0.000_999, SecondsRefused::UnderAMillisecond),
            (f64::NAN, SecondsRefused::NotANumber),
            (f64::NEG_INFINITY, SecondsRefused::UnderAMillisecond),
            (f64::INFINITY, SecondsRefused::OverADay),
            (1e300, SecondsRefused::OverADay),
            (86_400.5, SecondsRefused::OverADay),
            (1e19, SecondsRefused::OverADay),
        ] {
            assert_eq!(seconds(value), Err(why), "{value}");
        }
    }

    #[test]
    fn counts_are_bounded_on_both_sides() {
        assert_eq!(JOBS.parse("64"), Some(64));
        assert_eq!(JOBS.parse("0"), None);
        assert_eq!(JOBS.parse("65"), None);
        assert_eq!(RETRIES.parse("0"), Some(0));
        assert_eq!(RETRIES.check(u64::MAX), None);
        assert_eq!(CHUNK_DAYS.parse("-1"), None);
        assert_eq!(CHUNK_DAYS.span(), "from 1 to 36600");
    }
}
