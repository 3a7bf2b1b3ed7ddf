//! `chains`: the supported chains, their EVM chain ids and aliases.

use super::{format_or_default, write_stdout};
use crate::chain::Chain;
use crate::cli::ChainsArgs;
use crate::render::{self, Format};

pub fn run(args: &ChainsArgs) -> anyhow::Result<()> {
    let format = format_or_default(args.format);
    let rows: Vec<[String; 3]> = Chain::ALL
        .iter()
        .map(|c| {
            [
                c.name().to_owned(),
                c.evm_id().to_string(),
                c.aliases().join(","),
            ]
        })
        .collect();
    write_stdout(|out| match format {
        Format::Table => {
            let mut table = comfy_table::Table::new();
            table
                .load_preset(comfy_table::presets::UTF8_FULL_CONDENSED)
                .force_no_tty();
            table
                .set_header(["chain", "chain_id", "aliases"])
                .add_rows(rows);
            writeln!(out, "{table}")
        }
        Format::Csv => {
            let mut writer = csv::Writer::from_writer(out);
            writer
                .write_record(["chain", "chain_id", "aliases"])
                .map_err(render::csv::into_io)?;
            rows.iter()
                .try_for_each(|row| writer.write_record(row))
                .map_err(render::csv::into_io)?;
            writer.flush()
        }
        Format::Json => {
            let list: Vec<_> = Chain::ALL
                .iter()
                .map(|c| serde_json::json!({"chain": c.name(), "chain_id": c.evm_id(), "aliases": c.aliases()}))
                .collect();
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&list).expect("plain values serialise")
            )
        }
    })
}
