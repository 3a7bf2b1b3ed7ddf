//! `html`: one self-contained page (no network, no script needed): the query and when it was
//! made, the charts inline, the gaps and warnings, and the table of exact values (the numbers
//! csv writes). Light or dark by `prefers-color-scheme`; prints on white, a heading kept with
//! what follows it and the folded years unfolded.

use std::collections::BTreeMap;
use std::io::{self, Write};

use chrono::NaiveDate;

mod values;

use super::caption::Caption;
use super::svg::xml::escape;
use super::svg::{Figure, Line, Picture, Why, STYLE};
use super::AxisScale;
use crate::model::describe_days;
use crate::model::Period;
use crate::model::{Chain, Coverage, Dataset};

const PAGE_STYLE: &str = "\
:root{color-scheme:light dark;--fg:#1f2328;--muted:#57606a;--bg:#ffffff;--line:#d8dee4;\
--stripe:#f6f8fa}
@media (prefers-color-scheme: dark){:root{--fg:#e6edf3;--muted:#9ea7b3;--bg:#0d1117;\
--line:#30363d;--stripe:#161b22}}
body{margin:0 auto;padding:1.5rem;max-width:62rem;font-family:system-ui,sans-serif;\
color:var(--fg);background:var(--bg);line-height:1.45}
h1{font-size:1.4rem;margin:0 0 .25rem}
h2{font-size:1.1rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
.muted{color:var(--muted)}
figure{margin:0 0 1.5rem}
figcaption{margin:1rem 0 .25rem}
svg.cm{display:block;max-width:100%;height:auto}
ul.notes li{margin:.2rem 0}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.9rem}
th,td{padding:.2rem .6rem;border-bottom:1px solid var(--line);text-align:left}
td{text-align:right}
tbody th{font-weight:normal;vertical-align:top}
table.by-date td,table.by-date th{white-space:pre-line;vertical-align:top}
details summary{cursor:pointer;margin:.4rem 0}
tbody tr:nth-child(even){background:var(--stripe)}
tfoot tr:first-child>*{border-top:2px solid var(--fg)}
tfoot th{font-weight:600}
@media print{:root{--fg:#000;--muted:#333;--bg:#fff;--line:#bbb;--stripe:#fff}
body{max-width:none;padding:0}
h2,figcaption,summary{break-after:avoid}
figure{break-inside:avoid}
svg.cm{max-height:23cm;width:auto;margin:0 auto}
details::details-content{content-visibility:visible}
svg.cm text{fill:#000}
svg.cm .bg{fill:#fff}
thead{display:table-header-group}
tr{break-inside:avoid}}
";

/// The page; `summary` holds the `--summary` rows as cells (none when not asked), written as
/// footer rows under the values.
pub(super) fn write(
    data: &Dataset,
    (caption, scale): (&Caption, AxisScale),
    summary: &[Vec<String>],
    out: &mut dyn Write,
) -> io::Result<()> {
    let picture = Picture::new(data, caption, scale);
    let query = escape(&caption.query_line(&picture.metrics()));
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <title>chain-metrics: {query}</title>\n<style>\n{PAGE_STYLE}{STYLE}</style>\n\
         </head>\n<body>\n\
         <header>\n<h1>chain-metrics</h1>\n<p id=\"query\">{query}</p>\n\
         {source}<p class=\"muted\">Made {made} by chain-metrics {version}.</p>\n</header>\n\
         <main>\n<section id=\"charts\">\n<h2>Charts</h2>\n",
        made = escape(&caption.made),
        source = source(caption),
        version = env!("CARGO_PKG_VERSION"),
    )?;
    figures(&picture, out)?;
    notes(&picture, data, caption, out)?;
    values::write(data, summary, out)?;
    out.write_all(b"</main>\n</body>\n</html>\n")
}

/// One figure per metric (fees, active users, the official account's activity), each its own
/// SVG with its legend, and a caption saying how to read it; the charts' section ends here.
fn figures(picture: &Picture, out: &mut dyn Write) -> io::Result<()> {
    let figures = picture.figures();
    let hover = picture.hover_says();
    if figures.is_empty() {
        write!(out, "<figure>\n{}</figure>\n", picture.svg(false))?;
    }
    for (figure, svg) in figures {
        let how = match figure {
            Figure::Social => "a strip per chain, all on one scale",
            _ => "a line per chain",
        };
        write!(
            out,
            "<figure id=\"{id}\">\n<figcaption><strong>{title}</strong>: {how}; \
                {hover}.</figcaption>\n{svg}</figure>\n",
            id = figure.id(),
            title = figure.title(),
        )?;
    }
    out.write_all(b"</section>\n")
}

/// The line that says where the data came from: synthetic, in bold, from the sandbox.
fn source(caption: &Caption) -> String {
    let synthetic = caption.origin.is_synthetic();
    match (synthetic, caption.source_line()) {
        (true, Some(line)) => format!(
            "<p id=\"source\" class=\"synthetic\"><strong>Not real chain data</strong>: \
                {}.</p>\n",
            escape(&line)
        ),
        (false, Some(line)) => format!("<p id=\"source\">{}.</p>\n", capitalised(&escape(&line))),
        (_, None) => String::new(),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The partial periods, the gaps, the values left out of the charts, then the run's
/// warnings; a line saying so when there are none.
fn notes(
    picture: &Picture,
    data: &Dataset,
    caption: &Caption,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut lines = partial_periods(data, caption);
    lines.extend(gap_lines(picture, caption));
    for panel in &picture.panels {
        for line in &panel.lines {
            lines.extend(left_out_notes(line, &panel.metric, caption));
        }
    }
    lines.extend(caption.warnings.iter().cloned());
    lines.extend(caption.hints.iter().cloned());
    out.write_all(b"<section id=\"notes\">\n<h2>Notes: partial periods, gaps and warnings</h2>\n")?;
    if lines.is_empty() {
        return out.write_all(
            b"<p>None: every period is whole and every chain has a value for \
                each.</p>\n</section>\n",
        );
    }
    out.write_all(b"<ul class=\"notes\">\n")?;
    for line in lines {
        writeln!(out, "<li>{}</li>", escape(&line))?;
    }
    out.write_all(b"</ul>\n</section>\n")
}

/// The notes that fit in one line each: a value left out, with its date and text; past that
/// many of one reason, one note names the first few and counts the rest (a decade of daily
/// zeros on a log scale would otherwise outweigh the page).
const LEFT_OUT_NOTES: usize = 5;

/// A line's values left out of the chart, reason by reason.
fn left_out_notes(line: &Line, metric: &str, caption: &Caption) -> Vec<String> {
    let mut notes = Vec::new();
    let name = line.chain.name();
    for why in Why::ALL {
        let of: Vec<String> = (line.left_out.iter())
            .filter(|l| l.2 == why)
            .map(|(date, text, _)| format!("{} ({text})", caption.when(*date)))
            .collect();
        if of.len() > LEFT_OUT_NOTES {
            notes.push(format!(
                "{name} {metric}: {} values are left out of the chart, {}: {} and {} more (the \
                    table shows them)",
                of.len(),
                why.says(),
                of[..3].join(", "),
                of.len() - 3
            ));
            continue;
        }
        let each = line.left_out.iter().filter(|l| l.2 == why);
        notes.extend(each.map(|(date, text, _)| {
            format!(
                "{name} {metric} of {}: {text} is left out of the chart, {} (the table shows it)",
                caption.when(*date),
                why.says()
            )
        }));
    }
    notes
}

/// A chain and the dates of its gaps: the notes name them once, for every metric they hit.
type GapKey<'a> = (Chain, &'a [NaiveDate]);

/// A note per chain and stretch of gaps, naming every metric it hits (`BASE fees,
/// active_users: no value for ...`), then a note per change with no previous value (a
/// change's first period, or the first after a gap), which is no gap.
fn gap_lines(picture: &Picture, caption: &Caption) -> Vec<String> {
    let mut notes = Vec::new();
    let mut gaps: Vec<(GapKey, Vec<&str>)> = Vec::new();
    let mut first: Vec<(&[NaiveDate], Vec<String>)> = Vec::new();
    for panel in &picture.panels {
        for line in &panel.lines {
            if !line.gaps.is_empty() {
                let key = (line.chain, line.gaps.as_slice());
                match gaps.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, metrics)) => metrics.push(&panel.metric),
                    None => gaps.push((key, vec![&panel.metric])),
                }
            }
            if !line.no_previous.is_empty() {
                let key = line.no_previous.as_slice();
                let named = format!("{} {}", line.chain.name(), panel.metric);
                match first.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, named_too)) => named_too.push(named),
                    None => first.push((key, vec![named])),
                }
            }
        }
    }
    for ((chain, days), metrics) in gaps {
        notes.push(format!(
            "{} {}: no value for {} (a gap, not zero)",
            chain.name(),
            metrics.join(", "),
            when(days, caption)
        ));
    }
    for (days, named) in first {
        notes.push(format!(
            "{}: no previous value to change from for {} (not a gap)",
            named.join(", "),
            when(days, caption)
        ));
    }
    notes
}

/// Periods in words, singular or plural: `2024-02-05..2024-02-18` (days), `the week of
/// 2024-02-05`, `the weeks of 2024-02-05 and 2024-02-12`.
fn when(days: &[NaiveDate], caption: &Caption) -> String {
    let by = caption.by;
    if by == Period::Day {
        return describe_days(days);
    }
    match days {
        [one] => format!("the {} of {one}", by.name()),
        [rest @ .., last] => format!("the {}s of {} and {last}", by.name(), dates(rest)),
        [] => String::new(),
    }
}

/// One note per period that is not whole, as its rows' coverage says: `6 of 7 days` for
/// every chain, else chain by chain.
fn partial_periods(data: &Dataset, caption: &Caption) -> Vec<String> {
    let mut periods: BTreeMap<NaiveDate, Vec<(Option<Chain>, Coverage)>> = BTreeMap::new();
    for row in &data.rows {
        if let Some(coverage) = row.coverage.filter(|c| c.days < c.of) {
            periods
                .entry(row.date)
                .or_default()
                .push((row.chain, coverage));
        }
    }
    periods
        .into_iter()
        .map(|(date, partial)| {
            let first = partial[0].1;
            let alike = partial.len() == caption.chains.len().max(1)
                && partial.iter().all(|(_, c)| *c == first);
            let held = match alike {
                true => format!("{} of {} days for every chain", first.days, first.of),
                false => {
                    let each = partial.iter().map(|(chain, c)| {
                        let name = chain.map_or("", |c| c.name());
                        format!("{name} {} of {} days", c.days, c.of)
                    });
                    each.collect::<Vec<_>>().join(", ")
                }
            };
            format!(
                "the {} is partial, drawn hollow and dashed: {held}",
                caption.when(date)
            )
        })
        .collect()
}

fn dates(days: &[chrono::NaiveDate]) -> String {
    let texts: Vec<String> = days.iter().map(ToString::to_string).collect();
    texts.join(", ")
}
