//! Cron grade: a hole inside the file (a day, or a `--by` period short of its days, missing
//! between a chain's rows) is asked again by every `--resume` run, named in a note, in every
//! mergeable format; one the service still lacks is exit 10 under `--strict`.

use std::ffi::OsStr;

use crate::support::files::{read, write};
use crate::support::{sandbox_env, Env};

/// The cron line, ending on `end`, with no overlap so that only the holes are asked again.
fn cron(file: &str, end: &str) -> String {
    format!("fees -c eth --last 5 -e {end} -o {file} --merge --resume --strict --resume-overlap 0")
}

/// `file`'s text less its line of `day` (a row a line, in every text format).
fn without(env: &Env, file: &str, day: &str) -> String {
    let text = read(env, file);
    let kept: Vec<&str> = text.lines().filter(|l| !l.contains(day)).collect();
    assert_eq!(kept.len() + 1, text.lines().count(), "{text}");
    kept.join("\n") + "\n"
}

#[test]
fn a_day_missing_in_the_middle_comes_back_on_the_next_run() {
    for file in ["fees.csv", "fees.tsv", "fees.json", "fees.ndjson"] {
        let (sandbox, env) = sandbox_env(&[]);
        env.cmd(&cron(file, "2024-01-05")).run();
        write(&env, file, &without(&env, file, "2024-01-03"));
        env.cmd(&cron(file, "2024-01-06"))
            .stderr_contains(&format!(
                "note: --resume: {file} lacks ETHEREUM 2024-01-03 inside its rows: asked again"
            ))
            .run();
        assert_eq!(
            sandbox.ranges(),
            ["2024-01-01..2024-01-05", "2024-01-03..2024-01-06"]
        );
        let again = read(&env, file);
        assert!(again.contains("2024-01-03"), "{file}: {again}");
        assert!(again.contains("2024-01-06"), "{file}: {again}");
    }
}

#[test]
fn a_hole_the_service_still_lacks_is_exit_10_naming_it() {
    let (sandbox, env) = sandbox_env(&["--fault", "gap:eth:2024-01-03..2024-01-03"]);
    env.cmd(&cron("fees.csv", "2024-01-05"))
        .code(10)
        .stderr_contains("ETHEREUM fees: 2024-01-03")
        .run();
    // The next day's run asks the hole again, and says so again.
    env.cmd(&cron("fees.csv", "2024-01-06"))
        .code(10)
        .stderr_contains("note: --resume: fees.csv lacks ETHEREUM 2024-01-03 inside its rows")
        .stderr_contains("1 of 4 asked values are missing: ETHEREUM fees: 2024-01-03")
        .run();
    assert_eq!(
        sandbox.ranges(),
        ["2024-01-01..2024-01-05", "2024-01-03..2024-01-06"]
    );
    // Up to date but for the hole: it is still asked.
    env.cmd(&cron("fees.csv", "2024-01-06"))
        .code(10)
        .stderr_contains("ETHEREUM fees: 2024-01-03")
        .run();
    assert_eq!(sandbox.ranges()[2], "2024-01-03..2024-01-06");
}

#[test]
fn a_row_missing_from_a_sqlite_table_comes_back() {
    let (sandbox, env) = sandbox_env(&[]);
    let file = "m.sqlite";
    env.cmd(&cron(file, "2024-01-05")).run();
    let delete = ["m.sqlite", "DELETE FROM fees WHERE date = '2024-01-02'"];
    let args: Vec<&OsStr> = delete.iter().map(OsStr::new).collect();
    env.program("sqlite3", &args).run();
    env.cmd(&cron(file, "2024-01-05"))
        .stderr_contains("note: --resume: m.sqlite lacks ETHEREUM 2024-01-02 inside its rows")
        .run();
    assert_eq!(sandbox.ranges()[1], "2024-01-02..2024-01-05");
    let count = ["m.sqlite", "SELECT count(*) FROM fees"];
    let args: Vec<&OsStr> = count.iter().map(OsStr::new).collect();
    env.program("sqlite3", &args).stdout("5\n").run();
}

#[test]
fn a_period_short_of_its_days_is_asked_again() {
    let (sandbox, env) = sandbox_env(&[]);
    write(
        &env,
        "m.csv",
        "date,chain,days,fees\n2024-01-01,ETHEREUM,31,1\n2024-02-01,ETHEREUM,20,2\n\
         2024-03-01,ETHEREUM,31,3\n",
    );
    env.cmd("fees -c eth --by month -e 2024-03-31 -o m.csv --merge --resume --resume-overlap 0")
        .stderr_contains("note: --resume: m.csv lacks ETHEREUM 2024-02-01 inside its rows")
        .run();
    assert_eq!(sandbox.ranges(), ["2024-02-01..2024-03-31"]);
    let text = read(&env, "m.csv");
    assert!(text.contains("\n2024-02-01,ETHEREUM,29,"), "{text}");
}

#[test]
fn a_merged_file_is_canonical_whatever_the_chain_order_asked() {
    let (_sandbox, env) = sandbox_env(&[]);
    let line = |chains: &str, file: &str| {
        format!("fees -c {chains} -s 2024-01-01 -e 2024-01-02 -o {file} --merge")
    };
    env.cmd(&line("base,eth", "a.csv")).run();
    env.cmd(&line("eth,base", "b.csv")).run();
    env.cmd(&line("eth", "a.csv")).run();
    env.cmd(&line("base,eth", "b.csv")).run();
    let text = read(&env, "a.csv");
    assert_eq!(text, read(&env, "b.csv"));
    let chains: Vec<&str> = text.lines().skip(1).map(|l| &l[11..]).collect();
    assert!(
        chains[0].starts_with("ETHEREUM,") && chains[1].starts_with("BASE,"),
        "{text}"
    );
}

/// A plain `--merge` (no `--resume`) that leaves days missing between a file's rows warns of
/// them, in every mergeable format, SQLite included; its hint (add `--resume`) asks them again
/// and the warning goes. A file with no hole gets no warning.
#[test]
fn a_plain_merge_that_leaves_holes_warns_and_its_hint_fills_them() {
    for file in ["fees.csv", "fees.json", "fees.sqlite"] {
        let (_sandbox, env) = sandbox_env(&[]);
        let merge = |range: &str| format!("fees -c eth,base {range} -o {file} --merge");
        env.cmd(&merge("-s 2024-01-01 -e 2024-01-03"))
            .stderr("")
            .run();
        let run = env
            .cmd(&merge("-s 2024-01-06 -e 2024-01-07"))
            .any_stderr()
            .run();
        assert_eq!(
            run.stderr,
            format!(
                "warning: {file} lacks values for days inside its own range that this run did not \
                 ask: ETHEREUM 2024-01-04..2024-01-05; BASE 2024-01-04..2024-01-05\n\
                 hint: add --resume to this command: each run then asks the missing ones again\n"
            ),
            "{file}"
        );
        // The hint followed: the holes are asked again, and the file is whole.
        env.cmd(&(merge("-s 2024-01-06 -e 2024-01-07") + " --resume"))
            .any_stderr()
            .run();
        env.cmd(&merge("-s 2024-01-06 -e 2024-01-07"))
            .stderr("")
            .run();
    }
}
