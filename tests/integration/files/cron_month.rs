//! The README's cron line over a simulated month, each day's run at 01:30 UTC of that day
//! (libfaketime, preloaded, sets the clock the binary reads; the sandbox keeps the real one):
//! a service down, the machine off two days, a gap the service fills a day late, a body cut, a
//! run killed, a connection reset and two runs at once. Whatever each day's run says, the file
//! (or, with `-o postgresql:///metrics`, the table) ends holding every day from the first run's
//! `--last 30` to the month's last day, each value as exactly what the service sends for it.

use chrono::{Days, NaiveDate};

use crate::support::postgres::Cluster;
use crate::support::tools::libfaketime;
use crate::support::{Env, Running, Sandbox};

/// The README's cron line, as words (its `# cron` comment left out).
fn readme_cron_line() -> Vec<String> {
    let readme = include_str!("../../../README.md");
    let line = readme
        .lines()
        .find(|line| line.starts_with("chain-metrics ") && line.ends_with("# cron"))
        .expect("the README shows its cron line");
    let command = line.split(" # ").next().unwrap().trim();
    let words = shlex::split(command).unwrap();
    assert!(
        command.ends_with("--merge --resume --strict") && words.contains(&"fees.csv".to_owned()),
        "{command}"
    );
    words[1..].to_vec()
}

/// What goes wrong on a day besides the gap (see the test): a fault of the sandbox, the
/// machine off, the run killed, or two runs at once.
#[derive(Clone, Copy, PartialEq)]
enum Day {
    Plain,
    Fault(&'static str),
    Off,
    Killed,
    Twice,
}

/// `env` with the clock of the binary's runs set to 01:30 UTC of `day` (and running on).
fn at(env: &mut Env, day: NaiveDate) {
    env.set("LD_PRELOAD", &libfaketime());
    env.set("FAKETIME", &format!("@{day} 01:30:00"));
    env.set("TZ", "UTC");
}

/// Where the month's runs write: the README's file, or a PostgreSQL table in its place.
enum Target<'c> {
    File,
    Table(&'c Cluster),
}

impl Target<'_> {
    /// The README's line, its output swapped for the table's database.
    fn line(&self) -> Vec<String> {
        let line = readme_cron_line();
        match self {
            Target::File => line,
            Target::Table(_) => (line.into_iter())
                .map(|w| match w.as_str() {
                    "fees.csv" => "postgresql:///metrics".to_owned(),
                    _ => w,
                })
                .collect(),
        }
    }

    fn env(&self) -> Env {
        match self {
            Target::File => Env::new(),
            Target::Table(cluster) => {
                cluster.sql("CREATE DATABASE metrics");
                cluster.env("http://127.0.0.1:9")
            }
        }
    }

    /// What the target holds now, as csv with a header (`None`: nothing yet): the file, or the
    /// table's rows in the order a merged file has them (date, then the service's chain order).
    fn held(&self, env: &Env) -> Option<String> {
        match self {
            Target::File => std::fs::read_to_string(env.home.path().join("fees.csv")).ok(),
            Target::Table(cluster) => {
                let exists = "SELECT count(*) FROM pg_tables WHERE tablename = 'fees'";
                if cluster.sql_in("metrics", exists).trim() == "0" {
                    return None;
                }
                let rows = cluster.sql_in(
                    "metrics",
                    "SELECT date, chain, fees FROM fees \
                     ORDER BY date, array_position(ARRAY['ETHEREUM', 'ARBITRUM'], chain)",
                );
                let rows = rows.lines().map(|l| l.replace('|', ",") + "\n");
                Some(format!("date,chain,fees\n{}", rows.collect::<String>()))
            }
        }
    }
}

/// The month, run by run. The service lacks ETHEREUM's 2024-02-09 from the run of 02-10 to
/// that of 02-18, and has it from 02-19 on, when it is older than the days `--resume` asks
/// again anyway (7): only asking the file's hole again brings it back.
fn a_month_of_mishaps(target: &Target) {
    let line = target.line();
    let mut env = target.env();
    env.set("CHAIN_METRICS_API_KEY", crate::support::KEY);
    let first = NaiveDate::from_ymd_opt(2024, 2, 1).unwrap();
    let plan = |n: u64| match n {
        3 => Day::Fault("503:0"),
        5 | 6 => Day::Off,
        12 => Day::Fault("cut@1"),
        15 => Day::Killed,
        18 => Day::Fault("reset"),
        24 => Day::Twice,
        _ => Day::Plain,
    };
    // 2024-02-01 to 2024-03-01: the last run asks through 2024-02-29.
    for n in 0..30 {
        let (day, what) = (first + Days::new(n), plan(n));
        if what == Day::Off {
            continue;
        }
        let gap = (9..=17).contains(&n);
        let mut faults = Vec::new();
        if gap {
            faults.extend(["--fault", "gap:eth:2024-02-09..2024-02-09"]);
        }
        match what {
            Day::Fault(fault) => faults.extend(["--fault", fault]),
            Day::Killed => faults.extend(["--fault", "latency:3000"]),
            _ => {}
        }
        let sandbox = Sandbox::start(&faults);
        at(&mut env, day);
        env.set("CHAIN_METRICS_BASE_URL", &sandbox.url);
        run_the_day(target, &env, &line, (day, what), gap);
    }
    // What the service sends for the same days, asked once.
    let sandbox = Sandbox::start(&[]);
    let direct = Env::with_service(&sandbox.url);
    let expected = direct
        .cmd("fees --chain eth,arb -s 2024-01-02 -e 2024-02-29 -f csv")
        .run()
        .stdout;
    assert_eq!(expected.lines().count(), 1 + 2 * 59);
    assert_eq!(target.held(&env).as_deref(), Some(expected.as_str()));
}

#[test]
fn a_month_of_mishaps_ends_with_the_complete_file() {
    a_month_of_mishaps(&Target::File);
}

/// The README's line with `-o postgresql:///metrics` in place of its file keeps the table
/// complete and exact over the same month.
#[test]
fn a_month_of_mishaps_ends_with_the_complete_table() {
    let cluster = Cluster::start();
    a_month_of_mishaps(&Target::Table(&cluster));
}

/// The cron line's run of `day`, as `what` makes it end; `gap`: the service lacks a day the
/// file needs, so a run that writes exits 10 naming it.
fn run_the_day(
    target: &Target,
    env: &Env,
    line: &[String],
    (day, what): (NaiveDate, Day),
    gap: bool,
) {
    let before = target.held(env);
    let unchanged = |why: &str| {
        assert!(
            target.held(env) == before,
            "{day}: {why}, and the file changed"
        );
    };
    let written = |cmd: crate::support::Cmd| match gap {
        true => cmd
            .code(10)
            .stderr_contains("ETHEREUM fees: 2024-02-09")
            .any_stderr()
            .run(),
        false => cmd.any_stderr().run(),
    };
    match what {
        Day::Fault("503:0") => {
            env.cmd_args(line).code(6).any_stderr().run();
            unchanged("the service failed");
        }
        Day::Fault("reset") => {
            env.cmd_args(line).code(7).any_stderr().run();
            unchanged("the connection was reset");
        }
        Day::Fault(_) => {
            let run = written(env.cmd_args(line));
            assert!(run
                .stderr
                .contains("warning: 1 request retried (1 retry): cut short x1"));
        }
        Day::Killed => {
            let running: Running = env.cmd_args(line).any_outcome().spawn();
            std::thread::sleep(std::time::Duration::from_millis(800));
            running.kill("-TERM");
            let run = running.finish();
            assert_eq!(run.code, 143, "{day}: {run:?}");
            unchanged("the run was killed");
        }
        Day::Twice => {
            let runs = [
                env.cmd_args(line).any_outcome().spawn(),
                env.cmd_args(line).any_outcome().spawn(),
            ];
            for run in runs {
                assert_eq!(run.finish().code, 0, "{day}: both runs write");
            }
        }
        Day::Plain | Day::Off => {
            let run = written(env.cmd_args(line));
            let warned = run.stderr.lines().filter(|l| l.starts_with("warning: "));
            assert!(gap || warned.count() == 0, "{day}: {}", run.stderr);
            // The first run with the day there, which only the hole brings back.
            if day == NaiveDate::from_ymd_opt(2024, 2, 20).unwrap() {
                let asked = "lacks ETHEREUM 2024-02-09 inside its rows: asked again";
                assert!(run.stderr.contains(asked), "{day}: {}", run.stderr);
            }
        }
    }
}
