//! The bounds of every number a user sets, checked the same way at each door (flags, the config
//! file, `config set`): past them a timer overflows (`--timeout 1e19` panicked) or a run never
//! ends, so a value out of bounds is refused where it enters, naming it.

use std::time::Duration;

/// The longest wait a seconds setting takes: a day. Longer never ends a cron job, and far
/// longer overflows the clock.
pub const MAX_SECONDS: f64 = 86_400.0;

/// Why a number of seconds is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondsRefused {
    NotPositive,
    OverADay,
}

impl SecondsRefused {
    /// As said of the value: "'1e19' is more than a day (86400 seconds)".
    pub fn phrase(self) -> &'static str {
        match self {
            SecondsRefused::NotPositive => "is not a positive number of seconds",
            SecondsRefused::OverADay => "is more than a day (86400 seconds)",
        }
    }

    /// As said to the user of what is wanted: "expected a positive number of seconds".
    pub fn expected(self) -> &'static str {
        match self {
            SecondsRefused::NotPositive => "expected a positive number of seconds",
            SecondsRefused::OverADay => "expected at most 86400 seconds (a day)",
        }
    }
}

/// `value` seconds as a duration: positive and at most a day.
pub fn seconds(value: f64) -> Result<Duration, SecondsRefused> {
    if value > MAX_SECONDS {
        return Err(SecondsRefused::OverADay);
    }
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or(SecondsRefused::NotPositive)
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
    most: 100 * 366,
};

/// Days before today from which a day is settled: today's values are not final; past the
/// longest range (`--last` allows 100 years) nothing would ever be settled.
pub const CACHE_SETTLE_DAYS: Count = Count {
    least: 1,
    most: 100 * 366,
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
        for (value, why) in [
            (0.0, SecondsRefused::NotPositive),
            (-1.0, SecondsRefused::NotPositive),
            (f64::NAN, SecondsRefused::NotPositive),
            (f64::NEG_INFINITY, SecondsRefused::NotPositive),
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
