//! Property tests: date and range parsing, and response parsing, never panic on any input,
//! number texts survive parsing exactly, the `--by` periods of a year add up to the year, and
//! the one exact division equals an independent one, and the masker of foreign text leaves no
//! piece of a key in any spelling (the `mask` oracle of tests/oracles/).

mod oracles;

use chain_metrics::parse_records;
use chain_metrics::{aggregate, divide, Column, Dataset, Period, Row};
use chain_metrics::{parse_date, parse_last, DayRange, DaySpec};
use chain_metrics::{Endpoint, Metric, Number, SocialMetric};
use chrono::{Datelike, Days, NaiveDate};
use proptest::prelude::*;

/// Any day from year 1 to 9999, as chrono counts them.
fn any_day() -> impl Strategy<Value = NaiveDate> {
    (1i32..=3_652_059).prop_map(|n| NaiveDate::from_num_days_from_ce_opt(n).unwrap())
}

/// The text of a JSON number, in every shape RFC 8259 allows, up to 40 digits.
fn json_number() -> impl Strategy<Value = String> {
    "-?(0|[1-9][0-9]{0,39})(\\.[0-9]{1,20})?([eE][+-]?[0-9]{1,4})?"
}

/// A JSON whole number as SERVICE.md counts come: digits, possibly far beyond 2^53.
fn whole_number() -> impl Strategy<Value = String> {
    "(0|[1-9][0-9]{0,39})"
}

/// A day of the year (0-based), its fee and its tweet count.
type DayOfYear = (u64, Option<String>, Option<String>);

/// Days of one year, each with a fee and a tweet count, either possibly missing; fees with up to
/// 31 digits and exponents, as the service may write them.
fn days_of_a_year() -> impl Strategy<Value = (i32, Vec<DayOfYear>)> {
    let fee = "-?(0|[1-9][0-9]{0,30})(\\.[0-9]{1,10})?([eE][+-]?[0-9]{1,2})?";
    let day = (
        0u64..366,
        proptest::option::of(fee),
        proptest::option::of(whole_number()),
    );
    (1999i32..=2030, proptest::collection::vec(day, 0..80))
}

/// The daily rows of `days` (a day given twice keeps the last), one chain, fees and tweets.
fn daily_rows(year: i32, days: Vec<(u64, Option<String>, Option<String>)>) -> Dataset {
    let first = NaiveDate::from_ymd_opt(year, 1, 1).unwrap();
    let mut by_date = std::collections::BTreeMap::new();
    for (offset, fees, tweets) in days {
        let date = first + Days::new(offset);
        let number = |text: Option<String>| text.and_then(|t| Number::from_json_token(&t));
        if date.year() == year {
            by_date.insert(date, vec![number(fees), number(tweets)]);
        }
    }
    let rows = by_date.into_iter().map(|(date, values)| Row {
        date,
        chain: None,
        values,
        coverage: None,
    });
    Dataset {
        chain_column: false,
        columns: vec![
            Column::value(Metric::Fees),
            Column::value(Metric::Social(SocialMetric::Tweet)),
        ],
        rows: rows.collect(),
    }
}

/// A JSON record per value, joined by commas: `record(n, value)` with `n` counting from 1.
fn numbered(values: &[String], record: impl Fn(usize, &str) -> String) -> String {
    let records: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| record(i + 1, v))
        .collect();
    records.join(",")
}

/// The text of `metric` in each record `body` holds, parsed as the answer of `endpoint`.
fn parsed_texts(endpoint: Endpoint, metric: Metric, body: &str) -> Vec<String> {
    let parsed = parse_records(endpoint, &[metric], body.as_bytes()).unwrap();
    let texts = parsed
        .iter()
        .map(|r| r.values[0].as_ref().unwrap().as_str().into());
    texts.collect()
}

/// A cell as an exact decimal.
fn exact(cell: &Option<Number>) -> Option<bigdecimal::BigDecimal> {
    cell.as_ref().map(|n| n.as_str().parse().unwrap())
}

const ENDPOINTS: [(Endpoint, Metric); 3] = [
    (Endpoint::Fees, Metric::Fees),
    (Endpoint::ActiveUsers, Metric::ActiveUsers),
    (
        Endpoint::OfficialAccount,
        Metric::Social(SocialMetric::Tweet),
    ),
];

proptest! {
    /// Every number text reads back byte for byte, whether it is packed two characters a
    /// byte (up to 31 characters) or kept on the heap; equal texts make equal values.
    #[test]
    fn every_number_text_reads_back_exactly(text in "-?(0|[1-9][0-9]{0,40})(\\.[0-9]{1,12})?([eE][+-]?[0-9]{1,5})?") {
        let number = Number::from_json_token(&text).unwrap();
        prop_assert_eq!(&*number.as_str(), text.as_str());
        prop_assert_eq!(Number::from_json_token(&text).unwrap(), number);
    }

    #[test]
    fn date_parsing_never_panics(text in "\\PC{0,16}") {
        let _ = parse_date(&text);
        let _ = DaySpec::parse(&text);
        let _ = parse_last(&text);
    }

    #[test]
    fn date_like_texts_never_panic(text in "[0-9+-]{0,5}-[0-9]{0,3}-[0-9]{0,3}") {
        if let Ok(day) = parse_date(&text) {
            prop_assert_eq!(day.format("%Y-%m-%d").to_string(), text);
        }
    }

    #[test]
    fn every_day_reads_back_as_itself(day in any_day()) {
        let text = day.format("%Y-%m-%d").to_string();
        prop_assert_eq!(parse_date(&text), Ok(day));
        prop_assert_eq!(DaySpec::parse(&text), Ok(DaySpec::Date(day)));
    }

    #[test]
    fn last_n_reads_days_and_weeks(n in 1u32..=5000) {
        prop_assert_eq!(parse_last(&n.to_string()), Ok(n));
        prop_assert_eq!(parse_last(&format!("{n}d")), Ok(n));
        prop_assert_eq!(parse_last(&format!("{n}W")), Ok(n * 7));
    }

    #[test]
    fn ranges_resolve_in_order_or_refuse(a in any_day(), b in any_day(), last in proptest::option::of(1u32..=36_600), today in any_day()) {
        let start = if last.is_some() { None } else { Some(DaySpec::Date(a)) };
        match DayRange::resolve(start, Some(DaySpec::Date(b)), last, today) {
            Ok(range) => {
                prop_assert!(range.start <= range.end);
                prop_assert_eq!(range.end, b);
                if let Some(n) = last {
                    prop_assert_eq!(range.days().count() as u32, n);
                }
            }
            Err(message) => prop_assert!(!message.is_empty()),
        }
    }

    #[test]
    fn windows_cover_the_range_in_order_without_overlap(start in any_day(), len in 0u64..2000, size in prop_oneof![1u32..400, any::<u32>().prop_map(|n| n.max(1))]) {
        let Some(end) = start.checked_add_days(Days::new(len)) else { return Ok(()) };
        let range = DayRange { start, end };
        let windows = range.windows(size);
        prop_assert_eq!(windows.first().unwrap().start, start);
        prop_assert_eq!(windows.last().unwrap().end, end);
        for pair in windows.windows(2) {
            prop_assert_eq!(pair[0].end.succ_opt(), Some(pair[1].start));
        }
        for w in &windows {
            prop_assert!(w.start <= w.end && w.days().count() <= size as usize);
        }
        prop_assert_eq!(windows.iter().map(|w| w.days().count()).sum::<usize>(), len as usize + 1);
    }

    #[test]
    fn response_parsing_never_panics_on_bytes(body in proptest::collection::vec(any::<u8>(), 0..256)) {
        for (endpoint, column) in ENDPOINTS {
            let _ = parse_records(endpoint, &[column], &body);
        }
    }

    #[test]
    fn response_parsing_never_panics_on_json_like_text(body in "[\\[\\]{}\":,0-9a-z.eE+ -]{0,120}") {
        for (endpoint, column) in ENDPOINTS {
            let _ = parse_records(endpoint, &[column], body.as_bytes());
        }
    }

    #[test]
    fn fee_texts_survive_exactly(values in proptest::collection::vec(json_number(), 1..20)) {
        let records = numbered(&values, |i, v| format!("{{\"date\":\"2024-01-{i:02}\",\"fees\":{v}}}"));
        let body = format!("[{records}]");
        let texts = parsed_texts(Endpoint::Fees, Metric::Fees, &body);
        prop_assert_eq!(texts, values.iter().map(String::as_str).collect::<Vec<_>>());
    }

    #[test]
    fn whole_counts_survive_exactly(values in proptest::collection::vec(whole_number(), 1..20)) {
        let records = numbered(&values, |i, v| format!("{{\"date\":\"2024-02-{i:02}\",\"tweet\":{v},\"other\":[{v}]}}"));
        let body = format!("{{\"data\":[{records}]}}");
        let texts = parsed_texts(Endpoint::OfficialAccount, Metric::Social(SocialMetric::Tweet), &body);
        prop_assert_eq!(texts, values.iter().map(String::as_str).collect::<Vec<_>>());
    }

    #[test]
    fn wholeness_agrees_with_the_digits(int in "[1-9][0-9]{0,30}", frac in "[0-9]{1,10}", exp in -15i32..15) {
        let text = format!("{int}.{frac}e{exp}");
        let number = Number::from_json_token(&text).unwrap();
        // value = int.frac * 10^exp: whole when the significant fraction digits fit in exp
        let significant = frac.trim_end_matches('0').len() as i32;
        let whole_int = exp >= 0 || int.len() as i32 + exp > 0 && int[(int.len() as i32 + exp) as usize..].bytes().all(|b| b == b'0');
        let expected = significant <= exp.max(0) && whole_int;
        prop_assert_eq!(number.is_whole(), expected, "{}", text);
    }

    #[test]
    fn months_and_quarters_of_a_year_add_up_to_the_year((year, days) in days_of_a_year()) {
        let data = daily_rows(year, days);
        let whole = aggregate(data.clone(), &[], Period::Year, None).unwrap();
        prop_assert_eq!(whole.rows.len(), usize::from(!data.rows.is_empty()));
        for by in [Period::Month, Period::Quarter] {
            let parts = aggregate(data.clone(), &[], by, None).unwrap();
            prop_assert!(parts.rows.iter().all(|r| r.date.year() == year && r.date.day() == 1));
            for (i, name) in ["days", "fees", "tweet"].iter().enumerate() {
                let summed = parts.rows.iter().filter_map(|r| exact(&r.values[i])).reduce(|a, b| a + b);
                let total = whole.rows.first().and_then(|r| exact(&r.values[i]));
                prop_assert_eq!(&summed, &total, "{} {:?}", name, by);
            }
        }
    }
}

/// A number of up to 150 digits, with a fraction or not, and an exponent within the bound of
/// `Number::to_decimal` (±1000).
fn long_number() -> impl Strategy<Value = String> {
    "-?[1-9][0-9]{0,99}(\\.[0-9]{1,50})?"
        .prop_flat_map(|digits| (Just(digits), -1000i32..=1000))
        .prop_map(|(digits, exponent)| format!("{digits}e{exponent}"))
}

/// A division to check: long numbers at any scale, or a short number over a small power of
/// two, where a quotient often ends exactly on a half (a tie) at the decimals asked.
fn division() -> impl Strategy<Value = (String, String, u32)> {
    prop_oneof![
        (long_number(), long_number(), 0u32..=30),
        (
            "-?[0-9]{1,20}\\.[0-9]{1,4}",
            "-?(2|4|8|16|0\\.2|0\\.8)",
            0u32..=5
        ),
    ]
}

/// `num / den` rounded half to even to `decimals`, by Python: exact rationals (`Fraction`,
/// whose `round` goes half to even) read from and written as `decimal` texts. One run for a
/// batch of (num, den, decimals), one answer a line.
fn python_quotients(cases: &[(String, String, u32)]) -> Vec<String> {
    use std::io::Write;
    let script = r#"
import sys
from decimal import Decimal, getcontext
from fractions import Fraction
getcontext().prec = 10000
for line in sys.stdin:
    num, den, places = line.split()
    exact = round(Fraction(Decimal(num)) / Fraction(Decimal(den)), int(places))
    value = Decimal(exact.numerator) / Decimal(exact.denominator)
    print(format(value.quantize(Decimal(1).scaleb(-int(places))), "f"))
"#;
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs (.ci/test installs it)");
    let input: String = (cases.iter())
        .map(|(num, den, places)| format!("{num} {den} {places}\n"))
        .collect();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python3 failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The one division every mean, percent and per-user value goes through equals an
    /// independent exact computation, for numbers of up to 150 digits and exponents to the
    /// bound, at every number of decimals `--decimals` takes.
    #[test]
    fn division_equals_an_exact_rational_rounded_half_to_even(
        cases in proptest::collection::vec(division(), 16),
    ) {
        let expected = python_quotients(&cases);
        for ((num, den, places), want) in cases.iter().zip(&expected) {
            let (a, b) = (num.parse().unwrap(), den.parse().unwrap());
            let got = divide(&a, &b, *places).unwrap().to_plain_string();
            prop_assert_eq!(&got, want, "{} / {} to {}", num, den, places);
        }
        prop_assert_eq!(expected.len(), cases.len());
    }
}

proptest! {
    /// A key of any length from 8, spelled in any way the `mask` oracle knows (split by line
    /// breaks or controls, invisible characters inside, percent-encoded in either hex case),
    /// in any text: the message shows the text and `****`, and no piece of the key.
    #[test]
    fn a_key_in_any_spelling_shows_only_as_the_mask(
        pick in any::<u8>(),
        key in "[A-Z0-9_]{8,48}",
        before in "[a-z .,;:!?(){}<>=&/'\"%\t-]{0,80}",
        after in "[a-z .,;:!?(){}<>=&/'\"%\t-]{0,80}",
    ) {
        // The oracle maps each byte to a character of its set: these are their positions
        // (a position of 10 is given plus the set's length: byte 10 separates the fields).
        let index = |set: &[u8], c: char| {
            let at = set.iter().position(|&b| b as char == c).unwrap();
            (if at == 10 { at + set.len() } else { at }) as u8
        };
        const KEY: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
        const TEXT: &[u8] = b"abcdefghijklmnopqrstuvwxyz .,;:!?(){}<>=&/'\"%\t-";
        let mut input = vec![pick];
        input.extend(key.chars().map(|c| index(KEY, c)));
        input.push(b'\n');
        input.extend(before.chars().map(|c| index(TEXT, c)));
        input.push(b'\n');
        input.extend(after.chars().map(|c| index(TEXT, c)));
        prop_assert_eq!(oracles::mask::check(&input), Ok(()));
    }
}
