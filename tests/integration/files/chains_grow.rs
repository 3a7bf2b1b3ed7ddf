//! Cron grade: a `--merge` file names its chains from the first run on (one chain too), so a
//! later run of several chains adds its rows beside them; a run of one chain keeps them.

use std::ffi::OsStr;

use crate::support::files::read;
use crate::support::{sandbox_env, Cmd, Env};

/// `fees` of `chains` over `start..end` merged into `file`, `extra` words added.
fn fees<'e>(
    env: &'e Env,
    chains: &str,
    start: &str,
    end: &str,
    file: &str,
    extra: &str,
) -> Cmd<'e> {
    env.cmd(&format!(
        "fees -c {chains} -s {start} -e {end} -o {file} --merge {extra}"
    ))
}

const GROWN: &str = "date,chain,fees\n\
    2024-01-01,ETHEREUM,879768.88\n\
    2024-01-02,ETHEREUM,826665.76\n\
    2024-01-02,ARBITRUM,71927.52\n\
    2024-01-03,ETHEREUM,821920.42\n\
    2024-01-03,ARBITRUM,67000.93\n";

#[test]
fn a_job_grows_from_one_chain_to_two_and_back() {
    let (_sandbox, env) = sandbox_env(&[]);
    fees(&env, "eth", "2024-01-01", "2024-01-02", "fees.csv", "").run();
    // A merged file names its chain from the first run on.
    assert_eq!(
        read(&env, "fees.csv"),
        "date,chain,fees\n2024-01-01,ETHEREUM,879768.88\n2024-01-02,ETHEREUM,826665.76\n"
    );
    fees(&env, "eth,arb", "2024-01-02", "2024-01-03", "fees.csv", "").run();
    assert_eq!(read(&env, "fees.csv"), GROWN);
    fees(&env, "eth,arb", "2024-01-03", "2024-01-03", "fees.csv", "").run();
    assert_eq!(read(&env, "fees.csv"), GROWN);
    // One chain again (a backfill, a job cut back): the file keeps its chain column, and its
    // rows sort as every merge sorts them, chains in the service's order whatever was asked.
    fees(&env, "arb", "2024-01-01", "2024-01-01", "fees.csv", "").run();
    assert_eq!(
        read(&env, "fees.csv"),
        "date,chain,fees\n\
         2024-01-01,ETHEREUM,879768.88\n\
         2024-01-01,ARBITRUM,59575.78\n\
         2024-01-02,ETHEREUM,826665.76\n\
         2024-01-02,ARBITRUM,71927.52\n\
         2024-01-03,ETHEREUM,821920.42\n\
         2024-01-03,ARBITRUM,67000.93\n"
    );
}

#[test]
fn a_resumed_cron_line_that_adds_a_chain_starts_it_at_its_first_day() {
    let (sandbox, env) = sandbox_env(&[]);
    let line = |chains: &str, end: &str| {
        let line = format!("fees -c {chains} --last 3 -e {end} -o f.json --merge --resume -q");
        env.cmd(&line).run()
    };
    line("eth", "2024-01-03");
    line("eth,arb", "2024-01-04");
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
    let (_sandbox, env) = sandbox_env(&[]);
    fees(&env, "eth", "2024-01-01", "2024-01-02", "m.db", "")
        .any_stderr()
        .run();
    fees(&env, "eth,arb", "2024-01-02", "2024-01-03", "m.db", "-q").run();
    let args = [
        "-csv",
        "-header",
        "m.db",
        "SELECT * FROM fees ORDER BY rowid",
    ];
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    env.program("sqlite3", &args)
        .any_stderr()
        .stdout(GROWN)
        .run();
}
