//! The output formats of CLI.md §1 and what each can do: one table, read by every check and
//! every hint that depends on the format.

use std::path::Path;

/// The output formats of CLI.md §1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// aligned columns for people
    Table,
    /// comma-separated values (the default when stdout is not a terminal)
    Csv,
    /// tab-separated values
    Tsv,
    /// one array of row objects
    Json,
    /// one row object a line
    Ndjson,
    /// a Markdown table
    Markdown,
    /// a line chart drawn in the terminal (in braille dots where the locale is UTF-8)
    Chart,
    /// an SVG picture: a chart per metric, a line per chain
    Svg,
    /// one self-contained HTML page: the charts, the values, the gaps and warnings
    Html,
    /// a SQLite database file, one table per command (with --output)
    Sqlite,
    /// a PostgreSQL table, one per command (with --output postgresql://...)
    Postgres,
}

/// The formats written as a stream of text: every format but the databases (`sqlite`,
/// `postgres`), which the output writes itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Text {
    Table,
    Csv,
    Tsv,
    Json,
    Ndjson,
    Markdown,
    Chart,
    Svg,
    Html,
}

/// What a format can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Can {
    /// A picture (svg, html): a chart per metric with a line per chain, and a caption.
    pub picture: bool,
    /// Its text is for a terminal too, not only for a file or a program.
    pub terminal: bool,
    /// Only a file can take it: stdout, a terminal or a pipe, cannot.
    pub file_only: bool,
    /// `--merge` can upsert into a file of it.
    pub merge: bool,
    /// `--summary` adds its rows (an object in json).
    pub summary: bool,
    /// What `--wide` does.
    pub wide: Wide,
    /// `--no-header` leaves out its header row.
    pub no_header: bool,
    /// `--json-numbers string` writes its numbers as strings.
    pub json_strings: bool,
    /// The derived measures (`--change`, `--rolling`, `--cumulative`, `--share`, `--per-user`)
    /// come out as columns of it.
    pub derived: bool,
    /// It writes a small fixed listing (`chains`, `cache stats`) as well as a daily series.
    pub listing: bool,
    /// `--scale log` draws its value axes in powers of ten.
    pub log_scale: bool,
    /// Its rows can be written as they come, a few days at a time (`render::Streamed`): no
    /// column width, picture or scale needs every row first.
    pub streamed: bool,
}

/// What `--wide` does to a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wide {
    /// One column per chain when asked.
    Asked,
    /// Always the wide shape: a chart draws one line per column.
    Always,
    /// Refused: a picture draws a line per chain from the long shape.
    Refused,
}

/// The capabilities every format starts from.
const TEXT: Can = Can {
    picture: false,
    terminal: true,
    file_only: false,
    merge: false,
    summary: false,
    wide: Wide::Asked,
    no_header: false,
    json_strings: false,
    derived: true,
    listing: false,
    log_scale: false,
    streamed: false,
};

/// A table for people or programs: summary rows, and a listing.
const ROWS: Can = Can {
    summary: true,
    listing: true,
    ..TEXT
};

/// svg and html.
const PICTURE: Can = Can {
    picture: true,
    terminal: false,
    wide: Wide::Refused,
    log_scale: true,
    ..TEXT
};

impl Format {
    /// What this format can do: the one table of them.
    pub fn can(self) -> Can {
        match self {
            Format::Table | Format::Markdown => ROWS,
            Format::Csv | Format::Tsv => Can {
                merge: true,
                no_header: true,
                streamed: true,
                ..ROWS
            },
            Format::Json | Format::Ndjson => Can {
                merge: true,
                json_strings: true,
                streamed: true,
                ..ROWS
            },
            Format::Chart => Can {
                wide: Wide::Always,
                ..TEXT
            },
            Format::Svg => PICTURE,
            // The page's table of values takes the summary as footer rows.
            Format::Html => Can {
                summary: true,
                ..PICTURE
            },
            Format::Sqlite => Can {
                terminal: false,
                file_only: true,
                merge: true,
                ..TEXT
            },
            // A table of dates and chains, as a merge file: never the wide shape.
            Format::Postgres => Can {
                terminal: false,
                file_only: true,
                merge: true,
                wide: Wide::Refused,
                ..TEXT
            },
        }
    }

    /// Every format that can do what `able` asks, in the order of `--help`.
    pub fn all_that(able: impl Fn(Can) -> bool) -> Vec<Format> {
        let all = <Format as clap::ValueEnum>::value_variants();
        all.iter().copied().filter(|f| able(f.can())).collect()
    }

    /// The format named `name` (any case) when stdout can take it (not a file-only one): what
    /// config `format`, a default for stdout, may name.
    pub fn for_stdout(name: &str) -> Option<Format> {
        let format = <Format as clap::ValueEnum>::from_str(name.trim(), true).ok()?;
        (!format.can().file_only).then_some(format)
    }

    /// `formats` named for a message: `csv, tsv and json` (`joint`: `and` or `or`).
    pub fn names(formats: &[Format], joint: &str) -> String {
        let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
        match names.split_last() {
            Some((last, [])) => (*last).to_owned(),
            Some((last, rest)) => format!("{} {joint} {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// The format as a stream of text; `None` for a database (`sqlite`, `postgres`).
    pub fn text(self) -> Option<Text> {
        match self {
            Format::Table => Some(Text::Table),
            Format::Csv => Some(Text::Csv),
            Format::Tsv => Some(Text::Tsv),
            Format::Json => Some(Text::Json),
            Format::Ndjson => Some(Text::Ndjson),
            Format::Markdown => Some(Text::Markdown),
            Format::Chart => Some(Text::Chart),
            Format::Svg => Some(Text::Svg),
            Format::Html => Some(Text::Html),
            Format::Sqlite | Format::Postgres => None,
        }
    }

    /// The format a file name implies, in any letter case; `None` when it implies none.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "csv" => Some(Format::Csv),
            "tsv" => Some(Format::Tsv),
            "json" => Some(Format::Json),
            "ndjson" | "jsonl" => Some(Format::Ndjson),
            "md" | "markdown" => Some(Format::Markdown),
            "svg" => Some(Format::Svg),
            "html" | "htm" => Some(Format::Html),
            "sqlite" | "db" => Some(Format::Sqlite),
            _ => None,
        }
    }

    /// The name users type for it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Csv => "csv",
            Format::Tsv => "tsv",
            Format::Json => "json",
            Format::Ndjson => "ndjson",
            Format::Markdown => "markdown",
            Format::Chart => "chart",
            Format::Svg => "svg",
            Format::Html => "html",
            Format::Sqlite => "sqlite",
            Format::Postgres => "postgres",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists the messages name come out of the table in `--help` order.
    #[test]
    fn the_table_names_the_formats_each_flag_takes() {
        let named = |able: fn(Can) -> bool| Format::names(&Format::all_that(able), "and");
        assert_eq!(
            named(|c| c.summary),
            "table, csv, tsv, json, ndjson, markdown and html"
        );
        assert_eq!(named(|c| c.no_header), "csv and tsv");
        assert_eq!(named(|c| c.json_strings), "json and ndjson");
        assert_eq!(
            named(|c| c.merge),
            "csv, tsv, json, ndjson, sqlite and postgres"
        );
        assert_eq!(named(|c| c.picture), "svg and html");
        assert_eq!(named(|c| c.log_scale), "svg and html");
        assert_eq!(named(|c| c.file_only), "sqlite and postgres");
        assert_eq!(named(|c| !c.terminal), "svg, html, sqlite and postgres");
        assert_eq!(named(|c| c.wide == Wide::Always), "chart");
        let listing = Format::names(&Format::all_that(|c| c.listing), "or");
        assert_eq!(listing, "table, csv, tsv, json, ndjson or markdown");
    }

    #[test]
    fn every_format_but_the_databases_is_text() {
        let text = Format::all_that(|_| true)
            .into_iter()
            .filter(|f| f.text().is_none());
        assert_eq!(text.collect::<Vec<_>>(), [Format::Sqlite, Format::Postgres]);
    }
}
