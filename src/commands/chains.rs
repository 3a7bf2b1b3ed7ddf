//! `chains`: the supported chains, their EVM chain ids and aliases.

use crate::cli::ChainsArgs;
use crate::model::Chain;
use crate::output::{format_or_default, write_stdout};
use crate::render;
use crate::settings::Terminal;

const HEADER: [&str; 3] = ["chain", "chain_id", "aliases"];

pub(super) fn run(args: &ChainsArgs, terminal: Terminal) -> anyhow::Result<()> {
    // Never `chart`: the flag does not offer it, and the default is table or csv.
    let format = format_or_default(args.format, terminal);
    let rows: Vec<Vec<serde_json::Value>> = Chain::ALL
        .iter()
        .map(|c| vec![c.name().into(), c.evm_id().into(), c.aliases().into()])
        .collect();
    write_stdout(|out| render::write_listing(&HEADER, &rows, format, terminal.utf8, out))
}
