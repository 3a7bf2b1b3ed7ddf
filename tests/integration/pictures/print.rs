//! The page prints a figure per metric, none cut across pages, and no blank first page:
//! Chromium's `--print-to-pdf` writes a tagged PDF, in which each chart (an `<svg role="img">`)
//! is a `/Figure` whose marked content names every page it is drawn on.

use std::path::{Path, PathBuf};

use super::{browser, report_file, sandbox};
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
    assert_eq!(
        starts,
        ["fees", "active_users_avg", "reply, retweet, tweet, quote"]
    );
    for (alt, on) in &figures {
        assert_eq!(on.len(), 1, "{alt} is cut across pages {on:?}");
    }
    // The header is not left alone on a blank first page: the first figure is under it.
    assert_eq!(figures[0].1[0], pages[0]);
}

#[test]
fn the_print_check_sees_a_figure_cut_across_pages() {
    let (_sandbox, env) = sandbox();
    let page = report_file(&env, "report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    let unkept = html
        .replace("figure{break-inside:avoid}", "")
        .replace("svg.cm{max-height:23cm;width:auto;margin:0 auto}", "");
    assert_ne!(unkept, html, "the print rules moved");
    let cut = env.home.path().join("cut.html");
    std::fs::write(&cut, unkept).unwrap();
    let figures = figures(&print(&env, &cut));
    assert!(
        figures.iter().any(|(_, on)| on.len() > 1),
        "no figure cut: {figures:?}"
    );
}
