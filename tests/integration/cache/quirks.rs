//! The response cache against a service with gaps, duplicate days, null values, odd number texts
//! and records outside the range asked: a run with the cache prints exactly what a run without
//! it prints, warnings included, for given ranges and (a property) for random ones.

use chrono::{Datelike, Days, NaiveDate};
use proptest::prelude::*;
use serde_json::Value;

use snapbox::str;

use crate::support::{Cmd, Env, Reply, Stub};

/// A service whose answers depend only on (chain, endpoint, day) and on the range asked:
/// some days are missing, some sent twice, some values null, some texts with exponents or
/// trailing zeros; every answer for BSC starts with a record of the day before the range.
fn quirky_service() -> Stub {
    Stub::start(|seen| {
        let body: Value = serde_json::from_str(&seen.body).unwrap();
        let text = |name: &str| body[name].as_str().unwrap_or_default().to_owned();
        let day = |name: &str| NaiveDate::parse_from_str(&text(name), "%Y-%m-%d").unwrap();
        let (chain, start, end) = (text("chain"), day("start_date"), day("end_date"));
        let fields: Vec<String> = match seen.path.rsplit('/').next().unwrap() {
            "fees" => vec!["fees".into()],
            "active_users" => vec!["active_users".into()],
            _ => text("includes").split(',').map(str::to_owned).collect(),
        };
        let mut records = Vec::new();
        if chain == "BSC" {
            records.push(record(&chain, start - Days::new(1), &fields));
        }
        for date in start.iter_days().take_while(|d| *d <= end) {
            let n = date.ordinal() + chain.len() as u32;
            match n % 9 {
                0 => continue,
                4 => records.push(format!(r#"{{"date":"{date}","fees":1,"active_users":2}}"#)),
                _ => {}
            }
            records.push(record(&chain, date, &fields));
        }
        let array = format!("[{}]", records.join(","));
        match seen.path.ends_with("official-account") {
            true => Reply::json(200, &format!(r#"{{"data":{array}}}"#)),
            false => Reply::json(200, &array),
        }
    })
}

/// One record: each field's value from the day, the chain and the field.
fn record(chain: &str, date: NaiveDate, fields: &[String]) -> String {
    let mut members = vec![format!(r#""date":"{date}""#)];
    for field in fields {
        let n = date.ordinal() * 7 + (chain.len() * field.len()) as u32;
        let value = match (field.as_str(), n % 5) {
            (_, 0) => "null".to_owned(),
            ("fees", 1) => format!("{n}.50E+2"),
            ("fees", _) => format!("{n}.{}0", n % 10),
            (_, _) => n.to_string(),
        };
        members.push(format!(r#""{field}":{value}"#));
    }
    format!("{{{}}}", members.join(","))
}

fn with_cache(args: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    all.push("--cache".into());
    all
}

fn run<'e>(env: &'e Env, args: &[String]) -> Cmd<'e> {
    env.cmd_args(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn gaps_duplicates_and_nulls_are_asked_again_and_warned_the_same() {
    let stub = quirky_service();
    let env = Env::with_service(&stub.url);
    let args = ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-12"];
    let plain = env
        .cmd_args(&args)
        .stderr(str![[r#"
warning: ETHEREUM fees: no data for 2024-01-01, 2024-01-10 (left out, not zero)
warning: ETHEREUM fees: several records for 2024-01-05; kept the last
warning: ETHEREUM fees: the records for 2024-01-04, 2024-01-09 have no fees (left empty, not zero)

"#]])
        .run();
    for _ in 0..2 {
        run(&env, &with_cache(&args))
            .stdout(&plain.stdout)
            .stderr(&plain.stderr)
            .run();
    }
    let mut bodies: Vec<String> = stub.seen().iter().skip(2).map(|s| s.body.clone()).collect();
    bodies.sort();
    let range =
        |a: &str, b: &str| format!(r#"{{"chain":"ETHEREUM","start_date":"{a}","end_date":"{b}"}}"#);
    // The gaps (01-01, 01-10), the nulls (01-04, 01-09) and the duplicate (01-05) are asked
    // again, in as few ranges as they make.
    assert_eq!(
        bodies,
        [
            range("2024-01-01", "2024-01-01"),
            range("2024-01-04", "2024-01-05"),
            range("2024-01-09", "2024-01-10"),
        ]
    );
}

#[test]
fn answers_with_records_outside_the_range_are_never_kept() {
    let stub = quirky_service();
    let env = Env::with_service(&stub.url);
    let args = ["users", "-c", "bsc", "-s", "2024-01-01", "-e", "2024-01-04"];
    let first = run(&env, &with_cache(&args))
        .stderr(str![[r#"
warning: BSC active users: several records for 2024-01-01; kept the last
warning: BSC active users: dropped records outside the asked range: 2023-12-31
warning: BSC active users: the records for 2024-01-02 have no active_users (left empty, not zero)

"#]])
        .run();
    run(&env, &with_cache(&args))
        .stdout(&first.stdout)
        .stderr(&first.stderr)
        .run();
    assert_eq!(stub.seen().len(), 2, "nothing of the first answer was kept");
}

/// One query: a command, chains, a range in early 2024, includes and windows.
#[derive(Clone, Debug)]
struct Query {
    command: &'static str,
    chains: Vec<&'static str>,
    start: u64,
    days: u64,
    includes: Vec<&'static str>,
    chunk_days: Option<u32>,
}

impl Query {
    fn args(&self) -> Vec<String> {
        let first = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap() + Days::new(self.start);
        let last = first + Days::new(self.days - 1);
        let mut args = vec![self.command.to_owned(), "-c".into(), self.chains.join(",")];
        args.extend([
            "-s".into(),
            first.to_string(),
            "-e".into(),
            last.to_string(),
        ]);
        if matches!(self.command, "social" | "report") && !self.includes.is_empty() {
            args.extend(["--include".into(), self.includes.join(",")]);
        }
        if let Some(days) = self.chunk_days {
            args.extend(["--chunk-days".into(), days.to_string()]);
        }
        args
    }
}

fn query() -> impl Strategy<Value = Query> {
    let command = prop::sample::select(vec!["fees", "users", "social", "report"]);
    let chains = prop::sample::subsequence(vec!["eth", "bsc", "base"], 1..=3);
    let includes = prop::sample::subsequence(vec!["reply", "retweet", "tweet", "quote"], 0..=4);
    let chunk = prop::option::of(1u32..12);
    (command, chains, 0u64..40, 1u64..30, includes, chunk).prop_map(
        |(command, chains, start, days, includes, chunk_days)| Query {
            command,
            chains,
            start,
            days,
            includes,
            chunk_days,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Whatever earlier runs left in the cache, a run with it prints what a run without it does.
    #[test]
    fn output_with_the_cache_equals_output_without_it(
        earlier in prop::collection::vec(query(), 0..4),
        last in query(),
    ) {
        let stub = quirky_service();
        let env = Env::with_service(&stub.url);
        for query in &earlier {
            run(&env, &with_cache(&query.args().iter().map(String::as_str).collect::<Vec<_>>())).any_stderr().run();
        }
        let args = last.args();
        let plain = run(&env, &args).any_stderr().run();
        let cached = run(&env, &with_cache(&args.iter().map(String::as_str).collect::<Vec<_>>())).any_stderr().run();
        prop_assert_eq!((&cached.stdout, &cached.stderr), (&plain.stdout, &plain.stderr));
    }
}
