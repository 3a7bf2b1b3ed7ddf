//! `chains`: the supported chains, their EVM chain ids and aliases.

use super::{format_or_default, write_stdout};
use crate::chain::Chain;
use crate::cli::ChainsArgs;
use crate::error::Failure;
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
    let rows: Vec<Vec<String>> = Chain::ALL
        .iter()
        .map(|c| {
            vec![
                c.name().to_owned(),
                c.evm_id().to_string(),
                c.aliases().join(","),
            ]
        })
        .collect();
    write_stdout(|out| match format {
        Format::Table => {
            let mut table = comfy_table::Table::new();
            table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
            table.set_header(HEADER).add_rows(rows);
            writeln!(out, "{table}")
        }
        Format::Csv => {
            let mut writer = csv::Writer::from_writer(out);
            writer.write_record(HEADER).map_err(render::csv::into_io)?;
            rows.iter()
                .try_for_each(|row| writer.write_record(row))
                .map_err(render::csv::into_io)?;
            writer.flush()
        }
        Format::Tsv => render::tsv::write_cells(Some(HEADER.to_vec()), rows.into_iter(), out),
        Format::Markdown => render::markdown::write_cells(&HEADER, &rows, HEADER.len(), out),
        Format::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&objects()).expect("plain values serialise")
        ),
        Format::Ndjson => objects().iter().try_for_each(|o| writeln!(out, "{o}")),
        Format::Chart => unreachable!("refused above"),
    })
}

fn objects() -> Vec<serde_json::Value> {
    Chain::ALL
        .iter()
        .map(|c| serde_json::json!({"chain": c.name(), "chain_id": c.evm_id(), "aliases": c.aliases()}))
        .collect()
}
