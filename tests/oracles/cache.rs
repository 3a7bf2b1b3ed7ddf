//! The cache's rows read back: rows put into a cache file by hand (a file another version or
//! a user edited) come back exactly when their day is a `YYYY-MM-DD` and their value a JSON
//! number, in day order, with the value's text as stored (around spaces); and what the cache
//! returns, stored again by the tool, comes back unchanged.

use chain_metrics::{Number, Replacement, SeriesKey, Store};
use chrono::NaiveDate;

use super::Input;

pub fn check(data: &[u8]) -> Result<(), String> {
    let text = Input::new(data).text();
    let rows: Vec<(&str, &str)> = text
        .split('\n')
        .take(64)
        .map(|line| line.split_once('\t').unwrap_or((line, "")))
        .collect();
    let folder = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = folder.path().join("cache.sqlite");
    drop(Store::open(&path).map_err(|e| format!("cannot make a cache: {e}"))?);
    let stored = put_by_hand(&path, &rows)?;
    let mut store = Store::open(&path).map_err(|e| format!("cannot open the cache: {e}"))?;
    // Every day `YYYY-MM-DD` writes.
    let first = NaiveDate::from_ymd_opt(1, 1, 1).unwrap();
    let last = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap();
    let got = store
        .values(&key("hand"), first, last)
        .map_err(|e| e.to_string())?;
    let got_texts: Vec<(String, String)> = got
        .iter()
        .map(|(day, n)| (day.to_string(), String::from(n.as_str())))
        .collect();
    let mut expected: Vec<(String, String)> = stored
        .into_iter()
        .filter(|(day, value)| {
            chain_metrics::parse_date(day).is_ok() && Number::from_json_token(value).is_some()
        })
        .map(|(day, value)| (day, value.trim().to_owned()))
        .collect();
    expected.sort();
    if got_texts != expected {
        return Err(format!("stored {expected:?}, read back {got_texts:?}"));
    }
    again(&mut store, &got)
}

fn key(service: &str) -> SeriesKey {
    SeriesKey {
        service: service.into(),
        endpoint: "/api/chain-insights/fees".into(),
        chain: "ETHEREUM".into(),
        metric: "fees".into(),
    }
}

/// Writes the rows into the cache's tables directly; returns them as the table then holds
/// them (a day written twice keeps its last value).
fn put_by_hand(
    path: &std::path::Path,
    rows: &[(&str, &str)],
) -> Result<Vec<(String, String)>, String> {
    let db = rusqlite::Connection::open(path).map_err(|e| e.to_string())?;
    let sql = |e: rusqlite::Error| e.to_string();
    db.execute(
        "INSERT INTO series (id, service, endpoint, chain, metric) VALUES (1, 'hand', '/api/chain-insights/fees', 'ETHEREUM', 'fees')",
        [],
    )
    .map_err(sql)?;
    for (day, value) in rows {
        db.execute(
            "INSERT OR REPLACE INTO value (series, day, value) VALUES (1, ?1, ?2)",
            [day, value],
        )
        .map_err(sql)?;
    }
    let mut query = db
        .prepare("SELECT day, value FROM value WHERE series = 1")
        .map_err(sql)?;
    let held = query
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .map_err(sql)?
        .collect::<Result<Vec<(String, String)>, _>>()
        .map_err(sql)?;
    Ok(held)
}

/// What the cache returned, kept by the tool as a fresh answer, comes back the same.
fn again(store: &mut Store, got: &[(NaiveDate, Number)]) -> Result<(), String> {
    let (Some(first), Some(last)) = (got.first(), got.last()) else {
        return Ok(());
    };
    let replacement = Replacement {
        key: key("tool"),
        first: first.0,
        last: last.0,
        values: got.iter().map(|(day, n)| (*day, n)).collect(),
    };
    store.replace(&[replacement]).map_err(|e| e.to_string())?;
    let back = store
        .values(&key("tool"), first.0, last.0)
        .map_err(|e| e.to_string())?;
    match back == got {
        true => Ok(()),
        false => Err(format!("kept {got:?}, read back {back:?}")),
    }
}
