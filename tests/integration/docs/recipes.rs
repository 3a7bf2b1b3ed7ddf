//! The recipes for exact numbers (docs/exports.md, linked from the README) in jq, DuckDB (csv and the SQLite export) and
//! pandas, each run as written against a service that sends numbers a double cannot hold, and
//! each sum checked against Python's decimal. DuckDB and pandas come from the
//! Python venv that `.ci/test` creates (`TEST_PYTHON_VENV`, else `target/ci-venv`).

use snapbox::str;

use crate::support::tools::venv_python;
use crate::support::{Env, Reply, Stub};

/// The fenced block after `<!-- recipe: NAME -->` in the exports guide (linked from the README).
fn recipe(name: &str) -> String {
    let readme = include_str!("../../../docs/exports.md");
    let marker = format!("<!-- recipe: {name} -->\n");
    let after =
        &readme[readme.find(&marker).expect("the recipe is in the README") + marker.len()..];
    let body = after.split_once('\n').expect("a fence opens the recipe").1;
    body[..body.find("\n```").expect("a fence closes the recipe")].to_owned() + "\n"
}

/// ETHEREUM and ARBITRUM fees for 2024-01-01 and 2024-01-02, beyond a double's digits.
fn service() -> Stub {
    Stub::start(|seen| {
        let body = match seen.body.contains("ARBITRUM") {
            true => {
                r#"[{"date":"2024-01-01","fees":12345678901234567890.123456789},{"date":"2024-01-02","fees":0.2}]"#
            }
            false => {
                r#"[{"date":"2024-01-01","fees":9007199254740993},{"date":"2024-01-02","fees":0.1}]"#
            }
        };
        Reply::json(200, body)
    })
}

#[test]
fn the_jq_recipe_keeps_every_digit() {
    let stub = service();
    let env = Env::with_service(&stub.url);
    env.shell(&recipe("jq"))
        .stdout(str![[r#"
2024-01-01 ETHEREUM 9007199254740993
2024-01-01 ARBITRUM 12345678901234567890.123456789
2024-01-02 ETHEREUM 0.1
2024-01-02 ARBITRUM 0.2

"#]])
        .run();
}

/// Runs a Python recipe in the environment's home, after the command on its first line
/// (`# chain-metrics ... --output fees.csv`) has written the file there; `prelude` runs first
/// (what a user's machine has already: DuckDB's sqlite extension, installed from its wheel, as
/// the test machine has no network). Then every `CHAIN SUM` line it printed is checked against
/// the sums Python's decimal makes of the same rows (as csv); the printed text is returned.
fn run_python_recipe(name: &str, prelude: Option<&str>) -> String {
    let python = venv_python();
    let stub = service();
    let env = Env::with_service(&stub.url);
    let script = recipe(name);
    let command = script.lines().next().unwrap().strip_prefix("# ").unwrap();
    env.shell(command).run();
    let python = python.to_str().unwrap();
    if let Some(prelude) = prelude {
        env.program(python, &["-c", prelude]).run();
    }
    let printed = env.program(python, &["-c", &script]).run().stdout;
    let csv = "fees --chain eth,arb --start 2024-01-01 --end 2024-01-02 --output exact.csv";
    env.cmd(csv).run();
    env.program("python3", &["-c", EXACT, &printed])
        .stdout("exact\n")
        .run();
    printed
}

/// The per-chain sums of exact.csv in Python's decimal, against the recipe's printed lines.
const EXACT: &str = r#"
import csv, sys
from decimal import Decimal, getcontext
getcontext().prec = 200
sums = {}
for row in csv.DictReader(open("exact.csv")):
    if row["fees"]:
        sums[row["chain"]] = sums.get(row["chain"], Decimal(0)) + Decimal(row["fees"])
printed = {c: Decimal(v) for c, v in (l.split(" ", 1) for l in sys.argv[1].splitlines())}
assert printed == sums, (printed, sums)
print("exact")
"#;

/// Installs DuckDB's sqlite extension from its wheel into the home's extension folder, where
/// `INSTALL sqlite` then finds it.
const SQLITE_EXTENSION: &str = r#"
import os, duckdb, duckdb_extension_sqlite_scanner as ext
folder = os.path.join(os.path.dirname(ext.__file__), "extensions", "v" + duckdb.__version__)
duckdb.sql("INSTALL '" + os.path.join(folder, "sqlite_scanner.duckdb_extension") + "'")
"#;

#[test]
fn the_duckdb_recipe_sums_exactly() {
    // 9007199254740993 + 0.1; 12345678901234567890.123456789 + 0.2, to DECIMAL(38,9)'s scale.
    let sums = run_python_recipe("duckdb", None);
    assert_eq!(
        sums,
        "ARBITRUM 12345678901234567890.323456789\nETHEREUM 9007199254740993.100000000\n"
    );
}

#[test]
fn the_duckdb_recipe_on_the_sqlite_export_sums_exactly() {
    let sums = run_python_recipe("duckdb-sqlite", Some(SQLITE_EXTENSION));
    assert_eq!(
        sums,
        "ARBITRUM 12345678901234567890.323456789\nETHEREUM 9007199254740993.100000000\n"
    );
}

#[test]
fn the_pandas_recipe_sums_exactly() {
    let sums = run_python_recipe("pandas", None);
    assert_eq!(
        sums,
        "ARBITRUM 12345678901234567890.323456789\nETHEREUM 9007199254740993.1\n"
    );
}
