//! The axes' scales, shared by the terminal chart and the SVG panels, so that both label an
//! axis the same way: round value steps (1, 2 or 5 times a power of ten) and their labels,
//! what a picture can place, and date ticks on calendar boundaries (`dates`).

mod dates;
mod label;

use crate::model::Number;
use crate::render::group_digits;
pub(super) use dates::calendar_ticks;

/// The largest magnitude drawn: every difference of two drawn values, and the margin around
/// a flat series, stays a finite float, so no scale or label is ever NaN or infinite.
const MAX_DRAWN: f64 = 1e300;

/// The value of `number` a picture can place, or `None` for one it must leave out (and list
/// as left out, never as a gap): beyond the number bound, or beyond what a float can place.
pub(crate) fn drawable(number: &Number) -> Option<f64> {
    number.bounded().ok()?;
    let value = number.as_str().parse::<f64>().ok()?;
    (value.abs() <= MAX_DRAWN).then_some(value)
}

/// Why a value is left out of a picture (and listed as left out, never as a gap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Why {
    /// Written with an exponent no axis reaches (`1e999999999`).
    BeyondAxis,
    /// Too many digits, or beyond what a float can place.
    TooLarge,
    /// Not zero, but written with an exponent so far below zero that no arithmetic reaches it
    /// (`1e-999999999`), on any axis.
    Tiny,
    /// Above zero, but too small for a float to tell from zero, on a log axis.
    TooSmall,
    /// Zero or below, on a log axis.
    OffLog,
}

impl Why {
    /// Every reason, in the order the pictures list them.
    pub(crate) const ALL: [Why; 5] = [
        Why::BeyondAxis,
        Why::TooLarge,
        Why::Tiny,
        Why::TooSmall,
        Why::OffLog,
    ];

    /// The reason in words, after `left out, `.
    pub(crate) fn says(self) -> &'static str {
        match self {
            Why::BeyondAxis => "beyond the axis",
            Why::TooLarge => "too large to draw",
            Why::Tiny => "too small to draw",
            Why::TooSmall => "too small to draw on a log scale",
            Why::OffLog => "zero or below on a log scale",
        }
    }

    /// Why [`drawable`] gave no place to `number`: an exponent beyond the number bound (below
    /// zero, of a value not zero: too small; else beyond the axis), or a value too large (too
    /// many digits, or beyond what a float places: `1e500`).
    pub(crate) fn undrawable(number: &Number) -> Why {
        let text = number.as_str();
        let Some((mantissa, exponent)) = text.split_once(['e', 'E']) else {
            return Why::TooLarge;
        };
        if number.bounded().is_ok() {
            return Why::TooLarge;
        }
        let not_zero = mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b));
        match exponent.starts_with('-') && not_zero {
            true => Why::Tiny,
            false => Why::BeyondAxis,
        }
    }

    /// Why a drawable `value` has no place on a log axis: above zero as written (a float
    /// cannot tell it from zero), or zero or below.
    pub(crate) fn off_log(number: &Number, value: f64) -> Why {
        let text = number.as_str();
        let mantissa = text.split(['e', 'E']).next().unwrap_or_default();
        let above_zero =
            !text.starts_with('-') && mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b));
        match above_zero && value >= 0.0 {
            true => Why::TooSmall,
            false => Why::OffLog,
        }
    }
}

/// The ticks of an axis from `lo` to `hi` taken out to round values, at most about `most`
/// of them: the values, from the lowest up, and the step between them.
pub(crate) fn round_ticks(lo: f64, hi: f64, most: usize) -> (Vec<f64>, f64) {
    let (lo, hi) = match hi > lo {
        true => (lo, hi),
        false => (lo, lo + 1.0),
    };
    let step = round_step((hi - lo) / most.max(1) as f64);
    let first = (lo / step).floor();
    let last = (hi / step).ceil();
    // Bounded: (last - first) is at most about `most` + 2 by construction of `step`.
    let count = ((last - first) as usize).min(most + 2);
    let ticks = (0..=count).map(|k| (first + k as f64) * step).collect();
    (ticks, step)
}

/// The smallest of 1, 2 or 5 times a power of ten that is at least `raw`.
fn round_step(raw: f64) -> f64 {
    if !raw.is_finite() || raw <= 0.0 {
        return 1.0;
    }
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|step| *step >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// A tick's label: digit groups, just enough decimals to tell ticks `step` apart, no float
/// artefacts, and no `-0`.
pub(crate) fn tick_label(value: f64, step: f64) -> String {
    let decimals = match step > 0.0 && step.is_finite() {
        true => (-step.log10().floor()).clamp(0.0, 30.0) as usize,
        false => 0,
    };
    let text = label::plain_text(value, decimals);
    let text = if text.trim_start_matches(['-', '0', '.']).is_empty() {
        text.trim_start_matches('-').to_owned()
    } else {
        text
    };
    Number::from_json_token(&text).map_or(text, |n| group_digits(&n))
}

/// A tick's label as a picture writes it, short: `1.5M` for 1,500,000 when the axis's `top`
/// reaches ten thousand (k, M, B, T), else [`tick_label`]; beyond the trillions, in the step's
/// power of ten (`2e18`, `4e18`), as a label in full (a 1e300 axis has 301 digits) would push
/// the plot out of the picture.
pub(crate) fn compact_label(value: f64, step: f64, top: f64) -> String {
    const SUFFIXES: [(f64, &str); 4] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")];
    let top = top.abs();
    let suffix = SUFFIXES
        .iter()
        .find(|(size, _)| top >= size.max(1e4) && top < 1e15);
    match suffix {
        _ if value == 0.0 && top >= 1e4 => "0".to_owned(),
        Some((size, name)) => format!("{}{name}", tick_label(value / size, step / size)),
        None if top >= 1e15 && step.is_finite() && step > 0.0 => {
            // Ticks are whole multiples of a step of 1, 2 or 5 times the power: whole numbers
            // of it, once a float's last bit is rounded away.
            let exponent = step.log10().floor();
            let power = 10f64.powf(exponent);
            let units = (value / power).round();
            format!(
                "{}e{exponent}",
                tick_label(units, (step / power).round().max(1.0))
            )
        }
        None => tick_label(value, step),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let (ticks, step) = round_ticks(0.0, 1_158_094.25, 5);
        assert_eq!(step, 500_000.0);
        assert_eq!(ticks, [0.0, 500_000.0, 1_000_000.0, 1_500_000.0]);
        let labels: Vec<String> = ticks.iter().map(|t| tick_label(*t, step)).collect();
        assert_eq!(labels, ["0", "500,000", "1,000,000", "1,500,000"]);
        let (ticks, step) = round_ticks(0.0, 3.0, 4);
        assert_eq!((ticks.len(), step), (4, 1.0));
        let (ticks, step) = round_ticks(0.0, 0.07, 4);
        assert_eq!(step, 0.02);
        assert_eq!(tick_label(ticks[2], step), "0.04");
        assert_eq!(round_ticks(0.0, 0.0, 4).0, [0.0, 0.5, 1.0]);
        assert_eq!(tick_label(-0.0, 1.0), "0");
    }

    #[test]
    fn compact_labels_are_short_and_keep_the_step() {
        let label = |v: f64, step: f64, top: f64| compact_label(v, step, top);
        assert_eq!(label(1_500_000.0, 500_000.0, 2e6), "1.5M");
        assert_eq!(label(0.0, 500_000.0, 2e6), "0");
        assert_eq!(label(20_000.0, 10_000.0, 4e4), "20k");
        assert_eq!(label(2_500.0, 500.0, 5e3), "2,500");
        assert_eq!(label(3e9, 1e9, 4e9), "3B");
        assert_eq!(label(-2e6, 1e6, 3e6), "-2M");
        assert_eq!(label(5e15, 1e15, 6e15), "5e15");
        assert_eq!(label(4e299, 2e299, 1e300), "4e299");
        assert_eq!(label(-5e17, 5e17, 1e18), "-5e17");
    }
}
