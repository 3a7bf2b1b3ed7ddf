//! A `fees_per_user` left empty for want of active users says why, once for the run: the
//! days (or periods) it is empty on, the first few named, and nothing said when every value
//! could be divided.

use crate::support::{Env, Stub};

/// ETHEREUM with fees every day, the active users as `users` gives them, no social activity.
fn served(users: &'static str) -> (Stub, Env) {
    let stub = Stub::per_endpoint(
        r#"[{"date":"2024-01-01","fees":1.5},{"date":"2024-01-02","fees":2.5},{"date":"2024-01-03","fees":3},{"date":"2024-01-04","fees":4}]"#,
        users,
        r#"{"data":[]}"#,
    );
    let env = Env::with_service(&stub.url);
    (stub, env)
}

const RANGE: &str = "report -c eth -i tweet -s 2024-01-01 -e 2024-01-04 --per-user -f csv";

#[test]
fn a_day_with_no_active_user_leaves_per_user_empty_and_says_why_once() {
    let (_stub, env) = served(
        r#"[{"date":"2024-01-01","active_users":3},{"date":"2024-01-02","active_users":0},{"date":"2024-01-03","active_users":0},{"date":"2024-01-04","active_users":4}]"#,
    );
    let run = env.cmd(RANGE).any_stderr().run();
    assert!(
        run.stdout
            .contains("\n2024-01-02,2.5,,0,\n2024-01-03,3,,0,\n"),
        "{}",
        run.stdout
    );
    let said: Vec<&str> = (run.stderr.lines())
        .filter(|l| l.contains("fees_per_user"))
        .collect();
    assert_eq!(
        said,
        [
            "note: fees_per_user is left empty where no user was active, as there is nothing to \
          divide by: ETHEREUM 2024-01-02, ETHEREUM 2024-01-03"
        ],
        "{}",
        run.stderr
    );
    // By week the actives' mean is 7/4, not 0: every week is divided and nothing is said.
    let run = env.cmd(&format!("{RANGE} --by week")).any_stderr().run();
    assert!(!run.stderr.contains("fees_per_user"), "{}", run.stderr);
}

#[test]
fn a_period_with_no_active_user_is_named_as_its_period() {
    let (_stub, env) = served(
        r#"[{"date":"2024-01-01","active_users":0},{"date":"2024-01-02","active_users":0},{"date":"2024-01-03","active_users":0},{"date":"2024-01-04","active_users":0}]"#,
    );
    let run = env.cmd(&format!("{RANGE} --by month")).any_stderr().run();
    assert!(
        run.stderr.contains(
            "note: fees_per_user is left empty where no user was active, as there is nothing to \
             divide by: ETHEREUM the month of 2024-01-01\n"
        ),
        "{}",
        run.stderr
    );
}

/// Where every value could be divided, nothing is said.
#[test]
fn every_day_divided_says_nothing() {
    let (_stub, env) = served(
        r#"[{"date":"2024-01-01","active_users":3},{"date":"2024-01-02","active_users":1},{"date":"2024-01-03","active_users":2},{"date":"2024-01-04","active_users":4}]"#,
    );
    let run = env.cmd(RANGE).any_stderr().run();
    assert!(!run.stderr.contains("fees_per_user"), "{}", run.stderr);
}
