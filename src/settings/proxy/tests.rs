//! The proxy choice: curl's order, loopback and NO_PROXY, bad values, masked passwords.

use super::*;

fn env(pairs: &[(&'static str, &str)]) -> Environment {
    Environment::from_pairs(pairs.iter().map(|(n, v)| (*n, v.to_string())))
}

fn chosen(pairs: &[(&'static str, &str)], target: &str) -> Option<String> {
    proxy_for(&env(pairs), &Url::parse(target).unwrap())
        .unwrap()
        .map(|p| p.describe())
}

#[test]
fn curl_order_and_scheme() {
    let all = [
        ("https_proxy", "http://a:1"),
        ("HTTPS_PROXY", "http://b:1"),
        ("http_proxy", "http://c:1"),
        ("ALL_PROXY", "http://d:1"),
    ];
    let s = "https://api.example";
    assert_eq!(chosen(&all, s).unwrap(), "http://a:1 (from https_proxy)");
    assert_eq!(
        chosen(&all[1..], s).unwrap(),
        "http://b:1 (from HTTPS_PROXY)"
    );
    assert_eq!(chosen(&all[2..], s).unwrap(), "http://d:1 (from ALL_PROXY)");
    assert_eq!(
        chosen(&all[2..], "http://api.example").unwrap(),
        "http://c:1 (from http_proxy)"
    );
    let cgi = [("HTTP_PROXY", "http://evil:1"), ("REQUEST_METHOD", "GET")];
    assert_eq!(chosen(&cgi, "http://api.example"), None);
    assert_eq!(
        chosen(&[("HTTPS_PROXY", "proxy")], s).unwrap(),
        "http://proxy:1080 (from HTTPS_PROXY)"
    );
}

#[test]
fn loopback_and_no_proxy_are_direct() {
    let p = ("HTTPS_PROXY", "http://p:1");
    for target in [
        "https://localhost:1",
        "https://127.0.0.9",
        "https://[::1]:8",
    ] {
        assert_eq!(chosen(&[p], target), None, "{target}");
    }
    // Not loopback (CLI.md §3): `*.localhost` goes through the proxy like any name.
    assert!(chosen(&[p], "https://a.localhost").is_some());
    for list in ["*", "example.com", ".example.com", "x, API.example.com:443"] {
        assert_eq!(
            chosen(&[p, ("NO_PROXY", list)], "https://api.example.com"),
            None,
            "{list}"
        );
    }
    assert!(chosen(&[p, ("no_proxy", "ample.com")], "https://api.example.com").is_some());
    assert_eq!(
        chosen(&[p, ("no_proxy", "10.0.0.0/8")], "https://10.1.2.3"),
        None
    );
    assert!(chosen(&[p, ("no_proxy", "10.0.0.0/8")], "https://11.1.2.3").is_some());
    assert_eq!(
        chosen(&[p, ("no_proxy", "fd00::/8")], "https://[fd12::1]"),
        None
    );
}

#[test]
fn bad_values_are_named_without_the_password() {
    let err = |value: &str| {
        let e = proxy_for(
            &env(&[("ALL_PROXY", value)]),
            &Url::parse("https://x.example").unwrap(),
        );
        e.unwrap_err().message
    };
    assert_eq!(
        err("socks5://h:1"),
        "ALL_PROXY=socks5://h:1: socks5 proxies are not supported; use an http:// proxy"
    );
    assert_eq!(
        err("ftp://h:1"),
        "ALL_PROXY=ftp://h:1: unsupported proxy scheme ftp://"
    );
    assert_eq!(
        err("http://u:s3cret@:x"),
        "ALL_PROXY=**** is not a proxy URL (empty host)"
    );
    assert_eq!(
        err("not a url"),
        "ALL_PROXY=not a url is not a proxy URL (invalid international domain name)"
    );
    let ok = proxy_for(
        &env(&[("ALL_PROXY", "http://u:s3cret@p:8")]),
        &Url::parse("https://x.example").unwrap(),
    );
    let choice = ok.unwrap().unwrap();
    assert_eq!(choice.describe(), "http://u:****@p:8 (from ALL_PROXY)");
    assert_eq!(
        format!("{choice:?}"),
        "ProxyChoice(http://u:****@p:8 (from ALL_PROXY))"
    );
    let env = ProxyEnvironment::from(&env(&[("ALL_PROXY", "http://u:s3cret@p:8")]));
    assert_eq!(format!("{env:?}"), "ProxyEnvironment(ALL_PROXY)");
}
