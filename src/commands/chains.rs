//! `chains`: the supported chains, their EVM chain ids and aliases.

use crate::cli::ChainsArgs;
use crate::error::Failure;
use crate::model::chain::Chain;
use crate::output::{format_or_default, write_stdout};
use crate::render::{self, Format};

const HEADER: [&str; 3] = ["chain", "chain_id", "aliases"];

pub fn run(args: &ChainsArgs) -> anyhow::Result<()> {
    let format = format_or_default(args.format);
    if format == Format::Chart {
        return Err(
            Failure::usage("chains is a list, not a daily series to chart")
                .with_hint("use --format table, csv, tsv, json, ndjson or markdown")
                .into(),
        );
    }
    let rows: Vec<Vec<serde_json::Value>> = Chain::ALL
        .iter()
        .map(|c| vec![c.name().into(), c.evm_id().into(), c.aliases().into()])
        .collect();
    write_stdout(|out| render::listing::write(&HEADER, &rows, format, out))
}
