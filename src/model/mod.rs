//! What the service returns: endpoints, metric columns, exact number texts and daily records.

pub mod chain;
pub mod dates;
pub mod period;

use std::str::FromStr;

use bigdecimal::BigDecimal;
use chrono::NaiveDate;

use crate::model::chain::Chain;

/// One of the service's three endpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    Fees,
    ActiveUsers,
    OfficialAccount,
}

impl Endpoint {
    pub fn path(self) -> &'static str {
        match self {
            Endpoint::Fees => "/api/chain-insights/fees",
            Endpoint::ActiveUsers => "/api/chain-insights/active_users",
            Endpoint::OfficialAccount => "/api/social-metrics/official-account",
        }
    }

    /// The endpoint in the user's words, for warnings.
    pub fn label(self) -> &'static str {
        match self {
            Endpoint::Fees => "fees",
            Endpoint::ActiveUsers => "active users",
            Endpoint::OfficialAccount => "official account",
        }
    }
}

/// An item of `includes`: one official-account metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SocialMetric {
    Reply,
    Retweet,
    Tweet,
    Quote,
}

impl SocialMetric {
    pub const ALL: [SocialMetric; 4] = [
        SocialMetric::Reply,
        SocialMetric::Retweet,
        SocialMetric::Tweet,
        SocialMetric::Quote,
    ];

    /// The names `--include` takes.
    pub fn names() -> Vec<String> {
        SocialMetric::ALL
            .map(|item| item.name().to_owned())
            .to_vec()
    }

    pub fn name(self) -> &'static str {
        match self {
            SocialMetric::Reply => "reply",
            SocialMetric::Retweet => "retweet",
            SocialMetric::Tweet => "tweet",
            SocialMetric::Quote => "quote",
        }
    }

    /// The clap value parser of `--include` (one item of its comma list).
    pub fn parse(text: &str) -> Result<SocialMetric, String> {
        let wanted = text.trim();
        if wanted.is_empty() {
            return Err("an include is empty (a stray comma?): separate them with single commas, as in tweet,reply".into());
        }
        SocialMetric::ALL
            .into_iter()
            .find(|item| item.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                format!("unknown include '{text}': expected reply, retweet, tweet or quote")
            })
    }
}

/// A metric column of the output, named as the service names the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    Fees,
    ActiveUsers,
    Social(SocialMetric),
}

impl Column {
    pub fn name(self) -> &'static str {
        match self {
            Column::Fees => "fees",
            Column::ActiveUsers => "active_users",
            Column::Social(item) => item.name(),
        }
    }

    /// Whether SERVICE.md says the field is a whole number.
    pub fn is_whole(self) -> bool {
        !matches!(self, Column::Fees)
    }
}

/// The largest power of ten `Number::to_decimal` takes: far beyond a float's ±308, the most
/// SERVICE.md's floating-point fees can be.
const MAX_EXPONENT: u64 = 1000;

/// A number exactly as the service wrote it (`0.1`, `5E+3`, twenty digits…): never a float.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Number(String);

impl Number {
    /// Accepts the text of a JSON number token, whitespace trimmed.
    pub fn from_json_token(token: &str) -> Option<Number> {
        let text = token.trim();
        is_json_number(text).then(|| Number(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The exact value, for arithmetic; `None` for an exponent beyond ±`MAX_EXPONENT`, whose
    /// sum with an ordinary number would take gigabytes of digits (`1e999999999 + 0.1`).
    pub(crate) fn to_decimal(&self) -> Option<BigDecimal> {
        if let Some(at) = self.0.find(['e', 'E']) {
            let exponent = self.0[at + 1..].parse::<i64>().ok()?;
            if exponent.unsigned_abs() > MAX_EXPONENT {
                return None;
            }
        }
        BigDecimal::from_str(&self.0).ok()
    }

    /// A computed value, written in plain decimals (no exponent).
    pub(crate) fn from_decimal(value: &BigDecimal) -> Number {
        Number(value.to_plain_string())
    }

    /// Whether the value is whole (`12`, `12.0`, `1.5e1`), judged on the text alone.
    pub fn is_whole(&self) -> bool {
        let text = self.0.trim_start_matches('-');
        let (mantissa, exponent) = match text.find(['e', 'E']) {
            Some(at) => match text[at + 1..].parse::<i64>() {
                Ok(exponent) => (&text[..at], exponent),
                Err(_) => return false,
            },
            None => (text, 0),
        };
        let (int_part, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{int_part}{fraction}");
        let significant = digits.trim_end_matches('0');
        if significant.trim_start_matches('0').is_empty() {
            return true;
        }
        // value = digits * 10^-scale, whole when the trailing zeros cover the scale
        let scale = (fraction.len() as i64).saturating_sub(exponent);
        scale <= (digits.len() - significant.len()) as i64
    }
}

/// Whether `text` is exactly one JSON number (RFC 8259 §6).
fn is_json_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            skip_digits(b, &mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if skip_digits(b, &mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if skip_digits(b, &mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Moves `i` past ASCII digits; returns how many there were.
fn skip_digits(b: &[u8], i: &mut usize) -> usize {
    let start = *i;
    while b.get(*i).is_some_and(u8::is_ascii_digit) {
        *i += 1;
    }
    *i - start
}

/// One day of one chain: a value (or a gap) for each asked column, in column order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub date: NaiveDate,
    pub values: Vec<Option<Number>>,
}

/// One output row: a date, the chain it is about (none in a `--wide` row, which covers every
/// chain), and a value or gap per column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub date: NaiveDate,
    pub chain: Option<Chain>,
    pub values: Vec<Option<Number>>,
}

/// What a command prints: columns `date[,chain],<columns>` and rows sorted by date, then chain.
///
/// The metric columns are plain labels (`fees`, or `ETHEREUM.fees` once pivoted by `--wide`), so
/// every renderer treats a long and a wide dataset alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dataset {
    pub chain_column: bool,
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
}

impl Dataset {
    /// The header names, in order.
    pub fn header(&self) -> Vec<&str> {
        let mut names = vec!["date"];
        if self.chain_column {
            names.push("chain");
        }
        names.extend(self.columns.iter().map(String::as_str));
        names
    }

    /// The text of a row's chain cell: the service's name, empty when the row has none.
    pub fn chain_cell(row: &Row) -> &'static str {
        row.chain.map_or("", Chain::name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_texts_are_kept_exactly() {
        for text in [
            "0",
            "0.1",
            "-3",
            "5E+3",
            "1e-7",
            "12345678901234567890.123456789",
        ] {
            assert_eq!(Number::from_json_token(text).unwrap().as_str(), text);
        }
        assert_eq!(Number::from_json_token(" 7 ").unwrap().as_str(), "7");
        for bad in [
            "", "-", "01", "1.", ".5", "1e", "+1", "NaN", "\"1\"", "1 2", "0x10",
        ] {
            assert!(Number::from_json_token(bad).is_none(), "{bad:?} accepted");
        }
    }

    #[test]
    fn wholeness_is_judged_on_the_text() {
        for whole in [
            "0",
            "12",
            "-4",
            "12.000",
            "5E+3",
            "1.5e1",
            "18446744073709551617",
        ] {
            assert!(
                Number::from_json_token(whole).unwrap().is_whole(),
                "{whole}"
            );
        }
        for not in ["1.5", "0.1", "1e-1", "15e-1", "1.25e1"] {
            assert!(!Number::from_json_token(not).unwrap().is_whole(), "{not}");
        }
    }

    #[test]
    fn items_parse_in_any_case() {
        assert_eq!(SocialMetric::parse("Reply"), Ok(SocialMetric::Reply));
        assert_eq!(
            SocialMetric::parse("likes").unwrap_err(),
            "unknown include 'likes': expected reply, retweet, tweet or quote"
        );
    }
}
