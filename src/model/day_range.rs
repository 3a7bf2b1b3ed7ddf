//! An inclusive range of UTC days, and the walks over it: a leaf that dates (which parses
//! ranges) and periods (which cut them up) both use.

use chrono::{Days, NaiveDate};

/// An inclusive range of UTC days.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DayRange {
    pub start: NaiveDate,
    pub end: NaiveDate,
}

impl DayRange {
    pub fn contains(&self, day: NaiveDate) -> bool {
        self.start <= day && day <= self.end
    }

    /// The range cut into consecutive windows of at most `days` days, in order.
    pub fn windows(&self, days: u32) -> Vec<DayRange> {
        let mut windows = Vec::new();
        let mut start = self.start;
        while start <= self.end {
            // Checked: `--chunk-days 4000000000` reaches past the last date chrono knows.
            let end = start
                .checked_add_days(Days::new(u64::from(days.max(1)) - 1))
                .map_or(self.end, |end| end.min(self.end));
            windows.push(DayRange { start, end });
            match end.succ_opt() {
                Some(next) => start = next,
                None => break,
            }
        }
        windows
    }

    /// Every day of the range, in order.
    pub fn days(&self) -> impl Iterator<Item = NaiveDate> {
        self.start.iter_days().take_while({
            let end = self.end;
            move |d| *d <= end
        })
    }
}
