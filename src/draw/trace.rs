//! From labelled cells to outlines: each region's boundary traced along cell edges
//! into closed rings (an island gives a ring of its own, a hole a ring turning the
//! other way), then simplified (Douglas–Peucker) so that two neighbours' shared border
//! stays one line: rings are cut at the corners where three regions meet, and each
//! piece is simplified in exact integer arithmetic that gives the same points whichever
//! way it is walked.

use super::raster::{Grid, Label, OUTSIDE};

/// A corner of the grid (cell units).
pub type Vertex = (i64, i64);

/// The four directions, clockwise on the picture (y down): east, south, west, north.
const DIRS: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

struct Labels<'a> {
    grid: &'a Grid,
    labels: &'a [Label],
}

impl Labels<'_> {
    fn at(&self, x: i64, y: i64) -> Label {
        if x < 0 || y < 0 || x >= self.grid.w as i64 || y >= self.grid.h as i64 {
            return OUTSIDE;
        }
        self.labels
            .get(y as usize * self.grid.w + x as usize)
            .copied()
            .unwrap_or(OUTSIDE)
    }

    /// The cell beside vertex `v` in the quarter between unit vectors `a` and `b`.
    fn beside(&self, v: Vertex, a: (i64, i64), b: (i64, i64)) -> (i64, i64) {
        let (ox, oy) = (a.0 + b.0, a.1 + b.1);
        (v.0 + (ox - 1) / 2, v.1 + (oy - 1) / 2)
    }

    fn label(&self, c: (i64, i64)) -> Label {
        self.at(c.0, c.1)
    }

    /// Do three regions meet at vertex `v`, or two cross there (a checkerboard)?
    fn junction(&self, v: Vertex) -> bool {
        let c = [
            self.at(v.0 - 1, v.1 - 1),
            self.at(v.0, v.1 - 1),
            self.at(v.0, v.1),
            self.at(v.0 - 1, v.1),
        ];
        let [a, b, cc, d] = c;
        let distinct = c
            .iter()
            .enumerate()
            .filter(|(i, x)| !c.iter().take(*i).any(|y| y == *x))
            .count();
        distinct >= 3 || (distinct == 2 && a == cc && b == d)
    }
}

fn dir(d: usize) -> (i64, i64) {
    DIRS.get(d % 4).copied().unwrap_or((1, 0))
}

/// A traced ring: its corners (and the junctions on it), in order, the region on the
/// right of travel (clockwise around a region on the picture, anticlockwise around a
/// hole).
#[derive(Debug, Clone, PartialEq)]
pub struct Traced {
    pub label: Label,
    pub corners: Vec<Vertex>,
    pub junction: Vec<bool>,
}

/// Trace the boundary of every region whose label `wanted` accepts.
pub fn trace(grid: &Grid, labels: &[Label], wanted: impl Fn(Label) -> bool) -> Vec<Traced> {
    let l = Labels { grid, labels };
    let mut seen = vec![0u8; grid.len()];
    let mut out = Vec::new();
    for y in 0..grid.h as i64 {
        for x in 0..grid.w as i64 {
            let me = l.at(x, y);
            if !wanted(me) {
                continue;
            }
            for d in 0..4 {
                let (dx, dy) = dir(d);
                let (lx, ly) = dir(d + 3);
                let (rx, ry) = dir(d + 1);
                if l.at(x + lx, y + ly) == me || is_seen(&seen, grid, (x, y), d) {
                    continue;
                }
                // The edge with this cell on its right, walking direction d.
                let v = (x + (1 - dx - rx) / 2, y + (1 - dy - ry) / 2);
                out.push(walk(&l, &mut seen, v, d, me));
            }
        }
    }
    out
}

fn is_seen(seen: &[u8], grid: &Grid, (x, y): (i64, i64), d: usize) -> bool {
    seen.get(y as usize * grid.w + x as usize)
        .is_some_and(|b| b & (1 << d) != 0)
}

fn mark(seen: &mut [u8], grid: &Grid, (x, y): (i64, i64), d: usize) {
    if x >= 0 && y >= 0 && (x as usize) < grid.w {
        if let Some(b) = seen.get_mut(y as usize * grid.w + x as usize) {
            *b |= 1 << d;
        }
    }
}

/// Walk one ring of region `me` from the edge leaving `start` in direction `d0`.
fn walk(l: &Labels, seen: &mut [u8], start: Vertex, d0: usize, me: Label) -> Traced {
    let mut corners = Vec::new();
    let mut junction = Vec::new();
    let (mut v, mut d) = (start, d0);
    mark(seen, l.grid, l.beside(v, dir(d), dir(d + 1)), d);
    // A ring has at most four edges per cell.
    for _ in 0..=4 * l.grid.len() + 4 {
        let ahead = dir(d);
        let next = (v.0 + ahead.0, v.1 + ahead.1);
        let (left, right, back) = (dir(d + 3), dir(d + 1), (-ahead.0, -ahead.1));
        let a = l.label(l.beside(next, ahead, left));
        let b = l.label(l.beside(next, ahead, right));
        let u = l.label(l.beside(next, back, left));
        // A checkerboard corner: the smaller label goes through (both sides agree).
        let connect = me < u.min(b);
        let nd = if a == me && (b == me || connect) {
            (d + 3) % 4
        } else if b == me {
            d
        } else {
            (d + 1) % 4
        };
        let j = l.junction(next);
        if nd != d || j {
            corners.push(next);
            junction.push(j);
        }
        v = next;
        d = nd;
        if (v, d) == (start, d0) {
            break;
        }
        mark(seen, l.grid, l.beside(v, dir(d), dir(d + 1)), d);
    }
    Traced {
        label: me,
        corners,
        junction,
    }
}

/// Twice the area of the triangle (a, b, p), and the squared length of a–b.
fn cross(a: Vertex, b: Vertex, p: Vertex) -> i128 {
    let (ux, uy) = (i128::from(b.0 - a.0), i128::from(b.1 - a.1));
    let (px, py) = (i128::from(p.0 - a.0), i128::from(p.1 - a.1));
    (ux * py - uy * px).abs()
}

/// Douglas–Peucker over `pts[s..=e]`: mark in `keep` the points more than `tol` from
/// the simplified line. The farthest point wins, ties going to the smallest (y, x), so
/// a piece walked backwards keeps the same points.
fn dp(pts: &[Vertex], s: usize, e: usize, tol: f64, keep: &mut [bool]) {
    let mut stack = vec![(s, e)];
    while let Some((s, e)) = stack.pop() {
        if e <= s + 1 {
            continue;
        }
        let (Some(&a), Some(&b)) = (pts.get(s), pts.get(e)) else {
            continue;
        };
        let len2 = i128::from((b.0 - a.0).pow(2) + (b.1 - a.1).pow(2));
        let mut best: Option<(i128, (i64, i64), usize)> = None;
        for (m, &p) in pts.iter().enumerate().take(e).skip(s + 1) {
            let score = if len2 == 0 {
                i128::from((p.0 - a.0).pow(2) + (p.1 - a.1).pow(2))
            } else {
                cross(a, b, p)
            };
            let better = match best {
                None => true,
                Some((bs, bp, _)) => score > bs || (score == bs && (p.1, p.0) < (bp.1, bp.0)),
            };
            if better {
                best = Some((score, p, m));
            }
        }
        let Some((score, _, m)) = best else { continue };
        let far = if len2 == 0 {
            score as f64 > tol * tol
        } else {
            (score as f64).powi(2) > tol * tol * len2 as f64
        };
        if far {
            if let Some(k) = keep.get_mut(m) {
                *k = true;
            }
            stack.push((s, m));
            stack.push((m, e));
        }
    }
}

/// Simplify a traced ring with tolerance `tol` (cell units), keeping every junction.
/// A ring that would fall below three corners is kept as traced.
pub fn simplify(t: &Traced, tol: f64) -> Vec<Vertex> {
    let n = t.corners.len();
    if n < 4 {
        return t.corners.clone();
    }
    let mut anchors: Vec<usize> = (0..n)
        .filter(|&i| t.junction.get(i).copied().unwrap_or(false))
        .collect();
    if anchors.is_empty() {
        // A ring with no junction (an island in one sea): anchor at its smallest
        // corner and the corner farthest from it, as both sides would.
        let key = |i: usize| t.corners.get(i).map_or((0, 0), |&(x, y)| (y, x));
        let first = (0..n).min_by_key(|&i| key(i)).unwrap_or(0);
        let f = t.corners.get(first).copied().unwrap_or((0, 0));
        let far = (0..n)
            .max_by(|&i, &j| {
                let d = |k: usize| {
                    t.corners
                        .get(k)
                        .map_or(0, |&(x, y)| (x - f.0).pow(2) + (y - f.1).pow(2))
                };
                d(i).cmp(&d(j)).then(key(j).cmp(&key(i)))
            })
            .unwrap_or(0);
        anchors = vec![first.min(far), first.max(far)];
    }
    // Walk from the first anchor round to it again, as one doubled-up list.
    let start = anchors.first().copied().unwrap_or(0);
    let pts: Vec<Vertex> = (0..=n)
        .filter_map(|k| t.corners.get((start + k) % n).copied())
        .collect();
    let mut keep = vec![false; pts.len()];
    let mut cuts: Vec<usize> = anchors.iter().map(|&a| (a + n - start) % n).collect();
    cuts.push(n);
    for &c in &cuts {
        if let Some(k) = keep.get_mut(c) {
            *k = true;
        }
    }
    for w in cuts.windows(2) {
        if let [s, e] = *w {
            dp(&pts, s, e, tol, &mut keep);
        }
    }
    let out: Vec<Vertex> = pts
        .iter()
        .zip(&keep)
        .take(n)
        .filter(|(_, &k)| k)
        .map(|(&p, _)| p)
        .collect();
    if out.len() < 3 {
        t.corners.clone()
    } else {
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn grid_of(rows: &[&str]) -> (Grid, Vec<Label>) {
        let grid = Grid {
            w: rows[0].len(),
            h: rows.len(),
            cell: 1.0,
        };
        let labels = rows
            .iter()
            .flat_map(|r| {
                r.bytes().map(|b| {
                    if b == b'.' {
                        OUTSIDE
                    } else {
                        Label::from(b - b'0')
                    }
                })
            })
            .collect();
        (grid, labels)
    }

    fn area(r: &[Vertex]) -> i64 {
        let n = r.len();
        (0..n)
            .map(|i| {
                let (a, b) = (r[i], r[(i + 1) % n]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum::<i64>()
    }

    #[test]
    fn a_square_traces_to_its_four_corners_clockwise() {
        let (g, l) = grid_of(&["....", ".00.", ".00.", "...."]);
        let t = trace(&g, &l, |x| x != OUTSIDE);
        assert_eq!(t.len(), 1);
        let mut c = t[0].corners.clone();
        c.sort();
        assert_eq!(c, vec![(1, 1), (1, 3), (3, 1), (3, 3)]);
        // Clockwise on the picture (y down) is a positive shoelace sum.
        assert_eq!(area(&t[0].corners), 2 * 4);
    }

    #[test]
    fn islands_give_rings_and_holes_turn_the_other_way() {
        let (g, l) = grid_of(&["00000", "01110", "01210", "01110", "00000", "0.0.0"]);
        let t = trace(&g, &l, |x| x != OUTSIDE);
        let of = |lab: Label| t.iter().filter(|r| r.label == lab).collect::<Vec<_>>();
        assert_eq!(of(2).len(), 1);
        assert_eq!(of(1).len(), 2, "label 1: its outside and its hole");
        let zero = of(0);
        assert_eq!(
            zero.len(),
            2,
            "label 0: its outside (with teeth) and its hole"
        );
        let areas: Vec<i64> = zero.iter().map(|r| area(&r.corners)).collect();
        assert!(
            areas.iter().any(|&a| a > 0) && areas.iter().any(|&a| a < 0),
            "{areas:?}"
        );
        // Every edge between two regions is walked once from each side.
        let total: i64 = t.iter().map(|r| area(&r.corners)).sum();
        assert_eq!(total, 2 * (25 + 3));
    }

    #[test]
    fn a_shared_border_simplifies_to_the_same_points_from_both_sides() {
        // A border with corners between 0 and 1, inside a frame of 2.
        let rows = [
            "2222222222",
            "2000011112",
            "2000011112",
            "2000011112",
            "2000000112",
            "2000000112",
            "2000000112",
            "2011111112",
            "2222222222",
        ];
        let (g, l) = grid_of(&rows);
        let t = trace(&g, &l, |x| x != OUTSIDE);
        let s0 = simplify(t.iter().find(|r| r.label == 0).unwrap(), 1.0);
        let s1 = simplify(t.iter().find(|r| r.label == 1).unwrap(), 1.0);
        let inner = |r: &[Vertex]| {
            let mut v: Vec<Vertex> = r
                .iter()
                .copied()
                .filter(|p| p.0 > 1 && p.0 < 9 && p.1 > 1 && p.1 < 8)
                .collect();
            v.sort();
            v
        };
        assert!(!inner(&s0).is_empty());
        assert_eq!(inner(&s0), inner(&s1));
        assert!(s0.len() < t.iter().find(|r| r.label == 0).unwrap().corners.len());
    }

    #[test]
    fn a_checkerboard_corner_is_walked_consistently() {
        let (g, l) = grid_of(&["01", "10"]);
        let t = trace(&g, &l, |x| x != OUTSIDE);
        // 0 (the smaller label) goes through the corner: one ring; 1 does not: two.
        assert_eq!(t.iter().filter(|r| r.label == 0).count(), 1);
        assert_eq!(t.iter().filter(|r| r.label == 1).count(), 2);
    }
}
