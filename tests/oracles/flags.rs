//! Flag values, each parser against a plain statement of what it takes: days (`--start`,
//! `--end`), `--last`, the range they make, chains, periods (`--by`), the whole-number limits
//! and seconds; and the whole command line, which must answer without a panic.

use chain_metrics::{chain_names, parse_last, seconds, ChainArg, Cli, DayRange, DaySpec, Period};
use chain_metrics::{Count, CACHE_SETTLE_DAYS, CHUNK_DAYS, JOBS, RETRIES};
use chrono::NaiveDate;
use clap::{Parser, ValueEnum};

use super::Input;

pub fn check(data: &[u8]) -> Result<(), String> {
    let input = Input::new(data);
    let text = input.text();
    let fields: Vec<&str> = text.split('\n').collect();
    let field = |i: usize| fields.get(i).copied().unwrap_or("");
    let start = day(field(0))?;
    let end = day(field(1))?;
    let last = last(field(2))?;
    range(input.pick, start, end, last)?;
    chain(field(3))?;
    period(field(4))?;
    let counts = [RETRIES, JOBS, CHUNK_DAYS, CACHE_SETTLE_DAYS];
    count(counts[usize::from(input.pick) % 4], field(5))?;
    secs(field(6))?;
    // The whole command line costs as much as thousands of the parsers above: one input in 16.
    if input.pick >> 4 != 0 {
        return Ok(());
    }
    let args = [
        "chain-metrics",
        "fees",
        "-c",
        field(3),
        "-s",
        field(0),
        "-e",
        field(1),
    ];
    let _ = Cli::try_parse_from(args.iter().chain(&["--by", field(4), "--jobs", field(5)]));
    let _ = Cli::try_parse_from(["chain-metrics", "users", "-c", field(3), "--last", field(2)]);
    Ok(())
}

/// `--start`/`--end`: `today`, `yesterday` in any case, exactly `YYYY-MM-DD` of years 1 to
/// 9999 as chrono writes that day back, or `YYYY-MM` (4 digits, 2 digits 01 to 12) of those
/// years: that month.
fn day(text: &str) -> Result<Option<DaySpec>, String> {
    let parsed = DaySpec::parse(text).ok();
    let lower = text.to_ascii_lowercase();
    let expected = match lower.as_str() {
        "today" => Some(DaySpec::Today),
        "yesterday" => Some(DaySpec::Yesterday),
        _ if text.len() == 7 => month(text).map(DaySpec::Month),
        _ => NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .ok()
            .filter(|d| d.format("%Y-%m-%d").to_string() == text)
            .filter(|d| (1..=9999).contains(&chrono::Datelike::year(d)))
            .map(DaySpec::Date),
    };
    match parsed == expected {
        true => Ok(parsed),
        false => Err(format!(
            "day {text:?}: parsed {parsed:?}, expected {expected:?}"
        )),
    }
}

/// The first day of the month `YYYY-MM` names, when it is one of years 1 to 9999.
fn month(text: &str) -> Option<NaiveDate> {
    let (year, month) = text.split_once('-')?;
    let digits = |t: &str, n| t.len() == n && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(year, 4) || !digits(month, 2) {
        return None;
    }
    let year: i32 = year.parse().ok()?;
    let first = NaiveDate::from_ymd_opt(year, month.parse().ok()?, 1)?;
    (1..=9999).contains(&year).then_some(first)
}

/// `--last`: digits (an optional `+`), then `d` or `w` in any case, around spaces; 1 to 36,600
/// days.
fn last(text: &str) -> Result<Option<u32>, String> {
    let parsed = parse_last(text).ok();
    let lower = text.trim().to_ascii_lowercase();
    let (digits, unit) = match lower.strip_suffix('w') {
        Some(d) => (d, 7u128),
        None => (lower.strip_suffix('d').unwrap_or(&lower), 1),
    };
    let digits = digits.strip_prefix('+').unwrap_or(digits);
    let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    // Digits past u128 are as many too many days as any other large count.
    let expected = all_digits
        .then(|| {
            digits
                .parse::<u128>()
                .ok()
                .and_then(|n| n.checked_mul(unit))
        })
        .and_then(|days| days.filter(|d| (1..=36_600).contains(d)).map(|d| d as u32));
    match parsed == expected {
        true => Ok(parsed),
        false => Err(format!(
            "--last {text:?}: parsed {parsed:?}, expected {expected:?}"
        )),
    }
}

/// The range: the days given, else `--last` days up to the end (yesterday by default), and
/// never a start after the end or outside years 1 to 9999.
fn range(
    pick: u8,
    start: Option<DaySpec>,
    end: Option<DaySpec>,
    last: Option<u32>,
) -> Result<(), String> {
    let today =
        NaiveDate::from_ymd_opt(2024, 1, 1).unwrap() + chrono::Days::new(u64::from(pick) * 97);
    let start = start.filter(|_| pick & 1 == 0);
    let Ok(range) = DayRange::resolve(start, end, last, today) else {
        return Ok(());
    };
    // A month as the end is its last day.
    let want_end = end.unwrap_or(DaySpec::Yesterday).resolve_end(today);
    let want_start = match (start, last) {
        (Some(s), _) => s.resolve(today),
        (None, Some(days)) => want_end - chrono::Days::new(u64::from(days) - 1),
        (None, None) => return Err("a range without --start or --last".into()),
    };
    if (range.start, range.end) != (want_start, want_end) || range.start > range.end {
        return Err(format!("range {range:?} from {start:?}, {end:?}, {last:?}"));
    }
    Ok(())
}

/// `--chain`: one of the names `chains` lists, in any letter case, around spaces; the chain
/// found is written back by its name, which parses to it again.
fn chain(text: &str) -> Result<(), String> {
    let parsed = ChainArg::parse(text).ok();
    let listed = chain_names().contains(&text.trim().to_ascii_lowercase());
    if parsed.is_some() != listed {
        return Err(format!(
            "chain {text:?}: parsed {parsed:?}, listed {listed}"
        ));
    }
    if let Some(ChainArg::One(chain)) = parsed {
        if ChainArg::parse(chain.name()).ok() != parsed {
            return Err(format!("chain {chain} does not parse back"));
        }
    }
    Ok(())
}

/// `--by`: a period's name in any letter case.
fn period(text: &str) -> Result<(), String> {
    let parsed = Period::from_str(text, true).ok();
    let expected = [
        Period::Day,
        Period::Week,
        Period::Month,
        Period::Quarter,
        Period::Year,
    ]
    .into_iter()
    .find(|p| p.name().eq_ignore_ascii_case(text));
    match parsed == expected {
        true => Ok(()),
        false => Err(format!(
            "--by {text:?}: parsed {parsed:?}, expected {expected:?}"
        )),
    }
}

/// A whole-number limit: the digits around spaces, within its bounds.
fn count(bounds: Count, text: &str) -> Result<(), String> {
    let parsed = bounds.parse(text);
    let expected = text
        .trim()
        .parse::<u128>()
        .ok()
        .filter(|n| (u128::from(bounds.least)..=u128::from(bounds.most)).contains(n))
        .map(|n| n as u32);
    match parsed == expected {
        true => Ok(()),
        false => Err(format!(
            "{bounds:?} {text:?}: parsed {parsed:?}, expected {expected:?}"
        )),
    }
}

/// Seconds: any number Rust reads from 0.001 to 86,400, exactly that long.
fn secs(text: &str) -> Result<(), String> {
    let Ok(value) = text.trim().parse::<f64>() else {
        return Ok(());
    };
    let parsed = seconds(value).ok();
    let expected = (0.001..=86_400.0)
        .contains(&value)
        .then(|| std::time::Duration::from_secs_f64(value));
    match parsed == expected {
        true => Ok(()),
        false => Err(format!(
            "seconds {text:?}: parsed {parsed:?}, expected {expected:?}"
        )),
    }
}
