//! `--output`: atomic files, the format from the extension, and the old file kept whole when a
//! fetch fails or the run is killed, with no temp file left behind.

use crate::support::files::{names, read, write};
use crate::support::{sandbox_env, Env, Reply, Sandbox, Stub};
use snapbox::str;

#[test]
fn output_writes_a_new_file_in_the_format_of_its_extension() {
    let (_sandbox, env) = sandbox_env(&[]);
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
        env.cmd_args(&[&args[..], &["--output", name]].concat())
            .stdout("")
            .run();

        assert_eq!(read(&env, name), expected, "{name}");
    }
    // --format wins over the extension.
    env.cmd_args(&[&args[..], &["-o", "fees.data.json", "-f", "csv"]].concat())
        .run();
    assert_eq!(read(&env, "fees.data.json"), cases[0].1);
    let mut expected: Vec<String> = cases.iter().map(|(n, _)| n.to_string()).collect();
    expected.push("fees.data.json".to_owned());
    expected.sort();
    assert_eq!(names(env.home.path()), expected, "no temp file is left");
}

#[test]
fn output_replaces_an_existing_file_and_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let (_sandbox, env) = sandbox_env(&[]);
    let file = env.home.path().join("fees.csv");
    std::fs::write(
        &file,
        "old content that is longer than the new one\n".repeat(10),
    )
    .unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    // A hard link keeps the old inode: a rename over the name leaves it whole, whereas writing
    // in place would change it.
    let link = env.home.path().join("yesterday.csv");
    std::fs::hard_link(&file, &link).unwrap();
    let before = std::fs::read(&link).unwrap();
    env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-01 -o fees.csv")
        .run();
    assert_eq!(read(&env, "fees.csv"), "date,fees\n2024-01-01,879768.88\n");
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(
        std::fs::read(&link).unwrap(),
        before,
        "the file was rewritten in place"
    );
}

#[test]
fn a_failed_fetch_leaves_the_old_file_byte_identical_and_no_temp_file() {
    let stub = Stub::always(Reply::json(500, r#"{"error":"database down"}"#));
    let env = Env::with_service(&stub.url);
    let old = "date,chain,fees\n2024-01-01,ETHEREUM,1\n";
    write(&env, "fees.csv", old);
    for merge in [true, false] {
        let mut args = vec![
            "fees",
            "-c",
            "eth,arb",
            "--last",
            "3",
            "-o",
            "fees.csv",
            "--retries",
            "0",
        ];
        if merge {
            args.push("--merge");
        }
        env.cmd_args(&args).code(6).run();
        assert_eq!(read(&env, "fees.csv"), old);
        assert_eq!(names(env.home.path()), ["fees.csv"]);
    }
}

#[test]
fn an_unwritable_destination_is_exit_9_naming_the_file() {
    let sandbox = Sandbox::start(&[]);
    Env::with_service(&sandbox.url)
        .cmd("fees -c eth -s 2024-01-01 -e 2024-01-01 -o no/such/folder/fees.csv")
        .code(9)
        .stderr(
            "error: cannot write no/such/folder/fees.csv: the folder no/such/folder does not exist\n\
             hint: create it first (mkdir -p no/such/folder), or give another --output\n",
        )
        .run();
}

#[test]
fn the_daily_cron_export_keeps_one_row_per_date_and_chain() {
    let (_sandbox, env) = sandbox_env(&[]);
    let cron = |end: &str| {
        env.cmd(&format!(
            "fees --chain all --last 3 --end {end} --output fees.csv --merge"
        ))
        .run();
        read(&env, "fees.csv")
    };
    let day1 = cron("2024-03-03");
    assert_eq!(day1.lines().count(), 1 + 3 * 6);
    assert_eq!(cron("2024-03-03"), day1, "a rerun changes nothing");
    let day2 = cron("2024-03-04");
    assert_eq!(day2.lines().count(), 1 + 4 * 6);
    assert!(
        day2.starts_with(&day1),
        "older days stay as they were:\n{day2}"
    );
    let mut keys: Vec<&str> = day2.lines().map(|l| &l[..l.rfind(',').unwrap()]).collect();
    keys.dedup();
    assert_eq!(keys.len(), 1 + 4 * 6, "one row per (date, chain)");
    assert!(
        day2.lines()
            .nth(19)
            .unwrap()
            .starts_with("2024-03-04,ETHEREUM,"),
        "{day2}"
    );
    assert!(
        day2.lines()
            .last()
            .unwrap()
            .starts_with("2024-03-04,POLYGON,"),
        "{day2}"
    );
}

#[test]
fn a_run_killed_while_fetching_leaves_the_old_file_and_no_temp_file() {
    use std::sync::{Arc, Condvar, Mutex};
    // The stub holds its answer until the client has been killed.
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let held = gate.clone();
    let stub = Stub::start(move |_| {
        let (open, wake) = &*held;
        let _open = wake
            .wait_while(open.lock().unwrap(), |open| !*open)
            .unwrap();
        Reply::json(200, "[]")
    });
    let env = Env::with_service(&stub.url);
    let old = "date,chain,fees\n2024-01-01,ETHEREUM,1\n";
    write(&env, "fees.csv", old);
    let mut running = env
        .cmd("fees -c eth --last 3 -o fees.csv --merge")
        .code(-1)
        .spawn();
    while stub.seen().is_empty() {
        std::thread::yield_now();
    }
    running.child.kill().unwrap();
    running.finish();
    *gate.0.lock().unwrap() = true;
    gate.1.notify_all();
    assert_eq!(read(&env, "fees.csv"), old);
    assert_eq!(names(env.home.path()), ["fees.csv"]);
}

#[test]
fn a_symlinked_export_is_replaced_where_the_link_points() {
    let (_sandbox, env) = sandbox_env(&[]);
    std::fs::create_dir(env.home.path().join("data")).unwrap();
    write(&env, "data/real.csv", "old\n");
    std::os::unix::fs::symlink("data/real.csv", env.home.path().join("link.csv")).unwrap();
    env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-01 -o link.csv")
        .run();
    assert_eq!(
        read(&env, "data/real.csv"),
        "date,fees\n2024-01-01,879768.88\n"
    );
    let link = std::fs::symlink_metadata(env.home.path().join("link.csv")).unwrap();
    assert!(link.file_type().is_symlink(), "the link is still a link");
    assert_eq!(names(&env.home.path().join("data")), ["real.csv"]);
}

#[test]
fn a_fifo_or_device_is_written_to_not_replaced() {
    let (_sandbox, env) = sandbox_env(&[]);
    let fifo = env.home.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let run = env
        .cmd("fees -c eth -s 2024-01-01 -e 2024-01-01 -o pipe -f csv")
        .run();
    if run.code != 0 {
        // The tool never opened the fifo: open it here so that the reader thread can end.
        std::fs::write(&fifo, "").unwrap();
    }
    assert_eq!(reader.join().unwrap(), "date,fees\n2024-01-01,879768.88\n");
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(&kind),
        "the fifo is still a fifo"
    );
}

#[test]
fn output_dash_is_stdout_and_cannot_be_merged_into() {
    let (_sandbox, env) = sandbox_env(&[]);
    env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-01 -o -")
        .stdout(str![[r#"
date,fees
2024-01-01,879768.88

"#]])
        .run();
    assert!(!env.home.path().join("-").exists());
    env.cmd("fees -c eth --last 1 -o - --merge")
        .code(2)
        .error_line("error: --merge needs a file to merge into, not stdout (-)")
        .run();
}
