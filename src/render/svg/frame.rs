//! Where a panel of the SVG goes: its frame (position, width, the dates its x axis spans) and
//! its value scale, shared by the panel's lines and the hover columns laid over them.

use chrono::NaiveDate;

/// The plot's height in pixels, between the metric's name and the date labels.
pub(super) const PLOT_HEIGHT: f64 = 160.0;
/// Above the plot: the metric's name.
pub(super) const HEAD: f64 = 28.0;
/// A value scale: tick values from the lowest up, and their labels; `log`: values are placed
/// by their logarithm (every value drawn on it is above zero).
pub(super) struct Scale {
    pub ticks: Vec<f64>,
    pub labels: Vec<String>,
    pub log: bool,
}

/// Where a panel goes, and the dates its x axis spans: its plot starts [`HEAD`] (and `note`)
/// below `top` and is `height` high.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    /// Room under the metric's name for the lines of a long note (values left out).
    pub note: f64,
    /// The first and the last date of the x axis; `None` when there are no dates.
    pub span: Option<(NaiveDate, NaiveDate)>,
}

impl Frame {
    pub(super) fn bottom(&self) -> f64 {
        self.top + HEAD + self.note + self.height
    }

    /// The plot's top edge.
    pub(super) fn plot_top(&self) -> f64 {
        self.top + HEAD + self.note
    }

    pub(super) fn x(&self, date: NaiveDate) -> f64 {
        let Some((first, last)) = self.span else {
            return self.left;
        };
        let span = (last - first).num_days();
        match span {
            0 => self.left + self.width / 2.0,
            _ => self.left + self.width * (date - first).num_days() as f64 / span as f64,
        }
    }

    pub(super) fn y(&self, scale: &Scale, value: f64) -> f64 {
        let placed = |v: f64| if scale.log { v.log10() } else { v };
        let lo = placed(scale.ticks.first().copied().unwrap_or(0.0));
        let hi = placed(scale.ticks.last().copied().unwrap_or(1.0));
        let value = placed(value);
        let share = match hi > lo {
            true => (value - lo) / (hi - lo),
            false => 0.0,
        };
        self.bottom() - self.height * share
    }
}
