//! `render FILE`: draws an export this tool wrote, with no request and no key.

use anyhow::Result;

use crate::cli::RenderArgs;
use crate::output::{draw, Drawing};
use crate::settings::{Settings, Terminal};
use crate::system::diag::Notice;

/// `settings`: the config file located, never read for a key; only the colour is wanted.
pub(super) fn run(args: &RenderArgs, settings: &Settings, terminal: Terminal) -> Result<()> {
    let (file, output) = (args.file.clone(), args.output.clone());
    let (format, file_chain) = (args.format, args.file_chain);
    let drawing = Drawing {
        file,
        format,
        output,
        file_chain,
        scale: args.scale.unwrap_or_default(),
        source_date_epoch: settings.source_date_epoch.clone(),
        table: args.table.clone(),
    };
    draw(&drawing, settings.color, terminal, &Notice::write)
}
