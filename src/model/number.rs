//! A number exactly as the service wrote it, kept compactly.

use std::str::FromStr;

use bigdecimal::BigDecimal;

/// The largest power of ten `Number::to_decimal` takes: far beyond a float's ±308, the most
/// SERVICE.md's floating-point fees can be.
const MAX_EXPONENT: u64 = 1000;

/// A number exactly as the service wrote it (`0.1`, `5E+3`, twenty digits…): never a float.
///
/// Kept compactly: a ten-year report holds over 130,000 of them, so a text of up to
/// `INLINE` bytes (nearly every value the service sends) lives inside the value itself, with
/// no allocation of its own; only longer texts (31-digit values) go to the heap.
#[derive(Clone)]
pub struct Number(Text);

/// The longest text kept inline: with its length byte and the variant tag it fills the 24
/// bytes a `String` would take, and `Option<Number>` stays 24 bytes too.
const INLINE: usize = 22;

#[derive(Clone)]
enum Text {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

impl Number {
    fn new(text: &str) -> Number {
        match u8::try_from(text.len()) {
            Ok(len) if text.len() <= INLINE => {
                let mut bytes = [0; INLINE];
                bytes[..text.len()].copy_from_slice(text.as_bytes());
                Number(Text::Inline { len, bytes })
            }
            _ => Number(Text::Heap(text.into())),
        }
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Number {}

impl std::fmt::Debug for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Number({:?})", self.as_str())
    }
}

impl Number {
    /// Accepts the text of a JSON number token, whitespace trimmed.
    pub fn from_json_token(token: &str) -> Option<Number> {
        let text = token.trim();
        is_json_number(text).then(|| Number::new(text))
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Always valid: the bytes were copied whole from a `&str`.
            Text::Inline { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            Text::Heap(text) => text,
        }
    }

    /// The exact value, for arithmetic; `None` for an exponent beyond ±`MAX_EXPONENT`, whose
    /// sum with an ordinary number would take gigabytes of digits (`1e999999999 + 0.1`).
    pub(crate) fn to_decimal(&self) -> Option<BigDecimal> {
        if let Some(at) = self.as_str().find(['e', 'E']) {
            let exponent = self.as_str()[at + 1..].parse::<i64>().ok()?;
            if exponent.unsigned_abs() > MAX_EXPONENT {
                return None;
            }
        }
        BigDecimal::from_str(self.as_str()).ok()
    }

    /// A computed value, written in plain decimals (no exponent).
    pub(crate) fn from_decimal(value: &BigDecimal) -> Number {
        Number::new(&value.to_plain_string())
    }

    /// Whether the value is whole (`12`, `12.0`, `1.5e1`), judged on the text alone.
    pub fn is_whole(&self) -> bool {
        let text = self.as_str().trim_start_matches('-');
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
    fn short_and_long_texts_read_back_alike() {
        assert_eq!(std::mem::size_of::<Option<Number>>(), 24);
        for text in [
            "1234567890123456789012",
            "12345678901234567890123",
            "0.1",
            "0",
        ] {
            let number = Number::from_json_token(text).unwrap();
            assert_eq!(number.as_str(), text);
            assert_eq!(number.clone(), number);
        }
        let long = "1".repeat(31);
        assert_eq!(Number::from_json_token(&long).unwrap().as_str(), long);
    }
}
