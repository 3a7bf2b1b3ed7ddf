//! Days and day ranges as users write them: `YYYY-MM-DD`, `YYYY-MM`, `today`, `yesterday`,
//! `--last 4w` or `3m`, `--month 2024-03`, `--quarter 2024Q1`, `--year 2024`.

use crate::system::foreign::echo;
use chrono::{Datelike, Days, NaiveDate, Utc};

use crate::model::day_range::DayRange;
use crate::model::period::Period;

/// A day as given on the command line, resolved against today's UTC date later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DaySpec {
    Date(NaiveDate),
    /// `YYYY-MM`: the month's first day as a start, its last day as an end.
    Month(NaiveDate),
    Today,
    Yesterday,
}

/// Today's date in UTC: the service's days are UTC days.
pub(crate) fn today_utc() -> NaiveDate {
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
    // The shape is checked: the fields are digits, read directly (chrono's format parser
    // was a tenth of the time of reading a body).
    let number = |at: std::ops::Range<usize>| {
        text.as_bytes()[at]
            .iter()
            .fold(0u32, |n, b| n * 10 + u32::from(b - b'0'))
    };
    let date = i32::try_from(number(0..4))
        .ok()
        .and_then(|year| NaiveDate::from_ymd_opt(year, number(5..7), number(8..10)))
        .ok_or_else(|| format!("'{text}' is not a day of the calendar"))?;
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
            _ if text.len() == 7 => parse_month(text)
                .map(|month| DaySpec::Month(month.start))
                .map_err(|e| format!("{e} (or YYYY-MM-DD, today, yesterday)")),
            _ => parse_date(text)
                .map(DaySpec::Date)
                .map_err(|e| format!("{e} (or YYYY-MM for a month, today, yesterday)")),
        }
    }

    /// The day as a first day (a month's first day).
    pub fn resolve(self, today: NaiveDate) -> NaiveDate {
        match self {
            DaySpec::Date(date) | DaySpec::Month(date) => date,
            DaySpec::Today => today,
            DaySpec::Yesterday => today - Days::new(1),
        }
    }

    /// The day as a last day: a month's last day.
    pub fn resolve_end(self, today: NaiveDate) -> NaiveDate {
        match self {
            DaySpec::Month(first) => Period::Month.last_day(first),
            other => other.resolve(today),
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
    if digits.starts_with('-') {
        return Err(format!(
            "'{text}' is negative: --last counts days back from the end, at least 1 (e.g. 30, 30d \
            or 4w)"
        ));
    }
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
        .filter(|days| *days <= MAX_RANGE_DAYS)
        .ok_or_else(|| {
            format!("'{text}' is more than 100 years: --last takes at most {MAX_RANGE_DAYS} days")
        })
}

/// The most days a range spans, and so `--last`: 100 years. Every count sized by the longest
/// range (days per request, days to settle, rows of a rolling mean) is bounded by it.
pub(crate) const MAX_RANGE_DAYS: u32 = 100 * 366;

/// Seconds in a day: the longest wait anything takes (a timeout, a `Retry-After`, a sandbox
/// delay). Longer never ends a cron job, and far longer overflows the clock.
pub(crate) const DAY_SECONDS: u32 = 86_400;

impl DayRange {
    /// Resolves `--start`/`--end`/`--last` (clap has already made start and last exclusive).
    pub fn resolve(
        start: Option<DaySpec>,
        end: Option<DaySpec>,
        last: Option<u32>,
        today: NaiveDate,
    ) -> Result<DayRange, String> {
        let end_given = end.is_some();
        let end = end.unwrap_or(DaySpec::Yesterday).resolve_end(today);
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
        if start > end && !end_given {
            // The user gave no end: the default one is named as such, not as their --end.
            return Err(format!(
                "the start {start} is after the default end {end} (yesterday, the last full day): \
                give an earlier --start, or --end {start} to include it"
            ));
        }
        if start > end {
            return Err(format!(
                "the start {start} is after the end {end}: give --start on or before --end"
            ));
        }
        Ok(DayRange { start, end })
    }
}

/// The whole period that starts on `first`, as a range.
fn whole(by: Period, first: NaiveDate) -> Result<DayRange, String> {
    let range = DayRange {
        start: check_year(first)?,
        end: by.last_day(first),
    };
    Ok(range)
}

/// The clap value parser of `--month`: `YYYY-MM`, the month's days.
pub(crate) fn parse_month(text: &str) -> Result<DayRange, String> {
    let expected = || format!("'{text}' is not a month: expected YYYY-MM, e.g. 2024-03");
    let (year, month) = text.split_once('-').ok_or_else(expected)?;
    let digits = |t: &str, n| t.len() == n && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(year, 4) || !digits(month, 2) {
        return Err(expected());
    }
    let first = NaiveDate::from_ymd_opt(year.parse().unwrap_or(0), month.parse().unwrap_or(0), 1)
        .ok_or_else(|| format!("'{text}' is not a month: the month is 01 to 12"))?;
    whole(Period::Month, first).map_err(|why| format!("'{text}' {why}"))
}

/// The clap value parser of `--quarter`: `YYYYQn` (also `YYYY-Qn`, any case), its days.
pub(crate) fn parse_quarter(text: &str) -> Result<DayRange, String> {
    let expected = || format!("'{text}' is not a quarter: expected YYYYQ1 to YYYYQ4, e.g. 2024Q1");
    let upper = text.to_ascii_uppercase();
    let (year, quarter) = upper.split_once('Q').ok_or_else(expected)?;
    let year = year.strip_suffix('-').unwrap_or(year);
    let quarter = match quarter {
        "1" | "2" | "3" | "4" => quarter.parse::<u32>().unwrap_or(1),
        _ => return Err(expected()),
    };
    let year = parse_year_number(year).ok_or_else(expected)?;
    let first = NaiveDate::from_ymd_opt(year, (quarter - 1) * 3 + 1, 1).ok_or_else(expected)?;
    whole(Period::Quarter, first).map_err(|why| format!("'{text}' {why}"))
}

/// The clap value parser of `--year`: `YYYY`, its days.
pub(crate) fn parse_year(text: &str) -> Result<DayRange, String> {
    let expected = || format!("'{text}' is not a year: expected YYYY, e.g. 2024");
    let year = parse_year_number(text).ok_or_else(expected)?;
    let first = NaiveDate::from_ymd_opt(year, 1, 1).ok_or_else(expected)?;
    whole(Period::Year, first).map_err(|why| format!("'{text}' {why}"))
}

fn parse_year_number(text: &str) -> Option<i32> {
    let four_digits = text.len() == 4 && text.bytes().all(|b| b.is_ascii_digit());
    four_digits.then(|| text.parse().ok()).flatten()
}

/// What `--last` covers: a number of days, or of whole calendar periods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    /// `30`, `30d`: days ending at the end.
    Days(u32),
    /// `3m`, `2q`, `1y`, and `4w` under `--by week`: whole periods, the last one the last
    /// complete period on or before the end (`4w` otherwise is 28 days).
    Periods(u32, Period),
}

/// The clap value parser of `--last`: `30`, `30d`, `4w`, `3m`, `2q` or `1y`.
pub(crate) fn parse_span(text: &str) -> Result<Span, String> {
    let lower = text.trim().to_ascii_lowercase();
    let (digits, by) = match lower.char_indices().last() {
        Some((at, 'w')) => (&lower[..at], Period::Week),
        Some((at, 'm')) => (&lower[..at], Period::Month),
        Some((at, 'q')) => (&lower[..at], Period::Quarter),
        Some((at, 'y')) => (&lower[..at], Period::Year),
        _ => {
            return parse_last(text)
                .map(Span::Days)
                .map_err(|e| match e.contains("number of") {
                    true => format!("'{text}' is not a span: {SPAN_FORMS}"),
                    false => e,
                })
        }
    };
    let longest = match by {
        Period::Week => MAX_RANGE_DAYS / 7,
        _ => MAX_RANGE_DAYS / 28,
    };
    match parse_last(digits) {
        Ok(n) if n <= longest => Ok(Span::Periods(n, by)),
        Ok(_) => Err(format!(
            "'{text}' is more than 100 years: --last takes at most {MAX_RANGE_DAYS} days"
        )),
        Err(_) => Err(format!("'{text}' is not a span: {SPAN_FORMS}")),
    }
}

const SPAN_FORMS: &str =
    "expected days (30, 30d), weeks (4w), months (3m), quarters (2q) or years (1y)";

impl DayRange {
    /// Resolves `--start`/`--end`/`--last` where `--last` may count whole periods: `3m` is the
    /// three calendar months ending with the last complete month on or before the end, and
    /// `4w` with `--by week` the four complete ISO weeks.
    pub fn resolve_span(
        start: Option<DaySpec>,
        end: Option<DaySpec>,
        last: Option<Span>,
        by: Period,
        today: NaiveDate,
    ) -> Result<DayRange, String> {
        let (n, unit) = match last {
            Some(Span::Periods(n, Period::Week)) if by != Period::Week => {
                return DayRange::resolve(start, end, Some(n.saturating_mul(7)), today)
            }
            Some(Span::Periods(n, unit)) => (n, unit),
            Some(Span::Days(days)) => return DayRange::resolve(start, end, Some(days), today),
            None => return DayRange::resolve(start, end, None, today),
        };
        let end = end.unwrap_or(DaySpec::Yesterday).resolve_end(today);
        let last_end = unit.last_whole_end(end);
        let first = unit
            .back(unit.start(last_end), n.saturating_sub(1).into())
            .and_then(|d| check_year(d).ok());
        let start = first.ok_or_else(|| {
            format!(
                "the first day of the {n} {}s before {end} is before the year 1: ask for fewer",
                unit.name()
            )
        })?;
        Ok(DayRange {
            start,
            end: last_end,
        })
    }
}

/// Names a set of days briefly: runs of consecutive days become `first..last`.
pub(crate) fn describe_days(days: &[NaiveDate]) -> String {
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
        for day in ["2024-02-30", "2023-02-29"] {
            let err = format!("'{day}' is not a day of the calendar");
            assert_eq!(parse_date(day).unwrap_err(), err);
        }
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
        assert_eq!(
            err,
            "the first day, 0000-12-29, is outside the years 1 to 9999, the dates \
            YYYY-MM-DD can write: ask for fewer days with --last, or a later --end"
        );
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
        let err = DayRange::resolve(Some(DaySpec::Today), None, None, today).unwrap_err();
        assert_eq!(
            err,
            "the start 2024-03-10 is after the default end 2024-03-09 (yesterday, the last full \
            day): give an earlier --start, or --end 2024-03-10 to include it"
        );
    }

    #[test]
    fn months_quarters_and_years_are_their_whole_days() {
        let days = |r: DayRange| (r.start.to_string(), r.end.to_string());
        let cases = [
            (parse_month("2024-02"), "2024-02-01", "2024-02-29"),
            (parse_quarter("2024q4"), "2024-10-01", "2024-12-31"),
            (parse_quarter("2024-Q1"), "2024-01-01", "2024-03-31"),
            (parse_year("2023"), "2023-01-01", "2023-12-31"),
        ];
        for (range, first, last) in cases {
            assert_eq!(days(range.unwrap()), (first.to_owned(), last.to_owned()));
        }
        let errors = [
            (
                parse_month("2024-3"),
                "'2024-3' is not a month: expected YYYY-MM, e.g. 2024-03",
            ),
            (
                parse_quarter("2024Q0"),
                "'2024Q0' is not a quarter: expected YYYYQ1 to YYYYQ4, e.g. 2024Q1",
            ),
        ];
        for (range, err) in errors {
            assert_eq!(range.unwrap_err(), err);
        }
        assert!(parse_year("0000").is_err() && parse_year("+024").is_err());
        assert_eq!(
            DaySpec::parse("2024-02").unwrap().resolve(d("2030-01-01")),
            d("2024-02-01")
        );
        assert_eq!(
            DaySpec::parse("2024-02")
                .unwrap()
                .resolve_end(d("2030-01-01")),
            d("2024-02-29")
        );
    }

    #[test]
    fn last_whole_periods_end_with_the_last_complete_one() {
        let today = d("2024-07-20");
        let span = |text: &str, end: Option<&str>, by| {
            let end = end.map(|e| DaySpec::Date(d(e)));
            let r = DayRange::resolve_span(None, end, Some(parse_span(text).unwrap()), by, today);
            let r = r.unwrap();
            (r.start.to_string(), r.end.to_string())
        };
        let cases = [
            ("3m", None, Period::Day, "2024-04-01", "2024-06-30"),
            (
                "3m",
                Some("2024-06-30"),
                Period::Day,
                "2024-04-01",
                "2024-06-30",
            ),
            ("2q", None, Period::Day, "2024-01-01", "2024-06-30"),
            ("1y", None, Period::Month, "2023-01-01", "2023-12-31"),
            // 2024-07-19 is a Friday: the last complete ISO week ended Sunday 2024-07-14.
            ("2w", None, Period::Week, "2024-07-01", "2024-07-14"),
            ("2w", None, Period::Day, "2024-07-06", "2024-07-19"),
            ("10d", None, Period::Week, "2024-07-10", "2024-07-19"),
        ];
        for (text, end, by, first, last) in cases {
            let got = span(text, end, by);
            assert_eq!(got, (first.to_owned(), last.to_owned()), "{text} {by:?}");
        }
        assert_eq!(
            parse_span("3x").unwrap_err(),
            "'3x' is not a span: expected days (30, 30d), weeks (4w), months (3m), quarters (2q) \
            or years (1y)"
        );
        assert!(parse_span("0m").is_err() && parse_span("9999y").is_err());
        let far = DayRange::resolve_span(
            None,
            Some(DaySpec::Date(d("0001-06-30"))),
            Some(Span::Periods(2, Period::Year)),
            Period::Day,
            today,
        );
        assert!(far.is_err());
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
