//! Cron grade: files that say what they hold. A merge target names its chains (one chain
//! included), so a run for another chain cannot take its rows; dates that cannot be stop
//! `--merge`/`--resume` before any request; `--resume` asks the unsettled days again; columns
//! are matched by name, and a number style that differs is refused.

use chrono::{Days, Utc};

use crate::support::files::{read, refused_keeps, write};
use crate::support::{empty_service, sandbox_env, Env, Reply, Stub};

fn day(back: u64) -> String {
    let today = Utc::now().date_naive();
    today.checked_sub_days(Days::new(back)).unwrap().to_string()
}

#[test]
fn a_merge_names_its_chain_and_another_chain_never_takes_its_rows() {
    let (sandbox, env) = sandbox_env(&[]);
    let eth = "fees -c eth -s 2024-01-01 -e 2024-01-02 --merge -o one.csv";
    env.cmd(eth).run();
    let written = "date,chain,fees\n2024-01-01,ETHEREUM,879768.88\n2024-01-02,ETHEREUM,826665.76\n";
    assert_eq!(read(&env, "one.csv"), written);
    // The crontab typo: ARBITRUM's rows come beside ETHEREUM's, never in their place.
    env.cmd("fees -c arb -s 2024-01-02 -e 2024-01-02 --merge -o one.csv")
        .run();
    assert_eq!(
        read(&env, "one.csv"),
        "date,chain,fees\n2024-01-01,ETHEREUM,879768.88\n2024-01-02,ETHEREUM,826665.76\n\
         2024-01-02,ARBITRUM,71927.52\n"
    );
    assert_eq!(sandbox.ranges().len(), 2);
}

#[test]
fn an_old_one_chain_file_is_refused_until_its_chain_is_named() {
    let stub = Stub::always(Reply::json(200, r#"[{"date":"2024-01-02","fees":9}]"#));
    let env = Env::with_service(&stub.url);
    let old = "date,fees\n2024-01-01,1\n";
    let merge = env
        .cmd("fees -c arb -s 2024-01-02 -e 2024-01-02 --merge -o one.csv -q")
        .code(9)
        .error_line("error: one.csv has the columns date,fees but this command writes date,chain,fees (no chain column): not merged; the file is left as it was")
        .stderr_contains(
            "hint: nothing in it says which chain it holds, and this run asks ARBITRUM; run once \
             with --file-chain CHAIN naming the chain whose rows it holds (the file then gains a \
             chain column), else write to another file",
        );
    refused_keeps(&env, "one.csv", old, merge);
    assert!(stub.seen().is_empty(), "a request was sent first");
    env.cmd("fees -c arb -s 2024-01-02 -e 2024-01-02 --merge -o one.csv --file-chain eth")
        .stderr("note: one.csv has no chain column: its rows are taken as ETHEREUM, as --file-chain says, and it is written with a chain column from now on\n")
        .run();
    assert_eq!(
        read(&env, "one.csv"),
        "date,chain,fees\n2024-01-01,ETHEREUM,1\n2024-01-02,ARBITRUM,9\n"
    );
}

#[test]
fn a_date_after_today_or_before_any_chain_stops_the_cron_line_before_any_request() {
    let (stub, env) = empty_service();
    let line = "-q fees -c eth --last 30 -o fees.csv --merge --resume --strict";
    for (row, date, why) in [
        ("2204-03-10", "2204-03-10", "after today"),
        ("0024-01-01", "0024-01-01", "before 2015-01-01"),
    ] {
        let text = format!("date,chain,fees\n2024-01-01,ETHEREUM,1\n{row},ETHEREUM,2\n");
        write(&env, "fees.csv", &text);
        env.cmd(line)
            .code(9)
            .stderr_contains(&format!(
                "error: fees.csv cannot be merged: line 3: it is dated {date}, {why}"
            ))
            .run();
        assert_eq!(read(&env, "fees.csv"), text);
        // A plain merge too.
        env.cmd("-q fees -c eth --last 2 -o fees.csv --merge")
            .code(9)
            .any_stderr()
            .run();
    }
    assert!(stub.seen().is_empty(), "a request was sent first");
}

#[test]
fn resume_asks_the_unsettled_days_again_and_says_so() {
    let (sandbox, env) = sandbox_env(&[]);
    let newest = day(2);
    write(
        &env,
        "fees.csv",
        &format!(
            "date,chain,fees\n{},ETHEREUM,1\n{newest},ETHEREUM,2\n",
            day(3)
        ),
    );
    let line = "fees -c eth --last 3 -o fees.csv --merge --resume";
    // cache_settle_days (7): the file's days less than 7 days old are asked again.
    env.cmd(line)
        .stderr(format!("note: --resume: asking {}..{} for fees.csv: from the day after its newest day, less {}..{newest} asked again: the service may still revise days that recent (cache_settle_days = 7; --resume-overlap 0 asks none again)\n", day(6), day(1), day(6)))
        .run();
    assert_eq!(sandbox.ranges(), [format!("{}..{}", day(6), day(1))]);
    // --resume-overlap 0: from the day after the newest, as before.
    env.cmd(&format!("{line} --resume-overlap 0 -e {}", day(0)))
        .any_stderr()
        .run();
    assert_eq!(sandbox.ranges()[1], format!("{}..{}", day(0), day(0)));
}

#[test]
fn columns_are_matched_by_name_and_a_new_include_merges() {
    let (_sandbox, env) = sandbox_env(&[]);
    write(
        &env,
        "s.csv",
        "date,chain,reply,tweet\n2024-01-01,ETHEREUM,1,2\n",
    );
    // The old row lacks the new include: a hole, which a plain --merge names.
    env.cmd("social -c eth -s 2024-01-02 -e 2024-01-02 -i tweet,quote,reply --merge -o s.csv")
        .stderr("warning: s.csv lacks values for days inside its own range that this run did not \
            ask: ETHEREUM 2024-01-01\nhint: add --resume to this command: each run then asks the missing ones again\n")
        .run();
    let text = read(&env, "s.csv");
    assert!(
        text.starts_with(
            "date,chain,tweet,quote,reply\n2024-01-01,ETHEREUM,2,,1\n2024-01-02,ETHEREUM,"
        ),
        "{text}"
    );
}

#[test]
fn a_file_in_another_number_style_is_refused() {
    let (_sandbox, env) = sandbox_env(&[]);
    let old = "[{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":\"1.50\"}]";
    let merge = env
        .cmd("fees -c eth -s 2024-01-02 -e 2024-01-02 --merge -o f.json")
        .code(9)
        .error_line("error: f.json cannot be merged: row 1: its numbers are JSON strings (\"1.50\"), and this run writes them otherwise: merge with --json-numbers string; the file is left as it was");
    refused_keeps(&env, "f.json", old, merge);
    env.cmd("fees -c eth -s 2024-01-02 -e 2024-01-02 --merge -o f.json --json-numbers string")
        .run();
    assert!(read(&env, "f.json").contains("\"fees\":\"1.50\""));
}

#[test]
fn share_with_merge_is_a_usage_error_as_the_other_derived_measures() {
    let env = Env::with_service("http://127.0.0.1:9");
    env.cmd("fees -c eth,arb --last 2 --share -o s.csv --merge")
        .code(2)
        .error_line("error: the argument '--share' cannot be used with '--merge'")
        .any_stderr()
        .run();
}

#[test]
fn a_database_to_a_stream_and_a_missing_folder_are_refused_before_any_request() {
    let (stub, env) = empty_service();
    env.cmd("fees -c eth --last 2 -f sqlite -o /dev/stdout")
        .code(2)
        .error_line("error: /dev/stdout is one of this run's own streams: a database cannot go to a pipe or a stream, it is a file that is changed in place")
        .any_stderr()
        .run();
    env.shell("set -o pipefail; chain-metrics fees -c eth --last 2 -f sqlite -o /dev/stdout | cat")
        .code(2)
        .any_stderr()
        .run();
    env.cmd("fees -c eth --last 2 -o no/such/folder/f.csv")
        .code(9)
        .stderr("error: cannot write no/such/folder/f.csv: the folder no/such/folder does not exist\nhint: create it first (mkdir -p no/such/folder), or give another --output\n")
        .run();
    assert!(stub.seen().is_empty(), "a request was sent first");
}

#[test]
fn an_empty_file_s_resume_note_says_the_range_came_from_the_flags() {
    let env = Env::with_service("http://127.0.0.1:9");
    write(&env, "fees.csv", "date,chain,fees\n");
    env.cmd("fees -c eth --last 2 -e 2024-01-06 -o fees.csv --merge --resume --dry-run")
        .stderr("note: --resume: asking 2024-01-05..2024-01-06 for fees.csv: it has no rows yet (for a chain asked): from the first day --start/--last give\n")
        .any_stdout()
        .run();
}

#[test]
fn a_file_chain_that_contradicts_the_chain_column_is_a_usage_error() {
    let (sandbox, env) = sandbox_env(&[]);
    let old = "date,chain,fees\n2024-01-01,ETHEREUM,1\n";
    let merge = env
        .cmd("fees -c arb -s 2024-01-02 -e 2024-01-02 --merge -o one.csv --file-chain arb")
        .code(2)
        .error_line(
            "error: --file-chain ARBITRUM contradicts one.csv: \
             its chain column holds ETHEREUM's rows",
        );
    refused_keeps(&env, "one.csv", old, merge);
    assert!(sandbox.requests().is_empty(), "a request was sent first");
    // One that agrees with the column changes nothing.
    env.cmd("fees -c eth -s 2024-01-02 -e 2024-01-02 --merge -o one.csv --file-chain eth")
        .run();
}
