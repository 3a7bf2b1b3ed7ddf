//! The page prints a figure per metric, none cut across pages, and no blank first page; a
//! heading stays on the page of what follows it; a folded year's values print unfolded:
//! Chromium's `--print-to-pdf` writes a tagged PDF, in which each chart (an `<svg role="img">`)
//! is a `/Figure` whose marked content names every page it is drawn on, a heading an `/H2`, and
//! each table cell printed a `/TD` (a folded `<details>` prints none of its cells). Every
//! figure prints at full width, its labels as large as the fees figure's: the smallest text
//! the page's content streams set (`/F1 9.42 Tf`, in the page's one scale) is that of a
//! full-width figure's 12 px labels (the social counts, shrunk to one page, printed at 5.76).

use std::io::Read;
use std::path::{Path, PathBuf};

use super::{browser, dated_env, report_file, sandbox};
use crate::support::Env;

/// The page printed to a PDF by Chromium, as text (its binary streams garbled, which no check
/// here reads).
fn print(env: &Env, page: &Path) -> String {
    let pdf: PathBuf = page.with_extension("pdf");
    browser::open(
        page,
        &[
            &format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer",
        ],
    );
    assert!(pdf.starts_with(env.home.path()));
    String::from_utf8_lossy(&std::fs::read(&pdf).unwrap()).into_owned()
}

/// The font sizes the PDF's content streams set (`/F5 9.42 Tf`), smallest first: every
/// stream inflated, each text's size read.
fn text_sizes(pdf: &Path) -> Vec<f64> {
    let bytes = std::fs::read(pdf).unwrap();
    let mut sizes = Vec::new();
    let mut rest = bytes.as_slice();
    while let Some(at) = rest.windows(7).position(|w| w == b"stream\n") {
        rest = &rest[at + 7..];
        let mut text = Vec::new();
        let inflated = flate2::read::ZlibDecoder::new(rest).read_to_end(&mut text);
        if inflated.is_err() && text.is_empty() {
            continue;
        }
        let text = String::from_utf8_lossy(&text);
        let words: Vec<&str> = text.split_whitespace().collect();
        for w in words.windows(3) {
            if w[0].starts_with("/F") && w[2] == "Tf" {
                sizes.extend(w[1].parse::<f64>().ok());
            }
        }
    }
    sizes.sort_by(f64::total_cmp);
    sizes
}

/// The PDF's objects: number and body.
fn objects(pdf: &str) -> Vec<(&str, &str)> {
    let parts: Vec<&str> = pdf.split(" 0 obj\n").collect();
    parts
        .windows(2)
        .map(|w| {
            let number = w[0].rsplit('\n').next().unwrap();
            (number, w[1].split("\nendobj").next().unwrap())
        })
        .collect()
}

/// The page objects, in page order.
fn pages(pdf: &str) -> Vec<String> {
    let tree = objects(pdf)
        .into_iter()
        .find(|(_, body)| body.starts_with("<</Type /Pages"))
        .expect("a page tree")
        .1;
    let kids = tree
        .split("/Kids [")
        .nth(1)
        .unwrap()
        .split(']')
        .next()
        .unwrap();
    kids.split(" 0 R")
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Each chart: its alternative text (the SVG's title) and the pages its content is on.
fn figures(pdf: &str) -> Vec<(String, Vec<String>)> {
    objects(pdf)
        .into_iter()
        .filter(|(_, body)| body.contains("/S /Figure") && body.contains("/Alt <"))
        .map(|(_, body)| {
            let hex = body
                .split("/Alt <")
                .nth(1)
                .unwrap()
                .split('>')
                .next()
                .unwrap();
            let units: Vec<u16> = (0..hex.len() / 4)
                .map(|i| u16::from_str_radix(&hex[i * 4..i * 4 + 4], 16).unwrap())
                .collect();
            let alt = String::from_utf16(&units).unwrap();
            let mut on: Vec<String> = body
                .split("/Pg ")
                .skip(1)
                .map(|p| p.split(' ').next().unwrap().to_owned())
                .collect();
            on.sort();
            on.dedup();
            (alt.trim_start_matches('\u{feff}').to_owned(), on)
        })
        .collect()
}

#[test]
fn the_page_prints_a_whole_figure_per_metric_from_the_first_page_on() {
    let (_sandbox, env) = sandbox();
    let page = report_file(&env, "report.html");
    let pdf = print(&env, &page);
    let pages = pages(&pdf);
    assert!((2..=8).contains(&pages.len()), "{} pages", pages.len());
    let figures = figures(&pdf);
    let starts: Vec<&str> = figures
        .iter()
        .map(|(alt, _)| alt.split(" · ").next().unwrap())
        .collect();
    // The social counts an SVG each, one under the other, each a page's width.
    assert_eq!(
        starts,
        [
            "fees",
            "active_users_avg",
            "reply",
            "retweet",
            "tweet",
            "quote"
        ]
    );
    for (alt, on) in &figures {
        assert_eq!(on.len(), 1, "{alt} is cut across pages {on:?}");
    }
    // The header is not left alone on a blank first page: the first figure is under it.
    assert_eq!(figures[0].1[0], pages[0]);
    let sizes = text_sizes(&page.with_extension("pdf"));
    assert!(sizes.len() > 100, "{} texts", sizes.len());
    assert!(
        sizes[0] >= 9.4,
        "text printed at {} (labels at full width: 9.42)",
        sizes[0]
    );
}

#[test]
fn the_print_checks_see_a_figure_cut_shrunk_labels_and_a_heading_alone() {
    // A figure taller than a page (its title not ASCII, so that the PDF writes it in hex as
    // the pages' titles are).
    let env = dated_env();
    let tall = env.home.path().join("tall.html");
    std::fs::write(
        &tall,
        "<!DOCTYPE html><html lang=\"en\"><head><title>tall</title></head><body>\
         <svg role=\"img\" width=\"700\" height=\"3000\" viewBox=\"0 0 700 3000\">\
         <title>tall · cut</title><text x=\"10\" y=\"20\">top</text>\
         <text x=\"10\" y=\"2990\">foot</text></svg></body></html>",
    )
    .unwrap();
    let figures = figures(&print(&env, &tall));
    assert!(
        figures.iter().any(|(_, on)| on.len() > 1),
        "no figure cut: {figures:?}"
    );
    let (_sandbox, env) = sandbox();
    let page = report_file(&env, "report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    let shrunk = html.replace(
        "svg.cm{max-height:23cm;width:auto;margin:0 auto}",
        "svg.cm{max-height:6cm;width:auto;margin:0 auto}",
    );
    assert_ne!(shrunk, html, "the print rules moved");
    let small = env.home.path().join("small.html");
    std::fs::write(&small, shrunk).unwrap();
    print(&env, &small);
    let sizes = text_sizes(&small.with_extension("pdf"));
    assert!(sizes[0] < 9.4, "labels not shrunk: {}", sizes[0]);
    // Without the rule that keeps a heading with what follows, this page's Values heading
    // ends a page, its table on the next: the heading check sees it.
    let env = dated_env();
    env.cmd("--sandbox report -c all -s 2023-11-20 -e 2024-03-31 -o alone.html")
        .any_stderr()
        .run();
    let page = env.home.path().join("alone.html");
    let html = std::fs::read_to_string(&page).unwrap();
    let kept = headings(&print(&env, &page));
    assert!(
        kept.iter().all(|(page, next)| Some(page) == next.as_ref()),
        "{kept:?}"
    );
    let unkept = html.replace("h2,figcaption,summary{break-after:avoid}", "");
    assert_ne!(unkept, html, "the print rules moved");
    std::fs::write(&page, unkept).unwrap();
    let alone = headings(&print(&env, &page));
    assert!(
        alone.iter().any(|(page, next)| Some(page) != next.as_ref()),
        "{alone:?}"
    );
}

/// The first page an element of the structure tree is drawn on: its own, or its first kid's.
fn first_page(objects: &[(&str, &str)], number: &str) -> Option<String> {
    let body = objects.iter().find(|(n, _)| *n == number)?.1;
    if let Some(page) = body.split("/Pg ").nth(1) {
        return page.split(' ').next().map(str::to_owned);
    }
    kids(body).first().and_then(|kid| first_page(objects, kid))
}

/// The object numbers of an element's kids (`/K [12 0 R 14 0 R]`), marked content left out.
fn kids(body: &str) -> Vec<&str> {
    let Some(list) = body.split("/K ").nth(1) else {
        return Vec::new();
    };
    let list = list.trim_start_matches('[');
    let list = list.split([']', '>']).next().unwrap();
    let words: Vec<&str> = list.split_whitespace().collect();
    (words.windows(3))
        .filter(|w| w[1] == "0" && w[2] == "R")
        .map(|w| w[0])
        .collect()
}

/// Each `/H2` heading's page, and the page of what follows it in its section.
fn headings(pdf: &str) -> Vec<(String, Option<String>)> {
    let objects = objects(pdf);
    let mut found = Vec::new();
    for (number, body) in &objects {
        if !body.contains("/S /H2") {
            continue;
        }
        let page = first_page(&objects, number).expect("a heading's page");
        let parent = body.split("/P ").nth(1).unwrap().split(' ').next().unwrap();
        let parent = objects.iter().find(|(n, _)| *n == parent).unwrap().1;
        let siblings = kids(parent);
        let at = siblings.iter().position(|k| k == number).unwrap();
        let next = siblings.get(at + 1).and_then(|k| first_page(&objects, k));
        found.push((page, next));
    }
    found
}

#[test]
fn folded_years_print_unfolded_and_headings_stay_with_what_follows() {
    let env = dated_env();
    // 183 days of six chains over two years: a folded table per year, a row per date.
    env.cmd("--sandbox report -c all -s 2023-10-01 -e 2024-03-31 -o folded.html")
        .any_stderr()
        .run();
    let page = env.home.path().join("folded.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<details>\n<summary>").count(), 2);
    let pdf = print(&env, &page);
    // A row per date, a cell per metric column: every folded value printed.
    assert_eq!(pdf.matches("/S /TD").count(), 183 * 6);
    let headings = headings(&pdf);
    assert_eq!(headings.len(), 3, "Charts, Notes, Values");
    for (page, next) in &headings {
        assert_eq!(
            Some(page),
            next.as_ref(),
            "a heading alone at a page's foot"
        );
    }
    // Without the print rule the years print folded: the check sees it.
    let folded = html.replace("details::details-content{content-visibility:visible}", "");
    assert_ne!(folded, html, "the print rule moved");
    let cut = env.home.path().join("folded-print.html");
    std::fs::write(&cut, folded).unwrap();
    assert_eq!(print(&env, &cut).matches("/S /TD").count(), 0);
}
