//! The service address: a URL, http(s), and plain http only where the key cannot be overheard.

use reqwest::Url;

use super::secret::MASK;
use crate::system::foreign;

/// The URL without user name and password: what the cache files a service under and what
/// `--dry-run` prints (with the user as curl's `-u`), so no password is written anywhere.
pub(crate) fn without_credentials(url: &Url) -> Url {
    let mut bare = url.clone();
    // Only URLs that cannot have a user fail these, and then there is none to remove.
    let _ = bare.set_username("");
    let _ = bare.set_password(None);
    bare
}

/// Checks a base URL: parses, is http(s), has a host, and is https unless loopback or allowed.
/// The errors show the URL with its password masked, as foreign text.
pub fn check_base_url(text: &str, allow_http: bool) -> Result<Url, String> {
    let plain = match allow_http {
        true => PlainHttp::Allowed,
        false => PlainHttp::Off,
    };
    check_service_url(text, plain)
}

/// Whether plain http may go to a host that is not loopback, and why not: the refusal's advice
/// follows it (`--no-allow-http` for this run is not answered with "set allow_http = true").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PlainHttp {
    Allowed,
    /// Off by default or by the config file: the user may turn it on.
    Off,
    /// Refused for this run by `--no-allow-http`.
    RefusedForRun,
}

/// [`check_base_url`] with the reason plain http is off, for the advice of its refusal.
pub(crate) fn check_service_url(text: &str, plain: PlainHttp) -> Result<Url, String> {
    let shown = foreign::cut(&shown_url(text), usize::MAX);
    if let Some(why) = outside_ascii(text) {
        return Err(format!("'{shown}' {why}"));
    }
    let url = Url::parse(text.trim());
    let web = matches!(&url, Ok(url) if matches!(url.scheme(), "http" | "https"));
    if !web && !text.contains("://") {
        return Err(format!(
            "'{shown}' has no scheme: start it with https:// (or http:// to loopback)"
        ));
    }
    let url = url.map_err(|e| format!("'{shown}' is not a URL ({e})"))?;
    match url.scheme() {
        "https" => {}
        "http" if plain == PlainHttp::Allowed || super::loopback::is_loopback(&url) => {}
        "http" => {
            let advice = match plain {
                PlainHttp::RefusedForRun => {
                    "use https (--no-allow-http keeps plain http to loopback for this run)"
                }
                _ => "use https, or set allow_http = true in the config file",
            };
            return Err(format!(
                "refusing plain http to {}: the API key would travel in clear; {advice}",
                url.host_str().unwrap_or("")
            ));
        }
        other => {
            return Err(format!(
                "'{shown}' has scheme {other}: expected https (or http to loopback)"
            ))
        }
    }
    if url.host_str().is_none() {
        return Err(format!("'{shown}' has no host"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!(
            "'{shown}' has a query or fragment: endpoint paths are appended to the base URL, so \
            give only scheme, host and path"
        ));
    }
    Ok(url)
}

/// Why a URL the user gave is refused before parsing: a host that is not plain ASCII. The
/// IDNA back end pinned in Cargo.toml is a stub that takes ASCII host names only; a character
/// outside ASCII, a %-escape in the host (`http://O%82.x`) or an `xn--` label (whose decoded
/// text it cannot check) would reach it or the idna crate's checks, which assert on such
/// hosts in a debug build.
pub(crate) fn outside_ascii(text: &str) -> Option<&'static str> {
    if !text.is_ascii() {
        return Some(
            "holds characters outside ASCII: the host must be an ASCII name (no \
            international names) and the rest percent-encoded",
        );
    }
    // The host as a URL parser finds it, leniently: after `scheme:` and any slashes, up to the
    // path, query or fragment, after the user name.
    let after_scheme = text.split_once(':').map_or(text, |(_, rest)| rest);
    let authority = after_scheme.trim_start_matches(['/', '\\']);
    let authority = authority.split(['/', '\\', '?', '#']).next().unwrap_or("");
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    if host.contains('%') {
        return Some("has a %-escape in its host: write the host name as it is, in ASCII");
    }
    let international = host.split('.').any(|label| {
        label
            .get(..4)
            .is_some_and(|p| p.eq_ignore_ascii_case("xn--"))
    });
    international
        .then_some("has an international (xn--) name as its host: the host must be an ASCII name")
}

/// `text` with the password of every URL in it (`https://user:pw@host/`) replaced by
/// [`MASK`]: what the tool prints of a base URL, a redirect target or a failure, so that a
/// password never shows (the user name does, to tell accounts apart).
///
/// Text, not a parsed URL: it also masks what does not parse (`https://u:pa/ss@h`), and more
/// than a password is masked rather than less: everything from the first `:` after `://` to the
/// last `@` before a space (a `/`, `?`, `#`, `@` or quote may be in a password typed raw; a
/// URL the tool serialised itself never holds a space).
pub(crate) fn hide_passwords(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (before, after) = rest.split_at(at + 3);
        shown.push_str(before);
        let end = after.find(char::is_whitespace).unwrap_or(after.len());
        let url = &after[..end];
        let password = url
            .rfind('@')
            .and_then(|user_end| Some((url[..user_end].find(':')?, user_end)));
        match password {
            Some((colon, user_end)) => {
                shown.push_str(&url[..=colon]);
                shown.push_str(MASK);
                shown.push_str(&url[user_end..]);
            }
            None => shown.push_str(url),
        }
        rest = &after[end..];
    }
    shown.push_str(rest);
    shown
}

/// One URL as typed (a flag, a variable, a config value), with its password masked whatever
/// characters it holds (a space, a quote): the whole value is one URL, so everything from the
/// first `:` of its user part to its last `@` is masked, with a scheme or without one
/// (`ann:pw@host`, the scheme forgotten). A value with a scheme that does not parse as a URL
/// and holds an `@` is masked whole: where its password ends cannot be known.
pub(crate) fn shown_url(text: &str) -> String {
    foreign::mask_secrets(&without_query_values(&without_password(text)))
}

/// A query's values and a fragment masked: a base URL with either is refused, and the
/// refusal must not print a key or token put there (`?api_key=...`).
fn without_query_values(text: &str) -> String {
    let (text, fragment) = match text.split_once('#') {
        Some((text, fragment)) if !fragment.is_empty() => (text, format!("#{MASK}")),
        Some((text, _)) => (text, "#".to_owned()),
        None => (text, String::new()),
    };
    let Some((head, query)) = text.split_once('?') else {
        return format!("{text}{fragment}");
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) => format!("{name}={MASK}"),
            None if pair.is_empty() => String::new(),
            None => MASK.to_owned(),
        })
        .collect();
    format!("{head}?{}{fragment}", pairs.join("&"))
}

/// [`shown_url`]'s password rule.
fn without_password(text: &str) -> String {
    let (scheme, rest) = match text.find("://") {
        Some(at) => text.split_at(at + 3),
        None => ("", text),
    };
    let Some(user_end) = rest.rfind('@') else {
        return text.to_owned();
    };
    // Not parsed when its host is not plain ASCII: the IDNA checks must never see it (see
    // `outside_ascii`); such a URL is refused anyway, shown masked whole.
    if !scheme.is_empty() && (outside_ascii(text).is_some() || Url::parse(text).is_err()) {
        return MASK.to_owned();
    }
    match rest[..user_end].find(':') {
        Some(colon) => format!("{scheme}{}{MASK}{}", &rest[..=colon], &rest[user_end..]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_and_fragments_are_refused() {
        // The refusal shows the names in the query, never the values: one may be a key.
        let err =
            check_base_url("http://127.0.0.1:9/?x=1&api_key=sk-live-99&t", false).unwrap_err();
        assert!(
            err.starts_with(
                "'http://127.0.0.1:9/?x=****&api_key=****&****' has a query or fragment"
            ),
            "{err}"
        );
        assert_eq!(
            shown_url("https://h/v#access_token=abc"),
            "https://h/v#****"
        );
        assert!(check_base_url("https://metrics.example/v2#top", false).is_err());
    }

    #[test]
    fn passwords_are_masked_wherever_a_url_is_shown() {
        assert_eq!(
            hide_passwords("GET https://ann:s3cret@metrics.example/v2/fees: timed out"),
            "GET https://ann:****@metrics.example/v2/fees: timed out"
        );
        assert_eq!(
            hide_passwords("'http://u:p@w?d#x@h:8/' and http://v:q@h"),
            "'http://u:****@h:8/' and http://v:****@h"
        );
        assert_eq!(
            hide_passwords("https://ann@h/ https://h:443/"),
            "https://ann@h/ https://h:443/"
        );
        assert_eq!(hide_passwords("no URL: a:b@c"), "no URL: a:b@c");
        assert_eq!(
            hide_passwords("'https://u:pa/ss@h/v2' is not a URL"),
            "'https://u:****@h/v2' is not a URL"
        );
        let err = check_base_url("ftp://ann:s3cret@h/", false).unwrap_err();
        assert_eq!(
            err,
            "'ftp://ann:****@h/' has scheme ftp: expected https (or http to loopback)"
        );
        let url = check_base_url("https://ann:s3cret@h/", false).unwrap();
        assert_eq!(
            url.password(),
            Some("s3cret"),
            "the URL used keeps its password"
        );
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

    #[test]
    fn a_forgotten_scheme_still_hides_the_password() {
        let err = check_base_url("bob:hunter2pw@127.0.0.1:46827", false).unwrap_err();
        assert_eq!(
            err,
            "'bob:****@127.0.0.1:46827' has no scheme: start it with https:// (or http:// to \
            loopback)"
        );
        let err = check_base_url("metrics.example", false).unwrap_err();
        assert!(err.starts_with("'metrics.example' has no scheme"), "{err}");
        assert_eq!(shown_url("https:ann:pw@h"), "https:****@h");
        assert_eq!(shown_url("ann@h:1"), "ann@h:1");
        assert_eq!(shown_url("http://ann:pw@h"), "http://ann:****@h");
    }

    #[test]
    fn a_password_is_masked_whatever_it_holds() {
        for password in ["it's", "say \"hi\"", "two words", "a@b:c"] {
            let typed = format!("https://ann:{password}@h.example/v2");
            assert_eq!(
                shown_url(&typed),
                "https://ann:****@h.example/v2",
                "{password}"
            );
        }
        assert_eq!(shown_url("https://ann:pw@[::1"), MASK);
        assert_eq!(shown_url("https://[::1"), "https://[::1");
        assert_eq!(
            hide_passwords("GET https://ann:it's%20x@h/api: timed out"),
            "GET https://ann:****@h/api: timed out"
        );
    }
}
