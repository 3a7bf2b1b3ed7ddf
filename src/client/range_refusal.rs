//! A request refused because its range is too long: told apart from other refusals, and the
//! `--chunk-days` to use, the limit the service states when it states one.

use crate::model::DayRange;

/// Whether a refusal's message is about the length of the range, so `--chunk-days` may help.
pub(super) fn speaks_of_range(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    [
        "range",
        "too many days",
        "too long",
        "period",
        "interval",
        "span",
    ]
    .iter()
    .any(|word| lower.contains(word))
}

/// What to do about a range refused as too long: `--chunk-days` with the limit the service
/// states in `message` when it states one (a guess would take a retry per halving), else a
/// guess.
pub(super) fn range_hint(range: &DayRange, message: &str) -> String {
    let days = range.days().count();
    match stated_limit(message, days) {
        Some(limit) => format!(
            "the request asked for {days} days and the service takes at most \
            {limit}: split the range with --chunk-days {limit} (or chunk_days = {limit} in the \
            config file)"
        ),
        None => {
            let example = if days > 30 { 30 } else { (days / 2).max(1) };
            format!(
                "the request asked for {days} days; split the range into shorter windows with \
                --chunk-days N (e.g. --chunk-days {example})"
            )
        }
    }
}

/// The most days per request a refusal allows: the largest count of days (`7 days`, `90-day`,
/// `2 weeks`) it names below the `asked` days, which it may also name.
fn stated_limit(message: &str, asked: usize) -> Option<usize> {
    let lower = message.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter_map(|pair| {
            let count: usize = pair[0].parse().ok()?;
            match pair[1] {
                "day" | "days" | "d" => Some(count),
                "week" | "weeks" => count.checked_mul(7),
                _ => None,
            }
        })
        .filter(|limit| (1..asked).contains(limit))
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_refusals_are_told_apart() {
        assert!(speaks_of_range("date range too long"));
        assert!(speaks_of_range("Period exceeds 90 days"));
        assert!(!speaks_of_range("unknown chain: FOO"));
        assert!(!speaks_of_range("missing parameter: start_date"));
    }

    #[test]
    fn the_limit_a_refusal_states_is_the_one_suggested() {
        let range = DayRange {
            start: chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap(),
            end: chrono::NaiveDate::from_ymd_opt(2024, 3, 1).unwrap(),
        };
        assert_eq!(
            stated_limit(
                "date range too long: 61 days asked, at most 7 days per request",
                61
            ),
            Some(7)
        );
        assert_eq!(
            stated_limit("range of 61 days exceeds the 31-day maximum", 61),
            Some(31)
        );
        assert_eq!(stated_limit("Period exceeds 2 weeks", 61), Some(14));
        assert_eq!(stated_limit("range too long", 61), None);
        assert_eq!(stated_limit("range too long (61 days)", 61), None);
        assert_eq!(
            range_hint(&range, "at most 7 days per request"),
            "the request asked for 61 days and the service takes at most 7: split the range with \
            --chunk-days 7 (or chunk_days = 7 in the config file)"
        );
        assert!(range_hint(&range, "too long").ends_with("(e.g. --chunk-days 30)"));
    }
}
