//! Cron grade: `--merge --resume` asks from the day after the file's newest
//! day (the earliest over the asked chains); `--start`/`--last` only while the file has no rows;
//! up to date: nothing sent, one note; `--dry-run` shows the range.

use chrono::{Days, Utc};

use crate::support::files::{read, write};
use crate::support::{Env, Sandbox};

/// The `start_date..end_date` of every request the sandbox saw, in order.
fn asked(sandbox: &Sandbox) -> Vec<String> {
    sandbox
        .requests()
        .iter()
        .map(|line| {
            let field = |name: &str| {
                let at = line.find(&format!("\"{name}\":\"")).unwrap() + name.len() + 4;
                line[at..at + 10].to_owned()
            };
            format!("{}..{}", field("start_date"), field("end_date"))
        })
        .collect()
}

#[test]
fn one_cron_line_serves_the_first_run_and_every_later_one() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let line = |end: &str| {
        let args = ["fees", "-c", "eth", "--last", "2", "-e", end];
        env.cmd_args(&[&args[..], &["-o", "fees.csv", "--merge", "--resume"]].concat())
            .any_outcome()
            .run()
    };
    let first = line("2024-01-02");
    assert_eq!((first.code, first.stderr.as_str()), (0, ""), "{first:?}");
    let later = line("2024-01-05");
    assert_eq!((later.code, later.stderr.as_str()), (0, ""), "{later:?}");
    assert_eq!(
        asked(&sandbox),
        ["2024-01-01..2024-01-02", "2024-01-03..2024-01-05"]
    );
    assert_eq!(
        read(&env, "fees.csv"),
        "date,fees\n2024-01-01,879768.88\n2024-01-02,826665.76\n2024-01-03,821920.42\n2024-01-04,812822.09\n2024-01-05,892489.72\n"
    );
    let again = line("2024-01-05");
    assert_eq!(
        (again.code, again.stdout.as_str(), again.stderr.as_str()),
        (
            0,
            "",
            "note: --resume: fees.csv is up to date for every chain asked; nothing to ask\n"
        )
    );
    assert_eq!(asked(&sandbox).len(), 2, "an up-to-date run sent a request");
}

#[test]
fn the_earliest_next_day_over_the_asked_chains_is_where_it_starts() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    write(
        &env,
        "fees.csv",
        "date,chain,fees\n2024-01-02,ETHEREUM,1\n2024-01-03,ARBITRUM,2\n2024-01-04,ETHEREUM,3\n",
    );
    let args = ["fees", "-c", "eth,arb", "-e", "2024-01-05"];
    let run = env
        .cmd_args(&[&args[..], &["-o", "fees.csv", "--merge", "--resume"]].concat())
        .any_outcome()
        .run();
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    // ARBITRUM's newest is the 3rd, so both chains are asked from the 4th.
    assert_eq!(
        asked(&sandbox),
        ["2024-01-04..2024-01-05", "2024-01-04..2024-01-05"]
    );
    let text = read(&env, "fees.csv");
    assert!(
        text.starts_with(
            "date,chain,fees\n2024-01-02,ETHEREUM,1\n2024-01-03,ARBITRUM,2\n2024-01-04,ETHEREUM,"
        ),
        "{text}"
    );
    assert_eq!(text.lines().count(), 7, "{text}");
}

#[test]
fn a_first_run_without_start_or_last_is_a_usage_error_naming_them() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let args = ["fees", "-c", "eth", "-o", "fees.csv", "--merge", "--resume"];
    let run = env.cmd_args(&args).any_outcome().run();
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: --resume starts after the newest day in fees.csv, and it has no rows yet\n\
         hint: give the first run's range with --start DAY or --last N; --resume uses it only while the file has no rows\n"
    );
    write(&env, "fees.csv", "date,chain,fees\n2024-01-02,ETHEREUM,1\n");
    let grown = env
        .cmd_args(&[&args[..], &["-c", "arb"]].concat())
        .any_outcome()
        .run();
    assert_eq!(grown.code, 2, "{grown:?}");
    assert_eq!(
        grown.error_line(),
        "error: --resume starts after the newest day in fees.csv, and it has no rows for ARBITRUM yet"
    );
    assert!(sandbox.requests().is_empty());
    let unmerged = env
        .cmd_args(&[
            "fees", "-c", "eth", "--last", "2", "-o", "f.csv", "--resume",
        ])
        .any_outcome()
        .run();
    assert_eq!(unmerged.code, 2);
    assert!(
        unmerged
            .stderr
            .starts_with("error: the following required arguments were not provided:\n  --merge"),
        "{unmerged:?}"
    );
}

#[test]
fn up_to_date_against_the_default_end_sends_nothing() {
    let env = Env::with_service("http://127.0.0.1:9");
    let yesterday = Utc::now().date_naive() - Days::new(1);
    write(
        &env,
        "users.csv",
        &format!("date,active_users\n{yesterday},5\n"),
    );
    let run = env
        .cmd_args(&[
            "users",
            "-c",
            "base",
            "-o",
            "users.csv",
            "--merge",
            "--resume",
        ])
        .any_outcome()
        .run();
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            0,
            "note: --resume: users.csv is up to date for every chain asked; nothing to ask\n"
        )
    );
}

#[test]
fn dry_run_shows_the_range_it_would_ask() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    write(&env, "fees.csv", "date,fees\n2024-01-02,1\n");
    let args = ["fees", "-c", "eth", "-e", "2024-01-06", "-o", "fees.csv"];
    let run = env
        .cmd_args(&[&args[..], &["--merge", "--resume", "--dry-run"]].concat())
        .any_outcome()
        .run();
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        "note: --resume: asking 2024-01-03..2024-01-06, after the newest day in fees.csv\n"
    );
    assert!(
        run.stdout
            .contains(r#""start_date":"2024-01-03","end_date":"2024-01-06""#),
        "{}",
        run.stdout
    );
    assert_eq!(read(&env, "fees.csv"), "date,fees\n2024-01-02,1\n");
    assert!(sandbox.requests().is_empty());
    let plain = env
        .cmd_args(&[
            "fees",
            "-c",
            "eth",
            "--last",
            "2",
            "-o",
            "f.csv",
            "--dry-run",
        ])
        .any_outcome()
        .run();
    assert_eq!(
        (plain.code, plain.error_line()),
        (
            2,
            "error: --dry-run sends nothing and writes nothing, so --output has nothing to do"
        )
    );
}
