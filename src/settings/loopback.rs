//! The loopback rule of CLI.md §3, in one place: `localhost`, 127.0.0.0/8 and `::1`. A base
//! URL on such a host may be plain http, and a request to it never goes through a proxy.
//! `*.localhost` is not in the set: a resolver may send it anywhere.

use std::net::IpAddr;

use reqwest::Url;

/// Whether the URL's host is this machine.
pub(crate) fn is_loopback(url: &Url) -> bool {
    url.host_str().is_some_and(is_loopback_host)
}

/// Whether a host (a name, an IPv4 address, or an IPv6 address with or without brackets) is
/// this machine.
pub(crate) fn is_loopback_host(host: &str) -> bool {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_set_is_localhost_127_slash_8_and_ipv6_one() {
        for host in [
            "localhost",
            "LOCALHOST",
            "127.0.0.1",
            "127.255.0.9",
            "::1",
            "[::1]",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "a.localhost",
            "localhost.",
            "128.0.0.1",
            "::2",
            "example.com",
            "",
            "[::1",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }

    #[test]
    fn urls_use_the_same_set() {
        for url in [
            "http://localhost:8",
            "http://127.0.0.9/",
            "https://[::1]:8/v",
        ] {
            assert!(is_loopback(&Url::parse(url).unwrap()), "{url}");
        }
        for url in ["http://a.localhost", "http://10.0.0.1", "file:///tmp/x"] {
            assert!(!is_loopback(&Url::parse(url).unwrap()), "{url}");
        }
    }
}
