//! The names and meanings of typed columns, and a way for other tests to name one.

use super::*;

/// For unit tests: the column named `name` as this run would make it (a chain alone is of
/// fees), found among every column there can be.
pub(crate) fn named(name: &str) -> Column {
    use crate::model::SocialMetric;
    let (wide, own) = match name.split_once('.') {
        Some((chain, own)) => (Some(Chain::from_name(chain).unwrap()), own),
        None => match Chain::from_name(name) {
            Some(chain) => return Column::value(Metric::Fees).in_chain(chain, true),
            None => (None, name),
        },
    };
    let metrics = [Metric::Fees, Metric::ActiveUsers];
    let metrics = metrics
        .into_iter()
        .chain(SocialMetric::ALL.map(Metric::Social));
    let measures = Measure::FIXED
        .into_iter()
        .chain((1..=31).map(Measure::Rolling));
    let values = metrics.flat_map(|m| [Column::value(m), Column::value(m).rolled_up()]);
    let all: Vec<Column> = values
        .flat_map(|v| measures.clone().filter_map(move |m| v.with_measure(m)))
        .chain([Column::days()])
        .collect();
    let column = *all.iter().find(|c| c.name() == own).unwrap();
    match wide {
        Some(chain) => column.in_chain(chain, false),
        None => column,
    }
}

#[test]
fn names_are_made_from_the_type() {
    let fees = Column::value(Metric::Fees);
    let users = Column::value(Metric::ActiveUsers).rolled_up();
    let named = [
        (fees, "fees"),
        (
            fees.with_measure(Measure::ChangePct).unwrap(),
            "fees_change_pct",
        ),
        (
            fees.with_measure(Measure::Rolling(7)).unwrap(),
            "fees_rolling_7",
        ),
        (
            fees.with_measure(Measure::PerUser).unwrap(),
            "fees_per_user",
        ),
        (users, "active_users_avg"),
        (
            users.with_measure(Measure::Change).unwrap(),
            "active_users_avg_change",
        ),
        (Column::days(), "days"),
        (
            Column::days().in_chain(Chain::Ethereum, false),
            "ETHEREUM.days",
        ),
        (fees.in_chain(Chain::Ethereum, false), "ETHEREUM.fees"),
        (users.in_chain(Chain::Base, true), "BASE"),
    ];
    for (column, name) in named {
        assert_eq!(column.name(), name);
    }
}

#[test]
fn users_percents_and_means_do_not_add_up() {
    let fees = Column::value(Metric::Fees);
    let users = Column::value(Metric::ActiveUsers);
    assert!(fees.adds_up() && Column::days().adds_up());
    assert!(fees.with_measure(Measure::Change).unwrap().adds_up());
    assert!(users.with_measure(Measure::Change).unwrap().adds_up());
    assert!(!users.adds_up() && !users.rolled_up().in_chain(Chain::Base, true).adds_up());
    for measure in [
        Measure::ChangePct,
        Measure::Rolling(3),
        Measure::Cumulative,
        Measure::SharePct,
        Measure::PerUser,
    ] {
        assert!(
            !fees.with_measure(measure).unwrap().adds_up(),
            "{measure:?}"
        );
    }
    assert_eq!(users.rolled_up().aggregation(), Some(Aggregation::Mean));
    assert_eq!(fees.rolled_up().aggregation(), Some(Aggregation::Sum));
    assert_eq!(
        fees.with_measure(Measure::SharePct).unwrap().unit(),
        Unit::Percent
    );
    assert_eq!(users.unit(), Unit::Count);
}
