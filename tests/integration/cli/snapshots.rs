//! Output a reviewer should read, as committed snapshots under tests/integration/snapshots/:
//! the `--help` of every command and subcommand (help/*.txt), the `-h` of the query commands
//! (short_help/*.txt) and `config show`. The fault matrix's table is in wire/fault_matrix.rs.
//!
//! After a deliberate change of output, rewrite the files and review the diff before committing:
//!
//!     SNAPSHOTS=overwrite cargo test --test integration
//!
//! With CI set (CI=true, as `.ci/run` runs) a mismatch always fails and nothing is written.

use crate::support::{check_snapshot, snapshots_dir, Env, KEY};

/// The help is wrapped to the terminal's width; it is taken at a fixed one (stdout is a pipe,
/// and COLUMNS says 100), so the snapshots are the same everywhere.
fn help_env() -> Env {
    let mut env = Env::new();
    env.set("COLUMNS", "100");
    env
}

/// The subcommands a help lists under `Commands:`, `help` left out.
fn listed_commands(help: &str) -> Vec<String> {
    let Some((_, rest)) = help.split_once("\nCommands:\n") else {
        return Vec::new();
    };
    rest.lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every command and subcommand's help matches help/chain-metrics[-COMMAND[-SUB]].txt, the
/// commands found as a user finds them, in each help's `Commands:` list; and no snapshot is
/// left of a command that is gone.
#[test]
fn every_help_matches_its_snapshot() {
    let env = help_env();
    let mut paths: Vec<Vec<String>> = vec![Vec::new()];
    let mut names = Vec::new();
    let mut failures = Vec::new();
    while let Some(path) = paths.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let run = env.cmd_args(&args).run();
        let name = ["chain-metrics"]
            .into_iter()
            .chain(path.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("-");
        if let Err(error) = check_snapshot(&format!("help/{name}.txt"), &run.stdout, &[]) {
            failures.push(error);
        }
        names.push(format!("{name}.txt"));
        for sub in listed_commands(&run.stdout) {
            paths.push([path.clone(), vec![sub]].concat());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    names.sort();
    let mut files: Vec<String> = std::fs::read_dir(snapshots_dir().join("help"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, names, "a help snapshot without its command");
    assert!(names.len() >= 18, "{names:?}");
}

/// The `-h` of the query commands, one screen with their expert flags left to `--help`, matches
/// short_help/chain-metrics-COMMAND.txt.
#[test]
fn every_query_short_help_matches_its_snapshot() {
    let env = help_env();
    let mut failures = Vec::new();
    for command in ["fees", "users", "social", "report"] {
        let run = env.cmd_args(&[command, "-h"]).run();
        let name = format!("short_help/chain-metrics-{command}.txt");
        failures.extend(check_snapshot(&name, &run.stdout, &[]).err());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `config show` with a value from each source: the config file, a profile in it, the
/// environment, a flag and the defaults; the temporary config file's path is [CONFIG].
#[test]
fn config_show_matches_its_snapshot() {
    // A HOME of a fixed length (/tmp/.tmpXXXXXX): the path sets the width of the value
    // column, so with another length the columns would move.
    let home = tempfile::Builder::new().tempdir_in("/tmp").unwrap();
    let mut env = Env::in_home(home);
    env.write_config(&format!(
        "base_url = \"https://metrics.example/v2\"\napi_key = \"{KEY}\"\ntimeout = 20\n\n[profiles.staging]\nretries = 1\njobs = 2\n"
    ));
    env.set("CHAIN_METRICS_PROFILE", "staging");
    let run = env.cmd("--jobs 4 config show").run();
    let config = env.config_path().display().to_string();
    if let Err(error) = check_snapshot("config_show.txt", &run.stdout, &[("[CONFIG]", config)]) {
        panic!("{error}");
    }
}
