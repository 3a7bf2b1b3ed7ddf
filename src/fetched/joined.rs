//! The rows of an assembly as they are joined, kept by (date, chain position): one slot per
//! day and chain for a plan's usual ranges, a B-tree beyond.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::model::{DayRange, Row};

/// The rows joined so far, by (date, chain position), sorted by that key.
///
/// For a plan's usual ranges the rows sit in one slot per day and chain (no tree: a ten-year
/// `report --chain all` is 21,918 rows); a range so long that its slots would outweigh the rows
/// (above [`GRID_SLOTS`]), or a row outside the plan, goes into a B-tree instead.
pub(super) enum Joined {
    Grid {
        start: NaiveDate,
        chains: usize,
        slots: Vec<Option<Row>>,
        /// Rows that have no slot (a chain or date the plan did not ask); normally none.
        stray: BTreeMap<(NaiveDate, Option<usize>), Row>,
    },
    Tree(BTreeMap<(NaiveDate, Option<usize>), Row>),
}

/// Where a row sits: its date, and its chain's position in the plan.
pub(super) type Key = (NaiveDate, Option<usize>);

/// At most this many (day, chain) slots are set out beforehand (8 MiB): 43,690 days of six
/// chains.
const GRID_SLOTS: usize = 1 << 18;

impl Joined {
    pub(super) fn new(range: DayRange, chains: usize) -> Joined {
        let days = range.days().take(GRID_SLOTS + 1).count();
        match days.checked_mul(chains.max(1)) {
            Some(slots) if slots <= GRID_SLOTS => Joined::Grid {
                start: range.start,
                chains: chains.max(1),
                slots: std::iter::repeat_with(|| None).take(slots).collect(),
                stray: BTreeMap::new(),
            },
            _ => Joined::Tree(BTreeMap::new()),
        }
    }

    /// The slot of (date, position) in the grid, if it has one (never in the tree).
    fn slot(&self, date: NaiveDate, position: Option<usize>) -> Option<usize> {
        let Joined::Grid {
            start,
            chains,
            slots,
            ..
        } = self
        else {
            return None;
        };
        let day = usize::try_from((date - *start).num_days()).ok()?;
        let at = day
            .checked_mul(*chains)?
            .checked_add(position.filter(|p| p < chains)?)?;
        (at < slots.len()).then_some(at)
    }

    pub(super) fn entry(
        &mut self,
        date: NaiveDate,
        position: Option<usize>,
        new: impl FnOnce() -> Row,
    ) -> &mut Row {
        match (self.slot(date, position), self) {
            (Some(at), Joined::Grid { slots, .. }) => slots[at].get_or_insert_with(new),
            (_, Joined::Grid { stray: keyed, .. } | Joined::Tree(keyed)) => {
                keyed.entry((date, position)).or_insert_with(new)
            }
        }
    }

    pub(super) fn get(&self, date: NaiveDate, position: Option<usize>) -> Option<&Row> {
        match (self.slot(date, position), self) {
            (Some(at), Joined::Grid { slots, .. }) => slots[at].as_ref(),
            (_, Joined::Grid { stray: keyed, .. } | Joined::Tree(keyed)) => {
                keyed.get(&(date, position))
            }
        }
    }

    /// Takes the row of (date, position) out, if there is one.
    pub(super) fn take(&mut self, date: NaiveDate, position: Option<usize>) -> Option<Row> {
        match (self.slot(date, position), self) {
            (Some(at), Joined::Grid { slots, .. }) => slots[at].take(),
            (_, Joined::Grid { stray: keyed, .. } | Joined::Tree(keyed)) => {
                keyed.remove(&(date, position))
            }
        }
    }

    /// Takes out every row left dated before `date` (every row left: `None`) that no
    /// [`Joined::take`] of a day in the plan reaches (a row outside the plan), by date, then
    /// chain position.
    pub(super) fn strays_before(&mut self, date: Option<NaiveDate>) -> Vec<(Key, Row)> {
        let (Joined::Grid { stray: keyed, .. } | Joined::Tree(keyed)) = self;
        let later = match date {
            Some(date) => keyed.split_off(&(date, None)),
            None => BTreeMap::new(),
        };
        std::mem::replace(keyed, later).into_iter().collect()
    }

    /// Every row, by date, then chain position.
    pub(super) fn into_rows(self) -> Vec<Row> {
        match self {
            Joined::Grid {
                chains,
                slots,
                stray,
                ..
            } if !stray.is_empty() => {
                let mut tree = stray;
                for (at, row) in slots.into_iter().enumerate() {
                    if let Some(row) = row {
                        tree.insert((row.date, Some(at % chains)), row);
                    }
                }
                tree.into_values().collect()
            }
            // In place: a slot is as large as a row (the row's vector is the niche).
            Joined::Grid { slots, .. } => slots.into_iter().flatten().collect(),
            Joined::Tree(tree) => tree.into_values().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{parse_date, Chain};

    /// The grid, its strays and the tree give the same rows in the same order, whatever
    /// order the values come in.
    #[test]
    fn rows_come_out_by_date_then_chain_however_they_are_joined() {
        let d = |s| parse_date(s).unwrap();
        let range = DayRange {
            start: d("2024-01-01"),
            end: d("2024-01-04"),
        };
        let puts = [
            ("2024-01-04", Some(1)),
            ("2024-01-02", Some(0)),
            ("2024-01-04", Some(0)),
            ("2023-12-31", Some(1)),
            ("2024-01-02", None),
            ("2024-01-01", Some(1)),
            ("2024-01-02", Some(0)),
        ];
        let order = |mut joined: Joined, stray: bool| {
            for (date, position) in puts {
                if stray || (position.is_some() && range.contains(d(date))) {
                    joined.entry(d(date), position, || Row {
                        date: d(date),
                        chain: position.map(|p| [Chain::Base, Chain::Bsc][p]),
                        values: Vec::new(),
                        coverage: None,
                    });
                }
            }
            let rows = joined.into_rows();
            rows.iter()
                .map(|r| format!("{} {:?}", r.date, r.chain))
                .collect::<Vec<_>>()
        };
        let grid = order(Joined::new(range, 2), false);
        assert!(matches!(Joined::new(range, 2), Joined::Grid { .. }));
        assert_eq!(
            grid,
            [
                "2024-01-01 Some(Bsc)",
                "2024-01-02 Some(Base)",
                "2024-01-04 Some(Base)",
                "2024-01-04 Some(Bsc)"
            ]
        );
        assert_eq!(order(Joined::Tree(BTreeMap::new()), false), grid);
        let with_strays = order(Joined::new(range, 2), true);
        assert_eq!(with_strays, order(Joined::Tree(BTreeMap::new()), true));
        assert_eq!(with_strays.len(), 6);
        let long = DayRange {
            start: d("0001-01-01"),
            end: d("9999-12-31"),
        };
        assert!(matches!(Joined::new(long, 6), Joined::Tree(_)));
    }
}
