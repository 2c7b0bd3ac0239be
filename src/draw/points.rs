//! Where things go inside a province: its unit (well inside its main piece), its
//! label (away from the unit), its supply-centre marker (near the unit) and the point
//! of each named coast (inside, near the border with the seas that coast reaches).

use super::raster::{Grid, Label};
use super::Point;

/// Per cell: the distance to the nearest cell of another label or the picture's edge
/// (chamfer 3–4, in thirds of a cell).
pub fn border_distance(grid: &Grid, labels: &[Label]) -> Vec<u32> {
    let (w, h) = (grid.w, grid.h);
    let lab = |x: usize, y: usize| labels.get(y * w + x).copied();
    let mut d = vec![u32::MAX / 2; grid.len()];
    for y in 0..h {
        for x in 0..w {
            let me = lab(x, y);
            let edge = x == 0
                || y == 0
                || x + 1 == w
                || y + 1 == h
                || lab(x - 1, y) != me
                || lab(x + 1, y) != me
                || lab(x, y - 1) != me
                || lab(x, y + 1) != me;
            if edge {
                if let Some(c) = d.get_mut(y * w + x) {
                    *c = 1;
                }
            }
        }
    }
    let at = |d: &[u32], x: usize, y: usize| d.get(y * w + x).copied().unwrap_or(0);
    for y in 0..h {
        for x in 0..w {
            let mut v = at(&d, x, y);
            if x > 0 {
                v = v.min(at(&d, x - 1, y) + 3);
            }
            if y > 0 {
                v = v.min(at(&d, x, y - 1) + 3);
                if x > 0 {
                    v = v.min(at(&d, x - 1, y - 1) + 4);
                }
                if x + 1 < w {
                    v = v.min(at(&d, x + 1, y - 1) + 4);
                }
            }
            if let Some(c) = d.get_mut(y * w + x) {
                *c = v;
            }
        }
    }
    for y in (0..h).rev() {
        for x in (0..w).rev() {
            let mut v = at(&d, x, y);
            if x + 1 < w {
                v = v.min(at(&d, x + 1, y) + 3);
            }
            if y + 1 < h {
                v = v.min(at(&d, x, y + 1) + 3);
                if x + 1 < w {
                    v = v.min(at(&d, x + 1, y + 1) + 4);
                }
                if x > 0 {
                    v = v.min(at(&d, x - 1, y + 1) + 4);
                }
            }
            if let Some(c) = d.get_mut(y * w + x) {
                *c = v;
            }
        }
    }
    d
}

/// The main 4-connected piece of each label below `labels_n` (the list of its cells;
/// empty for a label with no cell): the piece holding the label's own cell (`own`,
/// its seed's) if that piece is at least a third of its largest, else the largest
/// (Naples stays on the mainland though Sicily is drawn as its part; a seed on a
/// speck of coast does not hold the unit).
pub fn main_pieces(
    grid: &Grid,
    labels: &[Label],
    labels_n: usize,
    own: &[Option<usize>],
) -> Vec<Vec<usize>> {
    let mut best: Vec<Vec<usize>> = vec![Vec::new(); labels_n];
    let mut home: Vec<Vec<usize>> = vec![Vec::new(); labels_n];
    let mut seen = vec![false; grid.len()];
    let mut stack = Vec::new();
    for start in 0..grid.len() {
        let Some(&me) = labels.get(start) else { break };
        if usize::from(me) >= labels_n || seen.get(start).copied().unwrap_or(true) {
            continue;
        }
        let mut piece = Vec::new();
        stack.push(start);
        if let Some(s) = seen.get_mut(start) {
            *s = true;
        }
        while let Some(i) = stack.pop() {
            piece.push(i);
            let (x, y) = (i % grid.w, i / grid.w);
            let mut near = [None; 4];
            if x > 0 {
                near[0] = Some(i - 1);
            }
            if x + 1 < grid.w {
                near[1] = Some(i + 1);
            }
            if y > 0 {
                near[2] = Some(i - grid.w);
            }
            if y + 1 < grid.h {
                near[3] = Some(i + grid.w);
            }
            for j in near.into_iter().flatten() {
                if labels.get(j) == Some(&me) {
                    if let Some(s) = seen.get_mut(j) {
                        if !*s {
                            *s = true;
                            stack.push(j);
                        }
                    }
                }
            }
        }
        let l = usize::from(me);
        let mine = own.get(l).copied().flatten();
        if let (Some(h), true) = (home.get_mut(l), mine.is_some_and(|c| piece.contains(&c))) {
            h.clone_from(&piece);
        }
        if let Some(b) = best.get_mut(l) {
            if piece.len() > b.len() {
                *b = piece;
            }
        }
    }
    best.into_iter()
        .zip(home)
        .map(|(b, h)| {
            if 3 * h.len() >= b.len() && !h.is_empty() {
                h
            } else {
                b
            }
        })
        .collect()
}

/// The points of one province, in cell units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Places {
    pub unit: Point,
    pub label: Point,
    pub centre: Point,
}

/// How far (picture units) a label stands from the unit when the piece allows.
pub const LABEL_GAP: f64 = 18.0;
/// How far (picture units) the centre marker stands from the unit.
pub const CENTRE_GAP: f64 = 12.0;
/// How deep (picture units) inside its piece the seed must be to hold the unit.
pub const DEEP: f64 = 12.0;

/// Places in the piece `cells` (its main one), given its border distances `bd` (thirds
/// of a cell), the province's seed (cell units) and the grid's cell size.
pub fn places(grid: &Grid, cells: &[usize], bd: &[u32], seed: Point) -> Places {
    let depth = |i: usize| f64::from(bd.get(i).copied().unwrap_or(0)) / 3.0;
    let centre = |i: usize| grid.centre(i);
    let dist = |a: Point, b: Point| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let deepest = cells
        .iter()
        .copied()
        .max_by(|&a, &b| {
            depth(a)
                .total_cmp(&depth(b))
                .then(dist(centre(b), seed).total_cmp(&dist(centre(a), seed)))
        })
        .unwrap_or(0);
    let max_depth = depth(deepest);
    let units = |v: f64| v / grid.cell;
    let seed_cell = grid.cell_of((seed.0 * grid.cell, seed.1 * grid.cell));
    let seed_ok = seed_cell
        .is_some_and(|s| cells.contains(&s) && depth(s) >= units(DEEP).min(0.6 * max_depth));
    let unit = if seed_ok { seed } else { centre(deepest) };
    // The label: deep enough for a few letters, LABEL_GAP from the unit when it can
    // be, else as far as the piece goes; nearest such place.
    let room = units(8.0).min(0.5 * max_depth);
    let gap = units(LABEL_GAP);
    let label = pick(cells, |i| {
        let d = dist(centre(i), unit);
        (depth(i) >= room).then_some((d.min(gap), -d, depth(i)))
    })
    .map_or(unit, centre);
    let cgap = units(CENTRE_GAP);
    let marker = pick(cells, |i| {
        let d = dist(centre(i), unit);
        let from_label = dist(centre(i), label).min(cgap);
        (depth(i) >= units(4.0).min(0.5 * max_depth)).then_some((
            from_label,
            -(d - cgap).abs(),
            depth(i),
        ))
    })
    .map_or(unit, centre);
    Places {
        unit,
        label,
        centre: marker,
    }
}

/// The cell of `cells` with the largest score (compared in order), if any has one.
fn pick(cells: &[usize], score: impl Fn(usize) -> Option<(f64, f64, f64)>) -> Option<usize> {
    let mut best: Option<((f64, f64, f64), usize)> = None;
    for &i in cells {
        if let Some(s) = score(i) {
            let better = match &best {
                None => true,
                Some((b, _)) => {
                    s.0.total_cmp(&b.0)
                        .then(s.1.total_cmp(&b.1))
                        .then(s.2.total_cmp(&b.2))
                        .is_gt()
                }
            };
            if better {
                best = Some((s, i));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// The cells of `cells` beside (4-neighbour) a cell labelled one of `set`.
fn touching(grid: &Grid, labels: &[Label], cells: &[usize], set: &[Label]) -> Vec<usize> {
    let (w, h) = (grid.w, grid.h);
    cells
        .iter()
        .copied()
        .filter(|&i| {
            let (x, y) = (i % w, i / w);
            let mut near = [None; 4];
            if x > 0 {
                near[0] = Some(i - 1);
            }
            if x + 1 < w {
                near[1] = Some(i + 1);
            }
            if y > 0 {
                near[2] = Some(i - w);
            }
            if y + 1 < h {
                near[3] = Some(i + w);
            }
            near.into_iter()
                .flatten()
                .any(|j| labels.get(j).is_some_and(|l| set.contains(l)))
        })
        .collect()
}

/// The mean of `at`'s cells moved `pull` cell units toward `inward`, then onto the
/// nearest cell of `cells`; `None` when `at` is empty.
fn pulled(grid: &Grid, cells: &[usize], at: &[usize], inward: Point, pull: f64) -> Option<Point> {
    if at.is_empty() {
        return None;
    }
    let n = at.len() as f64;
    let mean = at
        .iter()
        .map(|&i| grid.centre(i))
        .fold((0.0, 0.0), |a, c| (a.0 + c.0 / n, a.1 + c.1 / n));
    let (dx, dy) = (inward.0 - mean.0, inward.1 - mean.1);
    let len = (dx * dx + dy * dy).sqrt();
    let step = if len > 0.0 { pull.min(len) / len } else { 0.0 };
    let want = (mean.0 + dx * step, mean.1 + dy * step);
    nearest(grid, cells, want)
}

/// A named coast's point: the mean of the province's cells that touch a cell of one of
/// `seas`, moved `pull` cell units toward `inward` and then onto the nearest cell of
/// `cells`. `None` when no cell of the province touches those seas.
pub fn coast_point(
    grid: &Grid,
    labels: &[Label],
    cells: &[usize],
    seas: &[Label],
    inward: Point,
    pull: f64,
) -> Option<Point> {
    let shore = touching(grid, labels, cells, seas);
    pulled(grid, cells, &shore, inward, pull)
}

/// A named coast's point when the seas it reaches are shared with the province's other
/// coasts (Spain's north coast reaches only the Mid-Atlantic, which its south coast
/// reaches too) but it has neighbours of its own (Gascony): [`coast_point`] on the
/// third of the shore along `seas` nearest the border with `toward`. `None` when the
/// province touches none of `seas` or none of `toward`.
pub fn coast_point_toward(
    grid: &Grid,
    labels: &[Label],
    cells: &[usize],
    (seas, toward): (&[Label], &[Label]),
    inward: Point,
    pull: f64,
) -> Option<Point> {
    let shore = touching(grid, labels, cells, seas);
    let border: Vec<Point> = touching(grid, labels, cells, toward)
        .into_iter()
        .map(|i| grid.centre(i))
        .collect();
    if border.is_empty() {
        return None;
    }
    let mut by_distance: Vec<(f64, usize)> = shore
        .into_iter()
        .map(|i| {
            let c = grid.centre(i);
            let d = border
                .iter()
                .map(|b| (b.0 - c.0).powi(2) + (b.1 - c.1).powi(2))
                .fold(f64::MAX, f64::min);
            (d, i)
        })
        .collect();
    by_distance.sort_by(|a, b| a.0.total_cmp(&b.0));
    let keep = by_distance.len().div_ceil(3);
    let near: Vec<usize> = by_distance.into_iter().take(keep).map(|(_, i)| i).collect();
    pulled(grid, cells, &near, inward, pull)
}

/// The centre of the cell of `cells` nearest `p`.
pub fn nearest(grid: &Grid, cells: &[usize], p: Point) -> Option<Point> {
    cells.iter().map(|&i| grid.centre(i)).min_by(|a, b| {
        let da = (a.0 - p.0).powi(2) + (a.1 - p.1).powi(2);
        let db = (b.0 - p.0).powi(2) + (b.1 - p.1).powi(2);
        da.total_cmp(&db)
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn the_border_distance_grows_inward() {
        let grid = Grid {
            w: 9,
            h: 9,
            cell: 1.0,
        };
        let labels = vec![0; 81];
        let d = border_distance(&grid, &labels);
        assert_eq!(d[0], 1);
        assert_eq!(d[4 * 9 + 4], 1 + 4 * 3);
    }

    #[test]
    fn the_largest_piece_wins_and_points_fall_inside_it() {
        // Label 0: a 3x3 piece on the left and a 70x20 piece on the right.
        let grid = Grid {
            w: 80,
            h: 20,
            cell: 1.0,
        };
        let mut labels = vec![1u16; grid.len()];
        for y in 0..3 {
            for x in 0..3 {
                labels[y * 80 + x] = 0;
            }
        }
        for y in 0..20 {
            for x in 10..80 {
                labels[y * 80 + x] = 0;
            }
        }
        let pieces = main_pieces(&grid, &labels, 2, &[Some(1), None]);
        assert_eq!(
            pieces[0].len(),
            1400,
            "the seed's piece is too small to hold the unit"
        );
        let mut big = labels.clone();
        for y in 0..20 {
            for x in 0..3 {
                big[y * 80 + x] = 0;
            }
        }
        // 60 cells on the left (the seed's), 1400 on the right: too few to hold the unit.
        assert_eq!(main_pieces(&grid, &big, 2, &[Some(0), None])[0].len(), 1400);
        // 180 cells (the seed's) beside 500: enough (Naples beside Sicily).
        let naples: Vec<Label> = (0..grid.len())
            .map(|i| {
                if i % 80 < 9 || (10..35).contains(&(i % 80)) {
                    0
                } else {
                    1
                }
            })
            .collect();
        assert_eq!(
            main_pieces(&grid, &naples, 2, &[Some(0), None])[0].len(),
            180
        );
        assert_eq!(main_pieces(&grid, &naples, 2, &[None, None])[0].len(), 500);
        let bd = border_distance(&grid, &labels);
        // The seed on the small piece: the unit goes to the big one's deepest place.
        let p = places(&grid, &pieces[0], &bd, (1.5, 1.5));
        let inside = |q: Point| labels[q.1 as usize * 80 + q.0 as usize] == 0 && q.0 >= 10.0;
        assert!(
            inside(p.unit) && inside(p.label) && inside(p.centre),
            "{p:?}"
        );
        assert!((p.unit.1 - 10.0).abs() < 1.5, "{p:?}");
        let gap = ((p.unit.0 - p.label.0).powi(2) + (p.unit.1 - p.label.1).powi(2)).sqrt();
        assert!(gap >= LABEL_GAP - 1.0, "{gap}");
        // A seed deep inside holds the unit.
        let p = places(&grid, &pieces[0], &bd, (40.2, 9.7));
        assert_eq!(p.unit, (40.2, 9.7));
    }

    #[test]
    fn a_coast_point_lies_inside_near_its_sea() {
        // Province 0 fills the middle; sea 1 above, sea 2 below.
        let grid = Grid {
            w: 40,
            h: 40,
            cell: 1.0,
        };
        let labels: Vec<Label> = (0..1600)
            .map(|i| match i / 40 {
                0..=4 => 1,
                35.. => 2,
                _ => 0,
            })
            .collect();
        let cells: Vec<usize> = (0..1600).filter(|&i| labels[i] == 0).collect();
        let north = coast_point(&grid, &labels, &cells, &[1], (20.0, 20.0), 10.0).unwrap();
        let south = coast_point(&grid, &labels, &cells, &[2], (20.0, 20.0), 10.0).unwrap();
        assert!((north.1 - 15.5).abs() < 1.0, "{north:?}");
        assert!((south.1 - 24.5).abs() < 1.0, "{south:?}");
        assert!(coast_point(&grid, &labels, &cells, &[3], (20.0, 20.0), 10.0).is_none());
    }

    #[test]
    fn a_coast_on_a_shared_sea_faces_its_own_neighbour() {
        // Spain's shape: province 0 in the middle, one sea (1) along its whole left and
        // top side, a land neighbour (2) at the top right, reached only by this coast.
        // The coast's point is on the top shore near 2, not the middle of the sea's shore.
        let grid = Grid {
            w: 40,
            h: 40,
            cell: 1.0,
        };
        let labels: Vec<Label> = (0..1600)
            .map(|i| {
                let (x, y) = (i % 40, i / 40);
                if x < 5 || y < 5 {
                    1
                } else if y < 12 && x >= 30 {
                    2
                } else {
                    0
                }
            })
            .collect();
        let cells: Vec<usize> = (0..1600).filter(|&i| labels[i] == 0).collect();
        let inward = (22.0, 22.0);
        let plain = coast_point(&grid, &labels, &cells, &[1], inward, 3.0).unwrap();
        let own = coast_point_toward(&grid, &labels, &cells, (&[1], &[2]), inward, 3.0).unwrap();
        assert!(own.1 < 10.0 && own.0 > 20.0, "{own:?}");
        assert!(own.0 > plain.0 + 5.0, "{own:?} {plain:?}");
        assert!(coast_point_toward(&grid, &labels, &cells, (&[1], &[3]), inward, 3.0).is_none());
    }
}
