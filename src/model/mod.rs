//! What the service returns: endpoints, metric columns, exact number texts and daily records.

mod chain;
mod column;
mod dates;
mod day_range;
mod division;
mod number;
mod period;

pub(crate) use chain::each_once;
pub(crate) use chain::expand as expand_chains;
pub use chain::names as chain_names;
pub use chain::{Chain, ChainArg};
#[cfg(test)]
pub(crate) use column::named as column_named;
pub use column::{Aggregation, Column, Measure, Unit};
pub(crate) use dates::{describe_days, today_utc};
pub use dates::{parse_date, parse_last, DaySpec};
pub(crate) use dates::{parse_month, parse_quarter, parse_span, parse_year, Span};
pub(crate) use dates::{DAY_SECONDS, MAX_RANGE_DAYS};
pub use day_range::DayRange;
pub use division::divide;
pub use number::{Number, NumberText};
pub use period::{Coverage, Period};

use chrono::NaiveDate;

/// The header the sandbox sends with every data answer, and its value: the data is synthetic.
/// A client that sees it says so in its pictures and records it in its exports, also when the
/// sandbox runs on its own (`chain-metrics sandbox`) and is reached by `--base-url`.
pub(crate) const DATA_HEADER: (&str, &str) = ("x-chain-metrics-data", "synthetic");

/// One of the service's three endpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    Fees,
    ActiveUsers,
    OfficialAccount,
}

impl Endpoint {
    /// Every endpoint, in the order `report` asks them and its columns come.
    pub const ALL: [Endpoint; 3] = [
        Endpoint::Fees,
        Endpoint::ActiveUsers,
        Endpoint::OfficialAccount,
    ];

    pub fn path(self) -> &'static str {
        match self {
            Endpoint::Fees => "/api/chain-insights/fees",
            Endpoint::ActiveUsers => "/api/chain-insights/active_users",
            Endpoint::OfficialAccount => "/api/social-metrics/official-account",
        }
    }

    /// The endpoint in the user's words, for warnings.
    pub fn label(self) -> &'static str {
        match self {
            Endpoint::Fees => "fees",
            Endpoint::ActiveUsers => "active users",
            Endpoint::OfficialAccount => "official account",
        }
    }

    /// The metrics the endpoint fills, in the order its records' values come: the official
    /// account's are the `includes` asked, in their order. Its inverse is [`Metric::endpoint`].
    pub fn metrics(self, includes: &[SocialMetric]) -> Vec<Metric> {
        match self {
            Endpoint::Fees => vec![Metric::Fees],
            Endpoint::ActiveUsers => vec![Metric::ActiveUsers],
            Endpoint::OfficialAccount => includes.iter().map(|i| Metric::Social(*i)).collect(),
        }
    }

    /// The command that asks this endpoint alone, which names its SQLite table too (`report`,
    /// which asks them all, names its own).
    pub fn command(self) -> &'static str {
        match self {
            Endpoint::Fees => "fees",
            Endpoint::ActiveUsers => "users",
            Endpoint::OfficialAccount => "social",
        }
    }
}

/// An item of `includes`: one official-account metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SocialMetric {
    Reply,
    Retweet,
    Tweet,
    Quote,
}

impl SocialMetric {
    pub const ALL: [SocialMetric; 4] = [
        SocialMetric::Reply,
        SocialMetric::Retweet,
        SocialMetric::Tweet,
        SocialMetric::Quote,
    ];

    /// The names `--include` takes.
    pub fn names() -> Vec<String> {
        SocialMetric::ALL
            .map(|item| item.name().to_owned())
            .to_vec()
    }

    pub fn name(self) -> &'static str {
        match self {
            SocialMetric::Reply => "reply",
            SocialMetric::Retweet => "retweet",
            SocialMetric::Tweet => "tweet",
            SocialMetric::Quote => "quote",
        }
    }

    /// The clap value parser of `--include` (one item of its comma list).
    pub fn parse(text: &str) -> Result<SocialMetric, String> {
        let wanted = text.trim();
        if wanted.is_empty() {
            return Err(
                "an include is empty (a stray comma?): separate them with single commas, as \
                in tweet,reply"
                    .into(),
            );
        }
        SocialMetric::ALL
            .into_iter()
            .find(|item| item.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                format!("unknown include '{text}': expected reply, retweet, tweet or quote")
            })
    }
}

/// A field the service sends (one metric of a day), named as the service names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    Fees,
    ActiveUsers,
    Social(SocialMetric),
}

impl Metric {
    pub fn name(self) -> &'static str {
        match self {
            Metric::Fees => "fees",
            Metric::ActiveUsers => "active_users",
            Metric::Social(item) => item.name(),
        }
    }

    /// The endpoint that sends the field (see [`Endpoint::metrics`]).
    pub fn endpoint(self) -> Endpoint {
        match self {
            Metric::Fees => Endpoint::Fees,
            Metric::ActiveUsers => Endpoint::ActiveUsers,
            Metric::Social(_) => Endpoint::OfficialAccount,
        }
    }

    /// Whether SERVICE.md says the field is a whole number.
    pub fn is_whole(self) -> bool {
        !matches!(self, Metric::Fees)
    }
}

/// One day of one chain: a value (or a gap) for each asked column, in column order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub date: NaiveDate,
    pub values: Vec<Option<Number>>,
}

/// One output row: a date, the chain it is about (none in a `--wide` row, which covers every
/// chain), and a value or gap per column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub date: NaiveDate,
    pub chain: Option<Chain>,
    pub values: Vec<Option<Number>>,
    /// Under `--by`: how many days of its period the row covers, and of how many. `None` for a
    /// day's row, and for a row read back from a file (its `days` cell is all it says).
    pub coverage: Option<Coverage>,
}

/// What a command prints: columns `date[,chain],<columns>` and rows sorted by date, then chain.
///
/// The columns are typed ([`Column`]): what each means is read from its type, and its name
/// (`fees`, or `ETHEREUM.fees` once pivoted by `--wide`) is made from it, so every renderer
/// treats a long and a wide dataset alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dataset {
    pub chain_column: bool,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

impl Dataset {
    /// The header names, in order.
    pub fn header(&self) -> Vec<String> {
        let mut names = vec!["date".to_owned()];
        if self.chain_column {
            names.push("chain".to_owned());
        }
        names.extend(self.columns.iter().map(Column::name));
        names
    }

    /// The text of a row's chain cell: the service's name, empty when the row has none.
    pub fn chain_cell(row: &Row) -> &'static str {
        row.chain.map_or("", Chain::name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_metric_comes_from_the_endpoint_that_fills_it() {
        for endpoint in Endpoint::ALL {
            for metric in endpoint.metrics(&SocialMetric::ALL) {
                assert_eq!(metric.endpoint(), endpoint, "{metric:?}");
            }
        }
        assert_eq!(Endpoint::OfficialAccount.metrics(&[]), []);
    }

    #[test]
    fn items_parse_in_any_case() {
        assert_eq!(SocialMetric::parse("Reply"), Ok(SocialMetric::Reply));
        assert_eq!(
            SocialMetric::parse("likes").unwrap_err(),
            "unknown include 'likes': expected reply, retweet, tweet or quote"
        );
    }
}
