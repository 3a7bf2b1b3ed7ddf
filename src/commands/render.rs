//! `render FILE`: draws an export this tool wrote, with no request and no key.

use anyhow::Result;

use super::resolve_settings;
use crate::cli::{GlobalArgs, RenderArgs};
use crate::output::{draw, Drawing};
use crate::settings::{FileUse, Terminal};
use crate::system::diag::Notice;

pub(super) fn run(global: &GlobalArgs, args: &RenderArgs, terminal: Terminal) -> Result<()> {
    // Only the colour is wanted: the file is located, never read for a key.
    let settings = resolve_settings(global, terminal, None, FileUse::LocateOnly)?;
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
