//! Cron grade: a `--merge` file written for one chain (no chain column) takes
//! a later run of several chains: its rows are taken as the first chain asked (a note says so
//! once) and it gains a chain column; a run of one chain keeps a file's chain column.

use std::ffi::OsStr;

use crate::support::files::read;
use crate::support::{Env, Run, Sandbox};

fn fees(env: &Env, chains: &str, start: &str, end: &str, file: &str, extra: &[&str]) -> Run {
    let args = [
        "fees", "-c", chains, "-s", start, "-e", end, "-o", file, "--merge",
    ];
    env.cmd_args(&[&args[..], extra].concat())
        .any_outcome()
        .run()
}

const GROWN: &str = "date,chain,fees\n\
    2024-01-01,ETHEREUM,879768.88\n\
    2024-01-02,ETHEREUM,826665.76\n\
    2024-01-02,ARBITRUM,71927.52\n\
    2024-01-03,ETHEREUM,821920.42\n\
    2024-01-03,ARBITRUM,67000.93\n";

#[test]
fn a_job_grows_from_one_chain_to_two_and_back() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let first = fees(&env, "eth", "2024-01-01", "2024-01-02", "fees.csv", &[]);
    assert_eq!((first.code, first.stderr.as_str()), (0, ""));
    assert_eq!(
        read(&env, "fees.csv"),
        "date,fees\n2024-01-01,879768.88\n2024-01-02,826665.76\n"
    );
    let grown = fees(&env, "eth,arb", "2024-01-02", "2024-01-03", "fees.csv", &[]);
    assert_eq!(
        (grown.code, grown.stderr.as_str()),
        (0, "note: fees.csv has no chain column: its rows are taken as ETHEREUM, the first chain asked, and it is written with a chain column from now on\n")
    );
    assert_eq!(read(&env, "fees.csv"), GROWN);
    let again = fees(&env, "eth,arb", "2024-01-03", "2024-01-03", "fees.csv", &[]);
    assert_eq!((again.code, again.stderr.as_str()), (0, ""));
    assert_eq!(read(&env, "fees.csv"), GROWN);
    // One chain again (a backfill, a job cut back): the file keeps its chain column, and its
    // rows sort as every merge sorts them, the chains asked first.
    let one = fees(&env, "arb", "2024-01-01", "2024-01-01", "fees.csv", &[]);
    assert_eq!((one.code, one.stderr.as_str()), (0, ""));
    assert_eq!(
        read(&env, "fees.csv"),
        "date,chain,fees\n\
         2024-01-01,ARBITRUM,59575.78\n\
         2024-01-01,ETHEREUM,879768.88\n\
         2024-01-02,ARBITRUM,71927.52\n\
         2024-01-02,ETHEREUM,826665.76\n\
         2024-01-03,ARBITRUM,67000.93\n\
         2024-01-03,ETHEREUM,821920.42\n"
    );
}

#[test]
fn a_resumed_cron_line_that_adds_a_chain_starts_it_at_its_first_day() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let line = |chains: &str, end: &str| {
        let args = [
            "fees", "-c", chains, "--last", "3", "-e", end, "-o", "f.json",
        ];
        env.cmd_args(&[&args[..], &["--merge", "--resume", "-q"]].concat())
            .any_outcome()
            .run()
    };
    assert_eq!(line("eth", "2024-01-03").code, 0);
    assert_eq!(line("eth,arb", "2024-01-04").code, 0);
    let bodies = sandbox.requests();
    // ETHEREUM has the 3rd, ARBITRUM nothing: both from ARBITRUM's first day, the 2nd.
    assert_eq!(bodies.len(), 3, "{bodies:?}");
    for body in &bodies[1..] {
        assert!(
            body.contains(r#""start_date":"2024-01-02","end_date":"2024-01-04""#),
            "{body}"
        );
    }
    let text = read(&env, "f.json");
    assert!(text.starts_with("[\n  {\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":879768.88},\n  {\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":826665.76},\n  {\"date\":\"2024-01-02\",\"chain\":\"ARBITRUM\",\"fees\":71927.52},"), "{text}");
    assert_eq!(text.lines().count(), 9, "{text}");
}

#[test]
fn a_sqlite_table_grows_a_chain_column_too() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    assert_eq!(
        fees(&env, "eth", "2024-01-01", "2024-01-02", "m.db", &[]).code,
        0
    );
    let grown = fees(&env, "eth,arb", "2024-01-02", "2024-01-03", "m.db", &["-q"]);
    assert_eq!((grown.code, grown.stderr.as_str()), (0, ""));
    let args = [
        "-csv",
        "-header",
        "m.db",
        "SELECT * FROM fees ORDER BY rowid",
    ];
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let back = env.program("sqlite3", &args).any_outcome().run();
    assert_eq!((back.code, back.stdout.as_str()), (0, GROWN));
}
