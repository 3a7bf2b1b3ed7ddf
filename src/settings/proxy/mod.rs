//! The proxy for the service, from the environment as curl reads it: checked (exit 3 for a
//! value that is not a usable proxy), with loopback always direct and the password masked.

use std::fmt;
use std::net::IpAddr;

use reqwest::Url;

use super::base_url::shown_url;
use super::environment::PROXY_VARIABLES;
use super::secret::MASK;
use super::Environment;
use crate::error::{Failure, Result};

/// The variables that choose the proxy, as read once; shown in Debug by name only, since a
/// value may hold a password.
#[derive(Clone, Default)]
pub(super) struct ProxyEnvironment(Environment);

impl ProxyEnvironment {
    pub(super) fn from(env: &Environment) -> ProxyEnvironment {
        let set = PROXY_VARIABLES
            .iter()
            .filter_map(|&name| env.get(name).map(|v| (name, v.to_owned())));
        ProxyEnvironment(Environment::from_pairs(set))
    }

    /// The proxy for requests to `target`, or `None` to connect directly.
    pub(super) fn proxy_for(&self, target: &Url) -> Result<Option<ProxyChoice>> {
        proxy_for(&self.0, target)
    }
}

impl fmt::Debug for ProxyEnvironment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set: Vec<&str> = PROXY_VARIABLES
            .into_iter()
            .filter(|n| self.0.get(n).is_some())
            .collect();
        write!(f, "ProxyEnvironment({})", set.join(", "))
    }
}

/// The proxy a run goes through, and the variable that named it (for messages).
#[derive(Clone)]
pub(crate) struct ProxyChoice {
    pub var: &'static str,
    pub url: Url,
}

impl fmt::Debug for ProxyChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProxyChoice({})", self.describe())
    }
}

impl ProxyChoice {
    /// The proxy as messages show it: never its password.
    pub(crate) fn masked(&self) -> String {
        let mut url = self.url.clone();
        if url.password().is_some() {
            let _ = url.set_password(Some(MASK));
        }
        url.as_str().trim_end_matches('/').to_owned()
    }

    /// `http://proxy:3128 (from HTTPS_PROXY)`.
    pub(crate) fn describe(&self) -> String {
        format!("{} (from {})", self.masked(), self.var)
    }
}

/// The first of `names` that is set (empty counts as unset).
fn first(env: &Environment, names: &[&'static str]) -> Option<(&'static str, String)> {
    names
        .iter()
        .find_map(|&name| env.get(name).map(|v| (name, v.trim().to_owned())))
        .filter(|(_, v)| !v.is_empty())
}

/// Loopback hosts never go through a proxy (the plain-http key loopback allows stays on the
/// machine); then `NO_PROXY`; then curl's variables for the scheme, lowercase first, and
/// `ALL_PROXY` for both.
fn proxy_for(env: &Environment, target: &Url) -> Result<Option<ProxyChoice>> {
    let host = target.host_str().unwrap_or("");
    if super::loopback::is_loopback_host(host) {
        return Ok(None);
    }
    let no_proxy = first(env, &["no_proxy", "NO_PROXY"]).map(|(_, v)| v);
    if no_proxy.is_some_and(|list| no_proxy_matches(&list, host)) {
        return Ok(None);
    }
    let found = match target.scheme() {
        "https" => first(env, &["https_proxy", "HTTPS_PROXY"]),
        // Under CGI, HTTP_PROXY is a request header: only lowercase http_proxy counts then.
        _ if env.get("REQUEST_METHOD").is_some() => first(env, &["http_proxy"]),
        _ => first(env, &["http_proxy", "HTTP_PROXY"]),
    }
    .or_else(|| first(env, &["all_proxy", "ALL_PROXY"]));
    match found {
        None => Ok(None),
        Some((var, raw)) => parse_proxy(var, &raw).map(Some).map_err(|e| {
            Failure::config(e).with_hint(format!(
                "set {var} to a proxy URL such as http://proxy.example:3128, or unset it"
            ))
        }),
    }
}

/// A proxy URL as curl takes it: no scheme means `http://`, no port means 1080.
fn parse_proxy(var: &'static str, raw: &str) -> Result<ProxyChoice, String> {
    let with_scheme = match raw.contains("://") {
        true => raw.to_owned(),
        false => format!("http://{raw}"),
    };
    let shown = shown_url(raw);
    if let Some(why) = super::base_url::outside_ascii(raw) {
        return Err(format!("{var}={shown} {why}"));
    }
    let mut url =
        Url::parse(&with_scheme).map_err(|e| format!("{var}={shown} is not a proxy URL ({e})"))?;
    match url.scheme() {
        "http" | "https" => {}
        scheme if scheme.starts_with("socks") => {
            return Err(format!(
                "{var}={shown}: {scheme} proxies are not supported; use an http:// proxy"
            ))
        }
        scheme => {
            return Err(format!(
                "{var}={shown}: unsupported proxy scheme {scheme}://"
            ))
        }
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(format!("{var}={shown} names no proxy host"));
    }
    if url.scheme() == "http" && !has_port(&with_scheme) {
        let _ = url.set_port(Some(1080));
    }
    Ok(ProxyChoice { var, url })
}

/// Whether the authority carries `:port` (`Url` forgets an explicit `:80` on http).
fn has_port(with_scheme: &str) -> bool {
    let rest = with_scheme
        .split_once("://")
        .map_or(with_scheme, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    !host_port.ends_with(']')
        && host_port
            .rsplit_once(':')
            .is_some_and(|(_, p)| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// curl's `NO_PROXY`: a comma list; `*` alone matches everything; `example.com` and
/// `.example.com` both match the domain and its subdomains; IP addresses and CIDR ranges.
fn no_proxy_matches(list: &str, host: &str) -> bool {
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase();
    let ip = host.parse::<IpAddr>().ok();
    list.split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .any(|entry| match ip {
            _ if entry == "*" => true,
            Some(ip) => ip_matches(entry, ip),
            None => {
                let name = entry.split(':').next().unwrap_or("");
                let name = name.trim_matches('.').to_ascii_lowercase();
                !name.is_empty() && (host == name || host.ends_with(&format!(".{name}")))
            }
        })
}

/// An entry of `NO_PROXY` against an IP address: the same address, or a CIDR range holding it.
fn ip_matches(entry: &str, ip: IpAddr) -> bool {
    let entry = entry.trim_start_matches('[');
    let entry = entry.split_once(']').map_or(entry, |(a, _)| a);
    let Some((net, bits)) = entry.split_once('/') else {
        return entry.parse::<IpAddr>().is_ok_and(|e| e == ip);
    };
    let (Ok(net), Ok(bits)) = (net.parse::<IpAddr>(), bits.parse::<u32>()) else {
        return false;
    };
    let mask = |width: u32| match bits {
        0 => 0,
        _ => u128::MAX << (width - bits.min(width)),
    };
    match (net, ip) {
        (IpAddr::V4(n), IpAddr::V4(a)) if bits <= 32 => {
            let m = mask(32) as u32;
            u32::from(n) & m == u32::from(a) & m
        }
        (IpAddr::V6(n), IpAddr::V6(a)) if bits <= 128 => {
            u128::from(n) & mask(128) == u128::from(a) & mask(128)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
