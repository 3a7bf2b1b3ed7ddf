//! The sandbox as a service: SERVICE.md's endpoints, methods, key check, errors and includes,
//! spoken to over plain HTTP.

use crate::support::{check_output, Env, Sandbox, KEY};

/// A plain client of the tests' own (reqwest's rustls needs its crypto provider first).
fn client() -> reqwest::blocking::Client {
    crate::support::install_crypto();
    reqwest::blocking::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
}

fn call(
    sandbox: &Sandbox,
    method: reqwest::Method,
    path: &str,
    key: Option<&str>,
    body: &str,
) -> (u16, String) {
    let mut request = client()
        .request(method, format!("{}{path}", sandbox.url))
        .body(body.to_owned());
    if let Some(key) = key {
        request = request.header("X-Api-Key", key);
    }
    let response = request.send().unwrap();
    let status = response.status().as_u16();
    (status, response.text().unwrap())
}

const FEES: &str = "/api/chain-insights/fees";
const SOCIAL: &str = "/api/social-metrics/official-account";
const BODY: &str = r#"{"chain":"ETHEREUM","start_date":"2024-01-01","end_date":"2024-01-02"}"#;

#[test]
fn answers_post_and_get_with_a_body() {
    let sandbox = Sandbox::start(&[]);
    let expected =
        r#"[{"date":"2024-01-01","fees":879768.88},{"date":"2024-01-02","fees":826665.76}]"#;
    assert_eq!(
        call(&sandbox, reqwest::Method::POST, FEES, Some(KEY), BODY),
        (200, expected.to_owned())
    );
    assert_eq!(
        call(&sandbox, reqwest::Method::GET, FEES, Some(KEY), BODY),
        (200, expected.to_owned())
    );
    let (status, body) = call(
        &sandbox,
        reqwest::Method::POST,
        "/api/chain-insights/active_users",
        Some(KEY),
        BODY,
    );
    assert_eq!(
        (status, body.as_str()),
        (
            200,
            r#"[{"date":"2024-01-01","active_users":414059},{"date":"2024-01-02","active_users":458588}]"#
        )
    );
}

#[test]
fn checks_the_key() {
    let sandbox = Sandbox::start(&[]);
    let unauthorized = (401, r#"{"error":"invalid API key"}"#.to_owned());
    assert_eq!(
        call(&sandbox, reqwest::Method::POST, FEES, None, BODY),
        unauthorized
    );
    assert_eq!(
        call(&sandbox, reqwest::Method::POST, FEES, Some("nope"), BODY),
        unauthorized
    );
}

#[test]
fn refuses_bad_requests_with_400() {
    let sandbox = Sandbox::start(&[]);
    let cases = [
        (
            r#"{"start_date":"2024-01-01","end_date":"2024-01-02"}"#,
            "missing parameter: chain",
        ),
        (
            r#"{"chain":"ETHEREUM","end_date":"2024-01-02"}"#,
            "missing parameter: start_date",
        ),
        (
            r#"{"chain":"SOLANA","start_date":"2024-01-01","end_date":"2024-01-02"}"#,
            "unknown chain: SOLANA",
        ),
        (
            r#"{"chain":"ETHEREUM","start_date":"2024-02-30","end_date":"2024-03-02"}"#,
            "start_date must be a date YYYY-MM-DD, got 2024-02-30",
        ),
        (
            r#"{"chain":"ETHEREUM","start_date":"2024-01-03","end_date":"2024-01-02"}"#,
            "start_date is after end_date",
        ),
        ("chain=ETHEREUM", "the request body is not a JSON object"),
    ];
    for (body, message) in cases {
        let (status, answer) = call(&sandbox, reqwest::Method::POST, FEES, Some(KEY), body);
        assert_eq!(
            (status, answer),
            (400, format!(r#"{{"error":"{message}"}}"#)),
            "{body}"
        );
    }
}

#[test]
fn respects_includes_and_defaults_to_all_four() {
    let sandbox = Sandbox::start(&[]);
    let body = r#"{"chain":"POLYGON","start_date":"2024-01-02","end_date":"2024-01-02"}"#;
    let (_, all) = call(&sandbox, reqwest::Method::POST, SOCIAL, Some(KEY), body);
    assert_eq!(
        all,
        r#"{"data":[{"date":"2024-01-02","reply":10,"retweet":0,"tweet":0,"quote":0}]}"#
    );
    let body = r#"{"chain":"POLYGON","start_date":"2024-01-02","end_date":"2024-01-02","includes":"quote,reply"}"#;
    let (_, some) = call(&sandbox, reqwest::Method::POST, SOCIAL, Some(KEY), body);
    assert_eq!(
        some,
        r#"{"data":[{"date":"2024-01-02","quote":0,"reply":10}]}"#
    );
    let body = r#"{"chain":"POLYGON","start_date":"2024-01-02","end_date":"2024-01-02","includes":"likes"}"#;
    assert_eq!(
        call(&sandbox, reqwest::Method::POST, SOCIAL, Some(KEY), body),
        (
            400,
            r#"{"error":"unknown includes item: likes"}"#.to_owned()
        )
    );
}

#[test]
fn a_method_restriction_answers_405_with_allow() {
    let sandbox = Sandbox::start(&["--method", "post"]);
    let response = client()
        .get(format!("{}{FEES}", sandbox.url))
        .header("x-api-key", KEY)
        .body(BODY)
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 405);
    assert_eq!(response.headers()["allow"], "POST");
    assert_eq!(
        response.text().unwrap(),
        r#"{"error":"method GET is not allowed"}"#
    );
}

#[test]
fn fail_rate_one_always_fails_with_500() {
    let sandbox = Sandbox::start(&["--fail-rate", "1"]);
    let (status, body) = call(&sandbox, reqwest::Method::POST, FEES, Some(KEY), BODY);
    assert_eq!(
        (status, body.as_str()),
        (500, r#"{"error":"synthetic failure (--fail-rate)"}"#)
    );
}

#[test]
fn prints_its_url_and_says_the_data_is_synthetic() {
    use std::io::{BufRead, BufReader};
    let mut running = Env::new()
        .cmd_args(&["sandbox", "--listen", "127.0.0.1:0", "--key", KEY])
        .spawn();
    let child = &mut running.child;
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut note = String::new();
    stderr.read_line(&mut note).unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert_eq!(note, format!("chain-metrics sandbox: serving the service of docs/service.md on {} with synthetic data; Ctrl-C stops it\n", url.trim()));
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    check_output("sandbox --key KEY", &url, &format!("{note}{rest}"));
}

/// The sandbox answers gzip when asked (so `--sandbox` takes the decoding path), and plain
/// bytes otherwise; the same records either way.
#[test]
fn answers_gzip_when_asked() {
    use std::io::Read;
    let sandbox = Sandbox::start(&[]);
    crate::support::install_crypto();
    let client = reqwest::blocking::Client::builder()
        .no_proxy()
        .no_gzip()
        .build()
        .unwrap();
    let fetch = |encoding: &str| {
        let body = r#"{"chain":"ETHEREUM","start_date":"2024-01-01","end_date":"2024-03-31"}"#;
        let response = client
            .post(format!("{}{FEES}", sandbox.url))
            .header("x-api-key", KEY)
            .header("accept-encoding", encoding)
            .body(body)
            .send()
            .unwrap();
        let coding = response.headers().get("content-encoding").cloned();
        (coding, response.bytes().unwrap().to_vec())
    };
    let (coding, plain) = fetch("identity");
    assert_eq!(coding, None);
    let (coding, gzipped) = fetch("gzip");
    assert_eq!(coding.unwrap(), "gzip");
    assert!(
        gzipped.len() < plain.len() / 3,
        "{} of {}",
        gzipped.len(),
        plain.len()
    );
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&gzipped[..])
        .read_to_end(&mut decoded)
        .unwrap();
    assert_eq!(decoded, plain);
}

/// The sandbox's stderr up to its "serving" line (a warning comes before it).
fn stderr_until_serving(args: &[&str]) -> String {
    use std::io::{BufRead, BufReader};
    let mut running = Env::new().cmd_args(args).spawn();
    let child = &mut running.child;
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    for line in stderr.lines().map_while(Result::ok) {
        seen.push_str(&line);
        seen.push('\n');
        if line.contains("Ctrl-C stops it") {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    seen
}

#[test]
fn listening_beyond_loopback_is_said_on_stderr() {
    let everywhere = stderr_until_serving(&["sandbox", "--listen", "0.0.0.0:0", "--key", KEY]);
    assert!(
        everywhere.contains("warning: the sandbox listens on 0.0.0.0:0, not loopback: every network interface of this machine, so other machines can reach it"),
        "{everywhere}"
    );
    let loopback = stderr_until_serving(&["sandbox", "--listen", "127.0.0.1:0", "--key", KEY]);
    assert!(!loopback.contains("not loopback"), "{loopback}");
}
