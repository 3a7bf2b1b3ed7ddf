//! `render FILE`: an export drawn again with no request and no key is the query's own
//! picture, but for the line that says where its data came from.

use std::path::{Path, PathBuf};

use super::sandbox;
use crate::support::{made_line, sandbox_env, Cmd, Env};

/// A report of every chain by week whose first and last weeks are partial (Wednesday to
/// Wednesday), so that the rows' coverage must come back from the file's `days` column.
const QUERY: &str = "report -c all -s 2024-01-03 -e 2024-03-27 --by week";

/// The hint of a picture of QUERY, whose edge weeks are partial.
const PER_DAY: &str =
    "hint: fees sums weeks of unequal length: add --per-day to the query to draw \
    each week as its mean per covered day\n";

/// The fees of two chains over January.
const JANUARY: &str = "fees -c eth,arb -s 2024-01-01 -e 2024-01-31";

/// An environment with no service and no key: a request would fail at once.
fn offline() -> Env {
    super::dated_env()
}

/// `render FILE ARGS...` in `env`.
fn render<'e>(env: &'e Env, file: &Path, args: &[&str]) -> Cmd<'e> {
    let file = file.to_str().unwrap();
    env.cmd_args(&[&["render", file], args].concat())
}

/// `query` run in `env` with `-o name`, exit 0 and stderr empty: the export's path.
fn export(env: &Env, query: &str, name: &str) -> PathBuf {
    env.cmd(&format!("{query} -o {name}")).run();
    env.home.path().join(name)
}

/// `render FILE ARGS... -o r.svg` in `offline`, exit 0 and stderr `said`: the picture and
/// `query` (the query's own, from a sandbox run on its own) must differ in the source line
/// alone: the query's says its data is synthetic, from the sandbox it names; the drawing says
/// the same (the export records it) and names the file.
fn drawn_as_the_query(offline: &Env, file: &Path, args: &[&str], said: &str, query: &str) {
    let out = offline.home.path().join("r.svg");
    render(
        offline,
        file,
        &[args, &["-o", out.to_str().unwrap()]].concat(),
    )
    .stderr(said)
    .run();
    let drawn = std::fs::read_to_string(out).unwrap();
    let query: Vec<&str> = query.lines().collect();
    let drawn: Vec<&str> = drawn.lines().collect();
    assert_eq!(query.len(), drawn.len());
    let differ: Vec<(&&str, &&str)> = query.iter().zip(&drawn).filter(|(q, d)| q != d).collect();
    assert_eq!(differ.len(), 1, "{differ:#?}");
    assert!(
        differ[0]
            .0
            .contains(">synthetic data from the sandbox at http://127.0.0.1:"),
        "{}",
        differ[0].0
    );
    // The file by its name: the folders above it are no shared picture's business.
    let name = file.file_name().unwrap().to_str().unwrap();
    let source = format!(", drawn from {name} · made ");
    assert_eq!(*differ[0].1, differ[0].0.replacen(" · made ", &source, 1));
}

#[test]
fn a_csv_and_a_sqlite_export_draw_the_query_s_own_svg() {
    let (_sandbox, mut env) = sandbox_env(&[]);
    env.set("SOURCE_DATE_EPOCH", "1700000000");
    let home = env.home.path();
    // The svg (and each drawing of an export) hints at `--scale log`, as POLYGON's fees lie on
    // the floor, and at `--per-day`, as the edge weeks are partial; a csv or a database has no
    // picture to hint at.
    let hint = &format!("hint: OPTIMISM and POLYGON fees stay under 1/30 of the panel's top, flat on the floor: add --scale log to draw every chain's own shape\n\
        {PER_DAY}");
    for name in ["q.svg", "q.csv", "q.sqlite"] {
        let said = if name.ends_with(".svg") { hint } else { "" };
        env.cmd(&format!("{QUERY} -o {name}")).stderr(said).run();
    }
    let query_svg = std::fs::read_to_string(home.join("q.svg")).unwrap();
    // The edge weeks are partial: the drawing must mark them too, from the days column.
    assert!(query_svg.contains("class=\"partial\"") && query_svg.contains(": 5 of 7 days"));
    let offline = offline();
    for export in ["q.csv", "q.sqlite"] {
        drawn_as_the_query(&offline, &home.join(export), &[], hint, &query_svg);
    }
}

#[test]
fn html_is_drawn_to_stdout_and_a_format_that_draws_nothing_is_refused() {
    let (sandbox, env) = sandbox();
    let file = export(&env, JANUARY, "f.ndjson");
    let offline = offline();
    let page = render(&offline, &file, &["-f", "html"])
        .any_stdout()
        .run()
        .stdout;
    assert!(page.starts_with("<!DOCTYPE html>"), "{}", &page[..40]);
    assert!(page.contains(&format!(
        "<p id=\"source\" class=\"synthetic\"><strong>Not real chain data</strong>: synthetic \
        data from the sandbox at {}, drawn from f.ndjson.</p>",
        sandbox.url
    )));
    assert!(page.contains("ARBITRUM"));
    render(&offline, &file, &["-f", "csv"])
        .code(2)
        .stderr_contains("error: render draws a picture, and csv is no picture format")
        .stderr_contains("hint: give -f chart, svg or html")
        .run();
    render(&offline, &file, &["-o", "f.json"])
        .code(2)
        .any_stderr()
        .run();
}

#[test]
fn a_file_the_tool_did_not_write_is_refused_naming_it() {
    let env = offline();
    let home = env.home.path();
    std::fs::write(home.join("notes.csv"), "name,amount\nrent,900\n").unwrap();
    std::fs::write(
        home.join("twice.csv"),
        "date,fees\n2024-01-01,1\n2024-01-01,2\n",
    )
    .unwrap();
    std::fs::write(home.join("fake.sqlite"), "not a database").unwrap();
    for (name, why) in [
        ("notes.csv", "its first column is not date"),
        (
            "twice.csv",
            "it holds the key 2024-01-01 twice, on line 2 and on line 3",
        ),
        ("fake.sqlite", "it is not a SQLite database"),
        ("missing.csv", "No such file"),
    ] {
        let file = home.join(name);
        let error = format!("error: cannot draw {}: {why}", file.display());
        render(&env, &file, &["-f", "svg"])
            .code(9)
            .stderr_contains(&error)
            .run();
    }
}

#[test]
fn the_chart_of_a_json_export_is_the_query_s_chart_derived_measures_and_all() {
    let (sandbox, env) = sandbox();
    let query = "users -c eth,base -s 2024-01-10 -e 2024-03-20 --by month --change";
    // The query warns of the partial months --change compares, and of BASE's gap.
    let chart = env
        .cmd(&format!("{query} -f chart"))
        .any_stdout()
        .any_stderr()
        .run()
        .stdout;
    env.cmd(&format!("{query} -o m.json")).any_stderr().run();
    let file = env.home.path().join("m.json");
    // The same chart, but for the file its data came from, named on its last line.
    let source = format!("\nsynthetic data from the sandbox at {}", sandbox.url);
    let made = made_line();
    assert!(chart.ends_with(&format!("{source}\n{made}\n")), "{chart}");
    let chart = chart.replace(
        &format!("{source}\n"),
        &format!("{source}, drawn from m.json\n"),
    );
    render(&offline(), &file, &["-f", "chart"])
        .stdout(chart)
        .run();
}

#[test]
fn a_file_of_one_chain_is_drawn_once_its_chain_is_named() {
    let (_sandbox, env) = sandbox();
    let home = env.home.path();
    env.cmd("fees -c base -s 2024-01-01 -e 2024-01-31 -o q.svg")
        .run();
    let file = export(&env, "fees -c base -s 2024-01-01 -e 2024-01-31", "one.tsv");
    let offline = offline();
    let error = format!(
        "error: cannot draw {}: it has no chain column, so it does not say which chain it holds\nhint: name it: --file-chain CHAIN\n",
        file.display()
    );
    render(&offline, &file, &["-f", "svg"])
        .code(9)
        .stderr(error)
        .run();
    let query = std::fs::read_to_string(home.join("q.svg")).unwrap();
    drawn_as_the_query(&offline, &file, &["--file-chain", "base"], "", &query);
}

#[test]
fn a_period_the_dates_cannot_tell_is_drawn_as_the_shortest_that_fits_and_said() {
    let (_sandbox, env) = sandbox();
    // One whole January: its first day starts a month, a quarter and a year alike.
    let file = export(&env, &format!("{JANUARY} --by month"), "m.csv");
    let svg = render(&offline(), &file, &["-f", "svg"])
        .stderr("note: the period cannot be told from the file's dates: drawn by month, the shortest that fits\n")
        .any_stdout()
        .run()
        .stdout;
    assert!(
        svg.contains(" · 2024-01-01 to 2024-01-31 · by month</text>"),
        "{svg}"
    );
}

#[test]
fn a_picture_to_a_terminal_is_refused_before_the_file_is_read() {
    let env = offline();
    // No such file: the refusal comes first, as a query's comes before any request.
    let file = env.home.path().join("later.csv");
    for format in ["svg", "html"] {
        let shown = render(&env, &file, &["-f", format])
            .on_terminal()
            .code(2)
            .run()
            .stdout;
        // The labels styled as clap's (output/terminal_styles.rs).
        let hint = format!("\x1b[32mhint:\x1b[0m give -o FILE.{format}");
        let error = format!("\x1b[1m\x1b[31merror:\x1b[0m the {format} format draws a picture for a file or a browser, not for a terminal");
        assert_eq!(shown.lines().collect::<Vec<_>>(), [error.as_str(), &hint]);
    }
}

#[test]
fn an_export_drawn_on_a_log_scale_is_the_query_s_log_picture() {
    let (_sandbox, mut env) = sandbox_env(&[]);
    env.set("SOURCE_DATE_EPOCH", "1700000000");
    let home = env.home.path();
    env.cmd(&format!("{QUERY} --scale log -o q.svg"))
        .stderr(PER_DAY)
        .run();
    let file = export(&env, QUERY, "q.csv");
    let query_svg = std::fs::read_to_string(home.join("q.svg")).unwrap();
    assert!(query_svg.contains(">log scale</tspan>"));
    let offline = offline();
    drawn_as_the_query(&offline, &file, &["--scale", "log"], PER_DAY, &query_svg);
    render(&offline, &file, &["--scale", "log", "-f", "chart"])
        .code(2)
        .stderr("error: --scale log draws the value axes of a picture (svg and html), not of the chart format\nhint: draw it as a picture: --format svg --output chart.svg\n")
        .run();
}
