//! Writes a dataset in the format asked, to the writer it is handed; one module per format.

mod caption;
mod chart;
mod csv;
mod format;
mod html;
mod json;
mod listing;
mod markdown;
mod ndjson;
mod scale;
mod stream;
mod svg;
mod table;
mod tsv;

pub(crate) use caption::{Caption, Origin};
pub use format::Format;
pub(crate) use format::{Can, Text, Wide};
pub(crate) use listing::write as write_listing;
pub(crate) use stream::Streamed;
pub(crate) use svg::hints as picture_hints;

use std::io::{self, Write};

use crate::analysis::summary_rows;
use crate::model::{Dataset, Number, Row};

/// How the output should look, beyond its format.
#[derive(Clone, Copy, Debug)]
pub struct RenderOptions<'a> {
    pub color: bool,
    /// Columns available to `chart`; 0 means the default of 80.
    pub width: usize,
    /// `chart`: the terminal may show braille dots (a UTF-8 locale, no NO_COLOR); the chart
    /// draws with them unless it has several series and no colour to tell them apart.
    pub braille: bool,
    /// `table`: ASCII lines (`+`, `-`, `|`) instead of box drawing, for a locale that is not
    /// UTF-8, as the chart falls back from braille.
    pub ascii: bool,
    /// csv/tsv: leave out the header row.
    pub no_header: bool,
    /// Add total, mean, min and max rows (a `summary` object in json).
    pub summary: bool,
    /// svg/html: the query and warnings beside the data.
    pub caption: Option<&'a Caption>,
    /// `--summary`: the decimals of the mean (`--decimals`), rounded half to even.
    pub decimals: u32,
    /// json/ndjson: numbers as JSON strings of their exact text (`--json-numbers string`).
    pub json_strings: bool,
    /// svg/html: the value axes (`--scale`).
    pub scale: AxisScale,
}

impl Default for RenderOptions<'_> {
    fn default() -> Self {
        RenderOptions {
            color: false,
            width: 0,
            braille: false,
            ascii: false,
            no_header: false,
            summary: false,
            caption: None,
            decimals: crate::analysis::DEFAULT_DECIMALS,
            json_strings: false,
            scale: AxisScale::Linear,
        }
    }
}

/// How json and ndjson write numbers (`--json-numbers`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum JsonNumbers {
    /// JSON numbers with the service's exact text
    #[default]
    Number,
    /// JSON strings of that text, which jq and JavaScript keep whole
    String,
}

/// How a picture's value axes run (`--scale`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum AxisScale {
    /// evenly from zero
    #[default]
    Linear,
    /// in powers of ten, so that chains of very different size all show their shape
    Log,
}

/// Writes `data` as `format` to `out`: the text formats (a SQLite database is written to its
/// file by the output, not here).
pub fn render(
    data: &Dataset,
    format: Text,
    style: RenderOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Text::Table => table::write(data, style, out),
        Text::Csv => csv::write(data, style, out),
        Text::Tsv => tsv::write(data, style, out),
        Text::Json => json::write(data, style, out),
        Text::Ndjson => ndjson::write(data, style, out),
        Text::Markdown => markdown::write(data, style, out),
        Text::Chart => chart::write(data, style, out),
        Text::Svg | Text::Html => {
            let caption = style
                .caption
                .ok_or_else(|| io::Error::other("a picture needs its caption"))?;
            match format {
                Text::Svg => svg::write(data, caption, style.scale, out),
                _ => html::write(
                    data,
                    (caption, style.scale),
                    &summary_cells(data, style)?,
                    out,
                ),
            }
        }
    }
}

/// The fewest terminal columns `data` fits in, in `format`: a chart cannot wrap (0 for the
/// others, which can).
pub(crate) fn needed_width(data: &Dataset, format: Format) -> usize {
    match format {
        Format::Chart => chart::needed_width(data),
        _ => 0,
    }
}

/// Whether a table of `data` is too wide for a terminal of `style.width` columns even once
/// wrapped into blocks of one number column each (0: not a terminal, so never).
pub(crate) fn table_overflows(data: &Dataset, style: RenderOptions) -> bool {
    style.width > 0 && table::narrowest(data, style).is_ok_and(|needed| needed > style.width)
}

/// The cells of a row as text, gaps empty, in header order.
fn cells(data: &Dataset, row: &Row) -> Vec<String> {
    line(
        data,
        row.date.to_string(),
        Dataset::chain_cell(row),
        &row.values,
        |n| n.as_str().to_owned(),
    )
}

/// The rows for people (table, markdown): digit groups, then the summary rows when asked.
fn display_rows(data: &Dataset, style: RenderOptions) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let _ = for_each_display_row(data, style, |cells| {
        rows.push(cells.to_vec());
        Ok(())
    });
    rows
}

/// Hands each row for people to `each`, one at a time, so that none has to be kept.
fn for_each_display_row(
    data: &Dataset,
    style: RenderOptions,
    mut each: impl FnMut(&[String]) -> io::Result<()>,
) -> io::Result<()> {
    for row in &data.rows {
        each(&line(
            data,
            row.date.to_string(),
            Dataset::chain_cell(row),
            &row.values,
            group_digits,
        ))?;
    }
    if style.summary {
        // Output checks the summary before anything is written; this cannot fail after it.
        for (label, chain, values) in
            summary_rows(data, style.decimals).map_err(io::Error::other)?
        {
            each(&line(data, label.to_owned(), chain, &values, group_digits))?;
        }
    }
    Ok(())
}

/// The `--summary` rows as plain cells (exact text), `date` holding the statistic's name; none
/// unless asked.
fn summary_cells(data: &Dataset, style: RenderOptions) -> io::Result<Vec<Vec<String>>> {
    if !style.summary {
        return Ok(Vec::new());
    }
    let rows = summary_rows(data, style.decimals).map_err(io::Error::other)?;
    let exact = |n: &Number| n.as_str().to_owned();
    Ok(rows
        .into_iter()
        .map(|(label, chain, values)| line(data, label.to_owned(), chain, &values, exact))
        .collect())
}

/// One line of cells: the first cell, the chain cell when the data has that column, the values.
fn line(
    data: &Dataset,
    first: String,
    chain: &str,
    values: &[Option<Number>],
    show: impl Fn(&Number) -> String,
) -> Vec<String> {
    let mut cells = vec![first];
    if data.chain_column {
        cells.push(chain.to_owned());
    }
    cells.extend(
        values
            .iter()
            .map(|v| v.as_ref().map(&show).unwrap_or_default()),
    );
    cells
}

/// A number for people: digit groups in its whole part (`1234567.5` -> `1,234,567.5`).
/// Numbers in exponent form are left as sent.
pub(crate) fn group_digits(number: &Number) -> String {
    let text = number.as_str();
    let text: &str = &text;
    if text.contains(['e', 'E']) {
        return text.to_owned();
    }
    let (sign, unsigned) = text
        .strip_prefix('-')
        .map_or(("", text), |rest| ("-", rest));
    let (whole, fraction) = unsigned
        .split_once('.')
        .map_or((unsigned, None), |(w, f)| (w, Some(f)));
    let mut grouped = String::with_capacity(text.len() + whole.len() / 3);
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    match fraction {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_grouping() {
        let g = |t: &str| group_digits(&Number::from_json_token(t).unwrap());
        assert_eq!(g("0"), "0");
        assert_eq!(g("999"), "999");
        assert_eq!(g("1000"), "1,000");
        assert_eq!(g("-1234567.891"), "-1,234,567.891");
        assert_eq!(
            g("12345678901234567890.123456789"),
            "12,345,678,901,234,567,890.123456789"
        );
        assert_eq!(g("5E+3"), "5E+3");
    }
}
