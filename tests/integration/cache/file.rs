//! The cache file: where it is, its modes, what it never holds, `cache path | stats | clear`, and
//! a damaged, newer, unwritable or locked file, which never fails a run.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use super::{asked_in_all, cache_file, cached, cached_warns, query, run_ok, sandbox, FEES};
use crate::support::{Env, KEY};

fn mode(path: PathBuf) -> u32 {
    std::fs::metadata(&path).unwrap().permissions().mode() & 0o777
}

#[test]
fn the_folder_is_private_and_the_file_holds_neither_key_nor_password() {
    let (sandbox, mut env) = sandbox();
    let url = sandbox.url.replace("http://", "http://ann:s3cret-pw@");
    env.set("CHAIN_METRICS_BASE_URL", &url);
    run_ok(&env, &cached(&FEES));
    let file = cache_file(&env);
    assert_eq!(mode(file.parent().unwrap().to_owned()), 0o700);
    // The WAL and shared-memory files go when the last connection closes; any left is private.
    for companion in ["", "-wal", "-shm"] {
        let path = PathBuf::from(format!("{}{companion}", file.display()));
        if !companion.is_empty() && !path.exists() {
            continue;
        }
        assert_eq!(mode(path.clone()), 0o600, "{}", path.display());
        let bytes = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        assert!(!bytes.contains(KEY) && !bytes.contains("s3cret-pw") && !bytes.contains("ann"));
    }
    let stats = run_ok(&env, &["cache", "stats"]);
    let row = format!(
        "{},/api/chain-insights/fees,ETHEREUM,10,2024-01-01,2024-01-10",
        sandbox.url
    );
    assert_eq!(stats.stdout.lines().nth(1), Some(row.as_str()));
}

#[test]
fn cache_path_honours_xdg_cache_home_when_absolute() {
    let mut env = Env::new();
    let home = env.home.path().display().to_string();
    let path = run_ok(&env, &["cache", "path"]);
    assert_eq!(
        path.stdout,
        format!("{home}/.cache/chain-metrics/cache.sqlite3\n")
    );
    env.set("XDG_CACHE_HOME", "relative/cache");
    let path = run_ok(&env, &["cache", "path"]);
    assert_eq!(
        path.stdout,
        format!("{home}/.cache/chain-metrics/cache.sqlite3\n")
    );
    env.set("XDG_CACHE_HOME", "/var/tmp/elsewhere");
    let path = run_ok(&env, &["cache", "path"]);
    assert_eq!(
        path.stdout,
        "/var/tmp/elsewhere/chain-metrics/cache.sqlite3\n"
    );
}

#[test]
fn cache_stats_and_clear_before_a_day_then_all() {
    let (sandbox, env) = sandbox();
    let file = cache_file(&env).display().to_string();
    let empty = run_ok(&env, &["cache", "stats"]);
    assert_eq!(
        empty.stdout,
        "service,endpoint,chain,values,oldest,newest\n"
    );
    assert_eq!(empty.stderr, format!("{file}: 0 values, 0 bytes\n"));
    run_ok(&env, &cached(&FEES));
    run_ok(
        &env,
        &cached(&query("users", "base", "2024-01-03", "2024-01-06")),
    );
    let stats = run_ok(&env, &["cache", "stats", "--format", "json"]);
    // serde_json writes the keys of an object in order.
    let row = |endpoint: &str, chain: &str, values: u32, oldest: &str, newest: &str| {
        format!(
            "  {{\n    \"chain\": \"{chain}\",\n    \"endpoint\": \"/api/chain-insights/{endpoint}\",\n    \"newest\": \"{newest}\",\n    \"oldest\": \"{oldest}\",\n    \"service\": \"{}\",\n    \"values\": {values}\n  }}",
            sandbox.url
        )
    };
    assert_eq!(
        stats.stdout,
        format!(
            "[\n{},\n{}\n]\n",
            row("active_users", "BASE", 4, "2024-01-03", "2024-01-06"),
            row("fees", "ETHEREUM", 10, "2024-01-01", "2024-01-10")
        )
    );
    assert!(
        stats.stderr.starts_with(&format!("{file}: 14 values, ")),
        "{stats:?}"
    );
    let clear = run_ok(&env, &["cache", "clear", "--before", "2024-01-05"]);
    assert_eq!(
        clear.stderr,
        format!("removed 6 values of days before 2024-01-05 from {file}\n")
    );
    let stats = run_ok(&env, &["cache", "stats", "--format", "tsv"]);
    assert_eq!(
        stats.stdout,
        format!(
            "service\tendpoint\tchain\tvalues\toldest\tnewest\n{0}\t/api/chain-insights/active_users\tBASE\t2\t2024-01-05\t2024-01-06\n{0}\t/api/chain-insights/fees\tETHEREUM\t6\t2024-01-05\t2024-01-10\n",
            sandbox.url
        )
    );
    let clear = run_ok(&env, &["cache", "clear"]);
    assert_eq!(clear.stderr, format!("removed 8 values from {file}\n"));
    let stats = run_ok(&env, &["cache", "stats"]);
    assert_eq!(
        stats.stdout,
        "service,endpoint,chain,values,oldest,newest\n"
    );
    env.cmd("cache clear --before 2024-13-01")
        .code(2)
        .error_line_like("error: invalid value '2024-13-01' for '--before <DAY>'[..]")
        .run();
}

#[test]
fn a_damaged_file_is_one_warning_and_the_run_goes_on_then_clear_removes_it() {
    let (sandbox, env) = sandbox();
    let plain = run_ok(&env, &FEES);
    let file = cache_file(&env);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "not a database, whatever it was\n".repeat(200)).unwrap();
    let warning = format!("warning: the response cache {} is damaged or not a cache file (`chain-metrics cache clear` removes it): asking the service for every day\n", file.display());
    cached_warns(&env, &FEES, &plain, warning);
    assert_eq!(sandbox.requests().len(), 2);
    env.cmd("cache stats").code(3).error_line(format!("error: the response cache {} is damaged or not a cache file (`chain-metrics cache clear` removes it)", file.display())).run();
    let clear = run_ok(&env, &["cache", "clear"]);
    assert_eq!(
        clear.stderr,
        format!(
            "removed the response cache {}, which this version cannot read\n",
            file.display()
        )
    );
    run_ok(&env, &cached(&FEES));
    run_ok(&env, &cached(&FEES));
    asked_in_all(&sandbox, 3, "a fresh cache serves the second run");
}

#[test]
fn a_file_from_a_newer_version_is_left_alone_with_a_warning() {
    let (_sandbox, env) = sandbox();
    run_ok(&env, &cached(&FEES));
    let file = cache_file(&env);
    let db = rusqlite::Connection::open(&file).unwrap();
    db.pragma_update(None, "user_version", 99).unwrap();
    drop(db);
    let run = run_ok(&env, &cached(&FEES));
    assert_eq!(
        run.stderr,
        format!("warning: the response cache {} cannot be used (schema version 99, written by another version of chain-metrics (this one reads 1)): asking the service for every day\n", file.display())
    );
    env.cmd("cache stats").code(3).stdout("").run();
    env.cmd("cache clear --before 2024-01-05").code(3).run();
    assert!(file.exists(), "--before never removes the whole file");
    run_ok(&env, &["cache", "clear"]);
    assert!(!file.exists());
}

#[test]
fn an_unwritable_cache_folder_is_one_warning_and_the_run_goes_on() {
    let (sandbox, mut env) = sandbox();
    let plain = run_ok(&env, &FEES);
    let not_a_folder = env.home.path().join("a-file");
    std::fs::write(&not_a_folder, "").unwrap();
    env.set("XDG_CACHE_HOME", not_a_folder.to_str().unwrap());
    let warning = format!("warning: the response cache {}/chain-metrics/cache.sqlite3 cannot be written (Not a directory (os error 20)): asking the service for every day\n", not_a_folder.display());
    cached_warns(&env, &FEES, &plain, warning);
    assert_eq!(sandbox.requests().len(), 2);
}

#[test]
fn a_cache_locked_by_another_writer_is_one_warning_and_the_run_goes_on() {
    let (_sandbox, env) = sandbox();
    run_ok(
        &env,
        &cached(&["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-02"]),
    );
    let plain = run_ok(&env, &FEES);
    let file = cache_file(&env);
    let mut db = rusqlite::Connection::open(&file).unwrap();
    let writer = db
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .unwrap();
    let warning = format!("warning: the response cache {} is locked by another run (waited 2 s): this run's answers were not kept\n", file.display());
    cached_warns(&env, &FEES, &plain, warning);
    drop(writer);
}
