//! Man pages generated from the clap definition, with the sections clap does not know about.
//!
//! One page for `chain-metrics` and one per subcommand (nested ones too, `chain-metrics-a-b.1`).
//! clap_mangen writes NAME, SYNOPSIS, DESCRIPTION, OPTIONS and SUBCOMMANDS; this module adds
//! DETAILS (on the query commands' pages), ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES, REPORTING
//! BUGS and SEE ALSO. The examples are the ones `--help` ends with, so the page and the help
//! cannot disagree. The binary prints a page (`chain-metrics man fees`); `cargo run --example
//! generate` writes them all into `man/`.

mod cron;
mod json;
mod rules;
mod sections;
mod synopsis;

use std::io::{self, Write};

use clap::CommandFactory;
use roff::{roman, Roff};

// The tests check the pages, the README and the docs against these.
pub use cron::{CRONTAB, UNITS};
pub use json::JQ_EXAMPLE;
pub use sections::{ENVIRONMENT, EXIT_CODES};

/// The date the pages carry. Fixed, so regenerating gives the same bytes; move it when the
/// pages change in substance (a release), like the version beside it.
pub const DATE: &str = "2026-11-27";

/// A man page: its file name (`chain-metrics-fees.1`) and its roff text.
pub struct Page {
    pub file_name: String,
    pub text: Vec<u8>,
}

/// Every page, the top-level one first, then the subcommands depth-first.
pub fn pages() -> Vec<Page> {
    let mut root = every_help_long(crate::cli::Cli::command()).disable_help_subcommand(true);
    root.build();
    let mut pages = Vec::new();
    collect(&root, &mut Vec::new(), &mut pages);
    pages
}

/// `cmd` and its subcommands with no option left out of the short help: a page has room for
/// every option, and clap_mangen writes the help of one `-h` leaves out (`hide_short_help`, an
/// expert flag) only if it has a long help of its own.
fn every_help_long(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg| arg.hide_short_help(false))
        .mut_subcommands(every_help_long)
}

fn collect(cmd: &clap::Command, parents: &mut Vec<String>, pages: &mut Vec<Page>) {
    let name = page_name(parents, cmd);
    pages.push(Page {
        file_name: format!("{name}.1"),
        text: render(cmd, &name, parents).expect("writing to memory cannot fail"),
    });
    parents.push(cmd.get_name().to_owned());
    for sub in visible_subcommands(cmd) {
        collect(sub, parents, pages);
    }
    parents.pop();
}

fn page_name(parents: &[String], cmd: &clap::Command) -> String {
    let mut words = parents.to_vec();
    words.push(cmd.get_name().to_owned());
    words.join("-")
}

fn visible_subcommands(cmd: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    cmd.get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
}

fn render(cmd: &clap::Command, name: &str, parents: &[String]) -> io::Result<Vec<u8>> {
    let version = env!("CARGO_PKG_VERSION");
    let man = clap_mangen::Man::new(cmd.clone())
        .title(name.to_ascii_uppercase())
        .date(DATE)
        .source(format!("chain-metrics {version}"))
        .manual("User Commands");
    let (notes, examples) = split_after_help(cmd);
    let mut page = Pieces::default();
    page.add(|w| man.render_title(w))?;
    page.add(|w| man.render_name_section(w))?;
    let mut synopsis = Roff::new();
    synopsis::synopsis(&mut synopsis, cmd, parents);
    page.add(|w| synopsis.to_writer(w))?;
    page.add(|w| man.render_description_section(w))?;
    if let Some(notes) = notes {
        page.add(|w| paragraphs(&notes).to_writer(w))?;
    }
    options(&mut page, cmd, parents)?;
    if visible_subcommands(cmd).next().is_some() {
        page.add(|w| man.render_subcommands_section(w))?;
    }
    let mut tail = Roff::new();
    rules::section(&mut tail, cmd);
    sections::environment(&mut tail);
    sections::files(&mut tail);
    sections::security(&mut tail);
    if parents.is_empty() {
        cron::section(&mut tail);
        json::section(&mut tail);
    }
    sections::exit_status(&mut tail);
    sections::examples(&mut tail, &examples);
    sections::reporting_bugs(&mut tail);
    sections::see_also(&mut tail, name, parents, cmd);
    page.add(|w| tail.to_writer(w))?;
    Ok(title_first(page.text))
}

/// The page with its `.TH` line first, before the string definitions roff puts at the top, so
/// that `chain-metrics man fees | head -1` names the page. (No `'\" t` line either: man-db and
/// mandoc run tbl on every page.)
fn title_first(text: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8(text).expect("clap and roff write UTF-8");
    let preamble = Roff::new().render();
    let Some(rest) = text.strip_prefix(&preamble) else {
        return text.into_bytes();
    };
    match rest.split_once('\n') {
        Some((title, body)) if title.starts_with(".TH ") => {
            format!("{title}\n{preamble}{body}").into_bytes()
        }
        _ => text.into_bytes(),
    }
}

/// The OPTIONS sections: on the tool's page every flag, as all are global; on a subcommand's,
/// its own flags, then the global flags that act there under GLOBAL OPTIONS.
fn options(page: &mut Pieces, cmd: &clap::Command, parents: &[String]) -> io::Result<()> {
    let shown = |cmd: &clap::Command| cmd.get_arguments().any(|arg| !arg.is_hide_set());
    if parents.is_empty() {
        let man = clap_mangen::Man::new(cmd.clone());
        return page.add(|w| man.render_options_section(w));
    }
    let own = aliases_said(synopsis::own_options(cmd));
    if shown(&own) {
        let man = clap_mangen::Man::new(own);
        page.add(|w| man.render_options_section(w))?;
    }
    if let Some(global) = synopsis::global_options(cmd, parents) {
        let man = clap_mangen::Man::new(global);
        page.add(|w| man.render_options_section(w))?;
    }
    Ok(())
}

/// `cmd` with each option's visible aliases said at the end of its help (`--since`), which
/// clap_mangen leaves out of the page while `--help` shows them.
fn aliases_said(cmd: clap::Command) -> clap::Command {
    let said: Vec<(clap::Id, String)> = cmd
        .get_arguments()
        .filter_map(|arg| {
            let aliases = arg.get_visible_aliases()?;
            let names: Vec<String> = aliases.iter().map(|a| format!("--{a}")).collect();
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            Some((
                arg.get_id().clone(),
                format!("{help} [alias: {}]", names.join(", ")),
            ))
        })
        .collect();
    said.into_iter()
        .fold(cmd, |cmd, (id, help)| cmd.mut_arg(id, |arg| arg.help(help)))
}

/// A page written piece by piece: each piece clap_mangen or roff writes starts with the same
/// apostrophe preamble, which the page needs once.
#[derive(Default)]
struct Pieces {
    text: Vec<u8>,
}

impl Pieces {
    fn add(&mut self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        let mut piece = Vec::new();
        write(&mut piece)?;
        let piece = String::from_utf8(piece).expect("clap and roff write UTF-8");
        // clap_mangen separates help from its possible values with `.br`, an empty line, `.br`;
        // mandoc warns about breaks around a blank line, and `.sp` is the break meant.
        let piece = piece.replace("\n.br\n\n.br\n", "\n.sp\n");
        let preamble = Roff::new().render();
        match piece.strip_prefix(&preamble) {
            Some(rest) if !self.text.is_empty() => self.text.extend_from_slice(rest.as_bytes()),
            _ => self.text.extend_from_slice(piece.as_bytes()),
        }
        Ok(())
    }
}

/// The `after_help` text split into its notes and the commands under its `Examples:` line.
pub fn split_after_help(cmd: &clap::Command) -> (Option<String>, Vec<String>) {
    let text = cmd
        .get_after_help()
        .map(|help| help.to_string())
        .unwrap_or_default();
    let (notes, examples) = match text.split_once("Examples:\n") {
        Some((notes, examples)) => (notes, examples),
        None => (text.as_str(), ""),
    };
    let notes = Some(notes.trim().to_owned()).filter(|n| !n.is_empty());
    let examples = examples
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect();
    (notes, examples)
}

/// Text as roff paragraphs, one per blank-line-separated block. In a block, the lines indented
/// by two spaces are a display under the prose before them: a table when each of its lines has
/// columns (parted by two spaces or more, as `--help` aligns them), else lines kept as they are.
fn paragraphs(text: &str) -> Roff {
    let mut roff = Roff::new();
    for block in text.split("\n\n") {
        let (prose, display): (Vec<&str>, Vec<&str>) =
            block.lines().partition(|line| !line.starts_with("  "));
        roff.control("PP", []).text([roman(prose.join(" "))]);
        if display.is_empty() {
            continue;
        }
        match table_rows(&display) {
            Some(rows) => table(&mut roff, &rows),
            None => {
                roff.control("RS", ["4"]).control("nf", []);
                for line in &display {
                    roff.text([roman(line.trim_start())]);
                }
                roff.control("fi", []).control("RE", []);
            }
        }
    }
    roff
}

/// The cells of aligned lines, a line that starts under the second column continuing the row
/// above; `None` unless every row has two cells or more.
fn table_rows(lines: &[&str]) -> Option<Vec<Vec<String>>> {
    let mut rows: Vec<Vec<String>> = Vec::new();
    for line in lines {
        let cells: Vec<String> = line
            .trim()
            .split("  ")
            .map(str::trim)
            .filter(|cell| !cell.is_empty())
            .map(str::to_owned)
            .collect();
        let continues = line.starts_with("    ");
        match rows.last_mut() {
            Some(row) if continues => row.extend(cells),
            _ => rows.push(cells),
        }
    }
    rows.iter().all(|row| row.len() >= 2).then_some(rows)
}

/// A tbl(1) table: the first column bold (the flags), cells parted by tabs; the last column
/// takes the rest of the line and its cells are text blocks, so a long one wraps there.
fn table(roff: &mut Roff, rows: &[Vec<String>]) {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let format = ["lB"]
        .into_iter()
        .chain(std::iter::repeat_n("l", columns - 2))
        .chain(["lx"])
        .collect::<Vec<_>>()
        .join(" ");
    roff.control("TS", []);
    roff.text([roman(format!("{format}."))]);
    for row in rows {
        let (last, first) = row.split_last().expect("a row has two cells or more");
        roff.text([roman(format!("{}\tT{{", first.join("\t")))]);
        // A command wraps between its words: not justified, never hyphenated.
        roff.control("ad", ["l"]).control("nh", []);
        roff.text([roman(last.as_str())]);
        roff.text([roman("T}")]);
    }
    roff.control("TE", []);
}
