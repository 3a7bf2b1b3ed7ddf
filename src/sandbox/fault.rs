//! Faults the sandbox can be told to show, so that tests (and users) see the client ride them out.

use std::time::{Duration, SystemTime};

use crate::model::Chain;
use crate::model::DAY_SECONDS;
use crate::model::{parse_date, DayRange};

/// What goes wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// Wait this long before answering.
    Latency(Duration),
    /// Answer this status with a JSON error body and, when given, a `Retry-After` header.
    Status {
        code: u16,
        retry_after: Option<RetryAfter>,
    },
    /// Reset each new connection (RST) before reading a byte of it.
    Reset,
    /// Send half of the body, then break the connection.
    CutShort,
    /// Answer 200 with an HTML page, as a proxy in maintenance does.
    Html,
    /// The metric value of the last record is a string instead of a number.
    WrongType,
    /// A body larger than any client should accept (65 MiB of JSON whitespace).
    Huge,
    /// Refuse ranges longer than this many days with a 400 whose message speaks of the range.
    RangeCap(u32),
    /// Send the body in small chunks (`Transfer-Encoding: chunked`): not a fault, a variation.
    Chunked,
    /// Leave these days out of every answer about the chain (every chain when `None`): a gap.
    Gap {
        chain: Option<Chain>,
        days: DayRange,
    },
}

/// How a `Retry-After` header is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetryAfter {
    Seconds(u64),
    /// An HTTP date this many seconds ahead.
    DateIn(u64),
}

impl RetryAfter {
    pub fn header_value(self) -> String {
        match self {
            RetryAfter::Seconds(s) => s.to_string(),
            RetryAfter::DateIn(s) => {
                httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(s))
            }
        }
    }
}

/// A fault, active on every attempt or only on the first N attempts the sandbox sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub first: Option<u64>,
}

pub(super) const FAULT_HELP: &str =
    "latency:MS, CODE[:RETRY_AFTER] (e.g. 503, 429:1, 503:date+2), \
    reset, cut, html, wrong-type, huge, range-cap:DAYS, chunked, gap:[CHAIN:]DAY..DAY; add @N to \
    show it on the first N attempts only";

impl Fault {
    /// Whether the fault shows on attempt number `attempt` (counted from 1).
    pub fn active(&self, attempt: u64) -> bool {
        self.first.is_none_or(|n| attempt <= n)
    }

    /// The clap value parser of `--fault NAME[:ARG][@N]`.
    pub fn parse(text: &str) -> Result<Fault, String> {
        let bad = |why: &str| format!("bad fault '{text}': {why}; expected one of {FAULT_HELP}");
        let (spec, first) = match text.rsplit_once('@') {
            Some((spec, n)) => (
                spec,
                Some(
                    n.parse::<u64>()
                        .map_err(|_| bad("@N needs a number of attempts"))?,
                ),
            ),
            None => (text, None),
        };
        let kind = parse_kind(spec).map_err(|why| bad(&why))?;
        Ok(Fault { kind, first })
    }
}

/// The longest `Retry-After` the sandbox sends: a day, as for every wait.
const MAX_SECONDS: u64 = DAY_SECONDS as u64;
/// The largest `latency:MS` or `range-cap:DAYS`: a day of milliseconds.
const MAX_ARG: u64 = MAX_SECONDS * 1000;

/// The `NAME[:ARG]` part of a fault; the error says why it is wrong.
fn parse_kind(spec: &str) -> Result<FaultKind, String> {
    let (name, arg) = match spec.split_once(':') {
        Some((name, arg)) => (name, Some(arg)),
        None => (spec, None),
    };
    // At most a day's worth, like every wait: more overflows the clock.
    let number = |what: &str| -> Result<u64, String> {
        arg.and_then(|a| a.parse::<u64>().ok())
            .filter(|n| *n <= MAX_ARG)
            .ok_or_else(|| format!("{name} needs {what}, at most {MAX_ARG}"))
    };
    Ok(match (name, arg) {
        ("latency", _) => FaultKind::Latency(Duration::from_millis(number("milliseconds")?)),
        ("reset", None) => FaultKind::Reset,
        ("cut", None) => FaultKind::CutShort,
        ("html", None) => FaultKind::Html,
        ("wrong-type", None) => FaultKind::WrongType,
        ("huge", None) => FaultKind::Huge,
        ("chunked", None) => FaultKind::Chunked,
        ("gap", Some(arg)) => parse_gap(arg)?,
        ("range-cap", _) => FaultKind::RangeCap(
            u32::try_from(number("a number of days")?).map_err(|_| "too many days")?,
        ),
        (code, _) if code.len() == 3 && matches!(code.parse::<u16>(), Ok(400..=599)) => {
            FaultKind::Status {
                code: code.parse().expect("checked above"),
                retry_after: arg.map(parse_retry_after).transpose()?,
            }
        }
        _ => return Err("unknown fault".into()),
    })
}

/// `[CHAIN:]DAY..DAY`: the days left out, of one chain or of all.
fn parse_gap(arg: &str) -> Result<FaultKind, String> {
    let (chain, days) = match arg.split_once(':') {
        Some((name, days)) => {
            let chain = Chain::parse(name).ok_or_else(|| format!("gap: unknown chain '{name}'"))?;
            (Some(chain), days)
        }
        None => (None, arg),
    };
    let (start, end) = days
        .split_once("..")
        .ok_or("gap needs days as DAY..DAY, e.g. 2024-02-05..2024-02-18")?;
    let (start, end) = (parse_date(start)?, parse_date(end)?);
    if start > end {
        return Err("gap: the first day is after the last".into());
    }
    Ok(FaultKind::Gap {
        chain,
        days: DayRange { start, end },
    })
}

fn parse_retry_after(text: &str) -> Result<RetryAfter, String> {
    let seconds = |s: &str| {
        s.parse::<u64>()
            .ok()
            .filter(|n| *n <= MAX_SECONDS)
            .ok_or_else(|| {
                format!(
                    "'{text}' is not a Retry-After: seconds or date+SECONDS, at most {MAX_SECONDS}"
                )
            })
    };
    match text.strip_prefix("date+") {
        Some(s) => Ok(RetryAfter::DateIn(seconds(s)?)),
        None => Ok(RetryAfter::Seconds(seconds(text)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let f = |t| Fault::parse(t).unwrap();
        assert_eq!(
            f("503:date+2@1"),
            Fault {
                kind: FaultKind::Status {
                    code: 503,
                    retry_after: Some(RetryAfter::DateIn(2))
                },
                first: Some(1)
            }
        );
        assert_eq!(
            f("latency:250").kind,
            FaultKind::Latency(Duration::from_millis(250))
        );
        assert_eq!(f("range-cap:31").kind, FaultKind::RangeCap(31));
        let days = DayRange {
            start: parse_date("2024-02-05").unwrap(),
            end: parse_date("2024-02-18").unwrap(),
        };
        assert_eq!(
            f("gap:base:2024-02-05..2024-02-18").kind,
            FaultKind::Gap {
                chain: Some(Chain::Base),
                days
            }
        );
        assert_eq!(
            f("gap:2024-02-05..2024-02-18").kind,
            FaultKind::Gap { chain: None, days }
        );
        assert_eq!(f("reset@2").first, Some(2));
        assert!(f("reset@2").active(2) && !f("reset@2").active(3) && f("cut").active(99));
        for bad in [
            "latency",
            "200",
            "reset:1",
            "cut@x",
            "slow",
            "503:soon",
            "gap:x:2024-01-01..2024-01-02",
            "gap:2024-01-02..2024-01-01",
            "gap",
        ] {
            let err = Fault::parse(bad).unwrap_err();
            assert!(err.starts_with(&format!("bad fault '{bad}': ")), "{err}");
        }
    }
}
