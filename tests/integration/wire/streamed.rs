//! The join streamed (issue 45.1): a run's rows are written window by window as the answers
//! come, not once the whole range is in. A server holds the second window's answer until the
//! test has read the first window's rows from the run's stdout pipe: a run that held every row
//! until the end would never show them (the read gives up after 60 s), and the run is still
//! going when they are read. The bytes are those of a run that writes every row at once.

use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use serde_json::Value;

use crate::support::{Env, Reply, Stub};

/// Answers fees for each day asked (the day of the month, as the value); an answer for a day
/// after 2024-01-03 waits until `released`.
fn holding_service(released: Arc<AtomicBool>) -> Stub {
    Stub::start(move |seen| {
        let body: Value = serde_json::from_str(&seen.body).unwrap();
        let day = |name: &str| {
            chrono::NaiveDate::parse_from_str(body[name].as_str().unwrap(), "%Y-%m-%d").unwrap()
        };
        let (start, end) = (day("start_date"), day("end_date"));
        if start.to_string().as_str() > "2024-01-03" {
            while !released.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        let chain = body["chain"].as_str().unwrap().len();
        let records: Vec<String> = (start.iter_days().take_while(|d| *d <= end))
            .map(|d| {
                format!(
                    r#"{{"date":"{d}","fees":{}.5}}"#,
                    d.format("%d").to_string().parse::<usize>().unwrap() * chain
                )
            })
            .collect();
        Reply::json(200, &format!("[{}]", records.join(",")))
    })
}

/// Runs `fees -c eth,base` over 2024-01-01..06 in windows of 3 days as `format`; returns the
/// first `lines` lines read while the second window is held, and all of stdout.
fn first_window_then_all(format: &str, lines: usize) -> (String, String) {
    let released = Arc::new(AtomicBool::new(false));
    let stub = holding_service(released.clone());
    let env = Env::with_service(&stub.url);
    let args = "fees -c eth,base -s 2024-01-01 -e 2024-01-06 --chunk-days 3 --jobs 1 -f";
    let mut running = env.cmd(&format!("{args} {format}")).spawn();
    let mut stdout = BufReader::new(running.child.stdout.take().unwrap());
    let (sender, read) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut first = String::new();
        for _ in 0..lines {
            stdout.read_line(&mut first).unwrap();
        }
        sender.send(first.clone()).unwrap();
        stdout
    });
    let first = read.recv_timeout(Duration::from_secs(60));
    let still_going = running.child.try_wait().unwrap().is_none();
    released.store(true, Ordering::SeqCst);
    let first = first.expect("the first window's rows were not written before the second came");
    assert!(
        still_going,
        "the run ended before the second window was answered"
    );
    let mut rest = String::new();
    reader.join().unwrap().read_to_string(&mut rest).unwrap();
    running.finish();
    (first.clone(), first + &rest)
}

#[test]
fn csv_rows_of_the_first_window_are_written_before_the_second_is_answered() {
    let (first, all) = first_window_then_all("csv", 7);
    let head = "date,chain,fees\n\
        2024-01-01,ETHEREUM,8.5\n2024-01-01,BASE,4.5\n\
        2024-01-02,ETHEREUM,16.5\n2024-01-02,BASE,8.5\n\
        2024-01-03,ETHEREUM,24.5\n2024-01-03,BASE,12.5\n";
    assert_eq!(first, head);
    let tail = "2024-01-04,ETHEREUM,32.5\n2024-01-04,BASE,16.5\n\
        2024-01-05,ETHEREUM,40.5\n2024-01-05,BASE,20.5\n\
        2024-01-06,ETHEREUM,48.5\n2024-01-06,BASE,24.5\n";
    assert_eq!(all, format!("{head}{tail}"));
}

#[test]
fn json_rows_of_the_first_window_are_written_before_the_second_is_answered() {
    let (first, all) = first_window_then_all("json", 6);
    let row = |date: &str, chain: &str, fees: &str| {
        format!(r#"  {{"date":"2024-01-0{date}","chain":"{chain}","fees":{fees}}}"#)
    };
    let head = format!(
        "[\n{},\n{},\n{},\n{},\n{},\n",
        row("1", "ETHEREUM", "8.5"),
        row("1", "BASE", "4.5"),
        row("2", "ETHEREUM", "16.5"),
        row("2", "BASE", "8.5"),
        row("3", "ETHEREUM", "24.5"),
    );
    assert_eq!(first, head);
    let tail = [
        row("3", "BASE", "12.5"),
        row("4", "ETHEREUM", "32.5"),
        row("4", "BASE", "16.5"),
        row("5", "ETHEREUM", "40.5"),
        row("5", "BASE", "20.5"),
        row("6", "ETHEREUM", "48.5"),
        row("6", "BASE", "24.5"),
    ];
    assert_eq!(all, format!("{head}{}\n]\n", tail.join(",\n")));
}

/// Answers fees for each day asked, the day's ordinal in the year times the chain name's
/// length; BASE lacks every seventh day, and ETHEREUM's answers send 2024-03-01 twice (the
/// later record holds).
fn gapped_service() -> Stub {
    Stub::start(|seen| {
        let body: Value = serde_json::from_str(&seen.body).unwrap();
        let day = |name: &str| {
            chrono::NaiveDate::parse_from_str(body[name].as_str().unwrap(), "%Y-%m-%d").unwrap()
        };
        let chain = body["chain"].as_str().unwrap();
        let mut records = Vec::new();
        for date in day("start_date")
            .iter_days()
            .take_while(|d| *d <= day("end_date"))
        {
            let n = chrono::Datelike::ordinal(&date) as usize;
            if chain == "BASE" && n.is_multiple_of(7) {
                continue;
            }
            if chain == "ETHEREUM" && date.to_string() == "2024-03-01" {
                records.push(format!(r#"{{"date":"{date}","fees":0.25}}"#));
            }
            records.push(format!(
                r#"{{"date":"{date}","fees":{}.5}}"#,
                n * chain.len()
            ));
        }
        Reply::json(200, &format!("[{}]", records.join(",")))
    })
}

/// A range of several blocks and batches of the join (274 days) gives the same bytes, gaps and
/// all, whether its rows are written once every answer is in (a batch of days at a time), window
/// by window (`--chunk-days`, rows kept by key alone) or all at once (`--keep-going`, which
/// writes nothing before every chain is in); and the same `--strict` verdict.
#[test]
fn a_long_range_gives_the_same_bytes_however_its_rows_are_joined_and_written() {
    let stub = gapped_service();
    let env = Env::with_service(&stub.url);
    let base = "fees -c eth,base -s 2024-01-01 -e 2024-09-30 -f csv --strict";
    let missing = "39 of 548 asked values are missing: BASE fees: 2024-01-07, 2024-01-14";
    let runs: Vec<String> = ["", " --chunk-days 50", " --keep-going"]
        .iter()
        .map(|extra| {
            let run = env
                .cmd(&format!("{base}{extra}"))
                .code(10)
                .any_stdout()
                .stderr_contains(missing)
                .run();
            run.stdout
        })
        .collect();
    assert_eq!(runs[0], runs[1], "--chunk-days 50");
    assert_eq!(runs[0], runs[2], "--keep-going");
    let lines: Vec<&str> = runs[0].lines().collect();
    assert_eq!(lines.len(), 1 + 274 * 2 - 39, "{}", runs[0]);
    assert_eq!(
        lines[1..3],
        ["2024-01-01,ETHEREUM,8.5", "2024-01-01,BASE,4.5"]
    );
    assert!(lines.contains(&"2024-03-01,ETHEREUM,488.5"));
    assert!(lines.contains(&"2024-01-06,BASE,24.5"));
    assert!(!lines.iter().any(|l| l.starts_with("2024-01-07,BASE")));
    assert_eq!(
        lines[lines.len() - 2..],
        ["2024-09-30,ETHEREUM,2192.5", "2024-09-30,BASE,1096.5"]
    );
}
