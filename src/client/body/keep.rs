//! Where the records of a body go as they are read: every one, in order (the parser as tested
//! and fuzzed), or, for the client, at most one per asked day, so that what an answer holds is
//! bounded by the days asked, not by what the server sends.

use std::collections::BTreeSet;

use chrono::NaiveDate;

use crate::fetched::DataNotes;
use crate::model::{DayRange, Metric, Record};

/// Takes the records of one body, in the order they are read.
pub(super) trait Records {
    /// How many records were taken (kept or not): the count the records bound refuses past,
    /// and the index of the next one.
    fn count(&self) -> usize;
    fn take(&mut self, record: Record);
    /// Forgets every record taken: the body's records were in another array after all.
    fn restart(&mut self);
}

impl Records for Vec<Record> {
    fn count(&self) -> usize {
        self.len()
    }

    fn take(&mut self, record: Record) {
        self.push(record);
    }

    fn restart(&mut self) {
        self.clear();
    }
}

/// What an answer keeps of its records: those inside the asked range, the last of each date,
/// sorted; and the dates needed for the notes on the rest (sorted, each once).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct KeptRecords {
    pub records: Vec<Record>,
    /// Dates inside the range sent more than once (the last record of each was kept).
    pub duplicated: Vec<NaiveDate>,
    /// Dates outside the range (their records were dropped).
    pub out_of_range: Vec<NaiveDate>,
}

impl KeptRecords {
    /// The records kept, with the notes on the rest: the days of `range` no record came for,
    /// the dates sent more than once or outside the range, and down to a member (of `columns`,
    /// the values' order) what a kept record left out.
    pub(crate) fn with_notes(
        self,
        range: &DayRange,
        columns: &[Metric],
    ) -> (Vec<Record>, DataNotes) {
        let KeptRecords {
            records,
            duplicated,
            out_of_range,
        } = self;
        let mut notes = DataNotes {
            duplicated,
            out_of_range,
            ..DataNotes::default()
        };
        let mut sent = records.iter().map(|record| record.date).peekable();
        notes.missing = range
            .days()
            .filter(|day| sent.next_if_eq(day).is_none())
            .collect();
        for record in &records {
            for (column, value) in columns.iter().zip(&record.values) {
                if value.is_none() {
                    let days = notes.left_out.entry(column.name()).or_default();
                    days.push(record.date);
                }
            }
        }
        (records, notes)
    }
}

/// Keeps at most one record per day of `range` as records arrive: a later record of a date
/// replaces the earlier one, a record outside the range leaves only its date. One slot per
/// asked day, made on the first record kept (an empty answer costs none): lighter than a map
/// node per record (about 1 MiB less at the ten-year report's peak, BENCHMARKS.md).
pub(super) struct Keeper {
    range: DayRange,
    count: usize,
    kept: Vec<Option<Record>>,
    duplicated: BTreeSet<NaiveDate>,
    out_of_range: BTreeSet<NaiveDate>,
}

impl Keeper {
    pub(super) fn new(range: DayRange) -> Keeper {
        Keeper {
            range,
            count: 0,
            kept: Vec::new(),
            duplicated: BTreeSet::new(),
            out_of_range: BTreeSet::new(),
        }
    }

    pub(super) fn finish(self) -> KeptRecords {
        KeptRecords {
            // In place (`filter_map` reuses the slots' allocation; `flatten` would make a
            // second vector beside it, 117 KB for ten years, at the ten-year report's peak).
            #[allow(clippy::filter_map_identity)]
            records: self.kept.into_iter().filter_map(|slot| slot).collect(),
            duplicated: self.duplicated.into_iter().collect(),
            out_of_range: self.out_of_range.into_iter().collect(),
        }
    }
}

impl Records for Keeper {
    fn count(&self) -> usize {
        self.count
    }

    fn take(&mut self, record: Record) {
        self.count += 1;
        let date = record.date;
        if !self.range.contains(date) {
            self.out_of_range.insert(date);
            return;
        }
        if self.kept.is_empty() {
            self.kept.resize_with(self.range.days().count(), || None);
        }
        // Inside the range: the offset is below the number of its days.
        let at = (date - self.range.start).num_days() as usize;
        if let Some(slot) = self.kept.get_mut(at) {
            if slot.replace(record).is_some() {
                self.duplicated.insert(date);
            }
        }
    }

    fn restart(&mut self) {
        *self = Keeper::new(self.range);
    }
}
