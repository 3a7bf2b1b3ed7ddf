//! What a picture (svg, html) says beside the data: the query, the warnings, when it was made.
//! Output hands it down as plain values; a renderer reads no clock and no environment.

use chrono::NaiveDate;

use crate::model::Chain;
use crate::model::DayRange;
use crate::model::Period;

#[derive(Clone, Debug)]
pub struct Caption {
    /// The chains asked, in the order asked: a chain keeps its colour from chart to chart.
    pub chains: Vec<Chain>,
    pub range: DayRange,
    pub by: Period,
    /// The warning lines of the run, as stderr shows them (without `warning: `).
    pub warnings: Vec<String>,
    /// What would make the picture read (see `svg::hints`): the page's notes name them.
    pub hints: Vec<String>,
    /// When the picture was made, as people read it (`SOURCE_DATE_EPOCH` fixes it, so that
    /// the same input gives the same bytes); empty when not known.
    pub made: String,
    pub origin: Origin,
}

/// Where a picture's data came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Origin {
    /// Not known (a picture drawn in a test, an export that does not record it).
    #[default]
    Unknown,
    /// A service, by its base URL with any password masked.
    Service(String),
    /// A service whose answers said their data is synthetic (`model::DATA_HEADER`): a sandbox
    /// run on its own, by its base URL with any password masked.
    SyntheticService(String),
    /// `--sandbox`: every picture says its data is synthetic.
    Sandbox,
    /// `render FILE`: drawn from an export (named by its file name: the folders above it are
    /// the user's business, not a shared picture's), and where its data came from as the
    /// export records it (`Unknown` for one that does not).
    File { name: String, data: Box<Origin> },
}

impl Origin {
    /// Whether the data is synthetic, so that a picture says it is no real chain data.
    pub fn is_synthetic(&self) -> bool {
        match self {
            Origin::Sandbox | Origin::SyntheticService(_) => true,
            Origin::File { data, .. } => data.is_synthetic(),
            Origin::Service(_) | Origin::Unknown => false,
        }
    }
}

/// What a picture made from `--sandbox` says of its data, so that a shared file misleads no one.
pub(crate) const SYNTHETIC: &str = "synthetic data from the built-in sandbox";

impl Caption {
    /// The query in one line: metrics, then [`Caption::scope_line`].
    pub fn query_line(&self, metrics: &[&str]) -> String {
        format!("{} · {}", metrics.join(", "), self.scope_line())
    }

    /// The chains, the range and the period of the query.
    pub fn scope_line(&self) -> String {
        let chains: Vec<&str> = self.chains.iter().map(|c| c.name()).collect();
        format!(
            "{} · {} to {} · by {}",
            chains.join(", "),
            self.range.start,
            self.range.end,
            self.by.name()
        )
    }

    /// Where the data came from, in words: synthetic (the built-in sandbox's port says
    /// nothing), or the service's address; of an export, also the file drawn.
    pub fn source_line(&self) -> Option<String> {
        source_of(&self.origin)
    }

    /// The provenance line of a standalone picture: where the data came from and when the
    /// picture was made, what of them is known.
    pub fn provenance_line(&self) -> Option<String> {
        let parts: Vec<String> = self
            .source_line()
            .into_iter()
            .chain(self.made_line())
            .collect();
        (!parts.is_empty()).then(|| parts.join(" · "))
    }

    /// When the picture was made, and by which version: `made 2025-01-01 00:00 UTC by
    /// chain-metrics 0.2.0`; `None` when not known.
    pub fn made_line(&self) -> Option<String> {
        let version = env!("CARGO_PKG_VERSION");
        (!self.made.is_empty()).then(|| format!("made {} by chain-metrics {version}", self.made))
    }

    /// A point's date in words: the day, or the period that starts on it.
    pub fn when(&self, date: NaiveDate) -> String {
        match self.by {
            Period::Day => date.to_string(),
            by => format!("{} of {date}", by.name()),
        }
    }
}

/// [`Caption::source_line`] of `origin`.
fn source_of(origin: &Origin) -> Option<String> {
    match origin {
        Origin::Sandbox => Some(SYNTHETIC.to_owned()),
        Origin::SyntheticService(url) => Some(format!("synthetic data from the sandbox at {url}")),
        Origin::Service(url) => Some(format!("data from {url}")),
        Origin::File { name, data } => Some(match source_of(data) {
            Some(line) => format!("{line}, drawn from {name}"),
            None => format!("drawn from {name}"),
        }),
        Origin::Unknown => None,
    }
}
