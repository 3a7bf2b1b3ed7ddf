//! An output column as a type: the metric it comes from, the measure of it, its unit, how
//! `--by` rolled it up and, under `--wide`, its chain. Every decision reads these; the name is
//! made from them in [`Column::name`] alone and never read back.

use crate::model::chain::Chain;
use crate::model::Metric;

/// What a column holds of its metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Measure {
    /// The metric itself (a day's value, or a `--by` period's sum or mean).
    Value,
    /// `--change`: the value less the previous period's.
    Change,
    /// `--change`: the change as a percent of the previous period's value.
    ChangePct,
    /// `--rolling N`: the mean of the last N values.
    Rolling(u32),
    /// `--cumulative`: the running total.
    Cumulative,
    /// `--share`: the percent of the period's total over every chain.
    SharePct,
    /// `--per-user`: fees over active users.
    PerUser,
    /// `--per-day`: a `--by` period's sum over the days it covers.
    PerDay,
}

impl Measure {
    /// Every measure but `--rolling N`, which carries its N.
    pub const FIXED: [Measure; 7] = [
        Measure::Value,
        Measure::Change,
        Measure::ChangePct,
        Measure::Cumulative,
        Measure::SharePct,
        Measure::PerUser,
        Measure::PerDay,
    ];
}

/// What a column's numbers count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Money (fees, and fees per user).
    Amount,
    /// Things counted: users, posts, days.
    Count,
    Percent,
}

/// How `--by` rolls a metric's days up into a period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Aggregation {
    Sum,
    /// The mean over the days with a value: a sum of daily actives counts no real users.
    Mean,
}

/// What a column is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `days`: how many days of a `--by` period have data.
    Days,
    /// A measure of a metric.
    Metric(Metric, Measure),
}

/// Under `--wide`, the chain a column belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wide {
    pub chain: Chain,
    /// Named by the chain alone (`ETHEREUM`: one metric a chain), else `ETHEREUM.fees`.
    pub chain_alone: bool,
}

/// One output column after `date` (and `chain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Column {
    pub kind: Kind,
    /// Whether the values are `--by` periods' (sums and means) rather than days'.
    pub rolled_up: bool,
    pub wide: Option<Wide>,
}

impl Column {
    /// A metric's daily values, as the service sends them.
    pub fn value(metric: Metric) -> Column {
        Column {
            kind: Kind::Metric(metric, Measure::Value),
            rolled_up: false,
            wide: None,
        }
    }

    /// The `days` count of `--by`.
    pub fn days() -> Column {
        Column {
            kind: Kind::Days,
            rolled_up: true,
            wide: None,
        }
    }

    /// The same column once rolled up into `--by` periods.
    pub fn rolled_up(self) -> Column {
        Column {
            rolled_up: true,
            ..self
        }
    }

    /// Another measure of this column's metric (`None` for `days`, which has no measures).
    pub fn with_measure(self, measure: Measure) -> Option<Column> {
        let Kind::Metric(metric, _) = self.kind else {
            return None;
        };
        Some(Column {
            kind: Kind::Metric(metric, measure),
            ..self
        })
    }

    /// The same column under `--wide`, as one of `chain`'s.
    pub fn in_chain(self, chain: Chain, chain_alone: bool) -> Column {
        Column {
            wide: Some(Wide { chain, chain_alone }),
            ..self
        }
    }

    /// The same column with no chain: what `--wide` made it from.
    pub fn without_chain(self) -> Column {
        Column { wide: None, ..self }
    }

    pub fn metric(&self) -> Option<Metric> {
        match self.kind {
            Kind::Metric(metric, _) => Some(metric),
            Kind::Days => None,
        }
    }

    /// What the column holds of its metric (`None` for `days`).
    pub fn measure(&self) -> Option<Measure> {
        match self.kind {
            Kind::Metric(_, measure) => Some(measure),
            Kind::Days => None,
        }
    }

    /// Whether this is the metric's own value (not a derived measure, not `days`).
    pub fn is_value_of(&self, metric: Metric) -> bool {
        self.kind == Kind::Metric(metric, Measure::Value)
    }

    pub fn is_days(&self) -> bool {
        self.kind == Kind::Days
    }

    /// The chain of a `--wide` column.
    pub fn chain(&self) -> Option<Chain> {
        self.wide.map(|w| w.chain)
    }

    pub fn unit(&self) -> Unit {
        match self.kind {
            Kind::Days => Unit::Count,
            Kind::Metric(_, Measure::ChangePct | Measure::SharePct) => Unit::Percent,
            Kind::Metric(_, Measure::PerUser) | Kind::Metric(Metric::Fees, _) => Unit::Amount,
            Kind::Metric(_, _) => Unit::Count,
        }
    }

    /// Whether its values can be below zero (a change): a log axis cannot place them.
    pub fn may_be_negative(&self) -> bool {
        matches!(
            self.kind,
            Kind::Metric(_, Measure::Change | Measure::ChangePct)
        )
    }

    /// How `--by` rolled the metric up; `None` for daily values and for `days`.
    pub fn aggregation(&self) -> Option<Aggregation> {
        match (self.kind, self.rolled_up) {
            (Kind::Metric(Metric::ActiveUsers, _), true) => Some(Aggregation::Mean),
            (Kind::Metric(_, _), true) => Some(Aggregation::Sum),
            _ => None,
        }
    }

    /// Whether a sum of the column's values means something: not for active users (a sum of
    /// daily actives counts no real users), nor for percents, means, running totals and
    /// per-user values. A change adds up (to the change over the whole), as do days.
    pub fn adds_up(&self) -> bool {
        match self.kind {
            Kind::Days => true,
            Kind::Metric(Metric::ActiveUsers, Measure::Value) => false,
            Kind::Metric(_, measure) => matches!(measure, Measure::Value | Measure::Change),
        }
    }

    /// The column's name in every output: `fees`, `active_users_avg` (a `--by` mean),
    /// `fees_change_pct`, `fees_rolling_7`, `days`; under `--wide` `ETHEREUM.fees`, or
    /// `ETHEREUM` alone.
    pub fn name(&self) -> String {
        let own = self.own_name();
        match self.wide {
            Some(Wide {
                chain,
                chain_alone: true,
            }) => chain.name().to_owned(),
            Some(Wide { chain, .. }) => format!("{}.{own}", chain.name()),
            None => own,
        }
    }

    /// The name without the chain of `--wide`.
    fn own_name(&self) -> String {
        let Kind::Metric(metric, measure) = self.kind else {
            return "days".to_owned();
        };
        let value = match self.aggregation() {
            Some(Aggregation::Mean) => format!("{}_avg", metric.name()),
            _ => metric.name().to_owned(),
        };
        match measure {
            Measure::Value => value,
            Measure::Change => format!("{value}_change"),
            Measure::ChangePct => format!("{value}_change_pct"),
            Measure::Rolling(n) => format!("{value}_rolling_{n}"),
            Measure::Cumulative => format!("{value}_cumulative"),
            Measure::SharePct => format!("{value}_share_pct"),
            Measure::PerUser => format!("{value}_per_user"),
            Measure::PerDay => format!("{value}_per_day"),
        }
    }
}

impl std::fmt::Display for Column {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) use tests::named;
