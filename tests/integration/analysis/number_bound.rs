//! One bound for all arithmetic on the service's numbers (CLI.md §4): `--by` and `--summary`
//! refuse a value with an exponent beyond ±1000 or more than 4096 digits (exit 8, naming it and
//! its date, cut when long); the plain formats pass it verbatim; the chart never writes NaN or
//! infinity and names what it leaves out (pictures/left_out.rs: every picture, every value).

use crate::support::{Env, Reply, Stub};

pub(crate) const RANGE: &str = "-c eth -s 2024-01-02 -e 2024-01-03";

/// A service whose fees are `1` on 2024-01-02 and `value` on 2024-01-03.
pub(crate) fn service(value: &str) -> Stub {
    let body =
        format!(r#"[{{"date":"2024-01-02","fees":1}},{{"date":"2024-01-03","fees":{value}}}]"#);
    Stub::always(Reply::json(200, &body))
}

/// `service(value)` and an environment pointed at it (with the test key).
pub(crate) fn service_env(value: &str) -> (Stub, Env) {
    let stub = service(value);
    let env = Env::with_service(&stub.url);
    (stub, env)
}

/// The hostile values, each with how an error names it.
pub(crate) fn hostile() -> Vec<(String, String)> {
    let exponent = "(an exponent beyond ±1000)";
    let mut values: Vec<(String, String)> =
        ["1e999999999", "1e-999999999", "1e9999999999999999999"]
            .iter()
            .map(|v| {
                (
                    v.to_string(),
                    format!("{v} is beyond the range of a number {exponent}"),
                )
            })
            .collect();
    let digits = "1234567890".repeat(80_000);
    values.push((
        digits,
        "12345678901234567890… (800000 digits) is beyond the range of a number \
         (more than 4096 digits)"
            .to_owned(),
    ));
    values
}

/// Runs `fees` over each hostile value with `extra`, and checks the refusal: exit 8, nothing on
/// stdout, the error naming the value and its date as `what` says, then `hint`.
fn refused_by(extra: &str, what: &str, hint: &str) {
    for (value, named) in hostile() {
        let (_stub, env) = service_env(&value);
        env.cmd(&format!("fees {extra} {RANGE}"))
            .code(8)
            .stdout("")
            .stderr(format!(
                "error: {what} of 2024-01-03: {named}\nhint: {hint}\n"
            ))
            .run();
    }
}

#[test]
fn by_refuses_a_value_beyond_the_bound_naming_it_and_its_date() {
    refused_by(
        "--by week",
        "cannot add up ETHEREUM fees",
        "--by day shows the values as sent",
    );
}

#[test]
fn summary_refuses_a_value_beyond_the_bound_naming_it_and_its_date() {
    refused_by(
        "--summary -f table",
        "cannot summarise ETHEREUM fees",
        "drop --summary to see the values as sent",
    );
}

#[test]
fn plain_formats_pass_every_hostile_value_verbatim() {
    for (value, _) in hostile() {
        let (_stub, env) = service_env(&value);
        env.cmd(&format!("fees -o fees.csv {RANGE}")).run();
        let written = std::fs::read_to_string(env.home.path().join("fees.csv")).unwrap();
        assert!(
            written == format!("date,fees\n2024-01-02,1\n2024-01-03,{value}\n"),
            "{} not passed verbatim",
            &value[..value.len().min(30)]
        );
    }
}

#[test]
fn the_chart_leaves_out_what_it_cannot_draw_and_says_so() {
    let (_stub, env) = service_env("1e500");
    let run = env.cmd(&format!("fees -f chart {RANGE}")).run();
    assert!(
        run.stdout.contains(
            "\nleft out, too large to draw: ETHEREUM of 2024-01-03 (1e500)\nETHEREUM · 2024-01-02"
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("NaN") && !run.stdout.contains("inf"));
}

#[test]
fn the_chart_never_labels_nan_or_infinity_at_the_ends_of_the_float_range() {
    for (first, second) in [
        ("-1e300", "1e300"),
        ("1e300", "1e300"),
        ("-5e-324", "5e-324"),
    ] {
        let body = format!(
            r#"[{{"date":"2024-01-02","fees":{first}}},{{"date":"2024-01-03","fees":{second}}}]"#
        );
        let stub = Stub::always(Reply::json(200, &body));
        let env = Env::with_service(&stub.url);
        let run = env.cmd(&format!("fees -f chart {RANGE}")).run();
        let lower = run.stdout.to_lowercase();
        assert!(
            !lower.contains("nan") && !lower.contains("inf") && !run.stdout.contains("left out"),
            "{first} {second}:\n{}",
            run.stdout
        );
        assert!(run.stdout.contains('*'), "nothing drawn:\n{}", run.stdout);
    }
}
