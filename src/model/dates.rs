//! Days and day ranges as users write them: `YYYY-MM-DD`, `today`, `yesterday`, `--last 4w`.

use super::echo::echo;
use chrono::{Datelike, Days, NaiveDate, Utc};

/// A day as given on the command line, resolved against today's UTC date later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DaySpec {
    Date(NaiveDate),
    Today,
    Yesterday,
}

/// An inclusive range of UTC days.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DayRange {
    pub start: NaiveDate,
    pub end: NaiveDate,
}

/// Today's date in UTC: the service's days are UTC days.
pub fn today_utc() -> NaiveDate {
    Utc::now().date_naive()
}

/// Parses exactly `YYYY-MM-DD` into a real calendar day.
pub fn parse_date(text: &str) -> Result<NaiveDate, String> {
    let shape_ok = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    if !shape_ok {
        return Err(format!("{} is not a date: expected YYYY-MM-DD", echo(text)));
    }
    let date = NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| format!("'{text}' is not a day of the calendar"))?;
    check_year(date).map_err(|why| format!("'{text}' {why}"))
}

/// Years 1 to 9999 only: the service's dates are `YYYY-MM-DD`, and a day outside those years
/// has no such form (chrono writes year 0 as `0000` and year -1 as `-0001`).
fn check_year(date: NaiveDate) -> Result<NaiveDate, String> {
    match date.year() {
        1..=9999 => Ok(date),
        _ => Err("is outside the years 1 to 9999, the dates YYYY-MM-DD can write".into()),
    }
}

impl DaySpec {
    /// The clap value parser of `--start` and `--end`.
    pub fn parse(text: &str) -> Result<DaySpec, String> {
        match text.to_ascii_lowercase().as_str() {
            "today" => Ok(DaySpec::Today),
            "yesterday" => Ok(DaySpec::Yesterday),
            _ => parse_date(text)
                .map(DaySpec::Date)
                .map_err(|e| format!("{e} (or today, yesterday)")),
        }
    }

    pub fn resolve(self, today: NaiveDate) -> NaiveDate {
        match self {
            DaySpec::Date(date) => date,
            DaySpec::Today => today,
            DaySpec::Yesterday => today - Days::new(1),
        }
    }
}

/// The clap value parser of `--last`: `30`, `30d` or `4w`, at least one day.
pub fn parse_last(text: &str) -> Result<u32, String> {
    let lower = text.trim().to_ascii_lowercase();
    let (digits, unit) = match lower.strip_suffix('w') {
        Some(d) => (d, 7),
        None => (lower.strip_suffix('d').unwrap_or(&lower), 1),
    };
    let digits = digits.strip_prefix('+').unwrap_or(digits);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "'{text}' is not a number of days: expected e.g. 30, 30d or 4w"
        ));
    }
    // Only digits: a number too large for u64 is just as much too many days.
    let count = digits.parse::<u64>().unwrap_or(u64::MAX);
    if count == 0 {
        return Err(format!(
            "'{text}' is zero days: --last takes at least 1 day"
        ));
    }
    count
        .checked_mul(unit)
        .and_then(|days| u32::try_from(days).ok())
        .filter(|days| *days <= MAX_LAST_DAYS)
        .ok_or_else(|| {
            format!("'{text}' is more than 100 years: --last takes at most {MAX_LAST_DAYS} days")
        })
}

/// The most days `--last` takes: 100 years.
const MAX_LAST_DAYS: u32 = 100 * 366;

impl DayRange {
    /// Resolves `--start`/`--end`/`--last` (clap has already made start and last exclusive).
    pub fn resolve(
        start: Option<DaySpec>,
        end: Option<DaySpec>,
        last: Option<u32>,
        today: NaiveDate,
    ) -> Result<DayRange, String> {
        let end = end.unwrap_or(DaySpec::Yesterday).resolve(today);
        let start = match (start, last) {
            (Some(start), _) => start.resolve(today),
            (None, Some(days)) => end - Days::new(u64::from(days) - 1),
            (None, None) => return Err("give the first day with --start DAY, or --last N".into()),
        };
        // Computed days (`--last` before an early end) are checked as given ones are.
        let start = check_year(start).map_err(|why| {
            format!(
                "the first day, {start}, {why}: ask for fewer days with --last, or a later --end"
            )
        })?;
        if start > end {
            return Err(format!(
                "the start {start} is after the end {end}: give --start on or before --end"
            ));
        }
        Ok(DayRange { start, end })
    }

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

/// Names a set of days briefly: runs of consecutive days become `first..last`.
pub fn describe_days(days: &[NaiveDate]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < days.len() {
        let mut j = i;
        while j + 1 < days.len() && days[j].succ_opt() == Some(days[j + 1]) {
            j += 1;
        }
        parts.push(if i == j {
            days[i].to_string()
        } else {
            format!("{}..{}", days[i], days[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        parse_date(text).unwrap()
    }

    #[test]
    fn dates_are_strict() {
        assert_eq!(d("2024-02-29").to_string(), "2024-02-29");
        assert_eq!(
            parse_date("2024-02-30").unwrap_err(),
            "'2024-02-30' is not a day of the calendar"
        );
        assert_eq!(
            parse_date("2023-02-29").unwrap_err(),
            "'2023-02-29' is not a day of the calendar"
        );
        for bad in [
            "2024-1-05",
            "20240105",
            "2024/01/05",
            " 2024-01-05",
            "2024-01-05x",
            "",
        ] {
            assert!(parse_date(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn only_years_1_to_9999() {
        assert_eq!(
            parse_date("0000-01-02").unwrap_err(),
            "'0000-01-02' is outside the years 1 to 9999, the dates YYYY-MM-DD can write"
        );
        assert!(parse_date("0001-01-01").is_ok() && parse_date("9999-12-31").is_ok());
        let end = Some(DaySpec::Date(d("0001-01-02")));
        let err = DayRange::resolve(None, end, Some(5), d("2024-01-01")).unwrap_err();
        assert_eq!(err, "the first day, 0000-12-29, is outside the years 1 to 9999, the dates YYYY-MM-DD can write: ask for fewer days with --last, or a later --end");
    }

    #[test]
    fn today_and_yesterday_are_utc_relative() {
        let today = d("2024-03-01");
        assert_eq!(DaySpec::parse("TODAY").unwrap().resolve(today), today);
        assert_eq!(
            DaySpec::parse("yesterday").unwrap().resolve(today),
            d("2024-02-29")
        );
    }

    #[test]
    fn last_accepts_days_and_weeks() {
        assert_eq!(parse_last("30"), Ok(30));
        assert_eq!(parse_last("30d"), Ok(30));
        assert_eq!(parse_last("4w"), Ok(28));
        assert_eq!(parse_last("4W"), Ok(28));
        for bad in ["0", "-3", "w", "3x", "", "1.5"] {
            assert!(parse_last(bad).is_err(), "{bad:?} accepted");
        }
        assert!(parse_last("99999w").is_err());
    }

    #[test]
    fn ranges_resolve() {
        let today = d("2024-03-10");
        let r = DayRange::resolve(None, None, Some(7), today).unwrap();
        assert_eq!((r.start, r.end), (d("2024-03-03"), d("2024-03-09")));
        assert_eq!(r.days().count(), 7);
        let r = DayRange::resolve(Some(DaySpec::Date(d("2024-01-01"))), None, None, today).unwrap();
        assert_eq!((r.start, r.end), (d("2024-01-01"), d("2024-03-09")));
        let err = DayRange::resolve(
            Some(DaySpec::Date(d("2024-03-05"))),
            Some(DaySpec::Date(d("2024-03-04"))),
            None,
            today,
        )
        .unwrap_err();
        assert_eq!(
            err,
            "the start 2024-03-05 is after the end 2024-03-04: give --start on or before --end"
        );
        assert!(DayRange::resolve(None, None, None, today).is_err());
    }

    #[test]
    fn day_sets_are_described_as_runs() {
        let days = [
            d("2024-01-01"),
            d("2024-01-02"),
            d("2024-01-03"),
            d("2024-01-07"),
        ];
        assert_eq!(describe_days(&days), "2024-01-01..2024-01-03, 2024-01-07");
        assert_eq!(describe_days(&[]), "");
    }
}
