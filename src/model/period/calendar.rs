//! What a period is on the calendar: where it starts and ends, the next and earlier ones, how
//! many days it has, and how many of them a row covers. The one home of period arithmetic.

use chrono::{Datelike, Days, Months, NaiveDate};

use crate::model::day_range::DayRange;

/// What one output row covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Period {
    /// one row per day, as the service sends them
    #[default]
    Day,
    /// ISO weeks, Monday to Sunday
    Week,
    /// calendar months
    Month,
    /// calendar quarters, starting in January, April, July and October
    Quarter,
    /// calendar years
    Year,
}

impl Period {
    /// The name `--by` takes.
    pub fn name(self) -> &'static str {
        match self {
            Period::Day => "day",
            Period::Week => "week",
            Period::Month => "month",
            Period::Quarter => "quarter",
            Period::Year => "year",
        }
    }

    /// The first day of the period that holds `date`.
    pub fn start(self, date: NaiveDate) -> NaiveDate {
        let first_of = |month: u32| NaiveDate::from_ymd_opt(date.year(), month, 1);
        let start = match self {
            Period::Day => Some(date),
            Period::Week => {
                let back = date.weekday().num_days_from_monday();
                date.checked_sub_days(Days::new(back.into()))
            }
            Period::Month => first_of(date.month()),
            Period::Quarter => first_of((date.month0() / 3) * 3 + 1),
            Period::Year => first_of(1),
        };
        // Only chrono's first representable week could have no Monday to go back to.
        start.unwrap_or(NaiveDate::MIN)
    }

    /// The first day of the period after the one that starts on `start`; `None` past the last
    /// day chrono knows.
    pub fn next(self, start: NaiveDate) -> Option<NaiveDate> {
        self.back(start, -1)
    }

    /// The first day of the period `n` periods before the one starting on `start` (after it,
    /// for a negative `n`).
    pub fn back(self, start: NaiveDate, n: i64) -> Option<NaiveDate> {
        let months = |per: u64| {
            let months = Months::new(u32::try_from(n.unsigned_abs().checked_mul(per)?).ok()?);
            match n < 0 {
                true => start.checked_add_months(months),
                false => start.checked_sub_months(months),
            }
        };
        let days = |per: u64| {
            let days = Days::new(n.unsigned_abs().checked_mul(per)?);
            match n < 0 {
                true => start.checked_add_days(days),
                false => start.checked_sub_days(days),
            }
        };
        match self {
            Period::Day => days(1),
            Period::Week => days(7),
            Period::Month => months(1),
            Period::Quarter => months(3),
            Period::Year => months(12),
        }
    }

    /// The last day of the period that starts on `start`.
    pub fn last_day(self, start: NaiveDate) -> NaiveDate {
        (self.next(start))
            .and_then(|day| day.pred_opt())
            .unwrap_or(NaiveDate::MAX)
    }

    /// The last day of the last whole period on or before `end`: `end` itself when it ends
    /// its period, else the day before its period starts.
    pub fn last_whole_end(self, end: NaiveDate) -> NaiveDate {
        match end.succ_opt() {
            Some(next) if self.start(next) == next => end,
            _ => self.start(end).pred_opt().unwrap_or(NaiveDate::MIN),
        }
    }

    /// How many calendar days the period that starts on `start` has (7 for a week, 28 to 31
    /// for a month).
    pub fn length(self, start: NaiveDate) -> u32 {
        let days = self.last_day(start) - start;
        u32::try_from(days.num_days() + 1).unwrap_or(u32::MAX)
    }

    /// The first day of each period that meets `range`, in order (the first may start
    /// before the range).
    pub fn starts(self, range: &DayRange) -> Vec<NaiveDate> {
        let mut starts = Vec::new();
        let mut date = Some(self.start(range.start));
        while let Some(day) = date.filter(|d| *d <= range.end) {
            starts.push(day);
            date = self.next(day);
        }
        starts
    }

    /// The days of the period that starts on `start` that lie within `range`.
    pub fn within(self, start: NaiveDate, range: &DayRange) -> DayRange {
        DayRange {
            start: start.max(range.start),
            end: self.last_day(start).min(range.end),
        }
    }
}

/// How much of its period a row covers: the `days` of N a `--by` row stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// The days of the period with at least one value.
    pub days: u32,
    /// The period's calendar length, whatever the range asked (7 for a week, 28 to 31 for a
    /// month): a row of 5 days of 7 is a partial week, at the range's edge or around a gap.
    pub of: u32,
}
