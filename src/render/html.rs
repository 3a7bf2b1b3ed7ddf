//! `html`: one self-contained page (no network, no script needed): the query and when it was
//! made, the charts inline, the gaps and warnings, and the table of exact values (the numbers
//! csv writes). Light or dark by `prefers-color-scheme`; prints on white.

use std::io::{self, Write};

use super::caption::Caption;
use super::svg::xml::escape;
use super::svg::{Picture, STYLE};
use crate::model::describe_days;
use crate::model::Dataset;
use crate::model::Period;

const PAGE_STYLE: &str = "\
:root{color-scheme:light dark;--fg:#1f2328;--muted:#57606a;--bg:#ffffff;--line:#d8dee4;--stripe:#f6f8fa}
@media (prefers-color-scheme: dark){:root{--fg:#e6edf3;--muted:#9ea7b3;--bg:#0d1117;--line:#30363d;--stripe:#161b22}}
body{margin:0 auto;padding:1.5rem;max-width:62rem;font-family:system-ui,sans-serif;color:var(--fg);background:var(--bg);line-height:1.45}
h1{font-size:1.4rem;margin:0 0 .25rem}
h2{font-size:1.1rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
.muted{color:var(--muted)}
figure{margin:0}
svg.cm{display:block;max-width:100%;height:auto}
ul.notes li{margin:.2rem 0}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.9rem}
th,td{padding:.2rem .6rem;border-bottom:1px solid var(--line);text-align:left}
td.n{text-align:right}
tbody tr:nth-child(even){background:var(--stripe)}
@media print{:root{--fg:#000;--muted:#333;--bg:#fff;--line:#bbb;--stripe:#fff}
body{max-width:none;padding:0}
figure{break-inside:avoid}
svg.cm text{fill:#000}
svg.cm .bg{fill:#fff}
thead{display:table-header-group}
tr{break-inside:avoid}}
";

pub(super) fn write(data: &Dataset, caption: &Caption, out: &mut dyn Write) -> io::Result<()> {
    let picture = Picture::new(data, caption);
    let query = escape(&caption.query_line(&picture.metrics()));
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <title>chain-metrics: {query}</title>\n<style>\n{PAGE_STYLE}{STYLE}</style>\n</head>\n<body>\n\
         <header>\n<h1>chain-metrics</h1>\n<p id=\"query\">{query}</p>\n\
         <p class=\"muted\">Made {made} by chain-metrics {version}.</p>\n</header>\n\
         <main>\n<section id=\"charts\">\n<h2>Charts</h2>\n<figure>\n{svg}</figure>\n</section>\n",
        made = escape(&caption.made),
        version = env!("CARGO_PKG_VERSION"),
        svg = picture.svg(false),
    )?;
    notes(&picture, caption, out)?;
    table(data, out)?;
    out.write_all(b"</main>\n</body>\n</html>\n")
}

/// The gaps, line by line, then the run's warnings; a line saying so when there are none.
fn notes(picture: &Picture, caption: &Caption, out: &mut dyn Write) -> io::Result<()> {
    let mut lines = Vec::new();
    for panel in &picture.panels {
        for line in panel.lines.iter().filter(|l| !l.gaps.is_empty()) {
            let when = match caption.by {
                Period::Day => describe_days(&line.gaps),
                by => format!("the {}s of {}", by.name(), dates(&line.gaps)),
            };
            lines.push(format!(
                "{} {}: no value for {when} (a gap, not zero)",
                line.chain.name(),
                panel.metric
            ));
        }
    }
    lines.extend(caption.warnings.iter().cloned());
    out.write_all(b"<section id=\"notes\">\n<h2>Gaps and warnings</h2>\n")?;
    if lines.is_empty() {
        return out
            .write_all(b"<p>None: every chain has a value for every period.</p>\n</section>\n");
    }
    out.write_all(b"<ul class=\"notes\">\n")?;
    for line in lines {
        writeln!(out, "<li>{}</li>", escape(&line))?;
    }
    out.write_all(b"</ul>\n</section>\n")
}

fn dates(days: &[chrono::NaiveDate]) -> String {
    let texts: Vec<String> = days.iter().map(ToString::to_string).collect();
    texts.join(", ")
}

/// The values as csv writes them, one row per date and chain; a gap is an empty cell.
fn table(data: &Dataset, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(b"<section id=\"values\">\n<h2>Values</h2>\n<table>\n<thead>\n<tr>")?;
    for name in data.header() {
        write!(out, "<th scope=\"col\">{}</th>", escape(&name))?;
    }
    out.write_all(b"</tr>\n</thead>\n<tbody>\n")?;
    let text_columns = 1 + usize::from(data.chain_column);
    for row in &data.rows {
        out.write_all(b"<tr>")?;
        for (i, cell) in super::cells(data, row).iter().enumerate() {
            match i < text_columns {
                true => write!(out, "<td>{}</td>", escape(cell))?,
                false => write!(out, "<td class=\"n\">{}</td>", escape(cell))?,
            }
        }
        out.write_all(b"</tr>\n")?;
    }
    out.write_all(b"</tbody>\n</table>\n</section>\n")
}
