//! What can go wrong below HTTP statuses: classifying reqwest's errors, reading a body whole
//! within the size cap, and following redirects within the configured origin only.

use std::io::Read;
use std::time::{Duration, Instant};

use reqwest::blocking::Response;
use reqwest::header::{HeaderMap, CONTENT_LENGTH};
use reqwest::StatusCode;

use super::body::{bounded_records, read_held, KeptRecords, Misshapen};
use super::connection::{self, Finding};
use crate::model::{DayRange, Endpoint, Metric};

/// Bodies above this are refused: no daily series comes near it.
pub(super) const MAX_BODY: u64 = 64 * 1024 * 1024;

/// An HTTP answer: its body's first [`QUOTED_MOST`] bytes held, to be quoted; or a success's
/// body read into records as it came, at most one a day asked (`records`; `body` is then
/// empty); or, for `--raw`, a success's body left to be read as it comes (`unread`).
pub(super) struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
    /// The body's length in bytes, as read (decoded), held or not; 0 while it is unread.
    pub length: u64,
    pub records: Option<Result<KeptRecords, Misshapen>>,
    /// `--raw`'s success: the body, within the cap and the deadline, not read yet.
    pub unread: Option<Box<Bounded>>,
}

impl Answer {
    pub(super) fn header(&self, name: reqwest::header::HeaderName) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// Why no complete answer came back.
#[derive(Debug)]
pub(super) enum TransportError {
    Connect(String),
    ConnectTimeout,
    Timeout,
    CutShort(String),
    Broken(String),
    TooLarge,
    /// A certificate refused, the wrong scheme for the port, a proxy's refusal; the deepest
    /// cause's text.
    Found(Finding, String),
    /// The body could not be decoded (a broken gzip stream).
    Undecodable(String),
}

impl TransportError {
    /// Whether trying again may help: not for a body too large or undecodable, a refused
    /// certificate, the wrong scheme or missing proxy credentials.
    pub(super) fn is_transient(&self) -> bool {
        match self {
            TransportError::TooLarge | TransportError::Undecodable(_) => false,
            TransportError::Found(finding, _) => *finding == Finding::ProxyRefused,
            _ => true,
        }
    }

    /// What happened in a word or two, for the count of retries at the end of a run.
    pub(super) fn short(&self) -> &'static str {
        match self {
            // Whether a reset lands while connecting or after is chance: one word for both.
            TransportError::Connect(_) | TransportError::Broken(_) => "connection failed",
            TransportError::ConnectTimeout => "connect timeout",
            TransportError::Timeout => "timeout",
            TransportError::CutShort(_) => "cut short",
            TransportError::TooLarge => "too large",
            TransportError::Found(..) => "refused",
            TransportError::Undecodable(_) => "undecodable",
        }
    }

    /// What happened, naming the limit that was reached.
    pub(super) fn describe(&self, timeout: Duration, connect_timeout: Duration) -> String {
        match self {
            TransportError::Connect(e) => format!("cannot connect ({e})"),
            TransportError::ConnectTimeout => format!(
                "no connection within {} s (--connect-timeout)",
                connect_timeout.as_secs_f64()
            ),
            TransportError::Timeout => format!("timed out after {} s", timeout.as_secs_f64()),
            TransportError::CutShort(e) => format!("the response body was cut short ({e})"),
            TransportError::Broken(e) => format!("the connection broke ({e})"),
            TransportError::TooLarge => format!(
                "the response is larger than {} MiB, the most this tool reads",
                MAX_BODY >> 20
            ),
            TransportError::Undecodable(e) => format!("the response body cannot be decoded ({e})"),
            TransportError::Found(finding, e) => format!("{} ({e})", describe_finding(finding)),
        }
    }
}

fn describe_finding(finding: &Finding) -> String {
    match finding {
        Finding::Certificate(problem) => {
            format!(
                "the server's certificate was refused: {}",
                problem.describe()
            )
        }
        Finding::NotTls => "the server answered https:// in plain HTTP (an http:// port?)".into(),
        Finding::NotPlainHttp => "the server does not speak plain HTTP (an https:// port?)".into(),
        Finding::ProxyAuth => "the proxy asks for credentials (407)".into(),
        Finding::ProxyRefused => "the proxy refused to open a tunnel to the service".into(),
        Finding::ProxyForbidden(status) => {
            format!(
                "the proxy refused to open a tunnel to the service (HTTP {status}, its own policy)"
            )
        }
        Finding::HeadTooLarge => {
            "the answer's headers are too large (over the client's limit of about 400 KiB)".into()
        }
        Finding::BadContentLength => "the answer's Content-Length header is not a length".into(),
        Finding::BadHttp(what) => format!("the answer is broken HTTP: {what}"),
        Finding::RedirectLoop => {
            "redirected more than 10 times within the same origin: a redirect loop".into()
        }
    }
}

/// How much of a body that is not read into records is held when it is only to be quoted (an
/// error's message, the page a proxy sent): its first 16 KiB; the rest is counted and dropped.
pub(super) const QUOTED_MOST: usize = 16 * 1024;

/// Reads a body that is not read into records, refusing more than `MAX_BODY` bytes (by
/// Content-Length or by count): only its first [`QUOTED_MOST`] bytes are held, to be quoted;
/// with `stream` (`--raw`'s success, printed as it comes) none, the body left `unread`. A
/// compressed body is counted decoded (reqwest decodes it and drops its Content-Length), so
/// one that inflates without end stops at the cap.
///
/// `deadline` bounds the whole read: reqwest's own timeout restarts with every read, so a
/// service that trickles its body a byte at a time would otherwise hold the run forever.
pub(super) fn read_answer(
    response: Response,
    deadline: Instant,
    stream: bool,
) -> Result<Answer, TransportError> {
    let (status, headers, announced) = head(&response)?;
    let mut reader = Bounded::new(response, deadline);
    if stream {
        return Ok(Answer {
            status,
            headers,
            body: Vec::new(),
            length: 0,
            records: None,
            unread: Some(Box::new(reader)),
        });
    }
    // An announced length is room for the whole body at once (no doubling past it); read
    // straight into it, with no buffer of its own beside.
    let room = announced.map_or(0, |n| n as usize).min(QUOTED_MOST + 1);
    let mut body = Vec::with_capacity(room);
    let read = read_held(&mut reader, &mut body, QUOTED_MOST);
    if reader.count > MAX_BODY {
        return Err(TransportError::TooLarge);
    }
    read.map_err(read_failure)?;
    Ok(Answer {
        status,
        headers,
        body,
        length: reader.count,
        records: None,
        unread: None,
    })
}

/// Reads a success's body into the records of `endpoint` as it comes (see `stream`), within
/// the same cap and deadline as [`read_answer`]: no body is ever held whole, unless it leaves
/// the documented shape. A read that fails (cut short, timed out) is a transport error, to be
/// retried like any other; a body of the wrong shape is an answer, with its problem.
pub(super) fn read_records_answer(
    response: Response,
    deadline: Instant,
    endpoint: Endpoint,
    columns: &[Metric],
    range: DayRange,
) -> Result<Answer, TransportError> {
    let (status, headers, _) = head(&response)?;
    let mut reader = Bounded::new(response, deadline);
    let read = bounded_records(endpoint, columns, range, &mut reader);
    if reader.count > MAX_BODY {
        return Err(TransportError::TooLarge);
    }
    let records = read.map_err(read_failure)?;
    Ok(Answer {
        status,
        headers,
        body: Vec::new(),
        length: reader.count,
        records: Some(records),
        unread: None,
    })
}

/// An answer's status and headers, and the length it announces; one announcing more than
/// `MAX_BODY` is refused before any of its body is read.
fn head(response: &Response) -> Result<(StatusCode, HeaderMap, Option<u64>), TransportError> {
    let headers = response.headers().clone();
    let announced = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY) {
        return Err(TransportError::TooLarge);
    }
    Ok((response.status(), headers, announced))
}

/// A body's reader within the read's limits: it fails as timed out once a read that brought
/// bytes ends past `deadline`, and fails once the bytes it gave (`count`) pass `MAX_BODY`, so a
/// body too large is refused as soon as it is, not once a parser has finished with it.
pub(super) struct Bounded {
    inner: std::io::Take<Response>,
    deadline: Instant,
    count: u64,
}

impl Bounded {
    /// Reads the next piece of the body into `into`: how many bytes (0 at its end), or why no
    /// more came (cut short, timed out, past the cap).
    pub(super) fn next_piece(&mut self, into: &mut [u8]) -> Result<usize, TransportError> {
        match self.read(into) {
            Ok(read) => Ok(read),
            Err(_) if self.count > MAX_BODY => Err(TransportError::TooLarge),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ok(self.next_piece(into)?),
            Err(e) => Err(read_failure(e)),
        }
    }

    /// The body's bytes read so far (decoded).
    pub(super) fn count(&self) -> u64 {
        self.count
    }
}

impl Bounded {
    fn new(response: Response, deadline: Instant) -> Bounded {
        Bounded {
            inner: response.take(MAX_BODY + 1),
            deadline,
            count: 0,
        }
    }
}

impl Read for Bounded {
    fn read(&mut self, into: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(into)?;
        self.count += read as u64;
        if self.count > MAX_BODY {
            return Err(std::io::Error::other("the body passed the size cap"));
        }
        if read > 0 && Instant::now() > self.deadline {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        Ok(read)
    }
}

/// Sorts a failed body read: a timeout, a body that cannot be decoded, or one cut short.
fn read_failure(e: std::io::Error) -> TransportError {
    let inner = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<reqwest::Error>());
    if e.kind() == std::io::ErrorKind::TimedOut || inner.is_some_and(reqwest::Error::is_timeout) {
        TransportError::Timeout
    } else if is_undecodable(&e) {
        TransportError::Undecodable(innermost(&e))
    } else {
        TransportError::CutShort(innermost(&e))
    }
}

/// A body the gzip decoder refused: reqwest reports it as a decode error, or passes the
/// decoder's own `InvalidData` on.
fn is_undecodable(e: &std::io::Error) -> bool {
    connection::causes(e).iter().any(|cause| {
        cause
            .downcast_ref::<reqwest::Error>()
            .is_some_and(reqwest::Error::is_decode)
            || cause
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::InvalidData)
    })
}

/// Sorts a failed send: a connect timeout is told apart from the total one, as each has its
/// own setting.
pub(super) fn classify(error: reqwest::Error) -> TransportError {
    let detail = innermost(&error);
    // Certificate failures are connect errors too: they are told apart first.
    if let Some(finding) = connection::find(&error) {
        TransportError::Found(finding, detail)
    } else if error.is_timeout() && error.is_connect() {
        TransportError::ConnectTimeout
    } else if error.is_timeout() {
        TransportError::Timeout
    } else if error.is_connect() {
        TransportError::Connect(detail)
    } else if error.is_body() || error.is_decode() {
        TransportError::CutShort(detail)
    } else {
        TransportError::Broken(detail)
    }
}

/// The deepest cause's text: reqwest's own text repeats the URL and hides the reason.
pub(super) fn innermost(error: &(dyn std::error::Error + 'static)) -> String {
    let text = connection::causes(error)
        .last()
        .map(|cause| cause.to_string())
        .unwrap_or_default();
    // rustls appends a link to its manual to some texts: not for the user's terminal.
    match text.split_once(": https://docs.rs/") {
        Some((said, _)) => said.to_owned(),
        None => text,
    }
}

/// Follows redirects within the configured origin only: reqwest would otherwise carry the
/// X-API-Key header to any host a redirect names.
pub(super) fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let first = &attempt.previous()[0];
        // 301/302/303 would turn the POST into a GET without its body: the client re-sends the
        // same request itself (see `Client::fetch`).
        let rewrites_method = matches!(attempt.status().as_u16(), 301..=303);
        if attempt.previous().len() > 10 {
            attempt.error(connection::TOO_MANY_REDIRECTS)
        } else if first.origin() == attempt.url().origin() && !rewrites_method {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
}

/// Whether a Content-Type names JSON (`application/json`, `application/problem+json`, ...).
pub(super) fn is_json_type(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence.ends_with("/json") || essence.ends_with("+json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_content_types() {
        let json = [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON",
            "application/problem+json",
            "text/json",
        ];
        let other = [
            "text/html; charset=utf-8",
            "text/plain",
            "",
            "application/jsonp",
        ];
        let cases = json.iter().map(|t| (t, true));
        for (content_type, is_json) in cases.chain(other.iter().map(|t| (t, false))) {
            assert_eq!(is_json_type(content_type), is_json, "{content_type}");
        }
    }
}
