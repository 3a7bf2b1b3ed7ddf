//! Whose files a run trusts (as OpenSSH's StrictModes): a config file, a key command's script,
//! a CA bundle, a merge target or a lock that another user (`nobody`, 65534) planted or can
//! change is refused before any key command runs and before any request, naming the file, its
//! owner and mode, with a fix the user can run; a cache so planted is not used (a warning); a
//! FIFO another user planted at `-o` is refused without hanging. (A replaced file's set-id
//! bits and group: `hostile_files`.)

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::files::read;
use crate::support::owners::{chmod, give_away, OTHER};
use crate::support::{fees_on, sandbox_env, Env, Sandbox, TestCa, KEY};

const DAY: [&str; 7] = fees_on("2024-01-02");
const ROWS: &str = "date,fees\n2024-01-02,826665.76\n";

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

/// The sandbox, and a config file pointed at it whose key command would leave a mark (the
/// file `ran`) if it ran.
fn config_with_marking_command() -> (Sandbox, Env, PathBuf) {
    let sandbox = Sandbox::start(&[]);
    let env = Env::new();
    let mark = env.home.path().join("ran");
    env.write_config(&format!(
        "base_url = \"{}\"\napi_key_command = \"sh -c 'touch {} && echo {KEY}'\"\n",
        sandbox.url,
        mark.display()
    ));
    (sandbox, env, mark)
}

#[test]
fn a_config_file_another_user_owns_is_refused_before_its_key_command_runs() {
    let (sandbox, env, mark) = config_with_marking_command();
    let path = env.config_path();
    if !give_away(&path) {
        return;
    }
    let run = env.cmd_args(&DAY).code(3).any_stderr().run();
    let expected = format!(
        "error: config file {} belongs to user id 65534 (nobody), not to you (user id 0 (root)) nor to root (mode 0600)",
        path.display()
    );
    assert!(run.stderr.starts_with(&expected), "{}", run.stderr);
    assert!(
        run.stderr.contains("hint: use a file of your own instead"),
        "{}",
        run.stderr
    );
    // Nor is it adopted by an edit, which would make its key command the user's own.
    let before = fs::read_to_string(&path).unwrap();
    env.cmd("config set retries 1")
        .code(3)
        .error_line_like(format!(
            "error: config file {} belongs to user id 65534 (nobody)[..]",
            path.display()
        ))
        .any_stderr()
        .run();
    assert_eq!(fs::read_to_string(&path).unwrap(), before);
    assert!(!mark.exists(), "the planted key command ran");
    assert!(sandbox.requests().is_empty());
}

#[test]
fn a_config_file_others_can_write_or_in_an_open_folder_is_refused_with_the_chmod() {
    let (sandbox, env, mark) = config_with_marking_command();
    let path = env.config_path();
    if fs::metadata(&path).unwrap().uid() != 0 {
        eprintln!("skipped: the messages name root as this run's user (CI runs as root)");
        return;
    }
    // Group write for a group with another member (`nobody`, whose primary group nogroup is);
    // the user's private group would be fine (`trust_rule`).
    chmod(&path, 0o620);
    std::os::unix::fs::lchown(&path, None, Some(OTHER)).unwrap();
    env.cmd_args(&DAY)
        .code(3)
        .stderr(format!(
            "error: config file {0} can be changed by the members of group id 65534 (nogroup) (mode 0620, owned by user id 0 (root)), who could change what this run does, so it is not used\nhint: if no one else should change it, run: chmod go-w {0}; or name another with --config FILE\n",
            path.display()
        ))
        .run();
    chmod(&path, 0o602);
    env.cmd_args(&DAY)
        .code(3)
        .stderr(format!(
            "error: config file {0} can be changed by other users (mode 0602, owned by user id 0 (root)), who could change what this run does, so it is not used\nhint: if no one else should change it, run: chmod go-w {0}; or name another with --config FILE\n",
            path.display()
        ))
        .run();
    chmod(&path, 0o600);
    let folder = env.config_dir();
    chmod(&folder, 0o777);
    env.cmd_args(&DAY)
        .code(3)
        .stderr(format!(
            "error: config file {} is in folder {1}, which others can write to (mode 0777), so another user could replace what is in it: it is not used\nhint: if no one else should change it, run: chmod go-w {1}; or name another with --config FILE\n",
            path.display(),
            folder.display()
        ))
        .run();
    // Sticky, as /tmp is: no one else can replace the user's file there.
    chmod(&folder, 0o1777);
    env.cmd_args(&DAY).stdout(ROWS).run();
    assert!(mark.exists());
    assert_eq!(sandbox.requests().len(), 1);
}

#[test]
fn a_key_command_naming_a_script_another_user_owns_is_not_run() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::new();
    let script = env.home.path().join("key.sh");
    let mark = env.home.path().join("ran");
    fs::write(
        &script,
        format!("#!/bin/sh\ntouch {}\necho {KEY}\n", mark.display()),
    )
    .unwrap();
    chmod(&script, 0o755);
    env.write_config(&format!(
        "base_url = \"{}\"\napi_key_command = \"{}\"\n",
        sandbox.url,
        script.display()
    ));
    env.cmd_args(&DAY).stdout(ROWS).run();
    fs::remove_file(&mark).unwrap();
    if !give_away(&script) {
        return;
    }
    env.cmd_args(&DAY)
        .code(3)
        .any_stderr()
        .error_line_like(format!(
            "error: api_key_command from [..] is not run: the script {} belongs to user id 65534 (nobody)[..]",
            script.display()
        ))
        .run();
    assert!(!mark.exists(), "the planted script ran");
    assert_eq!(sandbox.requests().len(), 1);
}

#[test]
fn a_cache_another_user_planted_is_not_used_and_the_run_goes_on() {
    let (sandbox, env) = sandbox_env(&[]);
    let cached = || env.cmd_args(&[&DAY[..], &["--cache"]].concat());
    cached().stdout(ROWS).run();
    let folder = env.home.path().join(".cache/chain-metrics");
    let file = fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "sqlite3" || e == "db"))
        .unwrap_or_else(|| panic!("no cache file in {}", folder.display()));
    if !give_away(&file) {
        return;
    }
    let run = cached().stdout(ROWS).any_stderr().run();
    assert!(
        run.stderr.contains(&format!(
            "{} belongs to user id 65534 (nobody)",
            file.display()
        )) && run.stderr.contains("asking the service for every day"),
        "{}",
        run.stderr
    );
    assert_eq!(sandbox.requests().len(), 2, "the untrusted cache was used");
}

#[test]
fn a_ca_bundle_another_user_owns_a_fifo_of_theirs_and_dev_zero_are_refused_at_once() {
    let ca = TestCa::new();
    let env = Env::with_service("https://127.0.0.1:9");
    let bundle = env.home.path().join("ca.pem");
    fs::write(&bundle, &ca.pem).unwrap();
    let fifo = env.home.path().join("ca.fifo");
    mkfifo(&fifo);
    if !give_away(&bundle) || !give_away(&fifo) {
        return;
    }
    for path in [&bundle, &fifo] {
        env.cmd_args(&[&DAY[..], &["--ca-bundle", path.to_str().unwrap()]].concat())
            .code(3)
            .any_stderr()
            .error_line_like(format!(
                "error: CA bundle {} belongs to user id 65534 (nobody)[..]",
                path.display()
            ))
            .run();
    }
    let started = std::time::Instant::now();
    env.cmd_args(&[&DAY[..], &["--ca-bundle", "/dev/zero"]].concat())
        .code(3)
        .error_line("error: cannot read CA bundle /dev/zero: it holds more than 4096 KiB (from flag --ca-bundle)")
        .any_stderr()
        .run();
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn a_fifo_another_user_planted_at_the_output_is_refused_without_waiting() {
    let (sandbox, env) = sandbox_env(&[]);
    let shared = env.home.path().join("shared");
    fs::create_dir(&shared).unwrap();
    chmod(&shared, 0o1777);
    let fifo = shared.join("out.csv");
    mkfifo(&fifo);
    if !give_away(&fifo) {
        return;
    }
    let run = env
        .cmd_args(&[&DAY[..], &["-o", "shared/out.csv"]].concat())
        .code(9)
        .any_stderr()
        .run();
    assert!(
        run.error_line().starts_with(
            "error: cannot write shared/out.csv: shared/out.csv belongs to user id 65534 (nobody)"
        ),
        "{}",
        run.stderr
    );
    assert!(sandbox.requests().is_empty());
    // The user's own FIFO, read by another process, is written to.
    let mine = env.home.path().join("mine.fifo");
    mkfifo(&mine);
    let reader = std::thread::spawn({
        let mine = mine.clone();
        move || fs::read_to_string(mine).unwrap()
    });
    env.cmd_args(&[&DAY[..], &["-o", mine.to_str().unwrap()]].concat())
        .run();
    assert_eq!(reader.join().unwrap(), ROWS);
}

#[test]
fn a_merge_target_or_a_lock_another_user_owns_and_a_hard_link_at_the_lock_are_refused() {
    let (sandbox, env) = sandbox_env(&[]);
    let merge = |file: &str| env.cmd_args(&[&DAY[..], &["-o", file, "--merge"]].concat());
    let theirs = env.home.path().join("theirs.csv");
    fs::write(&theirs, "date,fees\n2024-01-01,1\n").unwrap();
    if !give_away(&theirs) {
        return;
    }
    merge("theirs.csv")
        .code(9)
        .error_line_like(
            "error: cannot write theirs.csv: theirs.csv belongs to user id 65534 (nobody)[..]",
        )
        .run();
    // A lock file of another user's: named as theirs, not blamed on the folder.
    fs::write(env.home.path().join("x.csv"), "date,fees\n").unwrap();
    let lock = env.home.path().join(".x.csv.lock");
    fs::write(&lock, "").unwrap();
    give_away(&lock);
    let run = merge("x.csv").code(9).any_stderr().run();
    assert!(
        run.stderr.contains("it belongs to user id 65534 (nobody)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("hint: the lock file .x.csv.lock is another user's"),
        "{}",
        run.stderr
    );
    // A hard link at the lock's name: the linked file is neither locked nor made private.
    fs::remove_file(&lock).unwrap();
    let victim = env.home.path().join("victim");
    fs::write(&victim, "").unwrap();
    chmod(&victim, 0o644);
    fs::hard_link(&victim, &lock).unwrap();
    let run = merge("x.csv").code(9).any_stderr().run();
    assert!(
        run.stderr.contains("it has 2 names (hard links)"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::metadata(&victim).unwrap().mode() & 0o7777, 0o644);
    sandbox.assert_no_requests("a refused run sent a request");
    assert_eq!(read(&env, "x.csv"), "date,fees\n");
}
