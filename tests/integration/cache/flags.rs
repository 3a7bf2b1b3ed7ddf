//! `--cache`, `--no-cache`, `--refresh`, config `cache`, and the cache with `--raw`, `--dry-run`,
//! another base URL and no key.

use super::{asked, asked_in_all, cached, fees_body, query, run_ok, sandbox, sharing_cache, FEES};
use crate::support::{Env, Sandbox, KEY};

#[test]
fn refresh_asks_for_every_day_and_keeps_the_new_answers() {
    let (sandbox, env) = sandbox();
    let cached = cached(&FEES);
    run_ok(&env, &cached);
    let refresh = [&FEES[..], &["--refresh", "-v"]].concat();
    let run = run_ok(&env, &refresh);
    assert_eq!(
        run.error_line(),
        "* cache: --refresh: asking for all 10 days in 1 request"
    );
    assert_eq!(asked(&sandbox, 1), [fees_body("2024-01-01", "2024-01-10")]);
    run_ok(&env, &cached);
    asked_in_all(&sandbox, 2, "the refreshed values serve the next run");
}

#[test]
fn the_cache_is_off_by_default_on_by_config_and_off_again_with_no_cache() {
    let (sandbox, env) = sandbox();
    let args = FEES.to_vec();
    run_ok(&env, &args);
    run_ok(&env, &args);
    assert_eq!(sandbox.requests().len(), 2);
    assert!(
        !env.home.path().join(".cache").exists(),
        "no file without --cache"
    );
    env.write_config("cache = true\n");
    run_ok(&env, &args);
    run_ok(&env, &args);
    asked_in_all(&sandbox, 3, "config cache = true serves the second run");
    run_ok(&env, &[&args[..], &["--no-cache"]].concat());
    assert_eq!(sandbox.requests().len(), 4, "--no-cache asks the service");
    env.cmd_args(&[&args[..], &["--no-cache", "--cache"]].concat())
        .code(2)
        .error_line("error: the argument '--no-cache' cannot be used with '--cache'")
        .run();
}

#[test]
fn another_base_url_never_sees_the_values_of_the_first() {
    let (first, env) = sandbox();
    let second = Sandbox::start(&[]);
    let args = cached(&FEES);
    run_ok(&env, &args);
    let mut other = sharing_cache(&env);
    other.set("CHAIN_METRICS_BASE_URL", &second.url);
    other.set("CHAIN_METRICS_API_KEY", KEY);
    run_ok(&other, &args);
    assert_eq!((first.requests().len(), second.requests().len()), (1, 1));
    let stats = run_ok(&env, &["cache", "stats", "--format", "tsv"]);
    let mut services: Vec<String> = [&first.url, &second.url]
        .iter()
        .map(|url| format!("{url}\t/api/chain-insights/fees\tETHEREUM\t10\t2024-01-01\t2024-01-10"))
        .collect();
    services.sort();
    assert_eq!(
        stats.stdout,
        format!(
            "service\tendpoint\tchain\tvalues\toldest\tnewest\n{}\n",
            services.join("\n")
        )
    );
}

#[test]
fn raw_never_reads_the_cache_and_refuses_the_cache_flags() {
    let (sandbox, env) = sandbox();
    run_ok(&env, &cached(&FEES));
    env.write_config("cache = true\n");
    let raw = run_ok(&env, &[&FEES[..], &["--raw"]].concat());
    assert_eq!(sandbox.requests().len(), 2, "--raw asked the service");
    assert!(
        raw.stdout
            .starts_with(r#"[{"date":"2024-01-01","fees":879768.88}"#),
        "{raw:?}"
    );
    env.cmd_args(&[&FEES[..], &["--raw", "--cache"]].concat())
        .code(2)
        .error_line("error: the argument '--raw' cannot be used with '--cache'")
        .run();
}

#[test]
fn dry_run_prints_only_the_requests_the_cache_cannot_answer() {
    let (sandbox, env) = sandbox();
    let dry = |start: &str| {
        let mut args = cached(&query("fees", "eth", start, "2024-01-10"));
        args.push("--dry-run");
        run_ok(&env, &args)
    };
    let cold = dry("2024-01-01");
    assert!(
        !env.home.path().join(".cache").exists(),
        "--dry-run creates no cache"
    );
    assert!(cold
        .stdout
        .contains(r#""start_date":"2024-01-01","end_date":"2024-01-10""#));
    run_ok(
        &env,
        &cached(&query("fees", "eth", "2024-01-05", "2024-01-10")),
    );
    let warm = dry("2024-01-01");
    assert_eq!(warm.stdout.lines().count(), 1, "{warm:?}");
    assert!(warm
        .stdout
        .contains(r#""start_date":"2024-01-01","end_date":"2024-01-04""#));
    let refresh = run_ok(&env, &[&FEES[..], &["--refresh", "--dry-run"]].concat());
    assert_eq!(
        refresh.stdout, cold.stdout,
        "--refresh would ask for every day"
    );
    let all = dry("2024-01-05");
    assert_eq!(all.stdout, "");
    assert_eq!(
        all.stderr,
        "note: every day asked is in the cache: nothing would be sent\n"
    );
    assert_eq!(sandbox.requests().len(), 1, "--dry-run sent nothing");
}

#[test]
fn a_fully_cached_run_needs_no_key() {
    let (sandbox, env) = sandbox();
    let args = cached(&FEES);
    let first = run_ok(&env, &args);
    let mut keyless = sharing_cache(&env);
    keyless.set("CHAIN_METRICS_BASE_URL", &sandbox.url);
    let second = run_ok(&keyless, &args);
    assert_eq!(second.stdout, first.stdout);
}

#[test]
fn the_config_keys_are_set_shown_and_checked() {
    let env = Env::new();
    run_ok(&env, &["config", "set", "cache", "true"]);
    run_ok(&env, &["config", "set", "cache_settle_days", "30"]);
    let show = run_ok(&env, &["config", "show"]);
    // The columns are padded to the longest value (the config file's path): compare words.
    let rows: Vec<String> = show
        .stdout
        .lines()
        .filter(|l| l.starts_with("cache"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        rows,
        [
            "cache true (config file)",
            "cache_settle_days 30 (config file)"
        ]
    );
    env.cmd("config set cache_settle_days 0").code(2).error_line("error: invalid value '0' for cache_settle_days: expected a whole number from 1 to 36600").run();
    env.write_config("cache_settle_days = 0\n");
    env.cmd("--sandbox fees -c eth --last 2").code(3).error_line("error: cache_settle_days 0 from config file is out of bounds: expected from 1 to 36600").run();
}

/// `cache stats` and `chains` write a listing: the formats that cannot (the charts, `sqlite`)
/// are refused as clap refuses any value, with the ones that can, read from the format table.
#[test]
fn a_listing_takes_only_the_formats_that_write_one() {
    let env = Env::new();
    for line in [
        "cache stats -f chart",
        "chains --format SVG",
        "cache stats -f sqlite",
    ] {
        let wrong = line.rsplit(' ').next().unwrap();
        env.cmd(line)
            .code(2)
            .stderr(format!("error: invalid value '{wrong}' for '--format <FMT>'\n  [possible values: table, csv, tsv, json, ndjson, markdown]\n\nFor more information, try '--help'.\n"))
            .run();
    }
    env.cmd("cache stats -f CSV")
        .stdout("service,endpoint,chain,values,oldest,newest\n")
        .any_stderr()
        .run();
}
