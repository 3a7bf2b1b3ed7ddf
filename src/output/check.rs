//! Checks of a run's output flags and shape made before any request, as usage errors.

use std::path::Path;

use crate::analysis::{Shape, ShapeError};
use crate::error::{Exit, Failure};
use crate::fetched::Plan;
use crate::model::{Dataset, Endpoint};
use crate::render::{self, Format};

/// `--table` names a PostgreSQL table: with another format it is a usage error.
pub(super) fn check_table_flag(table: bool, format: Format) -> Result<(), Failure> {
    match table && format != Format::Postgres {
        true => Err(Failure::usage(format!(
            "--table names a PostgreSQL table, and the format is {}",
            format.name()
        ))
        .with_hint(
            "give -o postgresql://..., or leave out --table (a SQLite file's table is the \
            command's name)",
        )),
        false => Ok(()),
    }
}
/// The PostgreSQL URI `-o` names (the postgres format follows from the scheme); `-f postgres`
/// with anything else is a usage error, as is such a URI in a build without PostgreSQL.
pub(super) fn database_uri(
    format: Option<Format>,
    file: Option<&Path>,
) -> Result<Option<String>, Failure> {
    let text = file.and_then(Path::to_str);
    let is_uri =
        text.is_some_and(|t| t.starts_with("postgresql://") || t.starts_with("postgres://"));
    match (format, is_uri) {
        (Some(Format::Postgres) | None, true) if cfg!(feature = "postgres") => {
            Ok(text.map(str::to_owned))
        }
        (_, true) if !cfg!(feature = "postgres") => Err(Failure::usage(
            "this chain-metrics was built without PostgreSQL (the cargo feature postgres)",
        )
        .with_hint(
            "build it with the default features, or write a file and load it with psql's \
            \\copy",
        )),
        (Some(other), true) => Err(Failure::usage(format!(
            "a postgresql:// URI takes the postgres format, and --format is {}",
            other.name()
        ))
        .with_hint("drop --format: the format follows from the URI")),
        (Some(Format::Postgres), false) => Err(Failure::usage(
            "the postgres format writes into a PostgreSQL database, and --output names no \
                postgresql:// URI",
        )
        .with_hint(
            "give -o postgresql://[user@][host][:port]/dbname (or -o postgresql:///dbname \
            for the local server)",
        )),
        _ => Ok(None),
    }
}

/// `--per-user` needs fees and active users; `--sort` a column the output has (read off the
/// shape's header, before any request).
pub(super) fn check_analysis(shape: &Shape, plan: &Plan) -> Result<(), Failure> {
    let both = [Endpoint::Fees, Endpoint::ActiveUsers];
    if shape.analysis.measures.per_user && !both.iter().all(|e| plan.endpoints.contains(e)) {
        return Err(Failure::usage(
            "--per-user divides fees by active users, and only report has both",
        )
        .with_hint("use report --per-user"));
    }
    let Some(key) = &shape.analysis.sort else {
        return Ok(());
    };
    let header = shape.columns(&plan.dataset(Vec::new()), &plan.chains);
    key.check(&header)
        .map_err(|why| Failure::usage(why).with_hint("name a column of the header"))
}

/// A step of the shape that failed on the fetched numbers, as the user sees it.
pub(super) fn shape_failure(e: ShapeError) -> Failure {
    match e {
        ShapeError::RollUp(why) => {
            Failure::new(Exit::BadResponse, why).with_hint("--by day shows the values as sent")
        }
        ShapeError::Summary(why) => Failure::new(Exit::BadResponse, why)
            .with_hint("drop --summary to see the values as sent"),
        ShapeError::Measure(why) | ShapeError::Sort(why) => Failure::new(Exit::BadResponse, why),
    }
}

/// A terminal `width` columns wide (0: not a terminal) must fit the output: a chart drawn
/// wider would wrap into a mess.
pub(super) fn check_width(data: &Dataset, format: Format, width: usize) -> Result<(), Failure> {
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
