//! Where and how a query's result goes: the format (flag, file extension or terminal), the
//! format-specific flags checked up front, `--wide`, `--merge`, and stdout or an atomic file.

mod merge;
mod merge_file;
mod progress;
mod upsert;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use crate::client::Plan;
use crate::error::{Exit, Failure};
use crate::model::{aggregate, steps, Period};
use crate::model::{Dataset, Endpoint};
use crate::render::{self, Format, RenderOptions};
use crate::render::{widen, Naming};
use crate::settings::Terminal;
use crate::system::atomic;
use crate::system::lock::{self, LockWait};
pub use merge_file::read_merge_file;
use progress::Progress;

/// What the user asked of the output, as plain values: the query flags that shape it.
#[derive(Clone, Debug, Default)]
pub struct OutputRequest {
    /// `--format`; `None`: from the file's extension, else from the terminal.
    pub format: Option<Format>,
    /// `--output`; `-` is stdout, as with curl and xh.
    pub file: Option<PathBuf>,
    pub merge: bool,
    pub wide: bool,
    pub no_header: bool,
    pub summary: bool,
    pub by: Period,
}

/// The output of one query command, resolved and checked before anything is fetched.
pub struct Output {
    format: Format,
    file: Option<PathBuf>,
    merge: bool,
    /// The terminal as asked at the start: a chart's width, whether to show progress.
    terminal: Terminal,
    /// How to name the pivoted columns; `None` keeps one row per (date, chain).
    wide: Option<Naming>,
    no_header: bool,
    summary: bool,
    by: Period,
}

impl Output {
    /// The output the flags ask for, every format-specific flag checked against the format.
    pub fn resolve(
        args: &OutputRequest,
        plan: &Plan,
        terminal: Terminal,
    ) -> Result<Output, Failure> {
        let file = args.file.clone().filter(|f| f.as_os_str() != "-");
        let (format, by_default) = match (&args.format, &file) {
            (Some(format), _) => (*format, false),
            (None, Some(file)) => (Format::from_extension(file).unwrap_or(Format::Csv), false),
            (None, None) => (format_or_default(None, terminal), true),
        };
        if args.merge && file.is_none() {
            return Err(
                Failure::usage("--merge needs a file to merge into, not stdout (-)")
                    .with_hint("give --output FILE"),
            );
        }
        check_flags_fit(args, format, by_default)?;
        let naming = match plan.endpoints.as_slice() {
            [Endpoint::Fees] | [Endpoint::ActiveUsers] => Naming::Chain,
            _ => Naming::ChainAndMetric,
        };
        // A chart draws one line per column, so it always takes the wide shape.
        let wide = (args.wide || format == Format::Chart).then_some(naming);
        Ok(Output {
            format,
            file,
            terminal,
            merge: args.merge,
            wide,
            no_header: args.no_header,
            summary: args.summary,
            by: args.by,
        })
    }

    /// Checks the file before any request: its name (a planted link, a descriptor never
    /// passed), and with `--merge` its content (a large file by its columns alone: its rows are
    /// read once, under the lock, after the fetch).
    pub fn check_target(&self, plan: &Plan) -> Result<(), Failure> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        if self.merge {
            let empty = self.shape(plan.dataset(Vec::new()), plan)?;
            merge::check_before_fetch(file, self.format, &empty, self.by)?;
        }
        atomic::check_output_path(file)
    }

    /// Renders the dataset to stdout, or to the file (merged with it when asked), atomically.
    /// A merge holds the file's lock from reading the old rows to the rename, waiting for
    /// another run's as `wait` allows; `warn` gets the warnings of the merge.
    pub fn write(
        &self,
        data: Dataset,
        plan: &Plan,
        color: bool,
        wait: LockWait,
        warn: &dyn Fn(&str),
    ) -> anyhow::Result<()> {
        let data = self.shape(data, plan)?;
        let mut style = RenderOptions {
            color: false,
            width: 0,
            no_header: self.no_header,
            summary: self.summary,
        };
        let Some(file) = &self.file else {
            style.color = color;
            style.width = self.terminal.stdout_width.unwrap_or(0);
            check_width(&data, self.format, style.width)?;
            return write_stdout(|out| render::render(&data, self.format, style, out));
        };
        let (data, _lock) = match self.merge {
            true => {
                let lock = lock::lock_beside(file, wait).map_err(|e| {
                    let what = file.display().to_string();
                    e.failure(
                        Exit::Output,
                        &what,
                        "not merged; the file is left as it was",
                    )
                })?;
                let merged =
                    merge::merge_into(file, self.format, data, &plan.chains, self.by, warn)?;
                (merged, Some(lock))
            }
            false => (data, None),
        };
        let mut bytes = Vec::new();
        render::render(&data, self.format, style, &mut bytes).expect("writing to memory works");
        atomic::write_atomically(file, &bytes)
    }

    /// Progress on stderr for `total` requests, shown as [`Progress::new`] says.
    pub fn progress(&self, total: usize, quiet: bool) -> Progress {
        Progress::new(total, quiet, self.terminal.stderr_is_terminal)
    }

    /// Writes a body as it came (`--raw`): to stdout, or atomically to the file.
    pub fn write_bytes(&self, body: &[u8]) -> anyhow::Result<()> {
        match &self.file {
            Some(file) => atomic::write_atomically(file, body),
            None => write_stdout(|out| out.write_all(body)),
        }
    }

    /// The dataset as it will be written: rolled up by `--by`, then pivoted when `--wide` (or
    /// a chart) asks for it; a chart draws each period as a step over its days.
    fn shape(&self, data: Dataset, plan: &Plan) -> Result<Dataset, Failure> {
        let data = aggregate(data, &plan.columns(), &plan.chains, self.by).map_err(|why| {
            Failure::new(Exit::BadResponse, why).with_hint("--by day shows the values as sent")
        })?;
        if self.summary {
            // Every number is bounded before any arithmetic: a huge exponent fails here at
            // once, as `--by` does, instead of when the summary rows are drawn.
            crate::render::summary_rows(&data).map_err(|why| {
                Failure::new(Exit::BadResponse, why)
                    .with_hint("drop --summary to see the values as sent")
            })?;
        }
        let data = match self.format {
            Format::Chart => steps(data, self.by, &plan.range),
            _ => data,
        };
        Ok(match self.wide {
            Some(naming) => widen(&data, &plan.chains, naming),
            None => data,
        })
    }
}

/// A terminal `width` columns wide (0: not a terminal) must fit the output: a chart drawn
/// wider would wrap into a mess.
fn check_width(data: &Dataset, format: Format, width: usize) -> Result<(), Failure> {
    let needed = render::needed_width(data, format);
    if width == 0 || width >= needed {
        return Ok(());
    }
    Err(Failure::usage(format!(
        "the terminal is {width} columns wide, and this chart needs {needed}"
    ))
    .with_hint(format!(
        "widen the terminal to {needed} columns, or pick another format, e.g. --format table"
    )))
}

/// The format asked, else table on a terminal and csv otherwise.
pub fn format_or_default(asked: Option<Format>, terminal: Terminal) -> Format {
    asked.unwrap_or(if terminal.stdout_is_terminal {
        Format::Table
    } else {
        Format::Csv
    })
}

/// Writes through a locked, buffered stdout; a closed pipe surfaces as `BrokenPipe` for `main`.
pub fn write_stdout(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> anyhow::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => anyhow::Error::new(e),
            _ => Failure::new(Exit::Output, format!("cannot write to stdout: {e}")).into(),
        })
}

/// `--summary`, `--no-header` and `--merge` each work with some formats only. A format the
/// user did not choose (`by_default`: stdout decided) is named as the default it is.
fn check_flags_fit(args: &OutputRequest, format: Format, by_default: bool) -> Result<(), Failure> {
    use Format::{Csv, Json, Markdown, Ndjson, Table, Tsv};
    let only = |flag: &str, allowed: &[Format], what: &str| {
        if allowed.contains(&format) {
            return Ok(());
        }
        let (name, wanted) = (format.name(), allowed[0].name());
        if !by_default {
            return Err(Failure::usage(format!(
                "{flag} works with {what}, not with the {name} format"
            ))
            .with_hint(format!("add --format {wanted}")));
        }
        let stdout = match format {
            Table => "is a terminal",
            _ => "is not a terminal (a pipe or a file)",
        };
        Err(Failure::usage(format!(
            "{flag} works with {what}, and the format is {name}: the default when stdout {stdout}"
        ))
        .with_hint(format!(
            "pick {wanted} with --format {wanted} (or {})",
            allowed[1].name()
        )))
    };
    if args.summary {
        only("--summary", &[Table, Markdown], "table and markdown")?;
    }
    if args.no_header {
        only("--no-header", &[Csv, Tsv], "csv and tsv")?;
    }
    if args.merge {
        only(
            "--merge",
            &[Csv, Tsv, Json, Ndjson],
            "csv, tsv, json and ndjson",
        )?;
    }
    Ok(())
}
