//! The plot area of a chart: values and dates to positions, lines drawn on a grid of dots
//! (one dot a cell in plain characters, 2 across by 4 down in braille), and the date axis.

use super::braille::DotGrid;
use super::{DATE_WIDTH, HEIGHT};

/// Dots a cell holds: 1 by 1 for plain characters, 2 by 4 for a braille cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Dots {
    pub across: usize,
    pub down: usize,
}

impl Dots {
    pub(super) const PLAIN: Dots = Dots { across: 1, down: 1 };
    pub(super) const BRAILLE: Dots = Dots { across: 2, down: 4 };
}

/// The plot area: `width` cells for `points` dates, rows from `hi` (top) down to `lo`, each
/// cell of `dots`.
pub(super) struct Plot {
    width: usize,
    points: usize,
    lo: f64,
    hi: f64,
    dots: Dots,
    /// Cell rows, [`HEIGHT`] unless told.
    rows: usize,
}

impl Plot {
    pub(super) fn new(width: usize, points: usize, (lo, hi): (f64, f64), dots: Dots) -> Plot {
        Plot {
            width,
            points,
            lo,
            hi,
            dots,
            rows: HEIGHT,
        }
    }

    /// The plot `rows` cells high.
    pub(super) fn with_rows(self, rows: usize) -> Plot {
        Plot { rows, ..self }
    }

    /// The dot column of a date, as a fraction.
    fn x(&self, index: usize) -> f64 {
        match self.points {
            0 | 1 => 0.0,
            n => (index * (self.width * self.dots.across - 1)) as f64 / (n - 1) as f64,
        }
    }

    /// The cell column a date is drawn in.
    fn column(&self, index: usize) -> usize {
        self.x(index).round() as usize / self.dots.across
    }

    /// The dot row of a value, as a fraction: 0 at the top. The value label of a cell row
    /// (see `value_labels`) falls within that row's dots.
    fn y(&self, value: f64) -> f64 {
        (self.hi - value) / (self.hi - self.lo) * (self.rows * self.dots.down - 1) as f64
    }

    /// The dots of every series, a series' line broken where it has no value.
    pub(super) fn draw(&self, series: &[Vec<Option<f64>>]) -> DotGrid {
        let mut grid = vec![vec![None; self.width * self.dots.across]; self.rows * self.dots.down];
        for (s, values) in series.iter().enumerate() {
            for (i, v) in values.iter().enumerate() {
                let Some(v) = v else { continue };
                let (x0, y0) = (self.x(i), self.y(*v));
                grid[y0.round() as usize][x0.round() as usize] = Some(s);
                if let Some(Some(next)) = values.get(i + 1) {
                    segment(&mut grid, s, (x0, y0), (self.x(i + 1), self.y(*next)));
                }
            }
        }
        grid
    }

    /// The dots of `series` drawn so that none lies wholly under the others, and the order
    /// they were drawn in (the grid holds places in it): in the order given, but a series
    /// that would show in no cell (`braille`: no cell in its colour) is drawn later, on top;
    /// one still hidden (lines on the same cells) takes every other of its cells.
    pub(super) fn draw_visible(
        &self,
        series: &[Vec<Option<f64>>],
        braille: bool,
    ) -> (Vec<usize>, DotGrid) {
        let mut order: Vec<usize> = (0..series.len()).collect();
        let in_order = |order: &[usize]| -> Vec<Vec<Option<f64>>> {
            order.iter().map(|s| series[*s].clone()).collect()
        };
        let hidden = |grid: &DotGrid, order: &[usize]| -> Vec<usize> {
            let shown = shown(grid, braille, order.len());
            (0..order.len())
                .filter(|p| shown[*p] == 0 && series[order[*p]].iter().any(Option::is_some))
                .collect()
        };
        for _ in 0..series.len() {
            let grid = self.draw(&in_order(&order));
            match hidden(&grid, &order).first() {
                Some(p) if p + 1 < order.len() => {
                    let s = order.remove(*p);
                    order.push(s);
                }
                _ => break,
            }
        }
        let mut grid = self.draw(&in_order(&order));
        let under = hidden(&grid, &order);
        let (across, down) = (self.dots.across, self.dots.down);
        for (k, p) in under.iter().enumerate() {
            // The cells it takes: every other of those its line passes through.
            let alone = self.draw(&[series[order[*p]].clone()]);
            let mut taken = Vec::new();
            for (r, row) in alone.iter().enumerate() {
                for (c, dot) in row.iter().enumerate() {
                    if dot.is_some() && (c / across) % (under.len() + 1) == k + 1 {
                        grid[r][c] = Some(*p);
                        taken.push((r / down, c / across));
                    }
                }
            }
            // In braille a cell shows one colour: every dot of a cell it takes is its.
            for (row, column) in taken {
                for line in &mut grid[row * down..(row + 1) * down] {
                    for dot in &mut line[column * across..(column + 1) * across] {
                        if dot.is_some() {
                            *dot = Some(*p);
                        }
                    }
                }
            }
        }
        (order, grid)
    }

    /// The axis line with a tick under each date of `labelled` (indices into `dates`), and
    /// the line of their labels, each centred on its tick as far as the plot allows; `None`
    /// when two labels would not keep two columns apart.
    pub(super) fn date_axis(
        &self,
        dates: &[String],
        labelled: &[usize],
    ) -> Option<(String, String)> {
        let placed: Vec<(usize, usize)> = (labelled.iter())
            .map(|index| {
                let start = (self.column(*index).saturating_sub(DATE_WIDTH / 2))
                    .min(self.width.saturating_sub(DATE_WIDTH));
                (*index, start)
            })
            .collect();
        if !placed.windows(2).all(|w| w[0].1 + DATE_WIDTH + 2 <= w[1].1) {
            return None;
        }
        let mut ticks = vec!['-'; self.width];
        let mut names = vec![' '; self.width.max(DATE_WIDTH)];
        for (index, start) in placed {
            ticks[self.column(index)] = '+';
            for (k, c) in dates[index].chars().enumerate() {
                names[start + k] = c;
            }
        }
        Some((ticks.into_iter().collect(), names.into_iter().collect()))
    }

    /// How many date labels the plot has room for, side by side.
    pub(super) fn date_room(&self) -> usize {
        (self.width + 2) / (DATE_WIDTH + 2)
    }
}

/// How many cells show each place of the draw order (the series drawn there on top).
fn shown(grid: &DotGrid, braille: bool, count: usize) -> Vec<usize> {
    let mut shown = vec![0; count];
    match braille {
        true => {
            for (_, p) in super::braille::cells(grid).into_iter().flatten().flatten() {
                shown[p] += 1;
            }
        }
        false => {
            for p in grid.iter().flatten().flatten() {
                shown[*p] += 1;
            }
        }
    }
    shown
}

/// Marks every dot the straight line from `a` to `b` passes through, column by column.
fn segment(grid: &mut [Vec<Option<usize>>], s: usize, a: (f64, f64), b: (f64, f64)) {
    let at = |x: f64| a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0);
    for x in a.0.round() as usize..=b.0.round() as usize {
        let left = at((x as f64 - 0.5).max(a.0));
        let right = at((x as f64 + 0.5).min(b.0));
        let (top, bottom) = (left.min(right).round(), left.max(right).round());
        for line in &mut grid[top as usize..=bottom as usize] {
            line[x] = Some(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::braille;
    use super::*;

    /// The raised dots of `grid`, as (row, column).
    fn raised(grid: &DotGrid) -> Vec<(usize, usize)> {
        let mut dots = Vec::new();
        for (r, row) in grid.iter().enumerate() {
            for (c, dot) in row.iter().enumerate() {
                if dot.is_some() {
                    dots.push((r, c));
                }
            }
        }
        dots
    }

    #[test]
    fn in_braille_a_value_lands_on_its_dot_and_a_gap_stays_a_break() {
        // Two cells: 4 dot columns, 52 dot rows; dates at columns 0, 1.5 and 3.
        let plot = Plot::new(2, 3, (0.0, 1.0), Dots::BRAILLE);
        let grid = plot.draw(&[vec![Some(0.0), None, Some(1.0)]]);
        assert_eq!(raised(&grid), [(0, 3), (HEIGHT * 4 - 1, 0)]);
        let cells = braille::cells(&grid);
        assert_eq!(cells.len(), HEIGHT);
        assert_eq!(cells[0], [None, Some(('⠈', 0))]);
        assert_eq!(cells[HEIGHT - 1], [Some(('⡀', 0)), None]);
        assert!(cells[1..HEIGHT - 1].iter().flatten().all(Option::is_none));
    }

    #[test]
    fn in_braille_a_line_fills_the_dots_between_its_points() {
        let plot = Plot::new(1, 2, (0.0, 1.0), Dots::BRAILLE);
        let grid = plot.draw(&[vec![Some(0.0), Some(1.0)]]);
        // From the bottom of the left dot column to the top of the right one, meeting halfway.
        let left = (26..HEIGHT * 4).map(|r| (r, 0));
        let right = (0..=26).map(|r| (r, 1));
        let mut expected: Vec<(usize, usize)> = left.chain(right).collect();
        expected.sort();
        assert_eq!(raised(&grid), expected);
        let flat = plot.draw(&[vec![Some(1.0), Some(1.0)], vec![Some(0.0), Some(0.0)]]);
        let cells = braille::cells(&flat);
        assert_eq!(cells[0], [Some(('⠉', 0))]);
        assert_eq!(cells[HEIGHT - 1], [Some(('⣀', 1))]);
    }

    #[test]
    fn plain_cells_are_dots_and_dates_fall_in_the_cell_of_their_dot() {
        let plain = Plot::new(20, 3, (0.0, 1.0), Dots::PLAIN);
        assert_eq!(
            [plain.column(0), plain.column(1), plain.column(2)],
            [0, 10, 19]
        );
        assert_eq!(plain.draw(&[vec![Some(1.0)]]).len(), HEIGHT);
        let braille = Plot::new(20, 3, (0.0, 1.0), Dots::BRAILLE);
        // Dot columns 0, 19.5 (rounded to 20) and 39.
        assert_eq!(
            [braille.column(0), braille.column(1), braille.column(2)],
            [0, 10, 19]
        );
    }
}
