//! A libpq URI taken apart into its percent-decoded parts, and shown with its password masked.

use percent_encoding::percent_decode_str;

use crate::error::Failure;
use crate::system::foreign::{self, MASK};

/// The schemes of a PostgreSQL target.
const SCHEMES: [&str; 2] = ["postgresql://", "postgres://"];
/// The URI's parts, percent-decoded; `None`: not given there.
#[derive(Default)]
pub(super) struct Parts {
    pub(super) user: Option<String>,
    pub(super) password: Option<String>,
    pub(super) hosts: Vec<(String, Option<String>)>,
    pub(super) dbname: Option<String>,
    pub(super) params: Vec<(String, String)>,
}
/// The URI's parts; a malformed one is a usage error, shown masked.
pub(super) fn split(uri: &str) -> Result<Parts, Failure> {
    let rest = SCHEMES
        .iter()
        .find_map(|s| uri.strip_prefix(s))
        .ok_or_else(|| {
            Failure::usage("a PostgreSQL URI starts with postgresql:// or postgres://")
        })?;
    let (before_query, query) = match rest.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (rest, None),
    };
    let (authority, path) = match before_query.split_once('/') {
        Some((a, p)) => (a, Some(p)),
        None => (before_query, None),
    };
    let decode = |text: &str| -> Result<String, Failure> {
        percent_decode_str(text)
            .decode_utf8()
            .map(|t| t.into_owned())
            .map_err(|_| Failure::usage("a PostgreSQL URI's parts must be UTF-8 once decoded"))
    };
    let mut parts = Parts::default();
    let hosts = match authority.rsplit_once('@') {
        Some((userinfo, hosts)) => {
            let (user, password) = match userinfo.split_once(':') {
                Some((u, p)) => (u, Some(p)),
                None => (userinfo, None),
            };
            parts.user = Some(decode(user)?).filter(|u| !u.is_empty());
            parts.password = password.map(decode).transpose()?;
            hosts
        }
        None => authority,
    };
    for host in hosts.split(',').filter(|h| !h.is_empty()) {
        let (name, port) = match host.strip_prefix('[') {
            Some(v6) => match v6.split_once(']') {
                Some((addr, rest)) => (addr.to_owned(), rest.strip_prefix(':').map(str::to_owned)),
                None => return Err(Failure::usage("a PostgreSQL URI's IPv6 host lacks its ]")),
            },
            None => match host.rsplit_once(':') {
                Some((name, port)) => (decode(name)?, Some(port.to_owned())),
                None => (decode(host)?, None),
            },
        };
        parts.hosts.push((name, port.filter(|p| !p.is_empty())));
    }
    parts.dbname = path.map(decode).transpose()?;
    for pair in query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .filter(|p| !p.is_empty())
    {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        parts.params.push((decode(key)?, decode(value)?));
    }
    Ok(parts)
}

/// `uri` with its password (in the user part, or a `password=` parameter) masked.
pub(super) fn masked(uri: &str, password: Option<&str>) -> String {
    let mut shown = uri.to_owned();
    if password.is_some() {
        if let Some(scheme_end) = shown.find("://") {
            let start = scheme_end + 3;
            let end = shown[start..]
                .find(['/', '?'])
                .map_or(shown.len(), |at| start + at);
            if let Some(at) = shown[start..end].rfind('@') {
                if let Some(colon) = shown[start..start + at].find(':') {
                    shown.replace_range(start + colon + 1..start + at, MASK);
                }
            }
        }
    }
    if let Some(query_at) = shown.find('?') {
        let (head, query) = shown.split_at(query_at + 1);
        let pairs: Vec<String> = (query.split('&'))
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) if key == "password" => format!("{key}={MASK}"),
                _ => pair.to_owned(),
            })
            .collect();
        shown = format!("{head}{}", pairs.join("&"));
    }
    foreign::cut(&shown, 200)
}
