//! How a failed request is worded: the service's error body (whatever its shape) reduced to a
//! short message, and each kind of failure as one `error:` line, a hint and an exit code.

use reqwest::header::{CONTENT_TYPE, LOCATION};
use reqwest::{Method, StatusCode};
use serde_json::Value;

use super::connection::Finding;
use super::range_refusal::{range_hint, speaks_of_range};
use super::transport::{Answer, TransportError};
use super::Request;
use crate::error::{Exit, Failure, RequestDetail};
use crate::settings::ProxyChoice;
use crate::system::foreign;

const MAX_CHARS: usize = 200;

/// How many characters of a `Location` a message quotes.
pub(super) const LOCATION_CHARS: usize = 200;
/// The longest `Location` followed: a longer one (a hostile 100 KB address) is refused, not
/// followed nor echoed whole.
pub(super) const MAX_LOCATION_BYTES: usize = 8 * 1024;

/// The secrets a client masks in service text (its `mask`: the key wherever it shows, URL
/// passwords), handed to [`foreign::shown`] with the text.
pub(super) type Scrub<'a> = foreign::Mask<'a>;

/// The service's own message: from JSON `error`/`message`/`detail`, plain text, or an HTML
/// page, on one line and shown through [`foreign::shown`]: controls replaced, secrets masked,
/// then cut, so a cut never leaves part of a key unmasked.
pub(super) fn service_message(
    scrub: &Scrub<'_>,
    content_type: Option<&str>,
    body: &[u8],
) -> String {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.is_empty() {
        return "(empty body)".into();
    }
    let shown = |text: &str| foreign::shown(&one_line(text), scrub, MAX_CHARS);
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return shown(&from_json(&value).unwrap_or_else(|| value.to_string()));
    }
    let is_html = content_type.is_some_and(|t| t.to_ascii_lowercase().contains("html"))
        || text.starts_with('<');
    if is_html {
        return match html_title(text) {
            Some(title) => format!("an HTML page titled \"{}\"", shown(&title)),
            None => "an HTML page".into(),
        };
    }
    shown(text)
}

/// Finds the message in common JSON error shapes (`{"error": ...}`, FastAPI's `detail` list…).
fn from_json(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Object(map) => [
            "error",
            "message",
            "detail",
            "error_description",
            "title",
            "msg",
        ]
        .iter()
        .find_map(|key| map.get(*key).and_then(from_json)),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().filter_map(from_json).collect();
            (!parts.is_empty()).then(|| parts.join("; "))
        }
        _ => None,
    }
}

fn html_title(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let start = lower.find("<title")?;
    let open_end = start + lower[start..].find('>')? + 1;
    let close = open_end + lower[open_end..].find("</title")?;
    let title = html[open_end..close]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!title.is_empty()).then_some(title)
}

/// The words of `text` on one line, single spaces between them.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(super) fn status_text(status: StatusCode) -> String {
    match status.canonical_reason() {
        Some(reason) => format!("{} {reason}", status.as_u16()),
        None => status.as_u16().to_string(),
    }
}

/// A non-success answer as the failure the user sees: a redirect to another origin (exit 7),
/// a rejected key (4), a failed service (6, after the retries) or a rejected request (5).
pub(super) fn status_failure(
    scrub: &Scrub<'_>,
    retries: u32,
    request: &Request,
    method: &Method,
    answer: &Answer,
    refusal: Option<String>,
) -> Failure {
    let status = answer.status;
    let subject = format!("{method} {}", request.subject());
    if status.is_redirection() {
        return redirect_refused(scrub, &subject, answer);
    }
    let message = service_message(scrub, answer.header(CONTENT_TYPE), &answer.body);
    let answered = format!("{subject} answered HTTP {}: {message}", status_text(status));
    let detail = RequestDetail {
        status: Some(status.as_u16()),
        service_message: Some(message.clone()),
        ..request.detail()
    };
    status_failure_of(status, answered, message, request, method, retries, refusal)
        .with_detail(detail)
}

/// The failure of an answer with `status` (not a redirect), worded.
fn status_failure_of(
    status: StatusCode,
    answered: String,
    message: String,
    request: &Request,
    method: &Method,
    retries: u32,
    refusal: Option<String>,
) -> Failure {
    match status.as_u16() {
        401 | 403 => Failure::new(
            Exit::KeyRejected,
            format!("the service rejected the API key: {answered}"),
        ),
        429 | 500..=599 => service_failed(&answered, retries, refusal),
        status => {
            let failure = Failure::new(
                Exit::RequestRejected,
                format!("the service rejected the request: {answered}"),
            );
            match status {
                _ if speaks_of_range(&message) => {
                    failure.with_hint(range_hint(&request.range, &message))
                }
                404 => failure.with_hint(
                    "check the base URL's path: the endpoint paths are \
                    appended to it, so a missing or extra prefix (such as /v2) answers 404",
                ),
                405 => {
                    let other = if *method == Method::GET {
                        "post"
                    } else {
                        "get"
                    };
                    failure.with_hint(format!(
                        "the service does not take {method} here: use \
                        --method {other}"
                    ))
                }
                _ => failure,
            }
        }
    }
}

fn redirect_refused(scrub: &Scrub<'_>, subject: &str, answer: &Answer) -> Failure {
    let target = match answer.header(LOCATION) {
        Some(target) if target.len() > MAX_LOCATION_BYTES => {
            return Failure::new(
                Exit::Network,
                format!(
                    "{subject} redirected to a Location of {} bytes ({}), longer than the {} KiB \
                    this tool follows: not followed",
                    target.len(),
                    foreign::shown(target, scrub, LOCATION_CHARS),
                    MAX_LOCATION_BYTES / 1024
                ),
            )
            .with_hint("check the base URL: a service does not redirect to addresses this long");
        }
        Some(target) => foreign::shown(target, scrub, LOCATION_CHARS),
        None => "(no Location header)".into(),
    };
    Failure::new(
        Exit::Network,
        format!(
            "{subject} redirected to {target}, another origin: not followed, so the API key is \
            not sent there"
        ),
    )
    .with_hint("check the base URL; the key is only ever sent to the configured origin")
}

/// 429 or 5xx once the retries are spent, or refused early because the service asked for a
/// wait longer than allowed (`refusal` says so).
fn service_failed(answered: &str, retries: u32, refusal: Option<String>) -> Failure {
    let hint = match &refusal {
        Some(_) => "try again once the service's wait is over",
        None => "try again later, or raise --retries",
    };
    let note = refusal.unwrap_or_else(|| match retries {
        0 => "no retries".into(),
        1 => "after 1 retry".into(),
        n => format!("after {n} retries"),
    });
    Failure::new(
        Exit::ServiceFailed,
        format!("the service failed: {answered} ({note})"),
    )
    .with_hint(hint)
}

/// No complete answer came back from `url` (`description` says why), after `attempts` tries,
/// going through `proxy` if one is set.
pub(super) fn transport_failure(
    request: &Request,
    method: &Method,
    url: &str,
    problem: &TransportError,
    description: &str,
    attempts: u32,
    proxy: Option<&ProxyChoice>,
) -> Failure {
    let tries = match attempts {
        1 => String::new(),
        n => format!(" ({n} attempts)"),
    };
    let message = format!(
        "{method} {} at {url}: {description}{tries}",
        request.subject()
    );
    if let Some(proxy) = proxy {
        if let Some(failure) = proxy_failure(problem, &message, proxy) {
            return failure;
        }
    }
    match problem {
        TransportError::Found(finding, _) => found_failure(finding, message),
        TransportError::TooLarge | TransportError::Undecodable(_) => {
            Failure::new(Exit::BadResponse, message)
        }
        TransportError::Timeout => Failure::new(Exit::Network, message).with_hint(
            "raise --timeout (seconds for a whole request), or ask for fewer days per request with \
            --chunk-days N",
        ),
        TransportError::ConnectTimeout => Failure::new(Exit::Network, message)
            .with_hint("check the base URL and your connection, or raise --connect-timeout"),
        TransportError::Connect(_) => Failure::new(Exit::Network, message)
            .with_hint("check the base URL and your connection"),
        _ => Failure::new(Exit::Network, message).with_hint("try again later, or raise --retries"),
    }
}

/// A failure to reach the proxy, or its refusal, named as the proxy's (the variable too, as
/// the user may not know it is set).
fn proxy_failure(problem: &TransportError, message: &str, proxy: &ProxyChoice) -> Option<Failure> {
    let unset = format!(
        "check the proxy, or unset {} (NO_PROXY=HOST skips it for one host)",
        proxy.var
    );
    let (says, hint) = match problem {
        TransportError::Connect(_) | TransportError::ConnectTimeout => {
            ("cannot reach the proxy", unset)
        }
        TransportError::Found(Finding::ProxyRefused | Finding::ProxyForbidden(_), _) => {
            ("through the proxy", unset)
        }
        TransportError::Found(Finding::ProxyAuth, _) => (
            "through the proxy",
            format!(
                "put the proxy's user name and password in {}, before its host: \
                USER:PASSWORD@HOST:PORT",
                proxy.var
            ),
        ),
        _ => return None,
    };
    Some(
        Failure::new(
            Exit::Network,
            format!("{message}; {says} {}", proxy.describe()),
        )
        .with_hint(hint),
    )
}

/// A certificate refused or the wrong scheme for the port: exit 7, with what to change.
fn found_failure(finding: &Finding, message: String) -> Failure {
    let hint = match finding {
        Finding::Certificate(_) => {
            "if a company proxy or a private CA signs it, trust that CA's \
            certificate with --ca-bundle FILE (or CHAIN_METRICS_CA_BUNDLE, or SSL_CERT_FILE); \
            check the base URL's host name"
        }
        Finding::NotTls => "the port speaks plain HTTP: check the base URL's scheme and port",
        Finding::NotPlainHttp => "the port speaks TLS: use https:// in the base URL",
        Finding::ProxyAuth | Finding::ProxyRefused | Finding::ProxyForbidden(_) => {
            "check the proxy settings"
        }
        Finding::HeadTooLarge | Finding::BadContentLength | Finding::BadHttp(_) => {
            return Failure::new(Exit::BadResponse, message).with_hint(
                "the server at the base URL does not answer as the service does: check \
                    the base URL",
            );
        }
        Finding::RedirectLoop => {
            "the service redirects to itself without end: check the base \
            URL's path"
        }
    };
    Failure::new(Exit::Network, message).with_hint(hint)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(text: &str) -> String {
        text.to_owned()
    }

    #[test]
    fn the_key_is_masked_before_the_message_is_cut() {
        let key = crate::settings::ApiKey::new("sk-live-1234567890abcdefghijklmnopqrstuv").unwrap();
        let scrub = |text: &str| key.mask(text);
        let body = format!("{} {}", "x".repeat(190), key.expose());
        let shown = service_message(&scrub, None, body.as_bytes());
        assert_eq!(shown, format!("{} ****", "x".repeat(190)));
    }

    #[test]
    fn json_shapes() {
        let m = |body: &str| service_message(&same, Some("application/json"), body.as_bytes());
        assert_eq!(m(r#"{"error":"invalid API key"}"#), "invalid API key");
        assert_eq!(
            m(r#"{"message":"missing parameter: chain"}"#),
            "missing parameter: chain"
        );
        assert_eq!(m(r#"{"detail":"Not Found"}"#), "Not Found");
        assert_eq!(
            m(r#"{"error":{"code":7,"message":"range too long"}}"#),
            "range too long"
        );
        assert_eq!(
            m(r#"{"detail":[{"loc":["body","chain"],"msg":"field required"}]}"#),
            "field required"
        );
        assert_eq!(m(r#"{"status":500}"#), r#"{"status":500}"#);
        assert_eq!(m(""), "(empty body)");
    }

    #[test]
    fn text_and_html() {
        assert_eq!(
            service_message(&same, Some("text/plain"), b"Bad key\n\nsorry"),
            "Bad key sorry"
        );
        let html = b"<!DOCTYPE html><html><head><title>502 Bad\n \
            Gateway</title></head><body>...</body></html>";
        assert_eq!(
            service_message(&same, Some("text/html"), html),
            "an HTML page titled \"502 Bad Gateway\""
        );
        assert_eq!(
            service_message(&same, None, b"<html><body>oops</body></html>"),
            "an HTML page"
        );
        let long = "x".repeat(500);
        assert_eq!(
            service_message(&same, None, long.as_bytes())
                .chars()
                .count(),
            MAX_CHARS + 1
        );
    }
}
