//! `render FILE`: an export this tool wrote (csv, tsv, json, ndjson or SQLite), read back
//! with the reader `--merge` uses and drawn as the query that wrote it would have drawn it,
//! with no request: a cron job's growing file can be looked at any time.

use std::fs::File;
use std::io::{BufReader, Seek};
use std::path::{Path, PathBuf};

use super::check::check_width;
use super::file_shape::{header_of, period_of, shape_of};
use super::merge::{self, read_rows_with, read_text, MergeError, Summaries};
use super::stdout::write_stdout;
use super::{check_output_path, fit, picture, write_atomically};
use crate::analysis::{steps, widen, Naming};
use crate::error::{Exit, Failure};
use crate::model::{Chain, Coverage, Dataset, DayRange, Endpoint, Metric, Period};
use crate::render::{self, AxisScale, Caption, Format};
use crate::render::{RenderOptions, Wide};
use crate::settings::Terminal;
use crate::system::diag::Notice;
use crate::system::foreign;

/// What `render` was asked, as plain values.
pub(crate) struct Drawing {
    pub file: PathBuf,
    /// `-f`; `None`: from the extension of `output`.
    pub format: Option<Format>,
    /// `-o`; `None` or `-`: stdout.
    pub output: Option<PathBuf>,
    /// The chain a file without a chain column holds (`--file-chain`), for the legend.
    pub file_chain: Option<Chain>,
    /// `--scale`: the pictures' value axes.
    pub scale: AxisScale,
    /// `SOURCE_DATE_EPOCH`, as the settings read it: the time the page says it was made.
    pub source_date_epoch: Option<String>,
    /// `--table`: the table of a SQLite file to draw, where it holds several.
    pub table: Option<String>,
}

/// An export read back: its rows (with their coverage under `--by`), its period and range.
struct Export {
    data: Dataset,
    by: Period,
    range: DayRange,
    chains: Vec<Chain>,
    /// Why the period is a guess, when it is.
    note: Option<String>,
    /// Whether `--summary` rows were passed over.
    summaries_skipped: bool,
}

/// Draws `drawing.file` as asked, in colour on a terminal when `color`; `tell` gets the
/// notes (a guessed period).
pub(crate) fn draw(
    drawing: &Drawing,
    color: bool,
    terminal: Terminal,
    tell: &dyn Fn(Notice),
) -> anyhow::Result<()> {
    let output = drawing.output.clone().filter(|f| f.as_os_str() != "-");
    let format = drawing_format(drawing.format, output.as_deref())?;
    fit::check_destination(false, format, output.is_some(), terminal.stdout_is_terminal)?;
    fit::check_scale(drawing.scale, format, output.as_deref())?;
    if let Some(file) = &output {
        fit::check_folder(file)?;
        check_output_path(file)?;
    }
    let export = read_export(&drawing.file, drawing.file_chain, drawing.table.as_deref())?;
    if let Some(note) = &export.note {
        tell(Notice::note(note.as_str()));
    }
    if export.summaries_skipped {
        tell(Notice::note(format!(
            "{}: its --summary rows (total, mean, min, max) are not drawn; the picture is of its \
            dated rows",
            drawing.file.display()
        )));
    }
    let mut caption = Caption {
        chains: export.chains.clone(),
        range: export.range,
        by: export.by,
        warnings: Vec::new(),
        hints: Vec::new(),
        made: picture::made_at(drawing.source_date_epoch.as_deref()),
        origin: super::provenance::drawn_from(&drawing.file),
    };
    picture::hints(&export.data, &mut caption, (format, drawing.scale), tell);
    picture::per_day_hint(&export.data, &mut caption, (format, false), tell);
    let data = match format {
        Format::Chart => chart_shape(&export),
        _ => export.data,
    };
    let mut style = RenderOptions {
        caption: Some(&caption),
        scale: drawing.scale,
        ..RenderOptions::default()
    };
    let text = format
        .text()
        .ok_or_else(|| Failure::new(Exit::Internal, "a database format reached render"))?;
    let Some(file) = &output else {
        style.color = color;
        style.width = terminal.stdout_width.unwrap_or(0);
        style.braille = terminal.braille();
        style.ascii = !terminal.utf8;
        check_width(&data, format, style.width)?;
        return write_stdout(|out| render::render(&data, text, style, out));
    };
    let mut bytes = Vec::new();
    render::render(&data, text, style, &mut bytes).expect("writing to memory works");
    write_atomically(file, &bytes)
}

/// The format asked, else the one `output`'s extension names: a picture or the chart only.
fn drawing_format(asked: Option<Format>, output: Option<&Path>) -> Result<Format, Failure> {
    let format = match (asked, output) {
        (Some(format), _) => format,
        (None, Some(file)) => fit::format_of_file(file)?,
        (None, None) => {
            return Err(
                Failure::usage("render needs a format: -f svg, html or chart")
                    .with_hint("give -f svg|html|chart, or -o FILE.svg or FILE.html"),
            )
        }
    };
    let draws = |can: render::Can| can.picture || can.wide == Wide::Always;
    if draws(format.can()) {
        return Ok(format);
    }
    Err(Failure::usage(format!(
        "render draws a picture, and {} is no picture format",
        format.name()
    ))
    .with_hint(format!(
        "give -f {} (the file is already a {} export)",
        Format::names(&Format::all_that(draws), "or"),
        format.name()
    )))
}

/// The chart's shape, as the query makes it: each period a step over its days, then one
/// column per chain (and metric).
fn chart_shape(export: &Export) -> Dataset {
    let data = steps(export.data.clone(), export.by, &export.range);
    let endpoints: Vec<Endpoint> = data
        .columns
        .iter()
        .filter_map(|c| c.metric())
        .map(Metric::endpoint)
        .collect();
    let naming = match endpoints.first() {
        Some(first @ (Endpoint::Fees | Endpoint::ActiveUsers))
            if endpoints.iter().all(|e| e == first) =>
        {
            Naming::Chain
        }
        _ => Naming::ChainAndMetric,
    };
    match data.chain_column {
        true => widen(&data, &export.chains, naming),
        false => data,
    }
}

/// The export at `path`, read as its own header says, refused (exit 9, naming it) when it is
/// no file this tool wrote.
fn read_export(
    path: &Path,
    file_chain: Option<Chain>,
    table: Option<&str>,
) -> Result<Export, Failure> {
    let refused = |why: String| {
        Failure::new(
            Exit::Output,
            format!(
                "cannot draw {}: {}",
                path.display(),
                foreign::cut(&why, usize::MAX)
            ),
        )
        .with_hint("render reads csv, tsv, json, ndjson and SQLite files that chain-metrics wrote")
    };
    let format = Format::from_extension(path)
        .filter(|f| f.can().merge)
        .ok_or_else(|| {
            refused(
                "its name does not end in .csv, .tsv, .json, .ndjson/.jsonl, .sqlite or .db".into(),
            )
        })?;
    let table = match format {
        Format::Sqlite => Some(table_to_draw(path, table).map_err(|e| match e {
            Chosen::Refused(why) => refused(why),
            Chosen::Usage(failure) => failure,
        })?),
        _ => match table {
            Some(_) => {
                return Err(Failure::usage(format!(
                    "--table names a table of a SQLite database, and {} is a {} file",
                    path.display(),
                    format.name()
                ))
                .with_hint("leave out --table"))
            }
            None => None,
        },
    };
    let (mut data, summaries) =
        read_data(path, format, table).map_err(|e| refused(merge_why(e)))?;
    let (by, note) = with_coverage(&mut data).map_err(refused)?;
    if !data.chain_column {
        // A file of one chain written without a chain column does not say which: a legend
        // cannot be guessed, so its owner names it, as for --merge.
        let chain =
            file_chain.ok_or_else(|| {
                Failure::new(
                Exit::Output,
                format!("cannot draw {}: it has no chain column, so it does not say which chain it \
                    holds", path.display()),
            )
            .with_hint("name it: --file-chain CHAIN")
            })?;
        data.rows.iter_mut().for_each(|row| row.chain = Some(chain));
    }
    let range = range_of(&data, by).ok_or_else(|| refused("it holds no rows to draw".into()))?;
    // Rows come sorted by date, then chain in the order asked: the first date's order is it.
    let chains = crate::model::each_once(data.rows.iter().filter_map(|r| r.chain.as_ref()));
    Ok(Export {
        data,
        by,
        range,
        chains,
        note,
        summaries_skipped: matches!(summaries, Summaries::Skipped(n) if n > 0),
    })
}

/// Why no table of a database can be drawn: no file this tool wrote (exit 9), or a choice for
/// the user to make (exit 2).
enum Chosen {
    Refused(String),
    Usage(Failure),
}

/// The table of the database at `path` to draw, with its columns: `asked` (`--table`), else the
/// one table this tool wrote there; several such tables are the user's to choose between.
fn table_to_draw(path: &Path, asked: Option<&str>) -> Result<(String, Vec<String>), Chosen> {
    let tables = merge::tables_of(path).map_err(|e| Chosen::Refused(merge_why(e)))?;
    let listed = |names: &mut dyn Iterator<Item = &str>| -> String {
        names.map(foreign::echo).collect::<Vec<_>>().join(", ")
    };
    if let Some(asked) = asked {
        return (tables.iter().find(|(name, _)| name == asked).cloned()).ok_or_else(|| {
            let held = match tables.is_empty() {
                true => "it holds no table".to_owned(),
                false => format!("its tables: {}", listed(&mut tables.iter().map(|t| &*t.0))),
            };
            Chosen::Usage(
                Failure::usage(format!(
                    "{} has no table {}; {held}",
                    path.display(),
                    foreign::echo(asked)
                ))
                .with_hint("name one of its tables with --table NAME"),
            )
        });
    }
    let ours = merge::export_table_names();
    let mut exports = tables
        .iter()
        .filter(|(name, _)| ours.contains(&name.as_str()));
    match (exports.next(), exports.next()) {
        (Some(table), None) => Ok(table.clone()),
        (None, _) => Err(Chosen::Refused(
            "it holds no fees, users, social or report table (name another with --table NAME)"
                .into(),
        )),
        (Some(_), Some(_)) => {
            let names: Vec<&str> = (ours.iter().copied())
                .filter(|n| tables.iter().any(|(name, _)| name == n))
                .collect();
            let flags: Vec<String> = names.iter().map(|n| format!("--table {n}")).collect();
            Err(Chosen::Usage(
                Failure::usage(format!(
                    "{} holds several tables: {}; render draws one",
                    path.display(),
                    listed(&mut names.iter().copied())
                ))
                .with_hint(format!("name the one to draw: {}", flags.join(", or "))),
            ))
        }
    }
}

/// The `--by` period of `data` (a day without a `days` column), each row given the coverage
/// its `days` cell says; and why the period is a guess, when it is.
fn with_coverage(data: &mut Dataset) -> Result<(Period, Option<String>), String> {
    let Some(at) = data.columns.iter().position(|c| c.is_days()) else {
        return Ok((Period::Day, None));
    };
    let (by, note) = period_of(&data.rows, at)?;
    for row in &mut data.rows {
        let days = (row.values[at].as_ref()).and_then(|n| n.as_str().parse().ok());
        row.coverage = days.map(|days| Coverage {
            days,
            of: by.length(row.date),
        });
    }
    Ok((by, note))
}

fn merge_why(e: MergeError) -> String {
    match e {
        MergeError::Unreadable(why) => why,
        other => other.to_string(),
    }
}

/// The rows of the file (of `table`, in a database), in the columns its header names, and the
/// `--summary` rows passed over.
fn read_data(
    path: &Path,
    format: Format,
    table: Option<(String, Vec<String>)>,
) -> Result<(Dataset, Summaries), MergeError> {
    if let Some((table, names)) = table {
        let mut data = shape_of(&names).map_err(MergeError::Unreadable)?;
        data.rows = merge::stored_rows(path, &table, &data)?.unwrap_or_default();
        // Stable: within a date, the rows keep the order they were written in (the chains asked).
        data.rows.sort_by_key(|r| r.date);
        return Ok((data, Summaries::Skipped(0)));
    }
    // Read as a stream twice: for the header (the whole file checked to be text), then the rows.
    let mut file = File::open(path).map_err(|e| MergeError::Unreadable(e.to_string()))?;
    let header = |text: &mut _| header_of(BufReader::new(text), format);
    let names = (read_text(&file, |text| header(text).map_err(MergeError::Unreadable))?.0)?
        .ok_or_else(|| MergeError::Unreadable("it is empty".into()))?;
    let mut data = shape_of(&names).map_err(MergeError::Unreadable)?;
    file.rewind().map_err(MergeError::Read)?;
    let (rows, summaries) = read_rows_with(&file, format, &data, None, Summaries::Skipped(0))?;
    data.rows = rows;
    Ok((data, summaries))
}

/// The days the rows cover: from the first period's first day with data (its shortfall taken
/// to be the range's edge, as `--last` makes it) to the last period's last day with data; of
/// several chains, the one with the most days says where the range ends.
fn range_of(data: &Dataset, by: Period) -> Option<DayRange> {
    let first = data.rows.iter().map(|r| r.date).min()?;
    let last = data.rows.iter().map(|r| r.date).max()?;
    let short = |date| {
        (data.rows.iter().filter(|r| r.date == date))
            .map(|r| r.coverage.map_or(0, |c| c.of.saturating_sub(c.days)))
            .min()
            .unwrap_or(0)
    };
    let start = first + chrono::Days::new(u64::from(short(first)));
    let end = by.last_day(last) - chrono::Days::new(u64::from(short(last)));
    Some(DayRange {
        start,
        end: end.max(start),
    })
}
