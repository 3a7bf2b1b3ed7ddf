//! `--output` and `--merge`: atomic files, the format from the extension, upserts by (date,
//! chain), refusals that leave the file byte-identical, and no temp file ever left behind.

mod common;

use std::path::Path;

use common::{Env, Reply, Sandbox, Stub};

/// The names in a folder, sorted: a temp file left behind would show here.
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn read(env: &Env, name: &str) -> String {
    std::fs::read_to_string(env.home.path().join(name)).unwrap()
}

fn write(env: &Env, name: &str, text: &str) {
    std::fs::write(env.home.path().join(name), text).unwrap();
}

#[test]
fn output_writes_a_new_file_in_the_format_of_its_extension() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let args = ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-02"];
    let cases = [
        ("fees.csv", "date,fees\n2024-01-01,879768.88\n2024-01-02,826665.76\n"),
        ("fees.TSV", "date\tfees\n2024-01-01\t879768.88\n2024-01-02\t826665.76\n"),
        ("fees.Json", "[\n  {\"date\":\"2024-01-01\",\"fees\":879768.88},\n  {\"date\":\"2024-01-02\",\"fees\":826665.76}\n]\n"),
        ("fees.jsonl", "{\"date\":\"2024-01-01\",\"fees\":879768.88}\n{\"date\":\"2024-01-02\",\"fees\":826665.76}\n"),
        ("fees.ndjson", "{\"date\":\"2024-01-01\",\"fees\":879768.88}\n{\"date\":\"2024-01-02\",\"fees\":826665.76}\n"),
        ("fees.md", "| date       |       fees |\n|------------|-----------:|\n| 2024-01-01 | 879,768.88 |\n| 2024-01-02 | 826,665.76 |\n"),
        ("fees.txt", "date,fees\n2024-01-01,879768.88\n2024-01-02,826665.76\n"),
    ];
    for (name, expected) in cases {
        let run = env.run(&[&args[..], &["--output", name]].concat());
        assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, "", ""), "{name}");
        assert_eq!(read(&env, name), expected, "{name}");
    }
    // --format wins over the extension.
    let run = env.run(&[&args[..], &["-o", "fees.data.json", "-f", "csv"]].concat());
    assert_eq!(run.code, 0);
    assert_eq!(read(&env, "fees.data.json"), cases[0].1);
    let mut expected: Vec<String> = cases.iter().map(|(n, _)| n.to_string()).collect();
    expected.push("fees.data.json".to_owned());
    expected.sort();
    assert_eq!(names(env.home.path()), expected, "no temp file is left");
}

#[test]
fn output_replaces_an_existing_file_and_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let file = env.home.path().join("fees.csv");
    std::fs::write(&file, "old content that is longer than the new one\n".repeat(10)).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let run = env.run(&["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01", "-o", "fees.csv"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(read(&env, "fees.csv"), "date,fees\n2024-01-01,879768.88\n");
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn merge_upserts_overlapping_days_of_two_chains_and_sorts() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    // Yesterday's export: the 2nd holds provisional values the service has since revised.
    write(
        &env,
        "fees.csv",
        "date,chain,fees\n2023-12-31,ARBITRUM,7\n2024-01-01,ETHEREUM,1.50\n2024-01-02,ARBITRUM,5\n2024-01-02,ETHEREUM,2\n",
    );
    let run = env.run(&[
        "fees", "-c", "eth,arb", "-s", "2024-01-02", "-e", "2024-01-03", "-o", "fees.csv", "--merge",
    ]);
    assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, "", ""), "{run:?}");
    assert_eq!(
        read(&env, "fees.csv"),
        "date,chain,fees\n2023-12-31,ARBITRUM,7\n2024-01-01,ETHEREUM,1.50\n2024-01-02,ETHEREUM,826665.76\n2024-01-02,ARBITRUM,71927.52\n2024-01-03,ETHEREUM,821920.42\n2024-01-03,ARBITRUM,67000.93\n"
    );
    assert_eq!(names(env.home.path()), ["fees.csv"]);
}

#[test]
fn merge_into_a_missing_or_empty_file_writes_the_fresh_rows() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let args = ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01", "--merge", "-o"];
    assert_eq!(env.run(&[&args[..], &["new.csv"]].concat()).code, 0);
    assert_eq!(read(&env, "new.csv"), "date,fees\n2024-01-01,879768.88\n");
    write(&env, "empty.json", "");
    assert_eq!(env.run(&[&args[..], &["empty.json"]].concat()).code, 0);
    assert_eq!(read(&env, "empty.json"), "[\n  {\"date\":\"2024-01-01\",\"fees\":879768.88}\n]\n");
}

#[test]
fn merge_keeps_number_texts_of_json_ndjson_and_tsv_exactly() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let args = ["fees", "-c", "eth", "-s", "2024-01-02", "-e", "2024-01-02", "--merge", "-o"];
    write(&env, "f.json", "[{\"date\":\"2024-01-01\",\"fees\":12345678901234567890.123456789},\n {\"date\":\"2023-12-30\", \"fees\": 5E+3}, {\"date\":\"2023-12-31\",\"fees\":null}]");
    assert_eq!(env.run(&[&args[..], &["f.json"]].concat()).code, 0);
    assert_eq!(
        read(&env, "f.json"),
        "[\n  {\"date\":\"2023-12-30\",\"fees\":5E+3},\n  {\"date\":\"2023-12-31\",\"fees\":null},\n  {\"date\":\"2024-01-01\",\"fees\":12345678901234567890.123456789},\n  {\"date\":\"2024-01-02\",\"fees\":826665.76}\n]\n"
    );
    write(&env, "f.ndjson", "{\"date\":\"2024-01-02\",\"fees\":0.1}\n\n{\"date\":\"2024-01-03\",\"fees\":0.10}\n");
    assert_eq!(env.run(&[&args[..], &["f.ndjson"]].concat()).code, 0);
    assert_eq!(
        read(&env, "f.ndjson"),
        "{\"date\":\"2024-01-02\",\"fees\":826665.76}\n{\"date\":\"2024-01-03\",\"fees\":0.10}\n"
    );
    write(&env, "f.tsv", "date\tfees\n2024-01-03\t1e-7\n2024-01-04\t\n");
    assert_eq!(env.run(&[&args[..], &["f.tsv"]].concat()).code, 0);
    assert_eq!(read(&env, "f.tsv"), "date\tfees\n2024-01-02\t826665.76\n2024-01-03\t1e-7\n2024-01-04\t\n");
}

#[test]
fn merge_with_wide_upserts_by_date() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    write(&env, "wide.csv", "date,ETHEREUM,ARBITRUM\n2024-01-01,1,\n2024-01-02,2,3\n");
    let run = env.run(&[
        "fees", "-c", "eth,arb", "-s", "2024-01-02", "-e", "2024-01-02", "--wide", "-o", "wide.csv", "--merge",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        read(&env, "wide.csv"),
        "date,ETHEREUM,ARBITRUM\n2024-01-01,1,\n2024-01-02,826665.76,71927.52\n"
    );
}

#[test]
fn merge_refuses_other_columns_with_exit_9_and_leaves_the_file_untouched() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let old = "date,fees\n2024-01-01,1\n";
    write(&env, "fees.csv", old);
    let run = env.run(&[
        "fees", "-c", "eth,arb", "-s", "2024-01-01", "-e", "2024-01-01", "-o", "fees.csv", "--merge",
    ]);
    assert_eq!(run.code, 9, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: fees.csv has the columns date,fees but this command writes date,chain,fees: not merged; the file is left as it was\n\
         hint: merge only the same command with the same chains, --include and --wide; or write to another file\n"
    );
    assert_eq!(read(&env, "fees.csv"), old);
    // The same for json: member names and their order are the columns.
    let old_json = "[{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"active_users\":3}]";
    write(&env, "users.json", old_json);
    let run = env.run(&[
        "fees", "-c", "eth,arb", "-s", "2024-01-01", "-e", "2024-01-01", "-o", "users.json", "--merge",
    ]);
    assert_eq!(run.code, 9, "{run:?}");
    assert_eq!(
        run.error_line(),
        "error: users.json has the columns date,chain,active_users but this command writes date,chain,fees: not merged; the file is left as it was"
    );
    assert_eq!(read(&env, "users.json"), old_json);
    // A damaged row is refused as well, naming its line.
    let damaged = "date,fees\n2024-01-01,1\n2024-01-02,n/a\n";
    write(&env, "damaged.csv", damaged);
    let run = env.run(&["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01", "-o", "damaged.csv", "--merge"]);
    assert_eq!(run.code, 9);
    assert_eq!(
        run.error_line(),
        "error: damaged.csv cannot be merged: line 3: 'n/a' is not a number; the file is left as it was"
    );
    assert_eq!(read(&env, "damaged.csv"), damaged);
    assert_eq!(names(env.home.path()), ["damaged.csv", "fees.csv", "users.json"]);
}

#[test]
fn a_failed_fetch_leaves_the_old_file_byte_identical_and_no_temp_file() {
    let stub = Stub::always(Reply::json(500, r#"{"error":"database down"}"#));
    let env = Env::with_service(&stub.url);
    let old = "date,chain,fees\n2024-01-01,ETHEREUM,1\n";
    write(&env, "fees.csv", old);
    for merge in [true, false] {
        let mut args = vec!["fees", "-c", "eth,arb", "--last", "3", "-o", "fees.csv", "--retries", "0"];
        if merge {
            args.push("--merge");
        }
        let run = env.run(&args);
        assert_eq!(run.code, 6, "{run:?}");
        assert_eq!(read(&env, "fees.csv"), old);
        assert_eq!(names(env.home.path()), ["fees.csv"]);
    }
}

#[test]
fn an_unwritable_destination_is_exit_9_naming_the_file() {
    let sandbox = Sandbox::start(&[]);
    let run = Env::with_service(&sandbox.url).run(&[
        "fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01", "-o", "no/such/folder/fees.csv",
    ]);
    assert_eq!(run.code, 9);
    assert_eq!(
        run.stderr,
        "error: cannot write no/such/folder/fees.csv: No such file or directory (os error 2)\n"
    );
}

#[test]
fn the_daily_cron_export_keeps_one_row_per_date_and_chain() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let cron = |end: &str| {
        let run = env.run(&[
            "fees", "--chain", "all", "--last", "3", "--end", end, "--output", "fees.csv", "--merge",
        ]);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
        read(&env, "fees.csv")
    };
    let day1 = cron("2024-03-03");
    assert_eq!(day1.lines().count(), 1 + 3 * 6);
    assert_eq!(cron("2024-03-03"), day1, "a rerun changes nothing");
    let day2 = cron("2024-03-04");
    assert_eq!(day2.lines().count(), 1 + 4 * 6);
    assert!(day2.starts_with(&day1), "older days stay as they were:\n{day2}");
    let mut keys: Vec<&str> = day2.lines().map(|l| &l[..l.rfind(',').unwrap()]).collect();
    keys.dedup();
    assert_eq!(keys.len(), 1 + 4 * 6, "one row per (date, chain)");
    assert!(day2.lines().nth(19).unwrap().starts_with("2024-03-04,ETHEREUM,"), "{day2}");
    assert!(day2.lines().last().unwrap().starts_with("2024-03-04,POLYGON,"), "{day2}");
}

#[test]
fn a_run_killed_while_fetching_leaves_the_old_file_and_no_temp_file() {
    use std::sync::{Arc, Condvar, Mutex};
    // The stub holds its answer until the client has been killed.
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let held = gate.clone();
    let stub = Stub::start(move |_| {
        let (open, wake) = &*held;
        let _open = wake.wait_while(open.lock().unwrap(), |open| !*open).unwrap();
        Reply::json(200, "[]")
    });
    let env = Env::with_service(&stub.url);
    let old = "date,fees\n2024-01-01,1\n";
    write(&env, "fees.csv", old);
    let mut child = env
        .command()
        .args(["fees", "-c", "eth", "--last", "3", "-o", "fees.csv", "--merge"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    while stub.seen().is_empty() {
        std::thread::yield_now();
    }
    child.kill().unwrap();
    child.wait().unwrap();
    *gate.0.lock().unwrap() = true;
    gate.1.notify_all();
    assert_eq!(read(&env, "fees.csv"), old);
    assert_eq!(names(env.home.path()), ["fees.csv"]);
}
