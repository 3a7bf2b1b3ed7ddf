//! The six supported chains, and every name a user may give them on the command line.

use std::fmt;

/// A blockchain the service knows, in the order SERVICE.md lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Chain {
    Ethereum,
    Arbitrum,
    Bsc,
    Optimism,
    Base,
    Polygon,
}

/// One value of `--chain`: a chain, or `all` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainArg {
    One(Chain),
    All,
}

impl Chain {
    pub const ALL: [Chain; 6] = [
        Chain::Ethereum,
        Chain::Arbitrum,
        Chain::Bsc,
        Chain::Optimism,
        Chain::Base,
        Chain::Polygon,
    ];

    /// The exact value the service expects.
    pub fn name(self) -> &'static str {
        match self {
            Chain::Ethereum => "ETHEREUM",
            Chain::Arbitrum => "ARBITRUM",
            Chain::Bsc => "BSC",
            Chain::Optimism => "OPTIMISM",
            Chain::Base => "BASE",
            Chain::Polygon => "POLYGON",
        }
    }

    /// The EVM chain id, also accepted as a name.
    pub fn evm_id(self) -> u64 {
        match self {
            Chain::Ethereum => 1,
            Chain::Arbitrum => 42161,
            Chain::Bsc => 56,
            Chain::Optimism => 10,
            Chain::Base => 8453,
            Chain::Polygon => 137,
        }
    }

    /// Short names accepted besides the full name and the chain id.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Chain::Ethereum => &["eth"],
            Chain::Arbitrum => &["arb"],
            Chain::Bsc => &["bnb"],
            Chain::Optimism => &["op"],
            Chain::Base => &[],
            Chain::Polygon => &["matic", "pol"],
        }
    }

    /// The chain whose service name is exactly `name` (as the service and the tool's own files
    /// write it: no alias, no other letter case).
    pub fn from_name(name: &str) -> Option<Chain> {
        Chain::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Where rows of this chain sort, in one place: its position in the order asked, and a
    /// chain not asked after every asked one, in the service's order.
    pub fn rank(self, order: &[Chain]) -> usize {
        order
            .iter()
            .position(|o| *o == self)
            .unwrap_or(order.len() + self as usize)
    }

    /// Parses one chain name, alias or chain id, in any letter case.
    pub fn parse(text: &str) -> Option<Chain> {
        let wanted = text.trim();
        Chain::ALL.into_iter().find(|chain| {
            chain.name().eq_ignore_ascii_case(wanted)
                || chain
                    .aliases()
                    .iter()
                    .any(|a| a.eq_ignore_ascii_case(wanted))
                || chain.evm_id().to_string() == wanted
        })
    }
}

impl fmt::Display for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl ChainArg {
    /// The clap value parser of `--chain` (one item of its comma list).
    pub fn parse(text: &str) -> Result<ChainArg, String> {
        if text.trim().is_empty() {
            return Err(
                "a chain is empty (a stray comma?): separate chains with single commas, as \
                in eth,arb"
                    .into(),
            );
        }
        if text.trim().eq_ignore_ascii_case("all") {
            return Ok(ChainArg::All);
        }
        Chain::parse(text).map(ChainArg::One).ok_or_else(|| {
            format!(
                "unknown chain '{text}': expected one of {}, an alias or chain id (see \
                `chain-metrics chains`), or all",
                Chain::ALL.map(Chain::name).join(", ")
            )
        })
    }
}

/// Every name `--chain` takes, as users type them: names, aliases, chain ids, `all`.
pub fn names() -> Vec<String> {
    let mut names = Vec::new();
    for chain in Chain::ALL {
        names.push(chain.name().to_ascii_lowercase());
        names.extend(chain.aliases().iter().map(|a| a.to_string()));
        names.push(chain.evm_id().to_string());
    }
    names.push("all".into());
    names
}

/// Flattens the `--chain` values into chains in the order asked, each once.
pub(crate) fn expand(args: &[ChainArg]) -> Vec<Chain> {
    each_once(args.iter().flat_map(|arg| match arg {
        ChainArg::One(chain) => std::slice::from_ref(chain),
        ChainArg::All => &Chain::ALL[..],
    }))
}

/// `items` in the order given, each once: what a repeated `--chain` or `--include` asks.
pub(crate) fn each_once<'a, T: PartialEq + Copy + 'a>(
    items: impl IntoIterator<Item = &'a T>,
) -> Vec<T> {
    let mut unique = Vec::new();
    for item in items {
        if !unique.contains(item) {
            unique.push(*item);
        }
    }
    unique
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_lookup_takes_only_service_names() {
        for chain in Chain::ALL {
            assert_eq!(Chain::from_name(chain.name()), Some(chain));
        }
        for name in ["ethereum", "eth", "1", " BASE", ""] {
            assert_eq!(Chain::from_name(name), None, "{name}");
        }
    }

    #[test]
    fn rank_follows_the_asked_order_then_the_service_order() {
        let asked = [Chain::Base, Chain::Ethereum];
        assert_eq!(Chain::Base.rank(&asked), 0);
        assert_eq!(Chain::Ethereum.rank(&asked), 1);
        assert!(Chain::Arbitrum.rank(&asked) < Chain::Polygon.rank(&asked));
        assert!(Chain::Arbitrum.rank(&asked) > 1);
    }

    #[test]
    fn names_aliases_and_ids_in_any_case() {
        assert_eq!(Chain::parse("ethereum"), Some(Chain::Ethereum));
        assert_eq!(Chain::parse("ETH"), Some(Chain::Ethereum));
        assert_eq!(Chain::parse("1"), Some(Chain::Ethereum));
        assert_eq!(Chain::parse("Arb"), Some(Chain::Arbitrum));
        assert_eq!(Chain::parse("42161"), Some(Chain::Arbitrum));
        assert_eq!(Chain::parse("bnb"), Some(Chain::Bsc));
        assert_eq!(Chain::parse("bsc"), Some(Chain::Bsc));
        assert_eq!(Chain::parse("56"), Some(Chain::Bsc));
        assert_eq!(Chain::parse("OP"), Some(Chain::Optimism));
        assert_eq!(Chain::parse("10"), Some(Chain::Optimism));
        assert_eq!(Chain::parse("base"), Some(Chain::Base));
        assert_eq!(Chain::parse("8453"), Some(Chain::Base));
        assert_eq!(Chain::parse("matic"), Some(Chain::Polygon));
        assert_eq!(Chain::parse("pol"), Some(Chain::Polygon));
        assert_eq!(Chain::parse("137"), Some(Chain::Polygon));
        assert_eq!(Chain::parse("solana"), None);
        assert_eq!(Chain::parse("01"), None);
        assert_eq!(Chain::parse(""), None);
    }

    #[test]
    fn unknown_chain_message_names_the_value() {
        let err = ChainArg::parse("solana").unwrap_err();
        assert!(err.starts_with("unknown chain 'solana': expected one of ETHEREUM, ARBITRUM"));
        assert!(ChainArg::parse(" ")
            .unwrap_err()
            .starts_with("a chain is empty"));
    }

    #[test]
    fn expand_keeps_order_and_drops_repeats() {
        let args = [
            ChainArg::One(Chain::Base),
            ChainArg::One(Chain::Ethereum),
            ChainArg::One(Chain::Base),
        ];
        assert_eq!(expand(&args), vec![Chain::Base, Chain::Ethereum]);
        let all = expand(&[ChainArg::One(Chain::Polygon), ChainArg::All]);
        assert_eq!(
            all,
            vec![
                Chain::Polygon,
                Chain::Ethereum,
                Chain::Arbitrum,
                Chain::Bsc,
                Chain::Optimism,
                Chain::Base
            ]
        );
    }
}
