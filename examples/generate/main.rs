//! Regenerates `completions/` and `man/` from the code: `cargo run --example generate`.
//!
//! An example rather than a hidden subcommand: it writes into the source tree, which only makes
//! sense in a checkout. The pages are the binary's own (`chain-metrics man`, made by
//! `src/cli/manual/`), so the checked-in ones are what a `cargo install` user can print.
//! `tests/integration/cli/generated.rs` fails, naming this command, when the checked-in files drift.

use std::fs;
use std::path::Path;

use chain_metrics::{manual, write_script, Shell};
use clap::ValueEnum;

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let completions = root.join("completions");
    fs::create_dir_all(&completions)?;
    for shell in Shell::value_variants() {
        let mut script = Vec::new();
        write_script(*shell, &mut script)?;
        fs::write(completions.join(shell.file_name()), script)?;
    }
    let man = root.join("man");
    fs::create_dir_all(&man)?;
    // Pages of subcommands that no longer exist must go too.
    for entry in fs::read_dir(&man)? {
        let path = entry?.path();
        if path.extension().is_some_and(|ext| ext == "1") {
            fs::remove_file(path)?;
        }
    }
    for page in manual::pages() {
        fs::write(man.join(&page.file_name), page.text)?;
    }
    println!("wrote {} and {}", completions.display(), man.display());
    Ok(())
}
