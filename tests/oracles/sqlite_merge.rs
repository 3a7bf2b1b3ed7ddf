//! SQLite exports read back for `--merge` and `render FILE` (`read_sqlite_rows`): a table of
//! the export's shape (`date`, `chain`, `fees`) holding rows put in by hand, as another program
//! or a user may have left them, reads back exactly when every row is one the tool could have
//! written (a plausible `YYYY-MM-DD`, a chain's name, the value a number written as the tool
//! writes it, or NULL; an INTEGER cell as its digits), each key once: the same rows in the
//! order stored. Otherwise it is refused, in words. The same file with bytes overwritten by the
//! input is read without a panic (refused or read: a damaged page may still hold the rows).

use chain_metrics::{read_sqlite_rows, Chain, Column, Dataset, Metric, Number, Row};
use rusqlite::types::Value;

use super::Input;

pub fn check(data: &[u8]) -> Result<(), String> {
    let input = Input::new(data);
    let text = input.text();
    let cells: Vec<Vec<Value>> = text
        .split('\n')
        .take(16)
        .map(|line| line.splitn(3, '\t').map(value).collect())
        .collect();
    let folder = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = folder.path().join("export.sqlite");
    let stored = put_by_hand(&path, &cells, input.pick & 1 != 0)
        .map_err(|e| format!("cannot write: {e}"))?;
    let shape = shape();
    let got = read_sqlite_rows(&path, "fees", &shape);
    match (expected(&stored), got) {
        (Some(rows), Ok(Some(got))) if got == rows => {}
        (None, Err(words)) if !words.trim().is_empty() => {}
        (expected, got) => {
            return Err(format!(
                "stored {cells:?}: expected {expected:?}, read {got:?}"
            ));
        }
    }
    tampered(&path, input.pick, input.rest, &shape)
}

/// A cell as the input writes it: `NULL`, `#i123` (INTEGER), `#r1.5` (REAL), `#b..` (BLOB),
/// else TEXT as written.
fn value(cell: &str) -> Value {
    if cell == "NULL" {
        return Value::Null;
    }
    let typed = |prefix: &str| cell.strip_prefix(prefix);
    if let Some(n) = typed("#i").and_then(|t| t.parse::<i64>().ok()) {
        return Value::Integer(n);
    }
    if let Some(x) = typed("#r").and_then(|t| t.parse::<f64>().ok()) {
        return Value::Real(x);
    }
    if let Some(bytes) = typed("#b") {
        return Value::Blob(bytes.as_bytes().to_vec());
    }
    Value::Text(cell.to_owned())
}

/// The shape `--merge` reads a `fees` export of several chains as.
fn shape() -> Dataset {
    Dataset {
        chain_column: true,
        columns: vec![Column::value(Metric::Fees)],
        rows: Vec::new(),
    }
}

/// The table of the export (TEXT cells and the tool's primary key when `keyed`; else untyped
/// cells and no key, as another program might make it), holding `rows` in order; a row of
/// fewer than three cells has NULLs. Returns the cells as the table then holds them, in
/// order, read back with plain SQL.
fn put_by_hand(
    path: &std::path::Path,
    rows: &[Vec<Value>],
    keyed: bool,
) -> rusqlite::Result<Vec<Vec<Value>>> {
    let conn = rusqlite::Connection::open(path)?;
    let table = match keyed {
        true => "date TEXT, chain TEXT, fees TEXT, PRIMARY KEY (date, chain)",
        false => "date, chain, fees",
    };
    conn.execute_batch(&format!("CREATE TABLE fees ({table});"))?;
    for row in rows {
        let cell = |n: usize| row.get(n).cloned().unwrap_or(Value::Null);
        // A key the table refuses (twice, under the primary key) is simply not stored.
        let _ = conn.execute(
            "INSERT INTO fees VALUES (?1, ?2, ?3)",
            [cell(0), cell(1), cell(2)],
        );
    }
    let mut statement = conn.prepare("SELECT date, chain, fees FROM fees")?;
    let stored = statement.query_map([], |row| {
        (0..3)
            .map(|n| row.get::<_, Value>(n))
            .collect::<rusqlite::Result<Vec<Value>>>()
    })?;
    stored.collect()
}

/// What the table holds as stored, restated: `None` if any row is not one the tool writes or
/// a key comes twice. Rows the primary key refused were never stored.
fn expected(rows: &[Vec<Value>]) -> Option<Vec<Row>> {
    let mut read: Vec<Row> = Vec::new();
    let today = chrono::Utc::now().date_naive();
    let first = chrono::NaiveDate::from_ymd_opt(2015, 1, 1).unwrap();
    for cells in rows {
        let cell = |n: usize| cells.get(n).cloned().unwrap_or(Value::Null);
        let text = |v: Value| match v {
            Value::Text(t) => Some(Some(t)),
            Value::Integer(n) => Some(Some(n.to_string())),
            Value::Null => Some(None),
            _ => None,
        };
        let (date, chain, fees) = (text(cell(0)), text(cell(1)), text(cell(2)));
        let row = (|| {
            let date =
                chrono::NaiveDate::parse_from_str(date.clone()??.as_str(), "%Y-%m-%d").ok()?;
            let date_text = text(cell(0))??;
            let ok_form = date_text.len() == 10 && date.format("%Y-%m-%d").to_string() == date_text;
            let chain = Chain::from_name(&chain.clone()??)?;
            let value = match fees.clone()? {
                None => None,
                Some(t) => Some(Number::from_json_token(&t).filter(|n| *n.as_str() == *t)?),
            };
            (ok_form && date >= first && date <= today).then_some(Row {
                date,
                chain: Some(chain),
                values: vec![value],
                coverage: None,
            })
        })();
        let row = row?;
        if read
            .iter()
            .any(|r| r.date == row.date && r.chain == row.chain)
        {
            return None;
        }
        read.push(row);
    }
    Some(read)
}

/// The same file with up to eight bytes overwritten from the input (at offsets the input
/// picks, past the 100-byte header half the time): read without a panic, and refused in
/// words if refused.
fn tampered(path: &std::path::Path, pick: u8, rest: &[u8], shape: &Dataset) -> Result<(), String> {
    let mut bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if bytes.is_empty() {
        return Ok(());
    }
    for (n, pair) in rest.chunks(3).take(8).enumerate() {
        let at = pair
            .iter()
            .take(2)
            .fold(usize::from(pick) + n * 97, |a, b| a * 251 + usize::from(*b));
        let len = bytes.len();
        bytes[at % len] = *pair.last().unwrap_or(&0);
    }
    std::fs::write(path, &bytes).map_err(|e| e.to_string())?;
    match read_sqlite_rows(path, "fees", shape) {
        Err(words) if words.trim().is_empty() => {
            Err("a tampered file refused without words".into())
        }
        _ => Ok(()),
    }
}
