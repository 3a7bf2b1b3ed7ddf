//! Value-axis numbers written from an f64 without float artefacts: no digit the f64 does not
//! really hold (`12345000000000000905969664` for 1.2345e25, `0.30000000000000004`).

/// Significant digits an f64 holds for certain (it holds 15 to 17 decimal digits).
const SIGNIFICANT: i32 = 15;

/// `value` written in full with `decimals` decimals, but at most [`SIGNIFICANT`] significant
/// digits: fewer decimals for a value that cannot hold them, zeros for the integer digits
/// beyond.
pub(super) fn plain_text(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        // The chart's scale keeps every label finite; a NaN or infinity is never written.
        return String::new();
    }
    let scientific = format!("{value:.prec$e}", prec = (SIGNIFICANT - 1) as usize);
    let Some((mantissa, exponent)) = scientific.split_once('e') else {
        return format!("{value:.decimals$}");
    };
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if exponent < SIGNIFICANT {
        let room = usize::try_from(SIGNIFICANT - 1 - exponent).unwrap_or(0);
        let decimals = decimals.min(room);
        return format!("{value:.decimals$}");
    }
    // Integer digits past what the f64 holds: the mantissa's digits, then zeros.
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let zeros = usize::try_from(exponent + 1 - SIGNIFICANT).unwrap_or(0);
    format!("{sign}{digits}{}", "0".repeat(zeros))
}

#[cfg(test)]
mod tests {
    use super::plain_text;

    #[test]
    fn no_digit_the_float_does_not_hold() {
        assert_eq!(plain_text(1.2345e25, 0), "12345000000000000000000000");
        assert_eq!(plain_text(-9.87654321e20, 0), "-987654321000000000000");
        assert_eq!(plain_text(0.1 + 0.2, 30), "0.300000000000000");
        assert_eq!(plain_text(1_158_094.25, 0), "1158094");
        assert_eq!(plain_text(3e-7, 8), "0.00000030");
        assert_eq!(plain_text(0.0, 2), "0.00");
        assert_eq!(plain_text(123_456_789_012_345.6, 3), "123456789012346");
    }
}
