//! What an export this tool wrote holds, told from its own header: the columns (each matched
//! against the names `Column::name` makes, never parsed), whether it has a chain column, and
//! with a `days` column the `--by` period its dates start.

use std::io::BufRead;

use serde_json::value::RawValue;

use super::merge::first_row;
use crate::model::{Column, Dataset, Measure, Metric, Period, Row, SocialMetric};
use crate::render::Format;

/// The column names of `text` (a csv, tsv, json or ndjson export, read as a stream): its
/// header line, or the members of its first row object. `None`: no header to read.
pub(super) fn header_of(text: impl BufRead, format: Format) -> Result<Option<Vec<String>>, String> {
    let first_object = |json: &str| {
        serde_json::from_str::<members::Members>(json)
            .map(|m| Some(m.0))
            .map_err(|e| format!("not a row object ({e})"))
    };
    match format {
        Format::Csv | Format::Tsv => {
            let delimiter = if format == Format::Csv { b',' } else { b'\t' };
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .delimiter(delimiter)
                .quoting(format == Format::Csv)
                .from_reader(text);
            match reader.records().next() {
                Some(Ok(record)) => Ok(Some(record.iter().map(str::to_owned).collect())),
                Some(Err(e)) => Err(e.to_string()),
                None => Ok(None),
            }
        }
        Format::Ndjson => {
            for line in text.lines() {
                let line = line.map_err(|e| e.to_string())?;
                if !line.trim().is_empty() {
                    return first_object(&line);
                }
            }
            Ok(None)
        }
        Format::Json => {
            // The whole array is read (each element left as it passes), as its rows will be; of
            // `--summary`'s object, its `rows`.
            let mut deserializer = serde_json::Deserializer::from_reader(text);
            let (first, fault) = first_row::<Box<RawValue>, _>(&mut deserializer);
            (fault.and_then(|()| deserializer.end()))
                .map_err(|e| format!("not a JSON array of row objects ({e})"))?;
            match first {
                Some(row) => first_object(row.get()),
                None => Ok(None),
            }
        }
        other => Err(format!("{} files cannot be read back", other.name())),
    }
}

/// The members of a JSON object, in the order written.
mod members {
    use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};

    pub(super) struct Members(pub Vec<String>);

    impl<'de> Deserialize<'de> for Members {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Members, D::Error> {
            struct Names;
            impl<'de> Visitor<'de> for Names {
                type Value = Members;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a row object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                    let mut names = Vec::new();
                    while let Some((name, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                        names.push(name);
                    }
                    Ok(Members(names))
                }
            }
            deserializer.deserialize_map(Names)
        }
    }
}

/// The empty dataset whose header is `names`: `date`, `chain` if there, then columns this tool
/// writes. A name no column of ours has (a `--wide` file's chain names among them) is refused.
pub(super) fn shape_of(names: &[String]) -> Result<Dataset, String> {
    if names.first().map(String::as_str) != Some("date") {
        return Err("its first column is not date: not an export of chain-metrics".into());
    }
    let chain_column = names.get(1).is_some_and(|n| n == "chain");
    let rest = &names[if chain_column { 2 } else { 1 }..];
    let rolled_up = rest.iter().any(|n| n == "days");
    let columns = rest
        .iter()
        .map(|name| {
            column_named(name, rolled_up).ok_or_else(|| {
                format!(
                    "it has a column {} that chain-metrics does not write in the long shape (a \
                    --wide file cannot be drawn: export it without --wide)",
                    crate::system::foreign::echo(name)
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Dataset {
        chain_column,
        columns,
        rows: Vec::new(),
    })
}

/// The column this tool names `name`, among the ones it makes.
fn column_named(name: &str, rolled_up: bool) -> Option<Column> {
    if name == "days" {
        return Some(Column::days());
    }
    let metrics = [Metric::Fees, Metric::ActiveUsers]
        .into_iter()
        .chain(SocialMetric::ALL.map(Metric::Social));
    // `--rolling N` names carry N: only those names are tried against every N.
    let rolling = name
        .contains("_rolling_")
        .then(|| (1..=crate::settings::limits::ROLLING_ROWS.most).map(Measure::Rolling));
    let measures: Vec<Measure> = Measure::FIXED
        .into_iter()
        .chain(rolling.into_iter().flatten())
        .collect();
    metrics
        .flat_map(|metric| {
            let base = match rolled_up {
                true => Column::value(metric).rolled_up(),
                false => Column::value(metric),
            };
            measures.iter().filter_map(move |m| base.with_measure(*m))
        })
        .find(|column| column.name() == name)
}

/// The `--by` period whose first days `rows` are dated, each period holding at least its
/// `days` (the value at `days_at`); the finest that one step between two dates shows, else
/// the finest that fits, with a note that it was a guess.
pub(super) fn period_of(rows: &[Row], days_at: usize) -> Result<(Period, Option<String>), String> {
    let days = |row: &Row| -> u32 {
        row.values[days_at]
            .as_ref()
            .and_then(|n| n.as_str().parse().ok())
            .unwrap_or(0)
    };
    let fits = |by: Period| {
        rows.iter()
            .all(|row| by.start(row.date) == row.date && days(row) <= by.length(row.date))
    };
    let candidates: Vec<Period> = [Period::Week, Period::Month, Period::Quarter, Period::Year]
        .into_iter()
        .filter(|by| fits(*by))
        .collect();
    let mut dates: Vec<_> = rows.iter().map(|r| r.date).collect();
    dates.sort();
    dates.dedup();
    let stepped = |by: Period| dates.windows(2).any(|w| by.next(w[0]) == Some(w[1]));
    if let Some(by) = candidates.iter().copied().find(|by| stepped(*by)) {
        return Ok((by, None));
    }
    match candidates.first() {
        Some(by) => Ok((
            *by,
            Some(format!(
            "the period cannot be told from the file's dates: drawn by {}, the shortest that fits",
            by.name()
        )),
        )),
        None => Err(
            "it has a days column, but its dates are not the first days of weeks, months, \
            quarters or years"
                .into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{parse_date, Number};

    fn names(header: &str) -> Vec<String> {
        header.split(',').map(str::to_owned).collect()
    }

    #[test]
    fn a_header_gives_back_the_columns_that_named_it() {
        let header = "date,chain,days,fees,active_users_avg,fees_rolling_7,fees_change_pct,\
            tweet,fees_per_user";
        let data = shape_of(&names(header)).unwrap();
        assert!(data.chain_column);
        assert_eq!(data.header().join(","), header);
        assert!(shape_of(&names("date,ETHEREUM,ARBITRUM")).is_err());
        assert!(shape_of(&names("day,fees")).is_err());
    }

    fn row(date: &str, days: u32) -> Row {
        Row {
            date: parse_date(date).unwrap(),
            chain: None,
            values: vec![Number::from_json_token(&days.to_string())],
            coverage: None,
        }
    }

    #[test]
    fn the_period_is_the_one_a_step_shows_else_the_shortest_that_fits_said() {
        let weeks = [row("2024-01-01", 7), row("2024-01-08", 3)];
        assert_eq!(period_of(&weeks, 0).unwrap(), (Period::Week, None));
        let years = [row("2023-01-01", 365), row("2024-01-01", 20)];
        assert_eq!(period_of(&years, 0).unwrap().0, Period::Year);
        let (by, note) = period_of(&[row("2024-01-01", 31)], 0).unwrap();
        assert_eq!(by, Period::Month);
        assert!(note.is_some());
        assert!(period_of(&[row("2024-01-02", 1)], 0).is_err());
    }
}
