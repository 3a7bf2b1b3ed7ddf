//! Which query flags a format takes, read from the format's capability table
//! ([`Format::can`]), and the hint that names a format that would take them.

use std::path::Path;

use super::OutputRequest;
use crate::error::{Exit, Failure};
use crate::model::Period;
use crate::render::{AxisScale, Can, Format, JsonNumbers, Wide};
use crate::system::stream;

/// A flag that some formats take: its name as the messages write it, and the capability.
struct Flag {
    name: &'static str,
    takes: fn(Can) -> bool,
}

/// `--merge` and a file-only format need a file: stdout cannot take them; a format that is not
/// for a terminal (a picture) is refused there, where it would show as markup.
pub(super) fn check_destination(
    merge: bool,
    format: Format,
    file: bool,
    stdout_is_terminal: bool,
) -> Result<(), Failure> {
    if merge && !file {
        return Err(
            Failure::usage("--merge needs a file to merge into, not stdout (-)")
                .with_hint("give --output FILE"),
        );
    }
    if format.can().file_only && !file {
        return Err(Failure::usage(
            "the sqlite format writes a database file, which stdout cannot take",
        )
        .with_hint("give --output FILE.sqlite (or .db)"));
    }
    if !format.can().terminal && !file && stdout_is_terminal {
        let name = format.name();
        return Err(Failure::usage(format!(
            "the {name} format draws a picture for a file or a browser, not for a terminal"
        ))
        .with_hint(format!("give -o FILE.{name}")));
    }
    Ok(())
}

/// A database is changed in place and read back: a stream (this run's stdout, a pipe, a
/// device) cannot take it, whatever name it goes by (`-o /dev/stdout`).
pub(super) fn check_database_file(format: Format, file: &Path) -> Result<(), Failure> {
    if !format.can().file_only {
        return Ok(());
    }
    let stream = match stream::own_descriptor(file) {
        Some(_) => Some("one of this run's own streams"),
        None => std::fs::metadata(file)
            .ok()
            .filter(|m| !m.is_file() && !m.is_dir())
            .map(|m| stream::kind_of(&m)),
    };
    match stream {
        Some(kind) => Err(Failure::usage(format!(
            "{} is {kind}: a database cannot go to a pipe or a stream, it is a file that is \
            changed in place",
            file.display()
        ))
        .with_hint("give --output FILE.sqlite (or .db), a regular file")),
        None => Ok(()),
    }
}

/// Before any request: the folder the file goes in must be there (a typo in it would
/// otherwise cost the whole fetch).
pub(super) fn check_folder(file: &Path) -> Result<(), Failure> {
    let Some(folder) = file.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    match std::fs::metadata(folder) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Failure::new(
            Exit::Output,
            format!(
                "cannot write {}: the folder {} does not exist",
                file.display(),
                folder.display()
            ),
        )
        .with_hint(format!(
            "create it first (mkdir -p {}), or give another --output",
            crate::system::shell::quote(&folder.display().to_string())
        ))),
        _ => Ok(()),
    }
}

/// `--summary`, `--no-header`, `--json-numbers string`, `--merge` and `--wide` each work with
/// some formats only. A format the user did not choose (`by_default`: stdout decided) is named
/// as the default it is.
pub(super) fn check_flags_fit(
    args: &OutputRequest,
    format: Format,
    by_default: bool,
) -> Result<(), Failure> {
    let only = |flag: Flag| match (flag.takes)(format.can()) {
        true => Ok(()),
        false => Err(refuse_format(args, format, by_default, flag)),
    };
    if args.summary {
        only(Flag {
            name: "--summary",
            takes: |c| c.summary,
        })?;
        if args.merge {
            return Err(Failure::usage(
                "--summary adds rows that are no dates, and --merge keeps a file of dates",
            )
            .with_hint("leave out --summary, or --merge"));
        }
    }
    if args.no_header {
        only(Flag {
            name: "--no-header",
            takes: |c| c.no_header,
        })?;
    }
    if args.json_numbers == JsonNumbers::String {
        only(Flag {
            name: "--json-numbers string",
            takes: |c| c.json_strings,
        })?;
    }
    if args.merge {
        only(Flag {
            name: "--merge",
            takes: |c| c.merge,
        })?;
    }
    check_wide(args.wide, format)?;
    check_per_day(args.analysis.per_day, args.by, format)?;
    check_scale(args.scale, format, args.file.as_deref())
}

/// `--per-day` draws a `--by` period's sums as means per day: it needs periods longer than a
/// day and a picture (svg, html, chart) to draw them.
fn check_per_day(per_day: bool, by: Period, format: Format) -> Result<(), Failure> {
    if !per_day {
        return Ok(());
    }
    if by == Period::Day {
        return Err(Failure::usage(
            "--per-day divides a period's sums by its days, and needs --by week, month, \
            quarter or year",
        )
        .with_hint("add --by month, or leave out --per-day"));
    }
    if format.can().picture || format == Format::Chart {
        return Ok(());
    }
    Err(Failure::usage(format!(
        "--per-day draws a picture's periods (svg, html and chart), not the {} format's rows",
        format.name()
    ))
    .with_hint("draw it as a picture: --format chart, or --format svg --output chart.svg"))
}

/// `--scale log` draws the value axes of a picture (svg, html): any other format is refused,
/// with a picture file to write instead (a picture cannot go to a terminal).
pub(super) fn check_scale(
    scale: AxisScale,
    format: Format,
    file: Option<&Path>,
) -> Result<(), Failure> {
    if scale == AxisScale::Linear || format.can().log_scale {
        return Ok(());
    }
    let takes = Format::all_that(|c| c.log_scale);
    let wanted = takes.first().map_or("svg", |f| f.name());
    let file = match file {
        Some(file) => file.with_extension(wanted),
        None => Path::new("chart").with_extension(wanted),
    };
    Err(Failure::usage(format!(
        "--scale log draws the value axes of a picture ({}), not of the {} format",
        Format::names(&takes, "and"),
        format.name()
    ))
    .with_hint(format!(
        "draw it as a picture: --format {wanted} --output {}",
        crate::system::shell::quote(&file.display().to_string())
    )))
}

/// Why `flag` does not go with `format`, and the format to pick instead (the first that takes
/// it).
fn refuse_format(args: &OutputRequest, format: Format, by_default: bool, flag: Flag) -> Failure {
    let allowed = Format::all_that(flag.takes);
    let what = Format::names(&allowed, "and");
    // Every flag here is taken by two formats at least.
    // A file never gets the terminal's table.
    let for_file = |f: &&Format| args.file.is_none() || **f != Format::Table;
    let allowed: Vec<Format> = allowed.iter().filter(for_file).copied().collect();
    let pick = |at: usize| allowed.get(at).map_or("csv", |f| f.name());
    let (name, wanted, flag) = (format.name(), pick(0), flag.name);
    if !by_default {
        let failure = Failure::usage(format!(
            "{flag} works with {what}, not with the {name} format"
        ));
        return match (&args.file, flag) {
            // The file holds the other format: merging csv into it would be refused.
            (Some(file), "--merge") => {
                let other = file.with_extension(wanted).display().to_string();
                failure.with_hint(format!(
                    "merge into a {wanted} file: --format {wanted} --output {}",
                    crate::system::shell::quote(&other)
                ))
            }
            // A format named alone would be written into a file named for another one.
            (Some(file), _) => {
                let other = file.with_extension(wanted).display().to_string();
                failure.with_hint(format!(
                    "write a {wanted} file: --format {wanted} --output {}",
                    crate::system::shell::quote(&other)
                ))
            }
            _ => failure.with_hint(format!("use --format {wanted}")),
        };
    }
    let stdout = match format {
        Format::Table => "is a terminal",
        _ => "is not a terminal (a pipe or a file)",
    };
    Failure::usage(format!(
        "{flag} works with {what}, and the format is {name}: the default when stdout {stdout}"
    ))
    .with_hint(format!(
        "pick {wanted} with --format {wanted} (or {})",
        pick(1)
    ))
}

/// A picture has a panel per metric and a line per chain: `--wide` has nothing to change there.
fn check_wide(wide: bool, format: Format) -> Result<(), Failure> {
    if !wide || format.can().wide != Wide::Refused {
        return Ok(());
    }
    if format == Format::Postgres {
        return Err(Failure::usage(
            "--wide pivots tables, and a PostgreSQL table keeps a row per date and chain",
        )
        .with_hint("drop --wide; pivot in SQL (or in the dashboard) instead"));
    }
    Err(Failure::usage(format!(
        "--wide pivots tables, and the {} format draws a chart per metric with a line per chain",
        format.name()
    ))
    .with_hint("drop --wide, or pick a table format such as --format csv"))
}

/// The format `--output FILE` implies without `--format`: its extension's, csv when it has
/// none or is plain text (.txt); an extension no format has (.png, .xlsx) is refused rather
/// than filled with csv.
pub(super) fn format_of_file(file: &std::path::Path) -> Result<Format, Failure> {
    let Some(extension) = file.extension() else {
        return Ok(Format::Csv);
    };
    // A stream the user named (their FIFO, a device) has no file type to read off its name.
    if std::fs::metadata(file).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return Ok(Format::Csv);
    }
    if extension.eq_ignore_ascii_case("txt") {
        return Ok(Format::Csv);
    }
    Format::from_extension(file).ok_or_else(|| {
        let extension = crate::system::foreign::cut(&extension.to_string_lossy(), 20);
        Failure::usage(format!(
            "--output: chain-metrics writes no .{extension} files; the extensions it knows are \
            .csv (and .txt), .tsv, .json, .ndjson, .md, .svg, .html and .sqlite"
        ))
        .with_hint(
            "pick one of those extensions, or name the format with --format (csv without \
            either)",
        )
    })
}
