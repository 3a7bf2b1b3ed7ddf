//! The rows of an assembly as they are joined, kept by (date, chain position): for a plan's
//! usual ranges, the values of each (day, chain) side by side in blocks of days, each set out
//! when its first value comes and dropped once its rows are taken; a B-tree of rows beyond.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::model::{Chain, DayRange, Number, Row};

/// The rows joined so far, by (date, chain position), sorted by that key.
///
/// A ten-year `report --chain all` is 21,918 rows of six values. In the grid they cost their
/// values alone (16 bytes each): no row, vector or allocation of its own until a row is taken
/// out, which held as rows would be 3.5 MB instead of 2.1. A range so long that its block
/// table would outweigh the rows (above [`GRID_SLOTS`]), or a row outside the plan, is kept
/// as a row in the tree instead.
pub(super) struct Joined {
    /// Values a row.
    width: usize,
    grid: Option<Grid>,
    /// The rows that have no slot in the grid (every row, without a grid); normally none.
    keyed: BTreeMap<Key, Row>,
}

/// Where a row sits: its date, and its chain's position in the plan.
pub(super) type Key = (NaiveDate, Option<usize>);

/// Days a block of the grid holds.
const BLOCK_DAYS: usize = 64;

/// At most this many (day, chain) slots get a grid: 43,690 days of six chains.
const GRID_SLOTS: usize = 1 << 18;

struct Grid {
    start: NaiveDate,
    days: usize,
    chains: Vec<Chain>,
    blocks: Vec<Option<Block>>,
}

/// [`BLOCK_DAYS`] days of every chain: whether each (day, chain) slot holds a row, and its
/// values, `width` a slot.
struct Block {
    held: Vec<bool>,
    values: Vec<Option<Number>>,
    /// Slots that hold a row.
    rows: usize,
}

impl Joined {
    /// A join for the days of `range` and the plan's `chains`, rows of `width` values.
    pub(super) fn new(range: DayRange, chains: &[Chain], width: usize) -> Joined {
        let days = range.days().take(GRID_SLOTS + 1).count();
        let grid = match days.checked_mul(chains.len()) {
            Some(slots) if slots <= GRID_SLOTS && !chains.is_empty() => Some(Grid {
                start: range.start,
                days,
                chains: chains.to_vec(),
                blocks: std::iter::repeat_with(|| None)
                    .take(days.div_ceil(BLOCK_DAYS))
                    .collect(),
            }),
            _ => None,
        };
        Joined {
            width,
            grid,
            keyed: BTreeMap::new(),
        }
    }

    /// A join that keeps every row by key alone (no grid).
    pub(super) fn keyed(width: usize) -> Joined {
        Joined {
            width,
            grid: None,
            keyed: BTreeMap::new(),
        }
    }

    /// Puts `value` at column `at` of the row of (date, position), made for `chain` if it is
    /// not there yet; with no column, the row alone.
    pub(super) fn put(
        &mut self,
        (date, position): Key,
        chain: Chain,
        at: Option<usize>,
        value: Option<Number>,
    ) {
        let width = self.width;
        if let (Some((block, slot)), Some(grid)) = (self.locate(date, position), &mut self.grid) {
            let chains = grid.chains.len();
            let block = grid.blocks[block].get_or_insert_with(|| Block {
                held: vec![false; BLOCK_DAYS * chains],
                values: vec![None; BLOCK_DAYS * chains * width],
                rows: 0,
            });
            if !std::mem::replace(&mut block.held[slot], true) {
                block.rows += 1;
            }
            if let Some(at) = at.filter(|at| *at < width) {
                block.values[slot * width + at] = value;
            }
            return;
        }
        let row = self.keyed.entry((date, position)).or_insert_with(|| Row {
            date,
            chain: Some(chain),
            values: vec![None; width],
            coverage: None,
        });
        if let Some(place) = at.and_then(|at| row.values.get_mut(at)) {
            *place = value;
        }
    }

    /// The block of (date, position) in the grid and its slot there, if the grid has one.
    fn locate(&self, date: NaiveDate, position: Option<usize>) -> Option<(usize, usize)> {
        let grid = self.grid.as_ref()?;
        let chains = grid.chains.len();
        let day = usize::try_from((date - grid.start).num_days()).ok()?;
        let position = position.filter(|p| *p < chains)?;
        (day < grid.days).then_some((day / BLOCK_DAYS, (day % BLOCK_DAYS) * chains + position))
    }

    /// Whether the row of (date, position) holds a value at column `at`.
    pub(super) fn has(&self, date: NaiveDate, position: Option<usize>, at: usize) -> bool {
        if at >= self.width {
            return false;
        }
        match (self.locate(date, position), &self.grid) {
            (Some((block, slot)), Some(grid)) => grid.blocks[block]
                .as_ref()
                .is_some_and(|b| b.held[slot] && b.values[slot * self.width + at].is_some()),
            _ => (self.keyed.get(&(date, position)))
                .is_some_and(|row| row.values.get(at).is_some_and(Option::is_some)),
        }
    }

    /// Takes the row of (date, position) out, if there is one; a block whose rows are all
    /// taken is dropped.
    pub(super) fn take(&mut self, date: NaiveDate, position: Option<usize>) -> Option<Row> {
        let width = self.width;
        let (Some((at, slot)), Some(grid)) = (self.locate(date, position), &mut self.grid) else {
            return self.keyed.remove(&(date, position));
        };
        let chain = grid.chains[slot % grid.chains.len()];
        let block = grid.blocks[at].as_mut()?;
        if !std::mem::replace(&mut block.held[slot], false) {
            return None;
        }
        let values = block.values[slot * width..][..width]
            .iter_mut()
            .map(Option::take)
            .collect();
        block.rows -= 1;
        if block.rows == 0 {
            grid.blocks[at] = None;
        }
        Some(Row {
            date,
            chain: Some(chain),
            values,
            coverage: None,
        })
    }

    /// Takes out every row left dated before `date` (every row left: `None`) that no
    /// [`Joined::take`] of a day in the plan reaches (a row outside the plan), by date, then
    /// chain position.
    pub(super) fn strays_before(&mut self, date: Option<NaiveDate>) -> Vec<(Key, Row)> {
        let later = match date {
            Some(date) => self.keyed.split_off(&(date, None)),
            None => BTreeMap::new(),
        };
        std::mem::replace(&mut self.keyed, later)
            .into_iter()
            .collect()
    }

    /// Every row, by date, then chain position; each block of the grid is dropped as soon as
    /// its rows are out.
    pub(super) fn into_rows(mut self) -> Vec<Row> {
        let blocks = self
            .grid
            .iter()
            .flat_map(|grid| grid.blocks.iter().flatten());
        let held: usize = blocks.map(|block| block.rows).sum();
        if self.keyed.is_empty() {
            let mut rows = Vec::with_capacity(held);
            self.take_grid(|_, row| rows.push(row));
            return rows;
        }
        let mut rows: Vec<(Key, Row)> = Vec::with_capacity(held + self.keyed.len());
        self.take_grid(|key, row| rows.push((key, row)));
        rows.extend(std::mem::take(&mut self.keyed));
        rows.sort_by_key(|(key, _)| *key);
        rows.into_iter().map(|(_, row)| row).collect()
    }

    /// Takes every row out of the grid, by date, then chain position.
    fn take_grid(&mut self, mut each: impl FnMut(Key, Row)) {
        let Some(grid) = &self.grid else {
            return;
        };
        let (start, days, chains) = (grid.start, grid.days, grid.chains.len());
        for date in start.iter_days().take(days) {
            for position in 0..chains {
                if let Some(row) = self.take(date, Some(position)) {
                    each((date, Some(position)), row);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_date;

    fn d(s: &str) -> NaiveDate {
        parse_date(s).unwrap()
    }

    fn days(start: &str, end: &str) -> DayRange {
        DayRange {
            start: d(start),
            end: d(end),
        }
    }

    /// The grid, its strays and the tree give the same rows in the same order, whatever
    /// order the values come in.
    #[test]
    fn rows_come_out_by_date_then_chain_however_they_are_joined() {
        let range = days("2024-01-01", "2024-01-04");
        let chains = [Chain::Base, Chain::Bsc];
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
                    let chain = position.map_or(Chain::Polygon, |p| chains[p]);
                    joined.put((d(date), position), chain, None, None);
                }
            }
            let rows = joined.into_rows();
            rows.iter()
                .map(|r| format!("{} {:?}", r.date, r.chain))
                .collect::<Vec<_>>()
        };
        let grid = order(Joined::new(range, &chains, 1), false);
        assert!(Joined::new(range, &chains, 1).grid.is_some());
        assert_eq!(
            grid,
            [
                "2024-01-01 Some(Bsc)",
                "2024-01-02 Some(Base)",
                "2024-01-04 Some(Base)",
                "2024-01-04 Some(Bsc)"
            ]
        );
        assert_eq!(order(Joined::keyed(1), false), grid);
        let with_strays = order(Joined::new(range, &chains, 1), true);
        assert_eq!(with_strays, order(Joined::keyed(1), true));
        assert_eq!(with_strays.len(), 6);
        assert_eq!(with_strays[2], "2024-01-02 Some(Polygon)");
        let long = days("0001-01-01", "9999-12-31");
        assert!(Joined::new(long, &chains, 6).grid.is_none());
    }

    /// A block is set out when a value of its days first comes, holds each value in its
    /// column, and is dropped once its rows are taken; the tree gives the same rows.
    #[test]
    fn a_block_is_set_out_by_its_first_value_and_dropped_once_its_rows_are_taken() {
        let range = days("2024-01-01", "2024-12-31");
        let chains = [Chain::Ethereum, Chain::Base];
        let number = |text: &str| Number::from_json_token(text);
        for mut joined in [Joined::new(range, &chains, 3), Joined::keyed(3)] {
            let blocks = |j: &Joined| j.grid.as_ref().map(|g| g.blocks.iter().flatten().count());
            let gridded = joined.grid.is_some();
            assert_eq!(blocks(&joined), gridded.then_some(0));
            joined.put(
                (d("2024-03-01"), Some(1)),
                Chain::Base,
                Some(2),
                number("1.5"),
            );
            joined.put(
                (d("2024-03-01"), Some(1)),
                Chain::Base,
                Some(0),
                number("7"),
            );
            joined.put((d("2024-03-02"), Some(0)), Chain::Ethereum, None, None);
            joined.put((d("2024-11-30"), Some(0)), Chain::Ethereum, Some(1), None);
            assert_eq!(blocks(&joined), gridded.then_some(2));
            assert!(joined.has(d("2024-03-01"), Some(1), 0));
            assert!(!joined.has(d("2024-03-01"), Some(1), 1));
            assert!(!joined.has(d("2024-03-01"), Some(0), 0));
            let row = joined.take(d("2024-03-01"), Some(1)).unwrap();
            assert_eq!(row.chain, Some(Chain::Base));
            assert_eq!(row.values, [number("7"), None, number("1.5")]);
            assert!(joined.take(d("2024-03-01"), Some(1)).is_none());
            assert!(!joined.has(d("2024-03-01"), Some(1), 0));
            let row = joined.take(d("2024-03-02"), Some(0)).unwrap();
            assert_eq!(
                (row.chain, row.values),
                (Some(Chain::Ethereum), vec![None; 3])
            );
            assert_eq!(blocks(&joined), gridded.then_some(1));
            let rest = joined.into_rows();
            assert_eq!(rest.len(), 1);
            assert_eq!(rest[0].date, d("2024-11-30"));
        }
    }
}
