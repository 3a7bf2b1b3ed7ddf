//! The page prints without a blank first page: Chromium's `--print-to-pdf` puts the charts on
//! the first page, with the header (the whole figure, scaled to fit, so no panel is cut across
//! pages), and the table after.

use std::io::Read;

use super::{browser, report_file, sandbox};

/// Where `needle` first is in `hay`, from `from` on.
fn find(hay: &[u8], needle: &[u8], from: usize) -> usize {
    let at = hay[from..].windows(needle.len()).position(|w| w == needle);
    from + at.unwrap_or_else(|| panic!("no {}", String::from_utf8_lossy(needle)))
}

/// The object numbers listed after `key` (`/Kids [2 0 R 7 0 R]`, `/Contents 3 0 R`).
fn references(pdf: &[u8], at: usize, end: u8) -> Vec<String> {
    let stop = find(pdf, &[end], at);
    let list = String::from_utf8_lossy(&pdf[at..stop]).into_owned();
    let numbers = list.split(" 0 R").map(str::trim).filter(|s| !s.is_empty());
    numbers.map(str::to_owned).collect()
}

/// Each page's content stream, in page order, inflated: what the page draws.
fn page_contents(pdf: &[u8]) -> Vec<Vec<u8>> {
    let object = |n: &str| find(pdf, format!("\n{n} 0 obj").as_bytes(), 0) + 1;
    let kids = find(pdf, b"/Kids [", 0) + 7;
    references(pdf, kids, b']')
        .iter()
        .map(|page| {
            let contents = find(pdf, b"/Contents ", object(page)) + 10;
            let contents = &references(pdf, contents, b'R')[0];
            let contents = contents.trim_end_matches(" 0").trim();
            let stream = find(pdf, b"stream\n", object(contents)) + 7;
            let end = find(pdf, b"endstream", stream);
            let mut raw = Vec::new();
            flate2::read::ZlibDecoder::new(&pdf[stream..end])
                .read_to_end(&mut raw)
                .unwrap();
            raw
        })
        .collect()
}

#[test]
fn the_page_prints_its_charts_on_the_first_page() {
    let (_sandbox, env) = sandbox();
    let page = report_file(&env, "report.html");
    let pdf = env.home.path().join("report.pdf");
    browser::open(
        &page,
        &[
            &format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer",
        ],
    );
    let pages = page_contents(&std::fs::read(&pdf).unwrap());
    assert!((2..=6).contains(&pages.len()), "{} pages", pages.len());
    // The charts are the heaviest drawing of the page: on the first page, not after a page
    // holding the header alone.
    let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
    assert_eq!(sizes.iter().max(), sizes.first(), "{sizes:?}");
}
