//! Cron grade: `--strict` (and config `strict`) exits 10 when asked values are
//! missing, after writing what came; a member left out of a record is warned about; a run that
//! had to retry says so in one line at the end; `-v` shows the service's rate-limit headers.

use crate::support::files::read;
use snapbox::str;

use crate::support::{empty_service, sandbox_env, Env, Reply, Stub};

/// Fees for ETHEREUM with the 2nd missing, and ARBITRUM with a record that lacks `fees` (3rd).
fn gappy_service() -> Stub {
    Stub::start(|seen| match seen.body.contains("ETHEREUM") {
        true => Reply::json(
            200,
            r#"[{"date":"2024-01-01","fees":1.5},{"date":"2024-01-03","fees":3}]"#,
        ),
        false => Reply::json(
            200,
            r#"[{"date":"2024-01-01","fees":7},{"date":"2024-01-02","fees":8},{"date":"2024-01-03"}]"#,
        ),
    })
}

const RANGE: &str = "-s 2024-01-01 -e 2024-01-03";

const GAPPY_CSV: &str = "date,chain,fees\n2024-01-01,ETHEREUM,1.5\n2024-01-01,ARBITRUM,7\n2024-01-02,ARBITRUM,8\n2024-01-03,ETHEREUM,3\n2024-01-03,ARBITRUM,\n";

const GAPPY_WARNINGS: &str =
    "warning: ETHEREUM fees: no data for 2024-01-02 (left out, not zero)\n\
     warning: ARBITRUM fees: the records for 2024-01-03 have no fees (left empty, not zero)\n";

const STRICT_HINT: &str =
    "hint: ask again later for the missing days, or leave out --strict (and config strict) to accept gaps\n";

#[test]
fn strict_writes_what_came_then_exits_10_naming_each_missing_value() {
    let stub = gappy_service();
    let env = Env::with_service(&stub.url);
    let line = format!("fees -c eth,arb -o fees.csv {RANGE}");
    env.cmd(&line).stderr(GAPPY_WARNINGS).run();
    let expected = format!(
        "{GAPPY_WARNINGS}error: --strict: incomplete data: 2 of 6 asked values are missing: ETHEREUM fees: 2024-01-02; ARBITRUM fees: 2024-01-03; everything that came was written\n{STRICT_HINT}"
    );
    env.cmd(&format!("{line} --strict"))
        .code(10)
        .stdout("")
        .stderr(expected)
        .run();
    assert_eq!(read(&env, "fees.csv"), GAPPY_CSV);
}

#[test]
fn config_strict_true_does_the_same_and_quiet_keeps_only_the_error() {
    let stub = gappy_service();
    let env = Env::with_service(&stub.url);
    env.write_config("strict = true\n");
    let run = env
        .cmd(&format!("-q fees -c eth,arb {RANGE}"))
        .code(10)
        .stdout(GAPPY_CSV)
        .error_line_like("error: --strict: incomplete data: 2 of 6 asked values are missing: [..]")
        .stderr_contains(
            "hint: ask again later for the missing days, or add --no-strict \
             (config strict is set) to accept gaps for one run",
        )
        .run();
    assert_eq!(run.stderr.lines().count(), 2, "{run:?}");
    let shown = env.cmd("config show").run();
    assert!(shown
        .stdout
        .lines()
        .any(|l| l.starts_with("strict ") && l.contains(" true ") && l.ends_with("(config file)")));
}

#[test]
fn an_empty_answer_under_strict_is_no_data_at_all() {
    let (_stub, env) = empty_service();
    env.cmd(&format!("users -c base --strict {RANGE}"))
        .code(10)
        .stdout("date,active_users\n")
        .stderr(str![[r#"
warning: BASE active users: no data for 2024-01-01..2024-01-03 (left out, not zero)
error: --strict: incomplete data: no data at all: none of the 3 asked values came; everything that came was written
hint: ask again later for the missing days, or leave out --strict (and config strict) to accept gaps

"#]])
        .run();
}

#[test]
fn strict_with_every_value_there_is_a_plain_success() {
    let (_sandbox, env) = sandbox_env(&[]);
    let run = env.cmd(&format!("report -c eth,op --strict {RANGE}")).run();
    assert_eq!(run.stdout.lines().count(), 7);
}

#[test]
fn a_run_that_retried_says_how_often_and_why_in_one_line_at_the_end() {
    // Attempts 1-2 get 429, attempt 3 a 503, attempt 4 the data.
    let (_sandbox, env) = sandbox_env(&["--fault", "429:0@2", "--fault", "503:0@3"]);
    let line = format!("fees -c eth {RANGE}");
    let run = env
        .cmd(&line)
        .stderr("warning: 1 request retried (3 retries): 429 x2, 503 x1\n")
        .run();
    assert_eq!(run.stdout.lines().count(), 4);
    // Under -q too: retries are the step before exit 6, and cron mails what stderr says. (The
    // faults are the sandbox's first attempts: a fresh one for this run.)
    let (_again, env) = sandbox_env(&["--fault", "429:0@2", "--fault", "503:0@3"]);
    env.cmd(&format!("-q {line}"))
        .stderr("warning: 1 request retried (3 retries): 429 x2, 503 x1\n")
        .run();
}

#[test]
fn verbose_shows_the_rate_limit_headers_the_service_sends() {
    let (_sandbox, env) = sandbox_env(&["--fault", "429:0@1"]);
    let run = env
        .cmd(&format!("-v fees -c eth {RANGE}"))
        .any_stderr()
        .run();
    let limits = run.stderr_lines("* rate limit: ");
    assert_eq!(
        limits,
        ["* rate limit: retry-after: 0, ratelimit-limit: 600, ratelimit-remaining: 0, ratelimit-reset: 0"]
    );
    assert_eq!(
        run.stderr.lines().last(),
        Some("warning: 1 request retried (1 retry): 429 x1")
    );
}

#[test]
fn no_strict_overrides_the_config_for_one_run() {
    let stub = gappy_service();
    let env = Env::with_service(&stub.url);
    env.write_config("strict = true\n");
    let line = format!("-q fees -c eth,arb {RANGE}");
    env.cmd(&line).code(10).any_stdout().any_stderr().run();
    env.cmd(&format!("{line} --no-strict"))
        .any_stdout()
        .any_stderr()
        .run();
    env.cmd(&format!("{line} --no-strict --strict"))
        .code(2)
        .any_stderr()
        .run();
}
