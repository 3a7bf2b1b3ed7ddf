//! Files another user or a hostile export put in the way: links planted in a shared
//! folder, a link at the lock's name, descriptors the caller never passed, merge files holding
//! a key twice or cells full of escape bytes; a replaced export keeps its mode and group, and
//! a merge file of many rows is read in one pass.

use std::fs;
use std::os::unix::fs::{lchown, symlink, MetadataExt};

use crate::support::files::{made_ids, names, read, write, write_with_mode};
use crate::support::owners::{chmod, give_away, OTHER};
use crate::support::{fees_on, sandbox_env, Cmd, Env};

/// The day these tests merge (the 2nd, so that a file may hold the 1st too).
const DAY: [&str; 7] = fees_on("2024-01-02");
const ROWS: &str = "date,fees\n2024-01-02,826665.76\n";

fn day<'e>(env: &'e Env, more: &[&str]) -> Cmd<'e> {
    env.cmd_args(&[&DAY[..], more].concat())
}

/// A folder anyone may write to, with the sticky bit, as `/tmp` is.
fn sticky_folder(env: &Env, name: &str) -> std::path::PathBuf {
    let folder = env.home.path().join(name);
    fs::create_dir(&folder).unwrap();
    chmod(&folder, 0o1777);
    folder
}

fn planted_error(env: &Env, link: &str, start: &str, end: &str) -> String {
    let me = nix_euid(env);
    let name = nix::unistd::User::from_uid(me.into())
        .unwrap()
        .map(|u| format!(" ({})", u.name))
        .unwrap_or_default();
    format!(
        "error: {start}{} is a symbolic link owned by user id {OTHER} (nobody), neither you (user id {me}{name}) nor root, in a folder another user can write to (mode 1777, owned by user id {me}{name}): it is not followed, since whoever made it could point it at any file of yours{end}",
        env.home.path().join(link).display(),
    )
}

/// This run's user id, as the binary sees it: the owner of a file it makes.
fn nix_euid(env: &Env) -> u32 {
    made_ids(env).0
}

#[test]
fn a_link_another_user_planted_in_a_sticky_folder_is_refused_and_its_target_kept() {
    let (sandbox, env) = sandbox_env(&[]);
    sticky_folder(&env, "shared");
    write(&env, "victim.csv", "secret\n");
    symlink("../victim.csv", env.home.path().join("shared/out.csv")).unwrap();
    if !give_away(&env.home.path().join("shared/out.csv")) {
        return;
    }
    let hint = "hint: remove the link if it is not meant to be there (or have the folder's owner make it), or write to another file\n";
    let error = planted_error(&env, "shared/out.csv", "cannot write shared/out.csv: ", "");
    day(&env, &["-o", "shared/out.csv"])
        .code(9)
        .stderr(format!("{error}\n{hint}"))
        .run();
    let error = planted_error(
        &env,
        "shared/out.csv",
        "shared/out.csv cannot be read to merge: ",
        "; the file is left as it was",
    );
    day(&env, &["-o", "shared/out.csv", "--merge"])
        .code(9)
        .stderr(format!("{error}\n{hint}"))
        .run();
    assert_eq!(read(&env, "victim.csv"), "secret\n");
    assert!(fs::symlink_metadata(env.home.path().join("shared/out.csv"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(names(&env.home.path().join("shared")), ["out.csv"]);
    sandbox.assert_no_requests("a refused run sent a request");
}

#[test]
fn links_of_the_user_are_followed_but_not_those_of_another_user_who_owns_the_folder() {
    let (_sandbox, env) = sandbox_env(&[]);
    let mine = sticky_folder(&env, "mine");
    let theirs = sticky_folder(&env, "theirs");
    symlink("../a.csv", mine.join("out.csv")).unwrap();
    symlink("../b.csv", theirs.join("out.csv")).unwrap();
    day(&env, &["-o", "mine/out.csv"]).run();
    assert_eq!(read(&env, "a.csv"), ROWS);
    // A link of the folder's owner: the kernel would follow it, but whoever owns the folder
    // chooses where it points, and this run would write over a file of the user's there.
    if !give_away(&theirs) || !give_away(&theirs.join("out.csv")) {
        return;
    }
    day(&env, &["-o", "theirs/out.csv"])
        .code(9)
        .error_line_like("error: cannot write theirs/out.csv: [..]/theirs/out.csv is a symbolic link owned by user id 65534 (nobody), neither you ([..]) nor root, in a folder another user can write to (mode 1777, owned by user id 65534 (nobody)): [..]")
        .any_stderr()
        .run();
    assert!(!env.home.path().join("b.csv").exists());
}

#[test]
fn a_link_at_the_lock_s_name_is_never_followed() {
    let (_sandbox, env) = sandbox_env(&[]);
    let shared = sticky_folder(&env, "shared");
    // Even the user's own link: a lock file is opened without following links (O_NOFOLLOW).
    symlink("../made-by-the-lock", shared.join(".x.csv.lock")).unwrap();
    day(&env, &["-o", "shared/x.csv", "--merge"])
        .code(9)
        .stderr("error: cannot lock shared/x.csv: cannot use the lock file shared/.x.csv.lock (it is a symbolic link, and a lock file is never followed); not merged; the file is left as it was\nhint: remove the link shared/.x.csv.lock if it is not meant to be there\n")
        .run();
    assert_eq!(names(env.home.path()), ["shared"]);
    assert_eq!(names(&shared), [".x.csv.lock"]);
}

#[test]
fn the_lock_file_is_made_private_whatever_the_umask() {
    let (_sandbox, env) = sandbox_env(&[]);
    write(&env, "x.csv", "date,fees\n");
    // Another run holds the lock on a file the umask left open to all.
    let lock_path = env.home.path().join(".x.csv.lock");
    let lock = fs::File::create(&lock_path).unwrap();
    chmod(&lock_path, 0o666);
    lock.lock().unwrap();
    env.shell(&format!(
        "umask 000; chain-metrics {} -o x.csv --merge --lock-timeout 0.001",
        DAY.join(" ")
    ))
    .code(9)
    .run();
    let mode = fs::metadata(&lock_path).unwrap().mode() & 0o7777;
    assert_eq!(mode, 0o600, "{mode:o}");
    assert_eq!(read(&env, "x.csv"), "date,fees\n");
}

#[test]
fn a_replaced_export_keeps_its_mode_and_group_but_never_set_id_bits() {
    let (_sandbox, env) = sandbox_env(&[]);
    let path = write_with_mode(&env, "out.csv", "old\n", 0o640);
    // The group of the file replaced is kept where the user may give it: root may give any
    // (a `root:www-data` 0640 export stays readable by the web server), others their own.
    let (me, _) = made_ids(&env);
    if me != 0 || lchown(&path, None, Some(OTHER)).is_err() {
        eprintln!("skipped: only root can give a file a group it is not in (CI runs as root)");
        return;
    }
    env.shell(&format!(
        "umask 000; chain-metrics {} -o out.csv",
        DAY.join(" ")
    ))
    .run();
    let metadata = fs::metadata(&path).unwrap();
    assert_eq!(read(&env, "out.csv"), ROWS);
    assert_eq!(
        (metadata.mode() & 0o7777, metadata.gid()),
        (0o640, OTHER),
        "mode {:o}",
        metadata.mode()
    );
    // Set-id bits never: a 06755 file would become a set-id program of the user's. (Another
    // user's file is not replaced at all: `trust_rule`.)
    chmod(&path, 0o6755);
    day(&env, &["-o", "out.csv"]).run();
    assert_eq!(fs::metadata(&path).unwrap().mode() & 0o7777, 0o755);
}

#[test]
fn a_descriptor_the_caller_did_not_pass_is_refused_and_the_cache_kept_whole() {
    let (_sandbox, env) = sandbox_env(&[]);
    day(&env, &["--cache"]).run();
    // Whatever this test's own process leaves open is closed first, so that descriptors 3 and
    // up are the run's own: the cache database, the sockets. One `exec` closes them all: a
    // redirection around each close (`2>/dev/null`) would make bash park stderr on a
    // descriptor from 10 up, which a later close in the loop then takes away.
    let close: Vec<String> = (3..=254).map(|n| format!("{n}>&-")).collect();
    let run = env
        .shell(&format!(
            "exec {}
         for fd in $(seq 3 11); do chain-metrics {} --cache -o /dev/fd/$fd; echo \"exit $?\"; done",
            close.join(" "),
            DAY.join(" ")
        ))
        .any_outcome()
        .run();
    let refusals: String = (3..12)
        .map(|fd| format!("error: cannot write /dev/fd/{fd}: it names descriptor {fd}, which the caller did not pass to this run (it was not open when the run started)\nhint: open descriptor {fd} where the command is run (e.g. {fd}>>FILE in the shell), or give a file name\n"))
        .collect();
    assert_eq!((run.stdout, run.stderr), ("exit 9\n".repeat(9), refusals));
    day(&env, &["--cache"]).stdout(ROWS).run();
    // One passed by the shell is written to.
    env.shell(&format!(
        "chain-metrics {} -o /dev/fd/7 7>fd.csv",
        DAY.join(" ")
    ))
    .run();
    assert_eq!(read(&env, "fd.csv"), ROWS);
}

/// Merges 2024-01-02 of `chains` into `file`, written as `old` first: the exit code and stderr.
fn merge(env: &Env, chains: &str, file: &str, old: &str) -> (i32, String) {
    write(env, file, old);
    let args = ["fees", "-c", chains, "-s", "2024-01-02", "-e", "2024-01-02"];
    let run = env
        .cmd_args(&[&args[..], &["--merge", "-o", file]].concat())
        .any_outcome()
        .run();
    (run.code, run.stderr)
}

#[test]
fn a_merge_file_holding_a_key_twice_is_refused_naming_both_places() {
    let (sandbox, env) = sandbox_env(&[]);
    let cases = [
        ("eth,base", "long.csv", "date,chain,fees\r\n2024-01-01,ETHEREUM,1\r\n2024-01-01,BASE,2\r\n\r\n2024-01-01,ETHEREUM,3\r\n", "2024-01-01 ETHEREUM twice, on line 2 and on line 5"),
        ("eth", "day.tsv", "date\tchain\tfees\n2024-01-03\tETHEREUM\t1\n2024-01-03\tETHEREUM\t1\n", "2024-01-03 ETHEREUM twice, on line 2 and on line 3"),
        ("eth", "rows.json", "[{\"date\":\"2024-01-01\",\"chain\":\"BASE\",\"fees\":1},{\"fees\":null,\"chain\":\"BASE\",\"date\":\"2024-01-01\"}]", "2024-01-01 BASE twice, on row 1 and on row 2"),
        ("eth,base", "rows.ndjson", "{\"date\":\"2024-01-01\",\"chain\":\"BASE\",\"fees\":1}\n\n{\"date\":\"2024-01-01\",\"chain\":\"BASE\",\"fees\":2}\n", "2024-01-01 BASE twice, on line 1 and on line 3"),
    ];
    for (chains, file, text, twice) in cases {
        assert_eq!(
            merge(&env, chains, file, text),
            (9, format!("error: {file} cannot be merged: it holds the key {twice}: remove one of them; the file is left as it was\n")),
            "{file}"
        );
        assert_eq!(read(&env, file), text, "{file} is left byte for byte");
    }
    // Wide rows are keyed by the date alone.
    let wide = "date,ETHEREUM,BASE\n2024-01-01,1,2\n2024-01-01,3,4\n";
    write(&env, "wide.csv", wide);
    env
        .cmd_args(
            &[
                &DAY[..],
                &["-c", "base", "--wide", "--merge", "-o", "wide.csv"],
            ]
            .concat(),
        )
        .code(9)
        .stderr("error: wide.csv cannot be merged: it holds the key 2024-01-01 twice, on line 2 and on line 3: remove one of them; the file is left as it was\n")
        .run();
    sandbox.assert_no_requests("a refused merge sent a request");
}

#[test]
fn cells_echoed_in_merge_errors_are_cut_and_their_control_characters_replaced() {
    let (_sandbox, env) = sandbox_env(&[]);
    let number = format!("2024-01-01,ETHEREUM,\u{1b}[31m{}\n", "9".repeat(200_000));
    let shown = format!("'\u{fffd}[31m{}…'", "9".repeat(35));
    let cases = [
        ("eth", number, format!("line 2: {shown} is not a number")),
        (
            "eth,base",
            "2024-01-01,\u{202e}BASE\u{7},1\n".into(),
            "line 2: '\u{fffd}BASE\u{fffd}' is not a chain name".into(),
        ),
        (
            "eth",
            "2024-01-01\u{8}\u{1b}c,ETHEREUM,1\n".into(),
            "line 2: '2024-01-01\u{fffd}\u{fffd}c' is not a date: expected YYYY-MM-DD".into(),
        ),
    ];
    for (chains, row, why) in cases {
        // A merge file names its chains, one chain too.
        let text = format!("date,chain,fees\n{row}");
        assert_eq!(
            merge(&env, chains, "cells.csv", &text),
            (
                9,
                format!("error: cells.csv cannot be merged: {why}; the file is left as it was\n")
            )
        );
        assert_eq!(read(&env, "cells.csv"), text);
    }
    let header = format!("date,fees\u{1b}]0;x\u{7}{}\n", ",".repeat(300));
    let (code, stderr) = merge(&env, "eth", "head.csv", &header);
    let found = format!("date,fees\u{fffd}]0;x\u{fffd}{}…", ",".repeat(185));
    let first = stderr.lines().next().unwrap();
    assert_eq!(code, 9);
    let start = format!(
        "error: head.csv has the columns {found} but this command writes date,chain,fees ("
    );
    assert!(first.starts_with(&start), "{first}");
    assert!(
        first.ends_with(": not merged; the file is left as it was"),
        "{first}"
    );
}

#[test]
fn a_merge_file_of_many_rows_is_read_in_one_pass_with_exact_line_numbers() {
    let (_sandbox, env) = sandbox_env(&[]);
    // Every day from 2015 to 2023 of every chain, 19,722 rows (a quadratic count would take
    // minutes), and a bad cell on the last line. Dates before 2015 are refused as typos.
    let mut text = String::from("date,chain,fees\r\n");
    let first = chrono::NaiveDate::from_ymd_opt(2015, 1, 1).unwrap();
    let chains = ["ETHEREUM", "ARBITRUM", "BSC", "OPTIMISM", "BASE", "POLYGON"];
    for (day, date) in first.iter_days().take(3287).enumerate() {
        for chain in chains {
            text.push_str(&format!("{date},{chain},{day}.5\r\n"));
        }
    }
    let good = text.clone();
    text.push_str("2023-12-31,BASE,x\r\n");
    assert_eq!(
        merge(&env, "eth,base", "big.csv", &text),
        (9, "error: big.csv cannot be merged: line 19724: 'x' is not a number; the file is left as it was\n".into())
    );
    // The run asks a day after one the file lacks: the plain --merge names that hole.
    assert_eq!(
        merge(&env, "eth,base", "big.csv", &good),
        (0, "warning: big.csv lacks values for days inside its own range that this run did not \
            ask: ETHEREUM 2024-01-01; BASE 2024-01-01\nhint: add --resume to this command: each run then asks the missing ones again\n".into())
    );
    let merged = read(&env, "big.csv");
    assert_eq!(merged.lines().count(), 19_725);
    assert!(
        merged.ends_with("2024-01-02,ETHEREUM,826665.76\n2024-01-02,BASE,117115.82\n"),
        "{}",
        &merged[merged.len() - 200..]
    );
}
