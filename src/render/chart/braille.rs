//! Braille cells (U+2800..U+28FF) from a grid of dots: each cell shows 2 by 4 dots, so a
//! chart in braille has twice the columns and four times the rows of one in plain characters.

/// The first braille character, with no dot raised.
const BLANK: u32 = 0x2800;

/// The bit of each dot of a cell, by (row, column) within it: Unicode numbers the dots 1, 2, 3
/// down the left column and 4, 5, 6 down the right, then 7 and 8 along the bottom row.
const DOT_BITS: [[u32; 2]; 4] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]];

/// A short line a legend entry shows in its series' colour: the middle dots of a cell.
pub(super) const SAMPLE: char = '\u{2812}';

/// A grid of dots, each holding the series drawn there last.
pub(super) type DotGrid = Vec<Vec<Option<usize>>>;

/// The cells of `grid` (whose size is a multiple of 2 across and 4 down): for each, the braille
/// character of its raised dots and the series to colour it as, the last drawn of those there
/// (the one on top); `None` where no dot is raised.
pub(super) fn cells(grid: &DotGrid) -> Vec<Vec<Option<(char, usize)>>> {
    grid.chunks(4)
        .map(|rows| {
            let width = rows[0].len() / 2;
            (0..width).map(|c| cell(rows, c)).collect()
        })
        .collect()
}

/// The cell at column `c` of the four dot `rows`.
fn cell(rows: &[Vec<Option<usize>>], c: usize) -> Option<(char, usize)> {
    let mut bits = 0;
    let mut top = None;
    for (r, row) in rows.iter().enumerate() {
        for (k, dot) in row[2 * c..2 * c + 2].iter().enumerate() {
            if let Some(series) = dot {
                bits |= DOT_BITS[r][k];
                top = top.max(Some(*series));
            }
        }
    }
    let symbol = char::from_u32(BLANK + bits)?;
    top.map(|series| (symbol, series))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid of `rows` x `columns` dots with `raised` (row, column, series) set.
    fn grid(rows: usize, columns: usize, raised: &[(usize, usize, usize)]) -> DotGrid {
        let mut grid = vec![vec![None; columns]; rows];
        for (r, c, s) in raised {
            grid[*r][*c] = Some(*s);
        }
        grid
    }

    #[test]
    fn each_dot_raises_its_own_bit() {
        let expected = [
            ((0, 0), '⠁'),
            ((1, 0), '⠂'),
            ((2, 0), '⠄'),
            ((3, 0), '⡀'),
            ((0, 1), '⠈'),
            ((1, 1), '⠐'),
            ((2, 1), '⠠'),
            ((3, 1), '⢀'),
        ];
        for ((r, c), symbol) in expected {
            let cells = cells(&grid(4, 2, &[(r, c, 0)]));
            assert_eq!(cells, [[Some((symbol, 0))]], "dot at row {r}, column {c}");
        }
        let all: Vec<_> = (0..8).map(|k| (k % 4, k / 4, 0)).collect();
        assert_eq!(cells(&grid(4, 2, &all)), [[Some(('⣿', 0))]]);
    }

    #[test]
    fn cells_take_their_dots_and_the_series_on_top() {
        // Two cells across, two down: a rising line of series 0 crossed by series 1.
        let raised = [
            (7, 0, 0),
            (5, 1, 0),
            (3, 2, 0),
            (1, 3, 0),
            (2, 2, 1),
            (2, 3, 1),
        ];
        let cells = cells(&grid(8, 4, &raised));
        assert_eq!(
            cells,
            [[None, Some(('\u{2874}', 1))], [Some(('\u{2850}', 0)), None]]
        );
    }
}
