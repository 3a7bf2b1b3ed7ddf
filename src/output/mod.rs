//! Where and how a query's result goes: the format (flag, file extension or terminal), the
//! format-specific flags checked up front, `--wide`, `--merge`, and stdout or an atomic file.

mod check;
mod file_shape;
mod fit;
mod from_file;
mod holes;
mod merge;
mod picture;
#[cfg(feature = "postgres")]
mod postgres;
mod progress;
mod provenance;
mod replaced;
mod resume;
mod sqlite;
mod stdout;
mod streamed;

use std::path::{Path, PathBuf};

use crate::analysis::{Analysis, Layout, Naming, Shape};
use crate::error::{Exit, Failure};
use crate::fetched::Plan;
use crate::model::{Chain, Dataset, Endpoint, Period};
use crate::render::{self, AxisScale, Format, JsonNumbers, RenderOptions, Wide};
use crate::settings::{LibpqEnvironment, Terminal};
use crate::system::atomic;
use crate::system::diag::Notice;
use crate::system::lock::LockWait;
use check::{check_analysis, check_table_flag, check_width, database_uri, shape_failure};
pub(crate) use from_file::{draw, Drawing};
pub(crate) use holes::{describe as describe_holes, Hole};
pub use merge::read_merge_file;
pub use merge::read_sqlite_rows;
pub(crate) use picture::Told;
use progress::Progress;
pub(crate) use replaced::{check_output_path, write_atomically, write_rendered};
pub(crate) use resume::Resume;
pub(crate) use stdout::{format_or_default, write_stdout};
pub(crate) use streamed::RowStream;

/// What the user asked of the output, as plain values: the query flags that shape it.
#[derive(Clone, Debug, Default)]
pub(crate) struct OutputRequest {
    /// `--format`; `None`: from the file's extension, else from the terminal.
    pub format: Option<Format>,
    /// `--output`; `-` is stdout, as with curl and xh.
    pub file: Option<PathBuf>,
    pub merge: bool,
    /// `--resume`: the range starts where the file ends, and its holes are asked again (a plain
    /// `--merge` warns of them).
    pub resume: bool,
    pub wide: bool,
    pub no_header: bool,
    pub summary: bool,
    pub by: Period,
    /// Derived measures, `--sort` and `--top`.
    pub analysis: Analysis,
    pub json_numbers: JsonNumbers,
    /// `--file-chain`: the chain an old merge file without a chain column holds.
    pub file_chain: Option<Chain>,
    /// `--table`: the PostgreSQL table, `[schema.]name`; `None`: the command's name.
    pub table: Option<String>,
    /// `--scale`: a picture's value axes.
    pub scale: AxisScale,
}

/// The output of one query command, resolved and checked before anything is fetched.
pub(crate) struct Output {
    format: Format,
    file: Option<PathBuf>,
    /// `-o postgresql://...`: the database and table written instead of a file.
    #[cfg(feature = "postgres")]
    database: Option<postgres::Database>,
    merge: bool,
    /// `--resume`: the file's holes were asked again, so a merge does not warn of them.
    resume: bool,
    /// The terminal as asked at the start: a chart's width, whether to show progress.
    terminal: Terminal,
    /// How the fetched rows become the rows written, resolved here once: its layout (the
    /// chart's steps, `--wide`, a chain column) follows the format.
    shape: Shape,
    no_header: bool,
    json_numbers: JsonNumbers,
    file_chain: Option<Chain>,
    scale: AxisScale,
}

impl Output {
    /// The output the flags ask for, every format-specific flag checked against the format;
    /// a `postgresql://` URI completed from `libpq`, the environment the settings read.
    pub(crate) fn resolve(
        args: &OutputRequest,
        plan: &Plan,
        terminal: Terminal,
        libpq: &LibpqEnvironment,
    ) -> Result<Output, Failure> {
        let mut file = args.file.clone().filter(|f| f.as_os_str() != "-");
        let uri = database_uri(args.format, file.as_deref())?;
        if uri.is_some() {
            file = None;
        }
        let (format, by_default) = match (&args.format, &file, &uri) {
            (_, _, Some(_)) => (Format::Postgres, false),
            (Some(format), _, _) => (*format, false),
            (None, Some(file), _) => (fit::format_of_file(file)?, false),
            (None, None, _) => (format_or_default(None, terminal), true),
        };
        let on_terminal = terminal.stdout_is_terminal;
        let target = file.is_some() || uri.is_some();
        fit::check_destination(args.merge, format, target, on_terminal)?;
        if let Some(file) = &file {
            fit::check_database_file(format, file)?;
        }
        fit::check_flags_fit(args, format, by_default)?;
        let naming = match plan.endpoints.as_slice() {
            [Endpoint::Fees] | [Endpoint::ActiveUsers] => Naming::Chain,
            _ => Naming::ChainAndMetric,
        };
        // A chart draws one line per column, so it always takes the wide shape; svg and html
        // draw a line per chain from the long one.
        let wide = match format.can().wide {
            Wide::Asked => args.wide.then_some(naming),
            Wide::Always => Some(naming),
            Wide::Refused => None,
        };
        let layout = Layout {
            steps: format == Format::Chart,
            wide,
            chain_column: args.merge || format == Format::Sqlite || format == Format::Postgres,
        };
        let shape = Shape::new(args.analysis.clone(), args.by, args.summary, layout);
        check_analysis(&shape, plan)?;
        check_table_flag(args.table.is_some(), format)?;
        #[cfg(feature = "postgres")]
        let database = resolve_database(uri, args, plan, libpq)?;
        Ok(Output {
            format,
            file,
            #[cfg(feature = "postgres")]
            database,
            terminal,
            merge: args.merge,
            resume: args.resume,
            shape,
            no_header: args.no_header,
            json_numbers: args.json_numbers,
            file_chain: args.file_chain,
            scale: args.scale,
        })
    }

    /// Checks the file before any request: its name (a planted link, a descriptor never
    /// passed), and with `--merge` its content (a large file by its columns alone: its rows are
    /// read once, under the lock, after the fetch).
    pub(crate) fn check_target(&self, plan: &Plan) -> Result<(), Failure> {
        #[cfg(feature = "postgres")]
        if let Some(database) = &self.database {
            return database.check(&self.header(plan), self.merge);
        }
        let Some(file) = &self.file else {
            return Ok(());
        };
        fit::check_folder(file)?;
        if self.merge || self.format.text().is_none() {
            replaced::check_merge_target(file, self.not_done())?;
        }
        if self.merge {
            merge::check_before_fetch(self.target(file, plan), self.header(plan))?;
        } else if self.format == Format::Sqlite {
            merge::check_database(self.target(file, plan), &self.header(plan))?;
        }
        replaced::check_output_path(file)
    }

    /// Renders the dataset to stdout, or to the file (merged with it when asked), atomically.
    /// Writes `data` to stdout, as wide as the terminal and in the characters it shows.
    fn to_stdout(
        &self,
        data: &Dataset,
        mut style: RenderOptions,
        tell: &dyn Fn(Notice),
    ) -> anyhow::Result<()> {
        style.width = self.terminal.stdout_width.unwrap_or(0);
        style.braille = self.terminal.braille();
        style.ascii = !self.terminal.utf8;
        check_width(data, self.format, style.width)?;
        if self.format == Format::Table && render::table_overflows(data, style) {
            let width = style.width;
            tell(Notice::note(format!(
                "a column of this table is wider than the terminal ({width} \
                columns); for long lines, try -f csv | less -S"
            )));
        }
        // Only a text format reaches stdout: a file-only format needs --output.
        let text = self
            .format
            .text()
            .ok_or_else(|| Failure::new(Exit::Internal, "a database format reached stdout"))?;
        write_stdout(|out| render::render(data, text, style, out))
    }

    /// The fetched rows are shaped once, as the resolved [`Shape`] says. A merge holds the
    /// file's lock from reading the old rows to the rename, waiting for another run's as `wait`
    /// allows; `tell` gets the warnings of the merge. `told` is the run's, which svg and html
    /// show beside the data.
    pub(crate) fn write(
        &self,
        data: Dataset,
        plan: &Plan,
        told: &Told,
        color: bool,
        wait: LockWait,
        tell: &dyn Fn(Notice),
    ) -> anyhow::Result<()> {
        let shape = &self.shape;
        let shaped = (shape.apply(data, &plan.chains, &plan.range)).map_err(shape_failure)?;
        if let Some(line) = picture::undivided_note(&shaped.undivided, shape.by) {
            tell(Notice::note(line));
        }
        let data = shaped.data;
        let partial = picture::partial_warning(&data, shape.by, &shape.analysis.measures);
        if let Some(line) = &partial {
            tell(Notice::warning(line.clone()));
        }
        let mut caption = picture::caption(plan, shape.by, told, partial);
        picture::hints(&data, &mut caption, (self.format, self.scale), tell);
        let per_day = shape.analysis.per_day;
        picture::per_day_hint(&data, &mut caption, (self.format, per_day), tell);
        let mut style = RenderOptions {
            color: false,
            width: 0,
            // Braille only on stdout, where the terminal's locale applies (see `to_stdout`).
            braille: false,
            ascii: false,
            no_header: self.no_header,
            summary: shape.summary,
            caption: Some(&caption),
            decimals: shape.analysis.measures.decimals,
            json_strings: self.json_numbers == JsonNumbers::String,
            scale: self.scale,
        };
        #[cfg(feature = "postgres")]
        if let Some(database) = &self.database {
            return Ok(database.store(&data, self.merge, shape.by, tell)?);
        }
        let Some(file) = &self.file else {
            style.color = color;
            return self.to_stdout(&data, style, tell);
        };
        // A database is changed in place, so it is locked as a merge is, merged or not.
        let text = self.format.text();
        let _lock = match self.merge || text.is_none() {
            true => Some(replaced::lock(file, wait, self.not_done())?),
            false => None,
        };
        let table = sqlite::table_name(plan);
        let origin = provenance::to_record(file, &told.origin, self.merge)?;
        let data = match self.merge {
            true => merge::merge_into(self.target(file, plan), data, tell)?,
            false => data,
        };
        if self.merge && !self.resume {
            holes::warn_of(file, &data, (&plan.chains, &plan.range), shape.by, tell);
        }
        match text {
            None => sqlite::store(file, table, &data, !self.merge, wait)?,
            Some(text) => write_rendered(file, &mut |out| render::render(&data, text, style, out))?,
        }
        provenance::record(file, &origin);
        Ok(())
    }

    /// The columns of the rows this run writes, as the shape says, with no rows: what a file
    /// is checked against before any request.
    fn header(&self, plan: &Plan) -> Dataset {
        self.shape.columns(&plan.dataset(Vec::new()), &plan.chains)
    }

    /// The merge target `file`, as this run reads it.
    fn target<'a>(&self, file: &'a Path, plan: &'a Plan) -> merge::Target<'a> {
        merge::Target {
            path: file,
            format: self.format,
            table: sqlite::table_name(plan),
            chains: &plan.chains,
            by: self.shape.by,
            file_chain: self.file_chain,
            numbers: self.json_numbers,
        }
    }

    /// What a refused file's check or lock did not do, in its message.
    fn not_done(&self) -> &'static str {
        match self.merge {
            true => "not merged",
            false => "not written",
        }
    }

    /// The file or database written, as the notes name it: the file's path, `-` for stdout, a
    /// database's URI with its password masked.
    pub(crate) fn target_name(&self) -> String {
        #[cfg(feature = "postgres")]
        if let Some(database) = &self.database {
            return database.shown().to_owned();
        }
        let file = self.file.as_deref().unwrap_or("-".as_ref());
        file.display().to_string()
    }

    /// Where the rows go, for `-v`: a database named with its password masked; `None` for a
    /// file or stdout, which the run names otherwise.
    pub(crate) fn described_target(&self) -> Option<String> {
        #[cfg(feature = "postgres")]
        if let Some(database) = &self.database {
            return Some(format!(
                "writing to {} ({})",
                database.shown(),
                database.describe()
            ));
        }
        None
    }

    /// Progress on stderr for `total` requests, shown as [`Progress::new`] says.
    pub(crate) fn progress(&self, total: usize) -> Progress {
        Progress::new(total, self.terminal.rewrites_stderr())
    }

    /// Whether what is written goes to a terminal: no file, and stdout is one.
    pub(crate) fn to_terminal(&self) -> bool {
        self.file.is_none() && self.terminal.stdout_is_terminal
    }

    /// `--raw` writes the service's body as it came, which a database table cannot take:
    /// refused before any request.
    pub(crate) fn check_raw(&self) -> Result<(), Failure> {
        match self.format.text() {
            Some(_) => Ok(()),
            None if self.file.is_some() => Ok(()),
            None => Err(Failure::usage(
                "--raw writes the service's body as sent, and a PostgreSQL table takes rows",
            )
            .with_hint("leave out --raw, or write the body to a file with -o FILE.json")),
        }
    }

    /// Records on the file written (not on stdout) where its data came from (`provenance`).
    pub(crate) fn record_origin(&self, origin: &crate::render::Origin) {
        if let Some(file) = &self.file {
            provenance::record(file, origin);
        }
    }

    /// Writes a body as it comes (`--raw`, `fill` writing each piece as it arrives): to
    /// stdout, or to the file, which is replaced atomically once all of it came.
    pub(crate) fn write_streamed(&self, fill: atomic::Fill<'_>) -> anyhow::Result<()> {
        match &self.file {
            Some(file) => write_rendered(file, fill),
            None => write_stdout(|out| fill(out)),
        }
    }
}

/// The database `-o postgresql://...` names, completed from libpq's environment, and its
/// table (`--table`, else the command's name); the warning of a password in the URI said.
#[cfg(feature = "postgres")]
fn resolve_database(
    uri: Option<String>,
    args: &OutputRequest,
    plan: &Plan,
    libpq: &LibpqEnvironment,
) -> Result<Option<postgres::Database>, Failure> {
    let Some(uri) = uri else {
        return Ok(None);
    };
    let table = args.table.as_deref().unwrap_or(sqlite::table_name(plan));
    let tell = |n: Notice| n.write();
    let database = postgres::Database::resolve(&uri, table, libpq, &tell)?;
    Ok(Some(database))
}
