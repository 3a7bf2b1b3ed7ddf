//! What svg and html show beside the data: the query, the run's warnings, when the page was
//! made.

use chrono::{DateTime, Utc};

use crate::fetched::Plan;
use crate::model::Period;
use crate::render::Caption;

/// The caption of a picture of `plan`'s query.
pub(super) fn caption(plan: &Plan, by: Period, warnings: &[String]) -> Caption {
    Caption {
        chains: plan.chains.clone(),
        range: plan.range,
        by,
        warnings: warnings.to_vec(),
        made: made_at(std::env::var("SOURCE_DATE_EPOCH").ok().as_deref()),
    }
}

/// Now in UTC to the minute, or the time `SOURCE_DATE_EPOCH` gives (seconds since 1970, the
/// reproducible-builds convention), so that a page can be made again byte for byte.
fn made_at(epoch: Option<&str>) -> String {
    let fixed = epoch
        .and_then(|text| text.trim().parse::<i64>().ok())
        .and_then(|seconds| DateTime::<Utc>::from_timestamp(seconds, 0));
    fixed
        .unwrap_or_else(Utc::now)
        .format("%Y-%m-%d %H:%M UTC")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::made_at;

    #[test]
    fn source_date_epoch_fixes_the_time() {
        assert_eq!(made_at(Some("1700000000")), "2023-11-14 22:13 UTC");
        assert_ne!(made_at(Some("soon")), "");
    }
}
