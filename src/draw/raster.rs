//! The picture as a grid of cells: the land mask (scanline fill of the projected
//! coastlines, even–odd) and the multi-source flood that gives every cell the province
//! whose seed is nearest by a path over its own kind of cell.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::Point;

/// The most cells a grid may have; a larger picture gets coarser cells.
pub const MAX_CELLS: usize = 4_000_000;

/// The most scanline crossings a land fill may collect (bounds memory for a hostile
/// coastline of long edges).
pub const MAX_CROSSINGS: usize = 40_000_000;

/// A cell's label: a province index, or one of these.
pub type Label = u16;
/// Land that is no province.
pub const NOBODY_LAND: Label = 0xFFFD;
/// Water that is no province.
pub const NOBODY_WATER: Label = 0xFFFE;
/// Outside the board.
pub const OUTSIDE: Label = 0xFFFF;

/// What a cell is made of, for the flood: a seed only crosses cells of its own class.
pub type Class = u8;
pub const CLASS_LAND: Class = 1;
pub const CLASS_WATER: Class = 2;

/// The grid over a picture: `w` × `h` cells of `cell` picture units each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub w: usize,
    pub h: usize,
    pub cell: f64,
}

impl Grid {
    /// A grid over a `width` × `height` picture: one cell per unit, or coarser cells
    /// so that there are at most [`MAX_CELLS`].
    pub fn new(width: f64, height: f64) -> Grid {
        let area = (width * height).max(1.0);
        let cell = (area / MAX_CELLS as f64).sqrt().max(1.0);
        Grid {
            w: ((width / cell).ceil() as usize).max(1),
            h: ((height / cell).ceil() as usize).max(1),
            cell,
        }
    }

    pub fn len(&self) -> usize {
        self.w * self.h
    }

    /// The picture's size: the cells', at most the largest a drawing may be (the cells
    /// round up, and a drawing of 20000.78 units was one the loader refused).
    pub fn size(&self) -> (f64, f64) {
        let max = crate::map::drawing::MAX_SIZE;
        (
            (self.w as f64 * self.cell).min(max),
            (self.h as f64 * self.cell).min(max),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cell a picture point falls in, if it is on the grid.
    pub fn cell_of(&self, (x, y): Point) -> Option<usize> {
        let (cx, cy) = (x / self.cell, y / self.cell);
        if !(cx >= 0.0 && cy >= 0.0) {
            return None;
        }
        let (cx, cy) = (cx as usize, cy as usize);
        (cx < self.w && cy < self.h).then_some(cy * self.w + cx)
    }

    /// The centre of cell `i`, in cell units.
    pub fn centre(&self, i: usize) -> Point {
        ((i % self.w) as f64 + 0.5, (i / self.w) as f64 + 0.5)
    }
}

/// The land mask: every cell whose centre is inside the rings (even–odd), `rings`
/// in picture units. `Err` when the rings cross more scanlines than
/// [`MAX_CROSSINGS`].
pub fn fill(grid: &Grid, rings: &[Vec<Point>]) -> Result<Vec<bool>, String> {
    let mut rows: Vec<Vec<f64>> = vec![Vec::new(); grid.h];
    let mut crossings = 0usize;
    for ring in rings {
        let n = ring.len();
        for i in 0..n {
            let (Some(&a), Some(&b)) = (ring.get(i), ring.get((i + 1) % n)) else {
                continue;
            };
            let (ax, ay) = (a.0 / grid.cell, a.1 / grid.cell);
            let (bx, by) = (b.0 / grid.cell, b.1 / grid.cell);
            if ay == by {
                continue;
            }
            // Rows whose centre line y + 0.5 is in [min, max).
            let (lo, hi) = (ay.min(by), ay.max(by));
            let first = (lo - 0.5).ceil().max(0.0);
            let last = ((hi - 0.5).ceil() - 1.0).min(grid.h as f64 - 1.0);
            if first > last {
                continue;
            }
            let (first, last) = (first as usize, last as usize);
            crossings += last - first + 1;
            if crossings > MAX_CROSSINGS {
                return Err(format!(
                    "the coastlines cross more than {MAX_CROSSINGS} rows of the picture"
                ));
            }
            for (r, row) in rows.iter_mut().enumerate().take(last + 1).skip(first) {
                let y = r as f64 + 0.5;
                row.push(ax + (y - ay) * (bx - ax) / (by - ay));
            }
        }
    }
    let mut mask = vec![false; grid.len()];
    for (r, row) in rows.iter_mut().enumerate() {
        row.sort_by(f64::total_cmp);
        for pair in row.chunks_exact(2) {
            let [x0, x1] = [pair.first().copied(), pair.get(1).copied()].map(|v| v.unwrap_or(0.0));
            // Cells whose centre x + 0.5 is in [x0, x1).
            let from = (x0 - 0.5).ceil().max(0.0) as usize;
            let to = ((x1 - 0.5).ceil().max(0.0) as usize).min(grid.w);
            if let Some(cells) = mask.get_mut(r * grid.w + from.min(to)..r * grid.w + to) {
                cells.fill(true);
            }
        }
    }
    Ok(mask)
}

/// A seed of the flood: a point (cell units), the label it gives, the class of cells
/// it crosses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seed {
    pub at: Point,
    pub label: Label,
    pub class: Class,
}

/// The 8 neighbours: (dx, dy).
const STEPS: [(isize, isize); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Fixed-point factor of the queue's distances.
const Q: f64 = 64.0;

/// Flood from every seed at once: each cell of a seed's class that a path of such
/// cells joins to the seed takes the label of the nearest seed (by straight distance
/// to the seed, propagated cell to cell, so borders in the open are straight
/// bisectors), up to `max_dist` cell units away. A diagonal step needs one of the two
/// cells beside it to be of the class too (no slipping through a corner). Cells no
/// seed reaches keep `OUTSIDE`. A seed whose own cell is off the grid or of another
/// class reaches nothing.
pub fn flood(grid: &Grid, class: &[Class], seeds: &[Seed], max_dist: f64) -> Vec<Label> {
    // Per cell: the distance to its seed so far, and that seed's index.
    let mut best: Vec<(f32, u32)> = vec![(f32::INFINITY, u32::MAX); grid.len()];
    let mut heap = BinaryHeap::new();
    let dist = |s: &Seed, i: usize| {
        let (x, y) = grid.centre(i);
        ((x - s.at.0).powi(2) + (y - s.at.1).powi(2)).sqrt()
    };
    let claim = |best: &mut Vec<(f32, u32)>,
                 heap: &mut BinaryHeap<Reverse<(u64, u32)>>,
                 i: usize,
                 d: f64,
                 o: usize| {
        if let Some(b) = best.get_mut(i) {
            let d = d as f32;
            if d < b.0 {
                *b = (d, o as u32);
                heap.push(Reverse(((f64::from(d) * Q) as u64, i as u32)));
            }
        }
    };
    for (si, s) in seeds.iter().enumerate() {
        let Some(i) = grid.cell_of((s.at.0 * grid.cell, s.at.1 * grid.cell)) else {
            continue;
        };
        if class.get(i) == Some(&s.class) {
            claim(&mut best, &mut heap, i, dist(s, i), si);
        }
    }
    let (w, h) = (grid.w as isize, grid.h as isize);
    while let Some(Reverse((key, i))) = heap.pop() {
        let i = i as usize;
        let Some(&(di, o)) = best.get(i) else {
            continue;
        };
        if key > (f64::from(di) * Q) as u64 {
            continue; // a stale entry
        }
        let Some(s) = seeds.get(o as usize) else {
            continue;
        };
        let (x, y) = ((i % grid.w) as isize, (i / grid.w) as isize);
        let ok = |nx: isize, ny: isize| {
            nx >= 0
                && ny >= 0
                && nx < w
                && ny < h
                && class.get((ny * w + nx) as usize) == Some(&s.class)
        };
        for (dx, dy) in STEPS {
            let (nx, ny) = (x + dx, y + dy);
            if !ok(nx, ny) || (dx != 0 && dy != 0 && !ok(x + dx, y) && !ok(x, y + dy)) {
                continue;
            }
            let j = (ny * w + nx) as usize;
            let d = dist(s, j);
            if d <= max_dist {
                claim(&mut best, &mut heap, j, d, o as usize);
            }
        }
    }
    best.iter()
        .map(|&(_, o)| seeds.get(o as usize).map_or(OUTSIDE, |s| s.label))
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_is_never_larger_than_a_drawing_may_be() {
        // `map draw` wrote `width: 20000.78` from a geography 19998 wide: the cells
        // round up.
        let max = crate::map::drawing::MAX_SIZE;
        for width in [19_990.0, 19_998.0, 19_999.5, max] {
            for height in [10.0, 333.3, 9_321.25, 14_999.0, max] {
                let (w, h) = Grid::new(width, height).size();
                assert!(w <= max && h <= max, "{width} x {height}: {w} x {h}");
                assert!(w >= width.min(max) - 1e-9 && h >= height - 1e-9);
            }
        }
    }

    #[test]
    fn a_square_ring_fills_its_cells_and_a_hole_stays_empty() {
        let grid = Grid::new(10.0, 10.0);
        let outer = vec![(2.0, 2.0), (8.0, 2.0), (8.0, 8.0), (2.0, 8.0)];
        let hole = vec![(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)];
        let mask = fill(&grid, &[outer, hole]).unwrap();
        assert_eq!(mask.iter().filter(|&&m| m).count(), 36 - 4);
        assert!(mask[2 * 10 + 2] && mask[7 * 10 + 7]);
        assert!(!mask[10 + 1] && !mask[4 * 10 + 4] && !mask[8 * 10 + 8]);
    }

    #[test]
    fn rings_beyond_the_picture_are_clipped() {
        let grid = Grid::new(10.0, 10.0);
        let big = vec![(-50.0, -50.0), (50.0, -50.0), (50.0, 50.0), (-50.0, 50.0)];
        assert!(fill(&grid, &[big]).unwrap().iter().all(|&m| m));
    }

    #[test]
    fn a_flood_splits_the_open_at_the_bisector_and_stays_on_its_class() {
        let grid = Grid::new(20.0, 10.0);
        let mut class = vec![CLASS_LAND; grid.len()];
        // A wall of water at x = 15 cuts the right end off.
        for y in 0..10 {
            class[y * 20 + 15] = CLASS_WATER;
        }
        let seeds = [
            Seed {
                at: (2.5, 5.5),
                label: 0,
                class: CLASS_LAND,
            },
            Seed {
                at: (10.5, 5.5),
                label: 1,
                class: CLASS_LAND,
            },
            Seed {
                at: (15.5, 2.5),
                label: 2,
                class: CLASS_WATER,
            },
        ];
        let l = flood(&grid, &class, &seeds, 1e9);
        for y in 0..10 {
            assert_eq!(l[y * 20 + 6], 0, "left of the bisector x = 6.5");
            assert_eq!(l[y * 20 + 7], 1);
            assert_eq!(l[y * 20 + 14], 1);
            assert_eq!(l[y * 20 + 15], 2);
            assert_eq!(l[y * 20 + 16], OUTSIDE, "beyond the wall nobody reaches");
        }
        let near = flood(&grid, &class, &seeds[..1], 3.0);
        assert_eq!(near[5 * 20 + 5], 0);
        assert_eq!(near[5 * 20 + 6], OUTSIDE);
    }

    #[test]
    fn a_diagonal_step_does_not_slip_through_a_corner() {
        let grid = Grid::new(2.0, 2.0);
        let class = vec![CLASS_LAND, CLASS_WATER, CLASS_WATER, CLASS_LAND];
        let seeds = [Seed {
            at: (0.5, 0.5),
            label: 7,
            class: CLASS_LAND,
        }];
        let l = flood(&grid, &class, &seeds, 1e9);
        assert_eq!(l, vec![7, OUTSIDE, OUTSIDE, OUTSIDE]);
    }
}
