//! The calendar of periods on its own: period starts and ends, steps and lengths.

use chrono::NaiveDate;

use super::*;
use crate::model::DayRange;

fn day(text: &str) -> NaiveDate {
    crate::model::dates::parse_date(text).unwrap()
}

#[test]
fn periods_start_on_their_first_day() {
    // A day, the first day of its period, and the period's last day.
    let cases = [
        (Period::Week, "2025-01-01", "2024-12-30", "2025-01-05"),
        (Period::Week, "2024-12-29", "2024-12-23", "2024-12-29"),
        (Period::Week, "2021-01-03", "2020-12-28", "2021-01-03"),
        (Period::Week, "2024-01-01", "2024-01-01", "2024-01-07"),
        (Period::Month, "2024-02-29", "2024-02-01", "2024-02-29"),
        (Period::Month, "2023-02-14", "2023-02-01", "2023-02-28"),
        (Period::Quarter, "2024-03-31", "2024-01-01", "2024-03-31"),
        (Period::Quarter, "2024-04-01", "2024-04-01", "2024-06-30"),
        (Period::Quarter, "2024-12-31", "2024-10-01", "2024-12-31"),
        (Period::Year, "2024-12-31", "2024-01-01", "2024-12-31"),
        (Period::Day, "2024-05-17", "2024-05-17", "2024-05-17"),
    ];
    for (by, date, start, end) in cases {
        assert_eq!(by.start(day(date)), day(start), "{by:?} {date}");
        assert_eq!(by.last_day(day(start)), day(end), "{by:?} {start}");
    }
}

#[test]
fn periods_step_forward_and_back_and_know_their_length() {
    let steps = [
        (Period::Day, "2024-02-28", "2024-02-29", 1),
        (Period::Week, "2024-12-30", "2025-01-06", 7),
        (Period::Month, "2024-02-01", "2024-03-01", 29),
        (Period::Month, "2023-02-01", "2023-03-01", 28),
        (Period::Quarter, "2024-10-01", "2025-01-01", 92),
        (Period::Year, "2024-01-01", "2025-01-01", 366),
    ];
    for (by, start, next, length) in steps {
        assert_eq!(by.next(day(start)), Some(day(next)), "{by:?} {start}");
        assert_eq!(by.back(day(next), 1), Some(day(start)), "{by:?} {next}");
        assert_eq!(by.length(day(start)), length, "{by:?} {start}");
    }
    assert_eq!(
        Period::Quarter.back(day("2024-04-01"), 4),
        Some(day("2023-04-01"))
    );
    assert_eq!(Period::Year.back(day("2024-01-01"), i64::MAX), None);
    assert_eq!(Period::Day.next(NaiveDate::MAX), None);
    let month = Period::Month;
    assert_eq!(month.last_whole_end(day("2024-02-29")), day("2024-02-29"));
    assert_eq!(month.last_whole_end(day("2024-02-28")), day("2024-01-31"));
    let range = DayRange {
        start: day("2024-01-31"),
        end: day("2024-03-01"),
    };
    let starts = ["2024-01-01", "2024-02-01", "2024-03-01"].map(day);
    assert_eq!(Period::Month.starts(&range), starts);
    let within = Period::Month.within(day("2024-01-01"), &range);
    assert_eq!(
        (within.start, within.end),
        (day("2024-01-31"), day("2024-01-31"))
    );
}
