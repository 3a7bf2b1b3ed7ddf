//! Writes a dataset in the format asked, to the writer it is handed; one module per format.

pub(crate) mod csv;
mod json;
mod table;

use std::io::{self, Write};

use crate::model::{Dataset, Number};

/// The output formats of CLI.md §1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// aligned columns for people
    Table,
    /// comma-separated values (the default when stdout is not a terminal)
    Csv,
    /// one array of row objects
    Json,
}

/// How the output should look, beyond its format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    pub color: bool,
}

pub fn render(data: &Dataset, format: Format, style: Style, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Table => table::write(data, style, out),
        Format::Csv => csv::write(data, out),
        Format::Json => json::write(data, out),
    }
}

/// The cells of a row as text, gaps empty, in header order.
fn cells(data: &Dataset, row: &crate::model::Row) -> Vec<String> {
    let mut cells = vec![row.date.to_string()];
    if data.chain_column {
        cells.push(row.chain.name().to_owned());
    }
    cells.extend(
        row.values
            .iter()
            .map(|v| v.as_ref().map_or(String::new(), |n| n.as_str().to_owned())),
    );
    cells
}

/// A number for people: digit groups in its whole part (`1234567.5` -> `1,234,567.5`).
/// Numbers in exponent form are left as sent.
pub fn group_digits(number: &Number) -> String {
    let text = number.as_str();
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
