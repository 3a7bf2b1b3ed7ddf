//! The sandbox's synthetic series: deterministic per (chain, date), plausible, with a weekly
//! rhythm.

use chrono::{Datelike, NaiveDate, Weekday};

use crate::model::Chain;
use crate::model::SocialMetric;

/// A number in [0, 1) that depends only on its inputs (splitmix64).
fn unit(chain: Chain, date: NaiveDate, salt: u64) -> f64 {
    let mut x = (chain as u64 + 1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(date.num_days_from_ce() as u64)
        .wrapping_add(salt.wrapping_mul(0xD1B5_4A32_D192_ED03));
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// Quieter weekends, a busy mid-week.
fn weekly(date: NaiveDate) -> f64 {
    match date.weekday() {
        Weekday::Mon => 0.97,
        Weekday::Tue | Weekday::Wed => 1.05,
        Weekday::Thu => 1.03,
        Weekday::Fri => 0.98,
        Weekday::Sat => 0.84,
        Weekday::Sun => 0.80,
    }
}

/// Daily fees: about 10^4 (Polygon) to 10^6 (Ethereum).
pub(super) fn fees(chain: Chain, date: NaiveDate) -> f64 {
    let base = match chain {
        Chain::Ethereum => 950_000.0,
        Chain::Arbitrum => 65_000.0,
        Chain::Bsc => 240_000.0,
        Chain::Optimism => 28_000.0,
        Chain::Base => 130_000.0,
        Chain::Polygon => 14_000.0,
    };
    let value = base * weekly(date) * (0.8 + 0.4 * unit(chain, date, 1));
    (value * 100.0).round() / 100.0
}

/// Daily active users: about 10^5 to 10^6.
pub(super) fn active_users(chain: Chain, date: NaiveDate) -> u64 {
    let base = match chain {
        Chain::Ethereum => 420_000.0,
        Chain::Arbitrum => 310_000.0,
        Chain::Bsc => 1_150_000.0,
        Chain::Optimism => 120_000.0,
        Chain::Base => 870_000.0,
        Chain::Polygon => 530_000.0,
    };
    (base * weekly(date) * (0.9 + 0.2 * unit(chain, date, 2))) as u64
}

/// Official-account counts: 0 to 20, often 0, fewer at weekends.
pub(super) fn social(chain: Chain, date: NaiveDate, item: SocialMetric) -> u64 {
    let (salt, zero_share, most) = match item {
        SocialMetric::Reply => (3, 0.5, 20.0),
        SocialMetric::Retweet => (4, 0.55, 8.0),
        SocialMetric::Tweet => (5, 0.4, 6.0),
        SocialMetric::Quote => (6, 0.75, 3.0),
    };
    let weekend = matches!(date.weekday(), Weekday::Sat | Weekday::Sun);
    let zero_share = if weekend {
        zero_share + 0.2
    } else {
        zero_share
    };
    if unit(chain, date, salt) < zero_share {
        return 0;
    }
    1 + (unit(chain, date, salt + 10) * most) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_plausible() {
        let mut day = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let mut zeros = 0;
        for _ in 0..365 {
            for chain in Chain::ALL {
                assert_eq!(fees(chain, day), fees(chain, day));
                assert!((8_000.0..1_300_000.0).contains(&fees(chain, day)));
                assert!((80_000..1_400_000).contains(&active_users(chain, day)));
                for item in SocialMetric::ALL {
                    let n = social(chain, day, item);
                    assert!(n <= 20);
                    zeros += usize::from(n == 0);
                }
            }
            day = day.succ_opt().unwrap();
        }
        assert!(zeros > 365 * 6 * 4 / 3, "zeros are common: {zeros}");
    }
}
