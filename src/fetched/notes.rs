//! The data problems found while cleaning one series (missing, repeated, out-of-range dates and
//! members left out), each reported once as a warning line.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::model::describe_days;

/// Problems found while cleaning one series, each to be reported once.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct DataNotes {
    pub missing: Vec<NaiveDate>,
    pub duplicated: Vec<NaiveDate>,
    pub out_of_range: Vec<NaiveDate>,
    /// By column name: the dates whose record left that member out (or sent it as null).
    pub left_out: BTreeMap<&'static str, Vec<NaiveDate>>,
}

impl DataNotes {
    /// Adds the notes of another window of the same series, keeping each list sorted.
    pub(crate) fn absorb(&mut self, other: DataNotes) {
        for (mine, theirs) in [
            (&mut self.missing, other.missing),
            (&mut self.duplicated, other.duplicated),
            (&mut self.out_of_range, other.out_of_range),
        ] {
            mine.extend(theirs);
            mine.sort();
            mine.dedup();
        }
        for (column, days) in other.left_out {
            let mine = self.left_out.entry(column).or_default();
            mine.extend(days);
            mine.sort();
            mine.dedup();
        }
    }

    /// One warning line per kind of problem, prefixed by what was queried.
    #[cfg(test)]
    pub(crate) fn warnings(&self, subject: &str) -> Vec<String> {
        let found = self.warnings_with_days(subject);
        found.into_iter().map(|(line, _)| line).collect()
    }

    /// The warning lines (one per kind of problem, prefixed by what was queried), each with the
    /// days it is about.
    pub(crate) fn warnings_with_days(&self, subject: &str) -> Vec<(String, Vec<NaiveDate>)> {
        let mut lines = Vec::new();
        let mut say = |days: &[NaiveDate], what: &dyn Fn(String) -> String| {
            if !days.is_empty() {
                lines.push((what(describe_days(days)), days.to_vec()));
            }
        };
        say(&self.missing, &|days| {
            format!("{subject}: no data for {days} (left out, not zero)")
        });
        say(&self.duplicated, &|days| {
            format!("{subject}: several records for {days}; kept the last")
        });
        say(&self.out_of_range, &|days| {
            format!("{subject}: dropped records outside the asked range: {days}")
        });
        for (column, days) in &self.left_out {
            say(days, &|days| {
                format!("{subject}: the records for {days} have no {column} (left empty, not zero)")
            });
        }
        lines
    }
}
