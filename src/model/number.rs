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
pub(crate) struct Unbounded {
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
/// `PACKED` characters (every value a service sends as a float or a count, 17 significant
/// digits and an exponent included) lives inside the value itself, two characters a byte, with
/// no allocation of its own; only longer texts go to the heap. `Option<Number>` is 16 bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Number(Repr);

/// Every character of a number's text but a leading `-` (RFC 8259), one per half byte; the
/// half byte [`END`] ends a text shorter than the room.
const ALPHABET: &[u8; 15] = b"0123456789.+-eE";
const END: u8 = 0xF;
/// Bytes of packed text: with the sign it fills 16 bytes.
const HALVES: usize = 15;
/// The longest text kept packed: two characters a byte, and the sign.
const PACKED: usize = 2 * HALVES + 1;

/// One text has one representation (packed exactly when it fits), so equal texts are equal
/// values and the derived equality compares texts.
#[derive(Clone, PartialEq, Eq)]
enum Repr {
    /// The text after its sign, two characters a byte (the first in the high half). The sign
    /// is a field of its own, which is also what lets `Option<Number>` take no more room.
    Packed {
        negative: bool,
        halves: [u8; HALVES],
    },
    /// A longer text (a thin pointer, so the packed form is the larger variant).
    Heap(Box<Box<str>>),
}

impl Number {
    fn new(text: &str) -> Number {
        Number(Repr::pack(text).unwrap_or_else(|| Repr::Heap(Box::new(text.into()))))
    }
}

impl Repr {
    /// The packed form of `text`, when it fits and holds only a number's characters.
    fn pack(text: &str) -> Option<Repr> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        if rest.len() > 2 * HALVES {
            return None;
        }
        let mut halves = [END << 4 | END; HALVES];
        for (at, byte) in rest.bytes().enumerate() {
            let code = ALPHABET.iter().position(|c| *c == byte)? as u8;
            let slot = &mut halves[at / 2];
            *slot = match at % 2 {
                0 => code << 4 | (*slot & END),
                _ => (*slot & (END << 4)) | code,
            };
        }
        Some(Repr::Packed { negative, halves })
    }
}

/// A number's text, read out of its packed form (or borrowed from the heap): derefs to `str`.
pub struct NumberText<'a>(TextOf<'a>);

enum TextOf<'a> {
    Unpacked { len: u8, bytes: [u8; PACKED] },
    Borrowed(&'a str),
}

impl std::ops::Deref for NumberText<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        match &self.0 {
            // Always valid: every byte is one of ALPHABET's or `-`.
            TextOf::Unpacked { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            TextOf::Borrowed(text) => text,
        }
    }
}

impl std::fmt::Display for NumberText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl std::fmt::Debug for NumberText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq<&str> for NumberText<'_> {
    fn eq(&self, other: &&str) -> bool {
        **self == **other
    }
}

impl From<NumberText<'_>> for String {
    fn from(text: NumberText<'_>) -> String {
        text.to_owned()
    }
}

impl std::fmt::Debug for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Number({:?})", &*self.as_str())
    }
}

impl Number {
    /// Accepts the text of a JSON number token, whitespace trimmed.
    pub fn from_json_token(token: &str) -> Option<Number> {
        let text = token.trim();
        is_json_number(text).then(|| Number::new(text))
    }

    /// The text exactly as it came.
    pub fn as_str(&self) -> NumberText<'_> {
        match &self.0 {
            Repr::Packed { negative, halves } => {
                let mut bytes = [0; PACKED];
                let mut len = 0;
                let codes = halves.iter().flat_map(|byte| [byte >> 4, byte & END]);
                let chars = codes.take_while(|code| *code != END);
                let sign = negative.then_some(b'-');
                for byte in sign
                    .into_iter()
                    .chain(chars.map(|c| ALPHABET[usize::from(c)]))
                {
                    bytes[len] = byte;
                    len += 1;
                }
                NumberText(TextOf::Unpacked {
                    len: len as u8,
                    bytes,
                })
            }
            Repr::Heap(text) => NumberText(TextOf::Borrowed(text)),
        }
    }

    /// The exact value, for arithmetic. Refused, on the text alone and before any parsing,
    /// for an exponent beyond ±`MAX_EXPONENT` (`1e999999999 + 0.1` would take gigabytes of
    /// digits) or more than `MAX_DIGITS` digits (parsing them is quadratic).
    pub(crate) fn to_decimal(&self) -> Result<BigDecimal, Unbounded> {
        self.bounded()?;
        BigDecimal::from_str(&self.as_str())
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

    /// [`Number::shown`] with its `unit` (`%`, or none) after the digits, before the count of
    /// them when cut: `31.50%`, `12345678901234567890…% (604 digits)`.
    pub fn shown_with(&self, unit: &str) -> String {
        let shown = self.shown();
        match shown.split_once("… (") {
            Some((head, count)) => format!("{head}…{unit} ({count}"),
            None => format!("{shown}{unit}"),
        }
    }

    /// A computed value, written in plain decimals (no exponent).
    pub(crate) fn from_decimal(value: &BigDecimal) -> Number {
        Number::new(&value.to_plain_string())
    }

    /// Whether the value is whole (`12`, `12.0`, `1.5e1`), judged on the text alone.
    pub fn is_whole(&self) -> bool {
        let text = self.as_str();
        let text = text.trim_start_matches('-');
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
        assert_eq!(std::mem::size_of::<Option<Number>>(), 16);
        let thirty = "1".repeat(30);
        let thirty_one = format!("-{thirty}");
        for text in [
            "0",
            "0.1",
            "-0.5",
            "826665.7612345678",
            "-1.2345678901234567E+308",
            "5e-324",
            thirty.as_str(),
            thirty_one.as_str(),
            "123456789012345678901234567890.5",
            "-123456789012345678901234567890.5",
        ] {
            let number = Number::from_json_token(text).unwrap();
            assert_eq!(&*number.as_str(), text);
            assert_eq!(number.clone(), number);
        }
        let packed = |t: &str| matches!(Number::new(t).0, Repr::Packed { .. });
        assert!(packed(&thirty) && packed(&thirty_one));
        assert!(!packed(&format!("{thirty}1")) && !packed(&format!("-{thirty}1")));
        // Equal texts are equal values; different texts of one value are not (exactness).
        assert_eq!(Number::new("1.50"), Number::new("1.50"));
        assert_ne!(Number::new("1.5"), Number::new("1.50"));
        assert_ne!(Number::new(&format!("{thirty}1")), Number::new(&thirty));
    }
}
