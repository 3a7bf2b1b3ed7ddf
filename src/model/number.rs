//! A number exactly as the service wrote it, kept compactly.

use std::str::FromStr;

use bigdecimal::BigDecimal;

/// The largest power of ten `Number::to_decimal` takes: far beyond a float's ±308, the most
/// SERVICE.md's floating-point fees can be.
const MAX_EXPONENT: u64 = 1000;

/// The most digits `Number::to_decimal` takes (before the exponent, leading zeros counted):
/// a thousand times a float's 17, and small enough that parsing and adding such values stays
/// far under a second. Parsing is quadratic in the digits, so the count is checked on the text
/// first: a 10-million-digit value is refused as fast as it is read.
const MAX_DIGITS: usize = 4096;

/// The longest text an error shows of a number whole; a longer one is cut (see `shown`).
const SHOWN_WHOLE: usize = 40;
/// The characters an error shows of a longer number, before "… (N digits)".
const SHOWN_HEAD: usize = 20;

/// Why a number is refused for arithmetic, naming the value (cut when long).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unbounded {
    shown: String,
    why: String,
}

impl std::fmt::Display for Unbounded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is beyond the range of a number ({})",
            self.shown, self.why
        )
    }
}

impl std::error::Error for Unbounded {}

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

    /// The exact value, for arithmetic. Refused, on the text alone and before any parsing,
    /// for an exponent beyond ±`MAX_EXPONENT` (`1e999999999 + 0.1` would take gigabytes of
    /// digits) or more than `MAX_DIGITS` digits (parsing them is quadratic).
    pub(crate) fn to_decimal(&self) -> Result<BigDecimal, Unbounded> {
        self.bounded()?;
        BigDecimal::from_str(self.as_str())
            .map_err(|_| self.unbounded("not a decimal number".to_owned()))
    }

    /// Whether `to_decimal` takes the value, judged on the text alone in one pass.
    pub(crate) fn bounded(&self) -> Result<(), Unbounded> {
        let text = self.as_str();
        // Bytes, not chars: one quick pass even over ten million digits.
        let at = text.bytes().position(|b| b == b'e' || b == b'E');
        let mantissa = &text.as_bytes()[..at.unwrap_or(text.len())];
        let digits = mantissa.iter().filter(|b| b.is_ascii_digit()).count();
        if digits > MAX_DIGITS {
            return Err(self.unbounded(format!("more than {MAX_DIGITS} digits")));
        }
        if let Some(at) = at {
            let exponent = text[at + 1..].parse::<i64>().ok();
            if exponent.is_none_or(|e| e.unsigned_abs() > MAX_EXPONENT) {
                return Err(self.unbounded(format!("an exponent beyond ±{MAX_EXPONENT}")));
            }
        }
        Ok(())
    }

    fn unbounded(&self, why: String) -> Unbounded {
        Unbounded {
            shown: self.shown(),
            why,
        }
    }

    /// The text for a message: whole when short, else its first characters and its length
    /// (`12345678901234567890… (10000000 digits)`), so an error stays one readable line.
    pub fn shown(&self) -> String {
        let text = self.as_str();
        if text.len() <= SHOWN_WHOLE {
            return text.to_owned();
        }
        // A number's text is ASCII: any byte index is a character boundary.
        let digits = text.bytes().filter(u8::is_ascii_digit).count();
        format!("{}… ({digits} digits)", &text[..SHOWN_HEAD])
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
    fn arithmetic_is_bounded_on_the_text() {
        let n = |t: &str| Number::from_json_token(t).unwrap();
        let refused = |t: &str| n(t).to_decimal().unwrap_err().to_string();
        assert_eq!(
            refused("1e999999999"),
            "1e999999999 is beyond the range of a number (an exponent beyond ±1000)"
        );
        assert_eq!(
            refused("1e-1001"),
            "1e-1001 is beyond the range of a number (an exponent beyond ±1000)"
        );
        // An exponent past i64: refused, not wrapped or panicking.
        assert_eq!(
            refused("1e9999999999999999999"),
            "1e9999999999999999999 is beyond the range of a number (an exponent beyond ±1000)"
        );
        let long = format!("-{}.5", "9".repeat(MAX_DIGITS));
        assert_eq!(
            refused(&long),
            "-9999999999999999999… (4097 digits) is beyond the range of a number \
             (more than 4096 digits)"
        );
        for fine in ["1e1000", "1e-1000", "0.1"] {
            assert!(n(fine).to_decimal().is_ok(), "{fine}");
        }
        assert!(n(&"7".repeat(MAX_DIGITS)).to_decimal().is_ok());
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
