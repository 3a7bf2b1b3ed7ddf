//! Files the tool did not write itself: a config file edited by hand, merge files from spreadsheets and `jq -S` (a BOM, CRLF,
//! blank lines, members in another order), and `-o` targets at the edges (names at the length
//! limit, read-only files and folders, symlink loops, temp files of killed runs).

use std::time::{Duration, SystemTime};

use crate::support::files::{names, read, write};
use crate::support::{sandbox_env, Cmd, Env};

/// A run for 2024-01-02 of ETHEREUM, followed by `more` arguments.
fn day<'e>(env: &'e Env, more: &[&str]) -> Cmd<'e> {
    let args = ["fees", "-c", "eth", "-s", "2024-01-02", "-e", "2024-01-02"];
    env.cmd_args(&[&args[..], more].concat())
}

/// Merges 2024-01-02 of `chains` into `file`, written as `old` first: the exit code, the first
/// line of stderr, and the file afterwards.
fn merge(env: &Env, chains: &str, file: &str, old: &str) -> (i32, String, String) {
    write(env, file, old);
    let args = format!("fees -c {chains} -s 2024-01-02 -e 2024-01-02 --merge -o {file}");
    let run = env
        .cmd_args(&args.split(' ').collect::<Vec<_>>())
        .any_outcome()
        .run();
    (run.code, run.error_line().to_owned(), read(env, file))
}

#[test]
fn merge_reads_json_in_any_member_order_and_files_with_a_bom_and_crlf() {
    let (_sandbox, env) = sandbox_env(&[]);
    let ok = |text: &str| (0, String::new(), text.to_owned());
    // `jq -S` sorts the members: chain before date.
    let sorted = "\u{feff}[\n  {\n    \"chain\": \"ARBITRUM\",\n    \"date\": \"2024-01-01\",\n    \"fees\": 7\n  }\n]\n";
    assert_eq!(
        merge(&env, "arb,eth", "sorted.json", sorted),
        ok("[\n  {\"date\":\"2024-01-01\",\"chain\":\"ARBITRUM\",\"fees\":7},\n  {\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":826665.76},\n  {\"date\":\"2024-01-02\",\"chain\":\"ARBITRUM\",\"fees\":71927.52}\n]\n")
    );
    // What a spreadsheet saves: a BOM, CRLF line ends, quoted fields.
    let sheet = "\u{feff}\"date\",\"chain\",\"fees\"\r\n\"2024-01-01\",\"ETHEREUM\",\"1.5\"\r\n";
    assert_eq!(
        merge(&env, "eth", "sheet.csv", sheet),
        ok("date,chain,fees\n2024-01-01,ETHEREUM,1.5\n2024-01-02,ETHEREUM,826665.76\n")
    );
    let ndjson = "\u{feff}{\"fees\":2,\"chain\":\"ETHEREUM\",\"date\":\"2024-01-01\"}\r\n";
    assert_eq!(
        merge(&env, "eth", "bom.ndjson", ndjson),
        ok("{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":2}\n{\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":826665.76}\n")
    );
}

#[test]
fn merge_errors_name_the_line_an_editor_shows_whatever_the_line_ends() {
    let (_sandbox, env) = sandbox_env(&[]);
    let cases = [
        ("crlf.csv", "date,chain,fees\r\n2024-01-01,ETHEREUM,1\r\n2024-01-03,ETHEREUM,n/a\r\n", "line 3: 'n/a' is not a number"),
        ("blank.csv", "\n\ndate,chain,fees\n2024-01-01,ETHEREUM,1\n\n2024-01-03,ETHEREUM,x\n", "line 6: 'x' is not a number"),
        ("short.csv", "date,chain,fees\r\n2024-01-01,ETHEREUM,1\r\n2024-01-03,ETHEREUM\r\n", "line 3: 2 cells where the header has 3"),
        ("crlf.ndjson", "\r\n{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":1}\r\n\r\n{\"date\":\"2024-01-03\",\"chain\":\"ETHEREUM\",\"fees\":\"n/a\"}\r\n", "line 4: 'n/a' is not a number"),
        ("rows.json", "[{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":1},{\"fees\":\"x\",\"chain\":\"ETHEREUM\",\"date\":\"2024-01-03\"}]", "row 2: 'x' is not a number"),
    ];
    for (file, text, why) in cases {
        let error = format!("error: {file} cannot be merged: {why}; the file is left as it was");
        assert_eq!(
            merge(&env, "eth", file, text),
            (9, error, text.to_owned()),
            "{file}"
        );
    }
}

#[test]
fn output_names_at_the_length_limit_still_get_a_temp_file_that_fits() {
    let (_sandbox, env) = sandbox_env(&[]);
    // 255 bytes, the most a file name takes; two-byte characters so a cut must respect them.
    let name = format!("{}.csv", "é".repeat(125) + "x");
    assert_eq!(name.len(), 255);
    // Merged first: a plain write of one chain has no chain column for a merge to trust.
    for merge in [&["--merge"][..], &[]] {
        day(&env, &[&["-o", &name], merge].concat()).run();
    }
    assert_eq!(read(&env, &name), "date,fees\n2024-01-02,826665.76\n");
    assert_eq!(names(env.home.path()), [name]);
}

#[test]
fn a_read_only_target_a_symlink_loop_and_a_folder_without_room_are_refused_intact() {
    use std::os::unix::fs::PermissionsExt;
    let (_sandbox, env) = sandbox_env(&[]);
    let home = env.home.path();
    write(&env, "kept.csv", "old\n");
    std::fs::set_permissions(home.join("kept.csv"), PermissionsExt::from_mode(0o444)).unwrap();
    std::os::unix::fs::symlink("loop-b", home.join("loop-a")).unwrap();
    std::os::unix::fs::symlink("loop-a", home.join("loop-b")).unwrap();
    let cases = [
        ("kept.csv", "error: cannot write kept.csv: it is read-only (mode 0444)\nhint: make it writable (chmod u+w) or write to another file\n"),
        ("loop-a", "error: cannot write loop-a: too many levels of symbolic links (a loop?)\n"),
    ];
    for (target, stderr) in cases {
        day(&env, &["-o", target]).code(9).stderr(stderr).run();
    }
    assert_eq!(read(&env, "kept.csv"), "old\n");
    assert!(std::fs::symlink_metadata(home.join("loop-a"))
        .unwrap()
        .is_symlink());
    // sysfs refuses new files even to root: the error says a temp file is needed there.
    let run = day(&env, &["-o", "/sys/chain-metrics.csv"]).code(9).run();
    let (error, hint) = run.stderr.split_once('\n').unwrap();
    assert!(
        error.starts_with("error: cannot write /sys/chain-metrics.csv: /sys refused a temporary file (")
            && error.ends_with("), and one is needed beside the file: the new content goes there first, then is renamed over it"),
        "{error}"
    );
    assert_eq!(
        hint,
        "hint: make /sys writable, or write to a file in another folder\n"
    );
    assert_eq!(names(home), ["kept.csv", "loop-a", "loop-b"]);
}

#[test]
fn temp_files_of_killed_runs_are_named_as_ours_and_cleaned_up_by_the_next_write() {
    let (_sandbox, env) = sandbox_env(&[]);
    let home = env.home.path();
    let stale = ".fees.csv.chain-metrics.a1B2c3.tmp";
    let fresh = ".fees.csv.chain-metrics.d4E5f6.tmp";
    // Not ours: another program's file, however old, is left alone.
    let foreign = ".fees.csv.other.tmp";
    for name in [stale, fresh, foreign] {
        write(&env, name, "partial");
    }
    let hour_ago = SystemTime::now() - Duration::from_secs(3600);
    for name in [stale, foreign] {
        let file = std::fs::File::options()
            .write(true)
            .open(home.join(name))
            .unwrap();
        file.set_modified(hour_ago).unwrap();
    }
    day(&env, &["-o", "fees.csv"]).run();
    // A recent one may belong to a run still writing: it stays until it is old.
    assert_eq!(names(home), [fresh, foreign, "fees.csv"]);
}

#[test]
fn unset_keeps_the_comments_around_the_removed_key() {
    let env = Env::with_config(
        "# chain-metrics, by hand\n\n# the slow link\ntimeout = 60 # seconds\n# keep low\nretries = 1\n\n# CI below\n[profiles.ci]\n# ci only\njobs = 2\n\n[profiles.b]\njobs = 3\n",
    );
    for args in [
        &["config", "unset", "timeout"][..],
        &["--profile", "ci", "config", "unset", "jobs"],
        &["config", "unset", "retries"],
    ] {
        env.cmd_args(&[&["-q"], args].concat()).run();
    }
    assert_eq!(
        std::fs::read_to_string(env.config_path()).unwrap(),
        "# chain-metrics, by hand\n\n# the slow link\n# keep low\n\n# CI below\n[profiles.ci]\n# ci only\n\n[profiles.b]\njobs = 3\n"
    );
    env.cmd("-q --profile b config unset jobs").run();
    assert!(std::fs::read_to_string(env.config_path())
        .unwrap()
        .ends_with("[profiles.b]\n"));
}
