//! The README's recipes for exact numbers in jq, DuckDB and pandas, each run as written
//! against a service that sends numbers a double cannot hold. DuckDB and pandas come from the
//! Python venv that `.ci/test` creates (`TEST_PYTHON_VENV`, else `target/ci-venv`).

use std::ffi::OsStr;

use snapbox::str;

use crate::support::tools::venv_python;
use crate::support::{Env, Reply, Stub};

/// The fenced block after `<!-- recipe: NAME -->` in the README.
fn recipe(name: &str) -> String {
    let readme = include_str!("../../README.md");
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
/// (`# chain-metrics ... --output fees.csv`) has written the csv there.
fn run_python_recipe(name: &str) -> String {
    let python = venv_python();
    let stub = service();
    let env = Env::with_service(&stub.url);
    let script = recipe(name);
    let command = script.lines().next().unwrap().strip_prefix("# ").unwrap();
    env.shell(command).run();
    let code = [OsStr::new("-c"), OsStr::new(&script)];
    env.program(python.to_str().unwrap(), &code).run().stdout
}

#[test]
fn the_duckdb_recipe_sums_exactly() {
    // 9007199254740993 + 0.1; 12345678901234567890.123456789 + 0.2, to DECIMAL(38,9)'s scale.
    let sums = run_python_recipe("duckdb");
    assert_eq!(
        sums,
        "ARBITRUM 12345678901234567890.323456789\nETHEREUM 9007199254740993.100000000\n"
    );
}

#[test]
fn the_pandas_recipe_sums_exactly() {
    let sums = run_python_recipe("pandas");
    assert_eq!(
        sums,
        "ARBITRUM 12345678901234567890.323456789\nETHEREUM 9007199254740993.1\n"
    );
}
