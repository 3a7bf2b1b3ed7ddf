//! `man [COMMAND]`: prints a man page, the same roff as `man/` holds; `man --dir DIR` writes all.

use crate::cli::manual::{pages, Page};
use crate::cli::ManArgs;
use crate::error::{Exit, Failure};
use crate::output::write_stdout;

pub(super) fn run(args: &ManArgs) -> anyhow::Result<()> {
    let pages = pages();
    if let Some(dir) = &args.dir {
        let fail = |e: std::io::Error| {
            Failure::new(
                Exit::Output,
                format!("cannot write the man pages into {}: {e}", dir.display()),
            )
        };
        std::fs::create_dir_all(dir).map_err(fail)?;
        for page in &pages {
            std::fs::write(dir.join(&page.file_name), &page.text).map_err(fail)?;
        }
        return Ok(());
    }
    let page = find(&pages, &args.command)?;
    write_stdout(|out| out.write_all(&page.text))
}

/// The page of `words` (`auth login`), or a usage error naming the pages there are.
fn find<'a>(pages: &'a [Page], words: &[String]) -> Result<&'a Page, Failure> {
    let name: Vec<&str> = ["chain-metrics"]
        .into_iter()
        .chain(words.iter().map(String::as_str))
        .collect();
    let file_name = format!("{}.1", name.join("-"));
    pages
        .iter()
        .find(|page| page.file_name == file_name)
        .ok_or_else(|| {
            let known: Vec<&str> = pages
                .iter()
                .skip(1)
                .map(|page| {
                    page.file_name
                        .trim_start_matches("chain-metrics-")
                        .trim_end_matches(".1")
                })
                .collect();
            Failure::usage(format!("no man page for '{}'", words.join(" ")))
                .with_hint(format!("the commands with a page: {}", known.join(", ")))
        })
}
