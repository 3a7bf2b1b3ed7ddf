//! The service address: a URL, http(s), and plain http only where the key cannot be overheard.

use reqwest::Url;

/// Checks a base URL: parses, is http(s), has a host, and is https unless loopback or allowed.
pub fn check_base_url(text: &str, allow_http: bool) -> Result<Url, String> {
    let url = Url::parse(text.trim()).map_err(|e| format!("'{text}' is not a URL ({e})"))?;
    match url.scheme() {
        "https" => {}
        "http" if allow_http || is_loopback(&url) => {}
        "http" => {
            return Err(format!(
                "refusing plain http to {}: the API key would travel in clear; use https, or set allow_http = true in the config file",
                url.host_str().unwrap_or("")
            ))
        }
        other => return Err(format!("'{text}' has scheme {other}: expected https (or http to loopback)")),
    }
    if url.host_str().is_none() {
        return Err(format!("'{text}' has no host"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!(
            "'{text}' has a query or fragment: endpoint paths are appended to the base URL, so give only scheme, host and path"
        ));
    }
    Ok(url)
}

/// Whether the URL's host is this machine: 127.0.0.0/8, ::1 or localhost.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_and_fragments_are_refused() {
        let err = check_base_url("http://127.0.0.1:9/?x=1", false).unwrap_err();
        assert!(
            err.starts_with("'http://127.0.0.1:9/?x=1' has a query or fragment"),
            "{err}"
        );
        assert!(check_base_url("https://metrics.example/v2#top", false).is_err());
    }

    #[test]
    fn http_only_to_loopback_unless_allowed() {
        assert!(check_base_url("https://metrics.example/v2/", false).is_ok());
        assert!(check_base_url("http://127.0.0.1:8080", false).is_ok());
        assert!(check_base_url("http://127.8.0.1", false).is_ok());
        assert!(check_base_url("http://[::1]:99/x", false).is_ok());
        assert!(check_base_url("http://LocalHost:1", false).is_ok());
        let err = check_base_url("http://metrics.example", false).unwrap_err();
        assert!(
            err.starts_with("refusing plain http to metrics.example"),
            "{err}"
        );
        assert!(check_base_url("http://metrics.example", true).is_ok());
        assert!(check_base_url("ftp://metrics.example", true).is_err());
        assert!(check_base_url("metrics.example", true).is_err());
    }
}
