//! The pointer finds the values: in headless Chromium, points along every line (its path, its
//! dots) of every panel resolve, by `document.elementFromPoint`, to a hover column whose
//! `<title>` names a date and the panel's metric, never to the chart's title; at 90 days (a
//! column a day), 431 days (a column a week of days) and ten years (a month of days). The
//! pages carry no script: the test wraps them in one of its own.

use std::path::Path;

use super::{browser, drawn, sandbox};

/// Walks every series path and dot of the document, points at it and writes what answered:
/// `hits N`, then a line per miss (the metric, where, and the title found, if any).
const PROBE: &str = r#"<script>
const misses = []; let hits = 0;
const answer = (el) => {
  for (let e = el; e; e = e.parentElement) {
    const t = [...e.children].find(c => c.tagName.toLowerCase() === 'title');
    if (t) return t.textContent;
  }
  return '';
};
const dated = /^((day|week|month|quarter|year) of )?\d{4}-\d{2}-\d{2}: ([a-z_% ]+)/;
for (const panel of document.querySelectorAll('g.panel')) {
  const metric = panel.getAttribute('data-metric');
  const points = [];
  for (const path of panel.querySelectorAll('g.series path')) {
    if (path.classList.contains('dots')) {
      for (const m of path.getAttribute('d').matchAll(/M([\d.]+) ([\d.]+)/g)) points.push([path, +m[1], +m[2]]);
      continue;
    }
    const length = path.getTotalLength();
    for (let at = 0; at <= length; at += 3) { const p = path.getPointAtLength(at); points.push([path, p.x, p.y]); }
  }
  for (const dot of panel.querySelectorAll('g.series circle')) points.push([dot, +dot.getAttribute('cx'), +dot.getAttribute('cy')]);
  for (const [el, x, y] of points) {
    el.scrollIntoView({block: 'center'});
    const p = new DOMPoint(x, y).matrixTransform(el.getScreenCTM());
    const said = answer(document.elementFromPoint(p.x, p.y));
    const m = said.match(dated);
    if (m && m[3] === metric) { hits++; } else { misses.push(metric + ' at ' + x.toFixed(1) + ',' + y.toFixed(1) + ': ' + JSON.stringify(said.slice(0, 60))); }
  }
}
const out = document.createElement('pre'); out.id = 'probe';
out.textContent = 'hits ' + hits + '\n' + misses.slice(0, 20).join('\n') + '\nmisses ' + misses.length;
document.body.append(out);
</script>"#;

/// The probe's report on a picture: the points hit, and the misses (at most 20 named).
fn probe(picture: &Path) -> (usize, String) {
    let markup = std::fs::read_to_string(picture).unwrap();
    let page = match picture.extension().is_some_and(|e| e == "svg") {
        true => format!(
            "<!DOCTYPE html><html><head><title>probe</title></head><body style=\"margin:0\">{}{PROBE}</body></html>",
            markup.split_once("?>\n").map_or(markup.as_str(), |(_, svg)| svg)
        ),
        false => markup.replacen("</body>", &format!("{PROBE}</body>"), 1),
    };
    let wrapped = picture.with_extension("probe.html");
    std::fs::write(&wrapped, page).unwrap();
    let dom = browser::open(&wrapped, &["--dump-dom", "--window-size=1100,900"]);
    let report = dom
        .stdout
        .split("<pre id=\"probe\">")
        .nth(1)
        .and_then(|r| r.split("</pre>").next())
        .unwrap_or_else(|| panic!("no probe report: {}", dom.stderr))
        .to_owned();
    let hits = report
        .strip_prefix("hits ")
        .and_then(|r| r.lines().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    (hits, report)
}

/// Every probed point of `picture` hit a column; at least `least` points were probed.
fn assert_every_point_hits(picture: &Path, least: usize) {
    let (hits, report) = probe(picture);
    assert!(
        report.ends_with("\nmisses 0"),
        "{}: {report}",
        picture.display()
    );
    assert!(hits >= least, "{}: {hits} points only", picture.display());
}

#[test]
fn every_point_of_every_line_finds_a_dated_column_at_90_and_431_days() {
    let (_sandbox, env) = sandbox();
    for (name, start, end) in [
        ("d90.svg", "2024-01-01", "2024-03-30"),
        ("d90.html", "2024-01-01", "2024-03-30"),
        ("d431.svg", "2023-01-01", "2024-03-06"),
        ("d431.html", "2023-01-01", "2024-03-06"),
    ] {
        env.cmd(&format!("report -c all -s {start} -e {end} -o {name}"))
            .any_stderr()
            .run();
        assert_every_point_hits(&env.home.path().join(name), 2000);
    }
    // 431 days are too many for a column a day: a column holds a week and lists each day.
    let svg = std::fs::read_to_string(env.home.path().join("d431.svg")).unwrap();
    assert!(svg.contains("<title>week of 2023-01-02: fees, 7 days (a line each, by its date): ETHEREUM ARBITRUM BSC OPTIMISM BASE POLYGON\n2023-01-02: "));
    let page = std::fs::read_to_string(env.home.path().join("d431.html")).unwrap();
    assert!(page.contains("hover a week for every chain's exact value of each of its days"));
}

#[test]
fn every_point_finds_a_dated_column_over_ten_years() {
    let env = drawn("--sandbox report -c all -s 2015-01-01 -e 2024-12-31 -o ten.svg");
    let svg = env.home.path().join("ten.svg");
    assert_every_point_hits(&svg, 20_000);
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(
        svg.contains("<desc>hover a month for every chain&#39;s exact value of each of its days")
    );
    assert!(svg.contains("<title>month of 2015-01-01: fees, 31 days (a line each, by its day of the month): ETHEREUM ARBITRUM BSC OPTIMISM BASE POLYGON\n01: 1,145,778.57 54,718.06 274,265.19 31,712.16 117,876.13 16,881.20\n02: "));
}
