//! A panel's value axis: round ticks from zero on a linear axis, powers of ten on a log one,
//! with short labels.

use super::frame::Scale;
use super::series::{Axis, Panel};
use crate::render::scale::{compact_label, round_ticks, tick_label};

/// A panel's value scale: round ticks from zero (or below, for negative values) up, or on a
/// log axis powers of ten around its values.
pub(super) fn scale(panel: &Panel) -> Scale {
    let (lo, hi) = panel.value_range();
    let unit = if panel.percent { "%" } else { "" };
    if panel.axis == Axis::Log {
        let ticks = powers_of_ten(lo, hi);
        let labels = (power_labels(&ticks).into_iter())
            .map(|label| format!("{label}{unit}"))
            .collect();
        return Scale {
            ticks,
            labels,
            log: true,
        };
    }
    let (ticks, step) = round_ticks(lo, hi, panel.ticks());
    let top = ticks.iter().fold(0.0f64, |top, t| top.max(t.abs()));
    let labels = (ticks.iter())
        .map(|t| format!("{}{unit}", compact_label(*t, step, top)))
        .collect();
    Scale {
        ticks,
        labels,
        log: false,
    }
}

/// The most ticks a log axis gets: a wider range ticks every few powers of ten.
const MOST_POWERS: i32 = 8;

/// The powers of ten from the one at or below `lo` to the one at or above `hi` (two at
/// least), every k-th when there would be more than [`MOST_POWERS`], counted down from the
/// top; for values above zero (no panel draws others on a log axis).
pub(super) fn powers_of_ten(lo: f64, hi: f64) -> Vec<f64> {
    let (lo, hi) = match lo > 0.0 && hi >= lo {
        true => (lo, hi),
        false => (1.0, 10.0),
    };
    let last = (hi.log10().ceil() as i32).clamp(-300, 300);
    let first = (lo.log10().floor() as i32).clamp(-300, last - 1);
    let every = (last - first + MOST_POWERS - 1) / MOST_POWERS;
    let mut ticks: Vec<f64> = (0..=MOST_POWERS)
        .map(|k| last - k * every)
        .take_while(|k| *k + every > first)
        .map(|k| 10f64.powi(k))
        .collect();
    ticks.reverse();
    ticks
}

/// The powers of ten of one axis as labels, in one notation: short (`0.01`, `1`, `100`, `1k`,
/// `10M`, `100B`, `1T`) when every tick is from `0.0001` to `100T`, else every tick as `1eN`
/// (`1e-8`, `1e0`, `1e18`), never the two mixed.
pub(super) fn power_labels(ticks: &[f64]) -> Vec<String> {
    match ticks.iter().all(|t| (1e-4..1e15).contains(t)) {
        true => ticks.iter().map(|t| short_power(*t)).collect(),
        false => (ticks.iter())
            .map(|t| format!("1e{}", t.log10().round()))
            .collect(),
    }
}

/// A power of ten from `0.0001` to `100T` as a short label.
fn short_power(power: f64) -> String {
    const SUFFIXES: [(f64, &str); 5] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k"), (1.0, "")];
    match SUFFIXES
        .iter()
        .find(|(size, _)| power >= size * (1.0 - 1e-9))
    {
        Some((size, name)) => format!("{}{name}", tick_label(power / size, 1.0)),
        None => tick_label(power, power),
    }
}
