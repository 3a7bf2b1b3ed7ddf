//! The recipes for exact numbers (docs/exports.md, linked from the README) in jq, DuckDB, pandas
//! and the sqlite3 shell, and the PostgreSQL guide's queries and psql line, each run as written
//! against a service that sends numbers no double and no DECIMAL(38) holds (`1E-10`, a 20-digit
//! integer, a 30-digit fraction, `2.5E+3`) and a gap, and what each prints checked against
//! Python's decimal over the numbers the service sent: each value where a recipe prints values,
//! each chain's sum where it sums. A recipe that rounds fails (the DuckDB recipe this guide once
//! had, `DECIMAL(38,9)`, is run to show it). DuckDB and pandas come from the Python venv that
//! `.ci/test` creates (`TEST_PYTHON_VENV`, else `target/ci-venv`). The sandbox has no fault that
//! sends such numbers, so a scripted service does.

use snapbox::str;

use crate::support::postgres::Cluster;
use crate::support::tools::venv_python;
use crate::support::{Env, Reply, Stub};

/// The fenced block after `<!-- recipe: NAME -->` in the exports guide.
fn recipe(name: &str) -> String {
    let guide = include_str!("../../../docs/exports.md");
    let marker = format!("<!-- recipe: {name} -->\n");
    let after = &guide[guide.find(&marker).expect("the recipe is in the guide") + marker.len()..];
    let body = after.split_once('\n').expect("a fence opens the recipe").1;
    body[..body.find("\n```").expect("a fence closes the recipe")].to_owned() + "\n"
}

/// What the service sends for 2024-01-01 to 2024-01-03, as (chain, date, the JSON number's
/// text, or `null`: a gap).
const SENT: &[(&str, &str, &str)] = &[
    ("ETHEREUM", "2024-01-01", "9007199254740993"),
    ("ETHEREUM", "2024-01-02", "1E-10"),
    ("ETHEREUM", "2024-01-03", "2.5E+3"),
    ("ARBITRUM", "2024-01-01", "12345678901234567890"),
    ("ARBITRUM", "2024-01-02", "0.333333333333333333333333333333"),
    ("ARBITRUM", "2024-01-03", "null"),
];

/// A service that answers each chain's request with its rows of [`SENT`].
fn service() -> Stub {
    Stub::start(|seen| {
        let chain = match seen.body.contains("ARBITRUM") {
            true => "ARBITRUM",
            false => "ETHEREUM",
        };
        let records: Vec<String> = SENT
            .iter()
            .filter(|(c, _, _)| *c == chain)
            .map(|(_, date, fees)| format!(r#"{{"date":"{date}","fees":{fees}}}"#))
            .collect();
        Reply::json(200, &format!("[{}]", records.join(",")))
    })
}

/// Checks what a recipe printed against Python's decimal over [`SENT`] (its first argument, as
/// JSON): `values`, lines `DATE CHAIN VALUE` (`null` for a gap, which may also be left out), one
/// per value sent; `sums`,
/// lines `CHAIN SUM`, one per chain, each the exact sum of the chain's values. Prints `exact`.
const CHECK: &str = r#"
import json, sys
from decimal import Decimal, getcontext
getcontext().prec = 200
sent, kind, printed = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
number = lambda text: None if text == "null" else Decimal(text)
if kind == "values":
    want = {(date, chain): number(text) for chain, date, text in sent if text != "null"}
    got = {}
    for line in printed.splitlines():
        date, chain, text = line.split(" ")
        if text != "null":
            got[(date, chain)] = number(text)
else:
    want = {}
    for chain, date, text in sent:
        if number(text) is not None:
            want[chain] = want.get(chain, Decimal(0)) + number(text)
    got = {chain: Decimal(text) for chain, text in (l.split(" ") for l in printed.splitlines())}
assert got == want, {"printed": got, "exact": want}
print("exact")
"#;

fn sent_as_json() -> String {
    let rows: Vec<String> = SENT
        .iter()
        .map(|(chain, date, text)| format!(r#"["{chain}","{date}","{text}"]"#))
        .collect();
    format!("[{}]", rows.join(","))
}

/// Runs [`CHECK`] on what a recipe printed; it passes, or the test fails showing both sides.
fn check(env: &Env, kind: &str, printed: &str) {
    env.program("python3", &["-c", CHECK, &sent_as_json(), kind, printed])
        .stdout("exact\n")
        .run();
}

/// The service's gap is warned about on stderr, by design: a run of a recipe's command shows
/// it and nothing else.
fn warns_of_the_gap_only(stderr: &str) {
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines.iter().all(|line| line.contains("2024-01-03")),
        "{stderr}"
    );
}

#[test]
fn the_jq_recipe_keeps_every_digit() {
    let stub = service();
    let env = Env::with_service(&stub.url);
    let run = env
        .shell(&recipe("jq"))
        .any_stderr()
        .stdout(str![[r#"
2024-01-01 ETHEREUM 9007199254740993
2024-01-01 ARBITRUM 12345678901234567890
2024-01-02 ETHEREUM 1E-10
2024-01-02 ARBITRUM 0.333333333333333333333333333333
2024-01-03 ETHEREUM 2.5E+3
2024-01-03 ARBITRUM null

"#]])
        .run();
    warns_of_the_gap_only(&run.stderr);
    check(&env, "values", &run.stdout);
}

/// Runs a Python recipe in the environment's home, after the command on its first line
/// (`# chain-metrics ... --output fees.csv`) has written the file there; what it printed.
fn run_python_recipe(env: &Env, script: &str) -> String {
    let python = venv_python();
    let command = script.lines().next().unwrap().strip_prefix("# ").unwrap();
    let run = env.shell(command).any_stderr().run();
    warns_of_the_gap_only(&run.stderr);
    let python = python.to_str().unwrap();
    env.program(python, &["-c", script]).run().stdout
}

#[test]
fn the_duckdb_recipe_sums_exactly() {
    let stub = service();
    let env = Env::with_service(&stub.url);
    let sums = run_python_recipe(&env, &recipe("duckdb"));
    check(&env, "sums", &sums);
    assert_eq!(
        sums,
        "ARBITRUM 12345678901234567890.333333333333333333333333333333\n\
         ETHEREUM 9007199254743493.0000000001\n"
    );
}

/// The DuckDB recipe this guide had before, which cast to DECIMAL(38,9): `1E-10` becomes 0 and
/// the 30-digit fraction is cut to 9 digits. The check catches it.
#[test]
fn a_recipe_that_rounds_fails_the_check() {
    let stub = service();
    let env = Env::with_service(&stub.url);
    let rounding =
        recipe("duckdb").replace("all_varchar = true", "types = {'fees': 'DECIMAL(38,9)'}");
    let rounding = rounding.replace("map(Decimal, values)", "values");
    let sums = run_python_recipe(&env, &rounding);
    assert_eq!(
        sums,
        "ARBITRUM 12345678901234567890.333333333\nETHEREUM 9007199254743493.000000000\n"
    );
    let run = env
        .program("python3", &["-c", CHECK, &sent_as_json(), "sums", &sums])
        .code(1)
        .any_stderr()
        .run();
    assert!(run.stderr.contains("AssertionError"), "{}", run.stderr);
}

#[test]
fn the_pandas_recipe_sums_exactly() {
    let stub = service();
    let env = Env::with_service(&stub.url);
    let sums = run_python_recipe(&env, &recipe("pandas"));
    check(&env, "sums", &sums);
}

#[test]
fn the_sqlite3_recipe_sums_exactly() {
    let stub = service();
    let env = Env::with_service(&stub.url);
    let run = env.shell(&recipe("sqlite3")).any_stderr().run();
    warns_of_the_gap_only(&run.stderr);
    check(&env, "sums", &run.stdout);
}

/// An environment for the PostgreSQL guide's lines: its database `metrics` made on `cluster`,
/// which libpq's variables reach, the Grafana query's timestamps in UTC whatever zone the
/// machine is in, and `stub` as the service.
fn guide_env(cluster: &Cluster, stub: &Stub) -> Env {
    cluster.sql("CREATE DATABASE metrics");
    let mut env = cluster.env(&stub.url);
    env.set("PGTZ", "UTC");
    env
}

/// The PostgreSQL guide's code blocks of `language`, in order.
fn postgresql_guide_blocks(language: &str) -> Vec<String> {
    let guide = include_str!("../../../docs/postgresql.md");
    let fence = format!("```{language}\n");
    guide
        .split(&fence)
        .skip(1)
        .map(|rest| rest.split_once("\n```").unwrap().0.to_owned())
        .collect()
}

/// The guide's ways of reading the table back, over the numbers of [`SENT`] exported with
/// `-o postgresql:///metrics`: the Grafana query's values, the monthly sums and the psql
/// line's csv each equal Python's decimal over what the service sent.
#[test]
fn the_postgresql_guides_queries_keep_every_digit() {
    let cluster = Cluster::start();
    let stub = service();
    let env = guide_env(&cluster, &stub);
    let export = "chain-metrics fees --chain eth,arb --start 2024-01-01 --end 2024-01-03 \
        --output postgresql:///metrics";
    let run = env.shell(export).any_stderr().run();
    warns_of_the_gap_only(&run.stderr);
    let sql = postgresql_guide_blocks("sql");
    let (grafana, monthly) = (&sql[sql.len() - 2], &sql[sql.len() - 1]);
    assert!(grafana.contains("AS time"), "{grafana}");
    assert!(monthly.contains("sum(fees)"), "{monthly}");
    let psql = |query: &str| {
        let args = [
            "-X",
            "-A",
            "-t",
            "-q",
            "-F",
            " ",
            "-v",
            "ON_ERROR_STOP=1",
            "metrics",
        ];
        let args = [&args[..], &["-c", query]].concat();
        env.program("psql", &args).run().stdout
    };
    // time (midnight, UTC: its date), chain, value (empty: a gap).
    let row = |date: &str, chain: &str, value: &str| match value {
        "" => format!("{date} {chain} null\n"),
        value => format!("{date} {chain} {value}\n"),
    };
    let values: String = psql(grafana)
        .lines()
        .map(|line| {
            let (date, rest) = line.split_once(" 00:00:00+00 ").expect(line);
            let (chain, value) = rest.split_once(' ').unwrap();
            row(date, chain, value)
        })
        .collect();
    check(&env, "values", &values);
    let sums: String = psql(monthly)
        .lines()
        .map(|line| line.strip_prefix("2024-01-01 ").unwrap().to_owned() + "\n")
        .collect();
    check(&env, "sums", &sums);
    let copy = postgresql_guide_blocks("sh")
        .into_iter()
        .find(|block| block.starts_with("psql metrics"))
        .expect("the guide's psql line");
    let csv = env.shell(&copy).run().stdout;
    let rows: String = csv
        .lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            row(cells[0], cells[1], cells[2])
        })
        .collect();
    assert!(csv.starts_with("date,chain,fees\n"), "{csv}");
    check(&env, "values", &rows);
}

/// Every recipe of the guide is one of the above.
#[test]
fn every_recipe_of_the_guide_is_run_here() {
    let guide = include_str!("../../../docs/exports.md");
    let names: Vec<&str> = guide
        .split("<!-- recipe: ")
        .skip(1)
        .map(|rest| rest.split_once(" -->").unwrap().0)
        .collect();
    assert_eq!(names, ["jq", "duckdb", "pandas", "sqlite3"]);
}
