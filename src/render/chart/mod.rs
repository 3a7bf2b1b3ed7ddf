//! `chart`: a line chart in the terminal, a labelled value axis, date labels and a legend, as
//! wide as it is told. Gaps break a line: they are not zeros. Read as the svg reads: round
//! value ticks from zero, dates on period starts, a chart per metric (a small one per social
//! count), no line hidden under another, partial periods named, and where the data came from.
//!
//! Where the terminal may show them (`RenderOptions::braille`), lines are drawn in braille
//! dots, 2 by 4 to a cell, each series in its colour; else, and whenever several series would
//! have no colour to tell them apart, in plain characters, one mark per series.

use std::io::{self, Write};

use super::scale;
use super::RenderOptions;
use chrono::NaiveDate;

use crate::model::Period;
use crate::model::{Chain, Column, Dataset, Endpoint, Number, Unit};
use braille::DotGrid;
use notes::{left_out_note, partial_note, provenance};
use plot::{Dots, Plot};

mod axis;
mod braille;
mod notes;
mod plot;
#[cfg(test)]
mod tests;

/// Rows of the plot area: the ticks of the value axis, 2, 3, 4 or 6 apart, fall on rows.
const HEIGHT: usize = 13;
/// Rows of a social count's plot beside others: small multiples, a tick every 3 or 6 rows.
const SMALL_HEIGHT: usize = 7;
const DEFAULT_WIDTH: usize = 80;
const DATE_WIDTH: usize = 10;
/// The narrowest plot: room for one date label under it.
const MIN_PLOT_WIDTH: usize = DATE_WIDTH + 2;
/// One mark per series in plain characters, so that series stay apart without colour (and
/// none is `+` or `|`, which the axes use).
const MARKS: [char; 16] = [
    '*', 'o', 'x', '#', '@', '%', '=', '~', '&', '$', '^', '!', '?', 's', 'z', 'w',
];
/// One colour per chain, in SERVICE.md's order, near the SVG's palette (blue, orange as yellow,
/// green, vermillion as red, sky blue as cyan, pink as magenta): a chain keeps its colour in
/// every picture, whatever order it was asked in.
const COLORS: [&str; 6] = ["34", "33", "32", "31", "36", "35"];
/// The left-out values a chart names before "and N more".
const LEFT_OUT_NAMED: usize = 3;

/// Draws one series per column of a dataset with one row per date (a long dataset with a chain
/// column is pivoted by the caller first); each metric gets a chart of its own (fees and active
/// users, each social count), headed by the metric's name, as the svg gives each its panel.
///
/// Braille needs colour to tell several series apart (its dots carry no mark): without colour,
/// a chart of several series is drawn in plain characters, all the per-metric charts alike.
pub(super) fn write(data: &Dataset, style: RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let style = RenderOptions {
        braille: style.braille && (style.color || data.columns.len() == 1),
        ..style
    };
    let groups = metric_groups(data);
    if groups.len() < 2 {
        write_one(data, style, HEIGHT, out)?;
        partial_note(data, style, out)?;
        return provenance(style, out);
    }
    for (k, (metric, columns)) in groups.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{metric}")?;
        let rows = rows_of(data, columns, groups.len());
        write_one(&subset(data, columns), style, rows, out)?;
    }
    partial_note(data, style, out)?;
    provenance(style, out)
}

/// The columns of each metric, metrics in order of first appearance: `ETHEREUM.fees` is of
/// `fees`, as its type says once its chain is set aside.
fn metric_groups(data: &Dataset) -> Vec<(String, Vec<usize>)> {
    let mut groups: Vec<(Column, Vec<usize>)> = Vec::new();
    for (i, column) in data.columns.iter().enumerate() {
        let metric = column.without_chain();
        match groups.iter_mut().find(|(m, _)| *m == metric) {
            Some((_, columns)) => columns.push(i),
            None => groups.push((metric, vec![i])),
        }
    }
    let named = groups.into_iter().map(|(m, columns)| (m.name(), columns));
    named.collect()
}

/// The dataset with only `columns`, every row kept (a row is a day of the time axis).
fn subset(data: &Dataset, columns: &[usize]) -> Dataset {
    Dataset {
        chain_column: data.chain_column,
        columns: columns.iter().map(|c| data.columns[*c]).collect(),
        rows: data
            .rows
            .iter()
            .map(|row| crate::model::Row {
                values: columns.iter().map(|c| row.values[*c].clone()).collect(),
                ..row.clone()
            })
            .collect(),
    }
}

/// One chart of every column of `data`.
///
/// The x axis is time: one position per day from the first date to the last, so a date with
/// no row is a hole in every line rather than a step the lines jump over.
fn write_one(
    data: &Dataset,
    style: RenderOptions,
    rows: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let days = days(data);
    let series = series_by_day(data, &days);
    let Some(values) = axis::bounds(&series) else {
        writeln!(out, "(no data to chart)")?;
        return left_out_note(data, out);
    };
    // As wide as the terminal, however narrow: the caller refuses one narrower than
    // `needed_width` (the chart would wrap into a mess).
    let width = match style.width {
        0 => DEFAULT_WIDTH,
        width => width,
    };
    let value_axis = value_axis_of(data, values, rows);
    let labels = &value_axis.labels;
    let label_width = labels.iter().map(String::len).max().unwrap_or(0);
    let plot_width = width.saturating_sub(label_width + 2).max(MIN_PLOT_WIDTH);
    let dots = match style.braille {
        true => Dots::BRAILLE,
        false => Dots::PLAIN,
    };
    let plot = Plot::new(plot_width, days.len(), (value_axis.lo, value_axis.hi), dots);
    let plot = plot.with_rows(rows);
    let hues = hues(data);
    let (order, grid) = plot.draw_visible(&series, style.braille);
    let rows = cell_rows(&grid, style, (&hues, &order));
    for (r, cells) in rows.iter().enumerate() {
        let axis = if labels[r].is_empty() { '|' } else { '+' };
        let text = format!("{:>label_width$} {axis}{cells}", labels[r]);
        writeln!(out, "{}", text.trim_end())?;
    }
    let by = style.caption.map_or(Period::Day, |c| c.by);
    let (ticks, names) = axis::date_axis(&plot, &days, by);
    writeln!(out, "{:label_width$} +{ticks}", "")?;
    writeln!(out, "{:label_width$}  {}", "", names.trim_end())?;
    legend(data, (style, &hues), label_width, width, out)?;
    left_out_note(data, out)
}

/// The fewest columns the chart of `data` fits in: its value labels beside the narrowest plot,
/// and the longest legend entry.
pub(super) fn needed_width(data: &Dataset) -> usize {
    let groups = metric_groups(data);
    let label_width = (groups.iter())
        .filter_map(|(_, columns)| {
            let rows = rows_of(data, columns, groups.len());
            let data = subset(data, columns);
            let values = axis::bounds(&series_by_day(&data, &days(&data)))?;
            let labels = value_axis_of(&data, values, rows).labels;
            labels.iter().map(String::len).max()
        })
        .max();
    let Some(label_width) = label_width else {
        return 0;
    };
    let legend = data.columns.iter().map(|c| c.name().chars().count() + 2);
    label_width + 2 + legend.chain([MIN_PLOT_WIDTH]).max().unwrap_or(0)
}

/// The plot rows of the chart of `columns`, one of `charts`: small multiples for a social
/// count beside other charts.
fn rows_of(data: &Dataset, columns: &[usize], charts: usize) -> usize {
    match charts > 1 && columns.iter().all(|c| is_social(&data.columns[*c])) {
        true => SMALL_HEIGHT,
        false => HEIGHT,
    }
}

/// Whether `column` is one of the official account's counts (posts, replies...), drawn as
/// small multiples beside the other metrics.
fn is_social(column: &Column) -> bool {
    column
        .metric()
        .is_some_and(|m| m.endpoint() == Endpoint::OfficialAccount)
}

/// The value axis of the chart of `data`: counts tick on whole numbers, and percents say so
/// (`50%`), as the svg's axis and hover do.
fn value_axis_of(data: &Dataset, values: (f64, f64), rows: usize) -> axis::ValueAxis {
    let mut value_axis = axis::value_axis(values, counts(data), rows);
    if data.columns.iter().all(|c| c.unit() == Unit::Percent) {
        (value_axis.labels.iter_mut())
            .filter(|label| !label.is_empty())
            .for_each(|label| label.push('%'));
    }
    value_axis
}

/// Whether every column of `data` counts things (users, posts): its axis ticks on whole
/// numbers only.
fn counts(data: &Dataset) -> bool {
    data.columns.iter().all(|c| c.unit() == Unit::Count)
}

/// Every day from the first row's date to the last row's, rows or not.
fn days(data: &Dataset) -> Vec<NaiveDate> {
    match (data.rows.first(), data.rows.last()) {
        (Some(first), Some(last)) => first
            .date
            .iter_days()
            .take_while(|d| *d <= last.date)
            .collect(),
        _ => Vec::new(),
    }
}

/// One series per column, one value per day of `days`: `None` where there is no row or no
/// usable number.
fn series_by_day(data: &Dataset, days: &[NaiveDate]) -> Vec<Vec<Option<f64>>> {
    (0..data.columns.len())
        .map(|i| {
            let mut by_day = vec![None; days.len()];
            for row in &data.rows {
                let day = (row.date - days[0]).num_days() as usize;
                by_day[day] = value(&row.values[i]);
            }
            by_day
        })
        .collect()
}

/// The legend, one entry per series, wrapped to the chart's width.
fn legend(
    data: &Dataset,
    (style, hues): (RenderOptions, &[usize]),
    indent: usize,
    width: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let room = width.saturating_sub(indent + 2).max(1);
    let mut line = String::new();
    let mut used = 0;
    for (s, column) in data.columns.iter().enumerate() {
        let name = column.name();
        let visible = name.chars().count() + 2;
        if used > 0 && used + 3 + visible > room {
            writeln!(out, "{:indent$}  {line}", "")?;
            line.clear();
            used = 0;
        }
        if used > 0 {
            line.push_str("   ");
            used += 3;
        }
        line.push_str(&format!("{} {name}", mark(Some(s), style, hues)));
        used += visible;
    }
    writeln!(out, "{:indent$}  {line}", "")
}

/// A value the chart can place (see `scale::drawable`); one it cannot is left out and named
/// under the chart.
fn value(number: &Option<Number>) -> Option<f64> {
    scale::drawable(number.as_ref()?)
}

/// The colour of each series: its chain's, when every series is of a different chain; else
/// (several metrics of one chain) one per series, in order, so that each stays apart.
fn hues(data: &Dataset) -> Vec<usize> {
    let chains: Vec<Option<Chain>> = data.columns.iter().map(Column::chain).collect();
    let distinct = chains
        .iter()
        .enumerate()
        .all(|(i, c)| c.is_some() && !chains[..i].contains(c));
    chains
        .iter()
        .enumerate()
        .map(|(s, chain)| match (distinct, chain) {
            (true, Some(chain)) => Chain::ALL.iter().position(|c| c == chain).unwrap_or(s),
            _ => s,
        })
        .collect()
}

/// The text of each row of the plot: in braille, a cell per 2 by 4 dots; else a mark a dot.
fn cell_rows(
    grid: &DotGrid,
    style: RenderOptions,
    (hues, order): (&[usize], &[usize]),
) -> Vec<String> {
    // The grid holds each dot's place in the draw order; `order` names its series.
    if style.braille {
        let cells = braille::cells(grid);
        let paint = |cell: &Option<(char, usize)>| match cell {
            Some((symbol, p)) => paint(*symbol, hue(hues, order[*p]), style),
            None => " ".to_owned(),
        };
        return cells
            .iter()
            .map(|row| row.iter().map(paint).collect())
            .collect();
    }
    let mark = |cell: &Option<usize>| mark(cell.map(|p| order[p]), style, hues);
    grid.iter()
        .map(|row| row.iter().map(mark).collect())
        .collect()
}

/// What stands for series `series` in the plain plot and in the legend: its mark, or in
/// braille the sample line; in its colour when there is colour.
fn mark(series: Option<usize>, style: RenderOptions, hues: &[usize]) -> String {
    match series {
        None => " ".to_owned(),
        Some(s) if style.braille => paint(braille::SAMPLE, hue(hues, s), style),
        Some(s) => paint(MARKS[s % MARKS.len()], hue(hues, s), style),
    }
}

fn hue(hues: &[usize], series: usize) -> usize {
    hues.get(series).copied().unwrap_or(series)
}

fn paint(symbol: char, hue: usize, style: RenderOptions) -> String {
    match style.color {
        true => format!("\x1b[{}m{symbol}\x1b[0m", COLORS[hue % COLORS.len()]),
        false => symbol.to_string(),
    }
}
