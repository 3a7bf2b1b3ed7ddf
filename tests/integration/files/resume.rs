//! Cron grade: `--merge --resume` asks from the day after the file's newest
//! day (the earliest over the asked chains); `--start`/`--last` only while the file has no rows;
//! up to date: nothing sent, one note; `--dry-run` shows the range.

use chrono::{Days, Utc};

use snapbox::str;

use crate::support::files::{read, write};
use crate::support::{sandbox_env, Env};

const UP_TO_DATE: &str =
    "note: --resume: fees.csv is up to date for every chain asked; nothing to ask\n";

#[test]
fn one_cron_line_serves_the_first_run_and_every_later_one() {
    let (sandbox, env) = sandbox_env(&[]);
    let line = |end: &str| {
        env.cmd(&format!(
            "fees -c eth --last 2 -e {end} -o fees.csv --merge --resume"
        ))
    };
    line("2024-01-02").run();
    line("2024-01-05").run();
    assert_eq!(
        sandbox.ranges(),
        ["2024-01-01..2024-01-02", "2024-01-03..2024-01-05"]
    );
    assert_eq!(
        read(&env, "fees.csv"),
        "date,chain,fees\n2024-01-01,ETHEREUM,879768.88\n2024-01-02,ETHEREUM,826665.76\n2024-01-03,ETHEREUM,821920.42\n2024-01-04,ETHEREUM,812822.09\n2024-01-05,ETHEREUM,892489.72\n"
    );
    line("2024-01-05").stdout("").stderr(UP_TO_DATE).run();
    assert_eq!(
        sandbox.ranges().len(),
        2,
        "an up-to-date run sent a request"
    );
}

#[test]
fn the_earliest_next_day_over_the_asked_chains_is_where_it_starts() {
    let (sandbox, env) = sandbox_env(&[]);
    write(
        &env,
        "fees.csv",
        "date,chain,fees\n2024-01-02,ETHEREUM,1\n2024-01-03,ARBITRUM,2\n2024-01-03,ETHEREUM,2\n\
         2024-01-04,ETHEREUM,3\n",
    );
    env.cmd("fees -c eth,arb -e 2024-01-05 -o fees.csv --merge --resume")
        .run();
    // ARBITRUM's newest is the 3rd, so both chains are asked from the 4th.
    assert_eq!(
        sandbox.ranges(),
        ["2024-01-04..2024-01-05", "2024-01-04..2024-01-05"]
    );
    let text = read(&env, "fees.csv");
    assert!(
        text.starts_with(
            "date,chain,fees\n2024-01-02,ETHEREUM,1\n2024-01-03,ETHEREUM,2\n2024-01-03,ARBITRUM,2\n\
             2024-01-04,ETHEREUM,"
        ),
        "{text}"
    );
    assert_eq!(text.lines().count(), 8, "{text}");
}

#[test]
fn a_first_run_without_start_or_last_is_a_usage_error_naming_them() {
    let (sandbox, env) = sandbox_env(&[]);
    let line = "fees -c eth -o fees.csv --merge --resume";
    env.cmd(line)
        .code(2)
        .stderr(str![[r#"
error: --resume starts after the newest day in fees.csv, and it has no rows yet
hint: give the first run's range with --start DAY or --last N; --resume uses it only while the file has no rows

"#]])
        .run();
    write(&env, "fees.csv", "date,chain,fees\n2024-01-02,ETHEREUM,1\n");
    env.cmd(&format!("{line} -c arb"))
        .code(2)
        .error_line("error: --resume starts after the newest day in fees.csv, and it has no rows for ARBITRUM yet")
        .run();
    assert!(sandbox.requests().is_empty());
    env.cmd("fees -c eth --last 2 -o f.csv --resume")
        .code(2)
        .stderr_contains("error: the following required arguments were not provided:\n  --merge")
        .error_line("error: the following required arguments were not provided:")
        .run();
}

#[test]
fn up_to_date_against_the_default_end_sends_nothing() {
    let env = Env::with_service("http://127.0.0.1:9");
    let yesterday = Utc::now().date_naive() - Days::new(1);
    write(
        &env,
        "users.csv",
        &format!("date,chain,active_users\n{yesterday},BASE,5\n"),
    );
    // --resume-overlap 0: no day asked again (by default the unsettled ones are).
    env.cmd("users -c base -o users.csv --merge --resume --resume-overlap 0")
        .stderr(UP_TO_DATE.replace("fees.csv", "users.csv"))
        .run();
}

#[test]
fn dry_run_shows_the_range_it_would_ask() {
    let (sandbox, env) = sandbox_env(&[]);
    write(&env, "fees.csv", "date,chain,fees\n2024-01-02,ETHEREUM,1\n");
    env.cmd("fees -c eth -e 2024-01-06 -o fees.csv --merge --resume --dry-run")
        .stderr("note: --resume: asking 2024-01-03..2024-01-06 for fees.csv: from the day after its newest day\n")
        .stdout_contains(r#""start_date":"2024-01-03","end_date":"2024-01-06""#)
        .run();
    assert_eq!(
        read(&env, "fees.csv"),
        "date,chain,fees\n2024-01-02,ETHEREUM,1\n"
    );
    assert!(sandbox.requests().is_empty());
    env.cmd("fees -c eth --last 2 -o f.csv --dry-run")
        .code(2)
        .error_line(
            "error: --dry-run sends nothing and writes nothing, so --output has nothing to do",
        )
        .run();
}
