//! Failures below HTTP that the user fixes differently from a network outage: a certificate
//! refused, the wrong scheme for the port, a proxy that refuses or wants credentials.

use std::error::Error as StdError;

use rustls::CertificateError;

/// Why the server's certificate was refused. None is retried: the next try gets the same one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum CertificateProblem {
    UnknownIssuer,
    Expired,
    NotYetValid,
    WrongHost,
    /// Another refusal (macOS and Windows report some, expiry included, this way).
    Other,
}

impl CertificateProblem {
    pub(super) fn describe(&self) -> &'static str {
        match self {
            CertificateProblem::UnknownIssuer => "it is signed by an unknown issuer",
            CertificateProblem::Expired => "it has expired",
            CertificateProblem::NotYetValid => "it is not valid yet",
            CertificateProblem::WrongHost => "it is for another host name",
            CertificateProblem::Other => "it is not trusted",
        }
    }
}

/// What a failed connection says about itself, once TLS and proxy errors are looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Finding {
    Certificate(CertificateProblem),
    /// https:// to a port that answers in plain HTTP.
    NotTls,
    /// http:// to a port that speaks TLS.
    NotPlainHttp,
    /// The proxy answered CONNECT with 407.
    ProxyAuth,
    /// The proxy answered CONNECT with another refusal (502: it cannot reach the service).
    ProxyRefused,
    /// The proxy answered CONNECT with this refusal of its own (403: its policy), which
    /// trying again does not change.
    ProxyForbidden(u16),
    /// The answer's head (status line and headers) is larger than the client reads.
    HeadTooLarge,
    /// The answer's Content-Length is not a length.
    BadContentLength,
    /// The answer is HTTP, but broken (a header that does not parse); hyper's words.
    BadHttp(String),
    /// Redirected over and over within the configured origin.
    RedirectLoop,
}

/// Every cause of `error`, looking inside `io::Error`s too: their `source()` skips their own
/// payload, and tokio-rustls hands its `rustls::Error` over inside one.
pub(super) fn causes<'a>(error: &'a (dyn StdError + 'static)) -> Vec<&'a (dyn StdError + 'static)> {
    let mut all = Vec::new();
    let mut next = Some(error);
    while let Some(cause) = next {
        all.push(cause);
        next = match cause
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner) => Some(inner as &(dyn StdError + 'static)),
            None => cause.source(),
        };
    }
    all
}

/// The TLS or proxy failure behind `error`, if it is one.
pub(super) fn find(error: &(dyn StdError + 'static)) -> Option<Finding> {
    let causes = causes(error);
    if let Some(tls) = causes
        .iter()
        .find_map(|c| c.downcast_ref::<rustls::Error>())
    {
        return match tls {
            rustls::Error::InvalidCertificate(problem) => {
                Some(Finding::Certificate(certificate(problem)))
            }
            // The first bytes back were no TLS record ("HTTP/1.1 400 ..."): a plain HTTP port.
            rustls::Error::InvalidMessage(_) => Some(Finding::NotTls),
            _ => None,
        };
    }
    // hyper-util's TunnelError is private: its text is the way to know it.
    let tunnel = causes
        .iter()
        .map(|c| c.to_string())
        .find(|text| text.starts_with("tunnel error: "));
    if let Some(text) = tunnel {
        return match text {
            t if t.contains("proxy authorization required") => Some(Finding::ProxyAuth),
            // The TCP connection to the proxy failed: an ordinary connect failure.
            t if t.contains("failed to create underlying connection") => None,
            _ => Some(Finding::ProxyRefused),
        };
    }
    if causes.iter().any(|c| c.to_string() == TOO_MANY_REDIRECTS) {
        return Some(Finding::RedirectLoop);
    }
    let hyper = causes
        .iter()
        .find_map(|c| c.downcast_ref::<hyper::Error>())?;
    broken_http(hyper)
}

/// What reqwest's redirect policy says past ten hops (`transport::same_origin_redirects`).
pub(super) const TOO_MANY_REDIRECTS: &str = "more than 10 redirects";

/// A parse error of the answer, named as what it is: only a status line that is no HTTP at
/// all (the TLS alert an http:// URL on a TLS port gets back) means another protocol.
fn broken_http(error: &hyper::Error) -> Option<Finding> {
    if !error.is_parse() {
        return None;
    }
    if error.is_parse_too_large() {
        return Some(Finding::HeadTooLarge);
    }
    // hyper has no public test for these two: its words are the way to know them.
    let text = error.to_string();
    if text.contains("invalid HTTP version") {
        return Some(Finding::NotPlainHttp);
    }
    if text.contains("content-length") {
        return Some(Finding::BadContentLength);
    }
    Some(Finding::BadHttp(text))
}

fn certificate(problem: &CertificateError) -> CertificateProblem {
    match problem {
        CertificateError::UnknownIssuer => CertificateProblem::UnknownIssuer,
        CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
            CertificateProblem::Expired
        }
        CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
            CertificateProblem::NotYetValid
        }
        CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
            CertificateProblem::WrongHost
        }
        _ => CertificateProblem::Other,
    }
}
