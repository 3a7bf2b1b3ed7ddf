//! Exact division, in one place: every mean, percent and per-user value (the derived measures,
//! `--by`'s mean of daily actives, `--summary`'s mean) is one quotient rounded half to even at
//! a stated number of decimals, computed on integers so that no earlier rounding can move a
//! tie and no digit is lost however long the numbers are.

use bigdecimal::num_bigint::{BigInt, Sign};
use bigdecimal::BigDecimal;

/// `num / den` rounded half to even to `decimals` digits after the point (the result has
/// exactly that scale: `2.50` for 2); `None` for a zero `den`.
///
/// With both scaled to integers by the same power of ten (`a / 10^s` and `b / 10^s`), the
/// quotient is `a * 10^decimals / b` on integers; the remainder alone decides the rounding.
/// The operands' size is bounded by `Number::to_decimal` (digits and exponent), so the
/// integers stay a few thousand digits long at most.
pub fn divide(num: &BigDecimal, den: &BigDecimal, decimals: u32) -> Option<BigDecimal> {
    let scale = num
        .fractional_digit_count()
        .max(den.fractional_digit_count())
        .max(0);
    let (a, _) = num.with_scale(scale).into_bigint_and_exponent();
    let (b, _) = den.with_scale(scale).into_bigint_and_exponent();
    if b.sign() == Sign::NoSign {
        return None;
    }
    let a = a * BigInt::from(10u8).pow(decimals);
    let negative = (a.sign() == Sign::Minus) != (b.sign() == Sign::Minus);
    let (a, b) = (a.magnitude(), b.magnitude());
    let (mut quotient, remainder) = (a / b, a % b);
    let twice = remainder * 2u8;
    if twice > *b || (twice == *b && quotient.bit(0)) {
        quotient += 1u8;
    }
    // A zero quotient is zero whatever the sign (`BigInt` has no negative zero).
    let sign = if negative { Sign::Minus } else { Sign::Plus };
    Some(BigDecimal::new(
        BigInt::from_biguint(sign, quotient),
        i64::from(decimals),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quotient(num: &str, den: &str, decimals: u32) -> String {
        let (num, den) = (num.parse().unwrap(), den.parse().unwrap());
        divide(&num, &den, decimals).unwrap().to_plain_string()
    }

    #[test]
    fn ties_go_to_the_even_neighbour_at_the_stated_scale() {
        assert_eq!(quotient("1", "8", 2), "0.12"); // 0.125
        assert_eq!(quotient("3", "8", 2), "0.38"); // 0.375
        assert_eq!(quotient("-3", "8", 2), "-0.38");
        assert_eq!(quotient("-1", "8", 2), "-0.12");
        assert_eq!(quotient("0.1", "0.3", 3), "0.333");
        assert_eq!(quotient("5", "2", 0), "2"); // 2.5
        assert_eq!(quotient("7", "2", 0), "4"); // 3.5
        assert_eq!(quotient("1", "3", 4), "0.3333");
        assert_eq!(quotient("5E+3", "2", 1), "2500.0");
        assert_eq!(quotient("0.001", "-4", 2), "0.00"); // no negative zero
        assert_eq!(divide(&1.into(), &BigDecimal::default(), 2), None);
    }

    #[test]
    fn long_numbers_lose_no_digit() {
        let nines = "9".repeat(150);
        assert_eq!(quotient(&nines, "9", 0), "1".repeat(150));
        assert_eq!(quotient("1e-1000", "1e-1000", 3), "1.000");
    }
}
