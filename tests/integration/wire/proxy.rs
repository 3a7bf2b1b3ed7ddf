//! Proxies as curl has them, through a CONNECT proxy written in the tests: the tunnel carries
//! https (the proxy sees the CONNECT line, never the key); NO_PROXY; loopback and --sandbox
//! never proxied; a dead or refusing proxy named as the proxy; bad proxy values exit 3.

use crate::support::{Env, Reply, Stub, TestCa, TestProxy, KEY, SANDBOX_DAY};

const FEES: &str = "/api/chain-insights/fees";
const ARGS: [&str; 7] = ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01"];
const BODY: &str = r#"[{"date":"2024-01-01","fees":12.5}]"#;
const CSV: &str = "date,fees\n2024-01-01,12.5\n";

/// An https service known as chain-metrics.test, a name only the test proxy resolves; an
/// environment trusting its CA and pointed at it.
fn behind_a_proxy() -> (Stub, Env, String) {
    let ca = TestCa::new();
    let stub = Stub::start_tls(&ca.leaf(), |_| Reply::json(200, BODY));
    let url = stub.url.replace("127.0.0.1", "chain-metrics.test");
    let mut env = Env::with_service(&url);
    let ca_path = env.home.path().join("ca.pem");
    std::fs::write(&ca_path, &ca.pem).unwrap();
    env.set("CHAIN_METRICS_CA_BUNDLE", ca_path.to_str().unwrap());
    (stub, env, url)
}

#[test]
fn a_connect_tunnel_carries_https_and_the_proxy_never_sees_the_key() {
    let proxy = TestProxy::start(200);
    let (_stub, mut env, url) = behind_a_proxy();
    let with_password = proxy.url.replace("http://", "http://user:s3cret@");
    env.set("HTTPS_PROXY", &with_password);
    let shown = proxy.url.replace("http://", "http://user:****@");
    let run = env
        .cmd_args(&[&["-v"][..], &ARGS].concat())
        .stdout(CSV)
        .error_line(format!("* via proxy {shown} (from HTTPS_PROXY)"))
        .run();

    assert!(!run.stderr.contains("s3cret"), "{}", run.stderr);
    let seen = proxy.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    let authority = url.trim_start_matches("https://");
    assert!(
        seen[0].starts_with(&format!("CONNECT {authority} HTTP/1.1\r\n")),
        "{seen:?}"
    );
    // user:s3cret, as curl sends it.
    assert!(
        seen[0]
            .to_ascii_lowercase()
            .contains("proxy-authorization: basic dxnlcjpzm2nyzxq="),
        "{seen:?}"
    );
    assert!(!seen[0].contains(KEY) && !seen[0].to_ascii_lowercase().contains("x-api-key"));
}

#[test]
fn lowercase_first_then_all_proxy_as_curl_reads_them() {
    let proxy = TestProxy::start(200);
    let (_stub, mut env, _) = behind_a_proxy();
    env.set("ALL_PROXY", &proxy.url);
    assert_eq!(env.cmd_args(&ARGS).run().stdout, CSV);
    env.set("HTTPS_PROXY", "http://127.0.0.1:1");
    env.set("https_proxy", &proxy.url);
    assert_eq!(env.cmd_args(&ARGS).run().stdout, CSV);
    assert_eq!(proxy.seen().len(), 2);
}

#[test]
fn no_proxy_sends_the_host_direct() {
    let proxy = TestProxy::start(200);
    let (_stub, mut env, _) = behind_a_proxy();
    env.set("HTTPS_PROXY", &proxy.url);
    env.set("NO_PROXY", "example.org, .test");
    // Direct, chain-metrics.test does not resolve: the proof that the proxy was skipped.
    env.cmd_args(&[&["--retries", "0"][..], &ARGS].concat())
        .code(7)
        .error_line_like("[..]: cannot connect ([..]")
        .run();
    assert_eq!(proxy.seen().len(), 0);
}

#[test]
fn loopback_and_the_sandbox_are_never_proxied() {
    let proxy = TestProxy::start(200);
    let stub = Stub::always(Reply::json(200, BODY));
    let mut env = Env::with_service(&stub.url);
    for var in [
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        env.set(var, &proxy.url);
    }
    env.cmd_args(&ARGS).stdout(CSV).run();
    env.cmd_args(&[&["--sandbox"][..], &ARGS].concat())
        .stdout(SANDBOX_DAY)
        .stderr_contains("note: --sandbox: synthetic data")
        .run();
    let localhost = stub.url.replace("127.0.0.1", "localhost");
    env.set("CHAIN_METRICS_BASE_URL", &localhost);
    assert_eq!(env.cmd_args(&ARGS).run().stdout, CSV);
    assert_eq!(proxy.seen(), Vec::<String>::new());
}

#[test]
fn a_dead_proxy_is_named_as_the_proxy() {
    let (stub, mut env, url) = behind_a_proxy();
    env.set("HTTPS_PROXY", "http://u:s3cret@127.0.0.1:1");
    env.cmd_args(&[&["--retries", "0"][..], &ARGS].concat()).code(7).stderr(format!("error: POST {FEES} for ETHEREUM at {url}{FEES}: cannot connect (Connection refused (os error 111)); cannot reach the proxy http://u:****@127.0.0.1:1 (from HTTPS_PROXY)\nhint: check the proxy, or unset HTTPS_PROXY (NO_PROXY=HOST skips it for one host)\n")).run();
    assert_eq!(stub.connections(), 0);
}

#[test]
fn a_proxy_wanting_credentials_is_one_attempt_and_a_refusal_is_retried() {
    let (_stub, mut env, url) = behind_a_proxy();
    let proxy = TestProxy::start(407);
    env.set("HTTPS_PROXY", &proxy.url);
    env.cmd_args(&[&["--retries", "2"][..], &ARGS].concat())
        .stderr(format!("error: POST {FEES} for ETHEREUM at {url}{FEES}: the proxy asks for credentials (407) (tunnel error: proxy authorization required); through the proxy {} (from HTTPS_PROXY)\nhint: put the proxy's user name and password in HTTPS_PROXY, before its host: USER:PASSWORD@HOST:PORT\n", proxy.url)).code(7).run();
    assert_eq!(proxy.seen().len(), 1);

    let refusing = TestProxy::start(502);
    env.set("HTTPS_PROXY", &refusing.url);
    env.cmd_args(&[&["--retries", "1"][..], &ARGS].concat())
        .error_line(format!("error: POST {FEES} for ETHEREUM at {url}{FEES}: the proxy refused to open a tunnel to the service (tunnel error: unsuccessful) (2 attempts); through the proxy {} (from HTTPS_PROXY)", refusing.url)).code(7).run();
    // Two attempts, and one CONNECT more that asked the proxy for its status (502: retried).
    assert_eq!(refusing.seen().len(), 3);
}

#[test]
fn a_proxy_value_that_is_not_a_usable_proxy_is_exit_3() {
    let (stub, mut env, _) = behind_a_proxy();
    let cases = [
        ("HTTPS_PROXY", "not a url", "error: HTTPS_PROXY=not a url is not a proxy URL (invalid international domain name)"),
        ("https_proxy", "socks5://127.0.0.1:1080", "error: https_proxy=socks5://127.0.0.1:1080: socks5 proxies are not supported; use an http:// proxy"),
        ("ALL_PROXY", "http://u:s3cret@:8", "error: ALL_PROXY=**** is not a proxy URL (empty host)"),
    ];
    for (var, value, line) in cases {
        let mut env = Env::with_service(&stub.url.replace("127.0.0.1", "chain-metrics.test"));
        env.set(var, value);
        env.cmd_args(&ARGS).code(3).stderr(format!("{line}\nhint: set {var} to a proxy URL such as http://proxy.example:3128, or unset it\n")).run();
    }
    env.set("HTTPS_PROXY", "");
    env.cmd_args(&ARGS).code(7).run();
}
