//! Runs that change one file at the same moment (`--merge` from overlapping cron jobs, `config
//! set` in parallel) take turns under a lock, so none loses another's change; a run that cannot
//! get the lock in time gives up with the file intact.

use std::fs::File;
use std::path::Path;

use crate::support::files::{names, read, write};
use crate::support::{sandbox_env, Env, Sandbox};
use snapbox::str;

/// The sandbox's fees of ETHEREUM for 2024-01-01 to 2024-01-08.
const FEES: [&str; 8] = [
    "879768.88",
    "826665.76",
    "821920.42",
    "812822.09",
    "892489.72",
    "924278.40",
    "631422.21",
    "756164.42",
];

/// Holds the lock a run of the binary takes for `target`, as another run would.
fn hold_lock(target: &Path) -> File {
    let name = target.file_name().unwrap().to_string_lossy();
    let lock = File::create(target.with_file_name(format!(".{name}.lock"))).unwrap();
    lock.lock().unwrap();
    lock
}

#[test]
fn merges_started_together_keep_every_run_s_rows() {
    // Every run waits for its answer about as long, so all of them merge at the same moment.
    let sandbox = Sandbox::start(&["--latency", "300"]);
    let env = Env::with_service(&sandbox.url);
    let days: Vec<String> = (1..=8).map(|d| format!("2024-01-0{d}")).collect();
    let runs: Vec<_> = days
        .iter()
        .map(|day| {
            let args = [
                "fees", "-c", "eth", "-s", day, "-e", day, "-o", "fees.csv", "--merge",
            ];
            env.cmd_args(&args).any_stderr().spawn()
        })
        .collect();
    let waiting =
        "note: waiting for another run that is changing fees.csv (up to 30 s, --lock-timeout)";
    // A run that merges while a day between the file's rows is still another run's to write
    // says that the file lacks it (then).
    let hole = "warning: fees.csv lacks values for days inside its own range that this run did \
        not ask: ETHEREUM ";
    let hint = "hint: add --resume to this command: each run then asks the missing ones again";
    for run in runs {
        let run = run.finish();
        let said = |l: &str| l == waiting || l.starts_with(hole) || l == hint;
        assert!(run.stderr.lines().all(said), "{run:?}");
    }
    let rows: Vec<String> = days
        .iter()
        .zip(FEES)
        .map(|(day, fees)| format!("{day},ETHEREUM,{fees}\n"))
        .collect();
    assert_eq!(
        read(&env, "fees.csv"),
        format!("date,chain,fees\n{}", rows.concat())
    );
    assert_eq!(
        names(env.home.path()),
        ["fees.csv"],
        "no lock or temp file left"
    );
}

#[test]
fn a_merge_that_cannot_get_the_lock_in_time_gives_up_with_exit_9_and_the_file_intact() {
    let (_sandbox, env) = sandbox_env(&[]);
    let old = "date,chain,fees\n2023-12-31,ETHEREUM,1\n";
    write(&env, "fees.csv", old);
    let day = ["-s", "2024-01-01", "-e", "2024-01-01"];
    let merge = [
        &["fees", "-c", "eth", "-o", "fees.csv", "--merge"],
        &day[..],
    ]
    .concat();
    let held = hold_lock(&env.home.path().join("fees.csv"));
    env.cmd_args(&[&["--lock-timeout", "0.3"], &merge[..]].concat())
        .code(9)
        .stderr(str![[r#"
note: waiting for another run that is changing fees.csv (up to 0.3 s, --lock-timeout)
error: another run was still changing fees.csv after 0.3 s; not merged; the file is left as it was
hint: try again when that run is done, or wait longer with --lock-timeout SECS

"#]])
        .run();
    assert_eq!(read(&env, "fees.csv"), old);
    // --quiet leaves out the note, not the error.
    let quiet = env
        .cmd_args(&[&["-q", "--lock-timeout", "0.1"], &merge[..]].concat())
        .code(9)
        .run();
    assert!(quiet.stderr.starts_with("error: another run"), "{quiet:?}");
    drop(held);
    env.cmd_args(&merge).run();
    assert_eq!(
        read(&env, "fees.csv"),
        format!("{old}2024-01-01,ETHEREUM,{}\n", FEES[0])
    );
    assert_eq!(names(env.home.path()), ["fees.csv"]);
}

#[test]
fn config_edits_at_once_keep_every_setting() {
    let env = Env::with_config("# mine\n");
    let settings = [
        ("timeout", "5"),
        ("connect_timeout", "4"),
        ("retries", "2"),
        ("jobs", "3"),
        ("method", "get"),
        ("chunk_days", "9"),
    ];
    let runs: Vec<_> = settings
        .iter()
        .map(|(key, value)| env.cmd(&format!("-q config set {key} {value}")).spawn())
        .collect();
    for run in runs {
        run.finish();
    }
    let text = std::fs::read_to_string(env.config_path()).unwrap();
    assert!(text.starts_with("# mine\n"), "{text}");
    for (key, value) in settings {
        env.cmd(&format!("config get {key}"))
            .stdout(format!("{value}\n"))
            .run();
    }
    assert_eq!(names(&env.config_dir()), ["config.toml"]);
}

#[test]
fn a_config_edit_that_cannot_get_the_lock_in_time_gives_up_with_exit_3() {
    let old = "timeout = 30\n";
    let env = Env::with_config(old);
    let held = hold_lock(&env.config_path());
    for args in [
        &["config", "set", "jobs", "2"][..],
        &["config", "unset", "timeout"],
        &["auth", "logout"],
    ] {
        env.cmd_args(&[&["-q", "--lock-timeout", "0.2"], args].concat()).code(3).error_line(format!(
                "error: another run was still changing config file {} after 0.2 s; nothing was changed",
                env.config_path().display()
            )).run();
        assert_eq!(std::fs::read_to_string(env.config_path()).unwrap(), old);
    }
    drop(held);
    env.cmd("-q config set jobs 2").run();
    assert_eq!(
        std::fs::read_to_string(env.config_path()).unwrap(),
        "timeout = 30\njobs = 2\n"
    );
}

/// A merge file of `rows` days from the year 1000 on: long enough to read that a signal can
/// arrive while the run holds the lock.
/// A merge file that takes a while to read back: every chain's every day of 2015-2024 (the
/// plausible dates), each value 1,200 digits long (about 26 MB).
fn long_merge_file() -> String {
    let first = chrono::NaiveDate::from_ymd_opt(2015, 1, 1).unwrap();
    let last = chrono::NaiveDate::from_ymd_opt(2024, 12, 31).unwrap();
    let chains = ["ETHEREUM", "ARBITRUM", "BSC", "OPTIMISM", "BASE", "POLYGON"];
    let value = "7".repeat(1200);
    let mut text = String::from("date,chain,fees\n");
    for day in first.iter_days().take_while(|day| *day <= last) {
        for chain in chains {
            text.push_str(&format!("{day},{chain},{value}\n"));
        }
    }
    text
}

#[test]
fn the_lock_file_is_removed_after_sigint_sigterm_and_sighup() {
    let (_sandbox, env) = sandbox_env(&[]);
    let old = long_merge_file();
    let lock = env.home.path().join(".x.csv.lock");
    for (signal, code) in [("-INT", 130), ("-TERM", 143), ("-HUP", 129)] {
        write(&env, "x.csv", &old);
        let args = ["fees", "-c", "eth", "-s", "2024-01-02", "-e", "2024-01-02"];
        let running = env
            .cmd_args(&[&args[..], &["-o", "x.csv", "--merge"]].concat())
            .code(code)
            .any_stderr()
            .spawn();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !lock.exists() {
            assert!(
                std::time::Instant::now() < deadline,
                "the lock never showed"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        running.kill(signal);
        running.finish();
        assert_eq!(
            names(env.home.path())
                .iter()
                .filter(|n| n.contains("x.csv"))
                .collect::<Vec<_>>(),
            ["x.csv"],
            "{signal}"
        );
        assert!(read(&env, "x.csv") == old, "{signal}: the file changed");
    }
}
