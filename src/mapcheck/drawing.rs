//! The drawing against the graph: which provinces touch in the picture
//! (`NAME.drawing.yaml`, [`Drawing`]), compared with the adjacency.
//!
//! Two outlines touch when they share a border: pieces of one lie within [`TOLERANCE`]
//! of the other's outline, running along it, over a length of at least
//! [`MIN_SHARED`]. A corner where they only meet is no border. Segments are found through a grid of cells, so a board
//! of a few hundred provinces is checked in milliseconds.
//!
//! - `DRAWING_TOUCH_NOT_ADJACENT`: two provinces touch but are not neighbours;
//! - `DRAWING_ADJACENT_APART`: two neighbours do not touch and are not joined across
//!   water (both touching one sea province, or one lake or sea of the drawing that is
//!   no province).
//!
//! Impassable provinces are left out: they have no neighbours, and may touch anything.

// The tables here are built in this module: `outlines` with one entry per province
// of the map (then one per water ring), segments and cells from those outlines; every
// index comes from them.
#![allow(clippy::indexing_slicing)]

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{Checker, Raw};
use crate::map::drawing::{Drawing, Point, Ring};
use crate::map::{Map, Terrain};

/// How near (picture units) a point must be to another outline to lie on it.
pub const TOLERANCE: f64 = 2.5;

/// How long a shared border must be (picture units) for two provinces to touch.
pub const MIN_SHARED: f64 = 4.0;

/// The most grid entries and sample points the check makes (bounds the work on a
/// hostile drawing; the grid and the sampling coarsen past it).
const BUDGET: f64 = 4_000_000.0;

/// The most tests of a piece against a segment: past it (outlines crowded thousands
/// deep in one place, which no real drawing has) the comparison is given up and said so.
const MAX_TESTS: usize = 30_000_000;

/// Who touches whom in a drawing: per pair of outlines (provinces by their index, then
/// the drawing's water rings from `provinces.len()` on), the length of border they
/// share (the longer of the two ways measured).
pub struct Touches {
    /// How many provinces (the outlines after them are water rings).
    pub provinces: usize,
    /// (a, b) with a < b: shared length.
    pub shared: BTreeMap<(usize, usize), f64>,
    /// The drawing was too crowded to measure ([`MAX_TESTS`]): `shared` is incomplete.
    pub gave_up: bool,
}

impl Touches {
    /// Do outlines `a` and `b` touch?
    pub fn touch(&self, a: usize, b: usize) -> bool {
        self.shared
            .get(&(a.min(b), a.max(b)))
            .is_some_and(|&l| l >= MIN_SHARED)
    }

    /// The outlines `a` touches.
    pub fn of(&self, a: usize) -> BTreeSet<usize> {
        self.shared
            .iter()
            .filter(|(_, &l)| l >= MIN_SHARED)
            .filter_map(|(&(x, y), _)| {
                if x == a {
                    Some(y)
                } else if y == a {
                    Some(x)
                } else {
                    None
                }
            })
            .collect()
    }
}

/// Which outlines of `drawing` touch: every province of `map` that is not impassable,
/// and the drawing's water rings (lakes and seas that are no province).
pub fn touches(map: &Map, drawing: &Drawing) -> Touches {
    let n = map.provinces.len();
    let mut outlines: Vec<&[Ring]> = Vec::with_capacity(n + 1);
    for (i, p) in map.provinces.iter().enumerate() {
        let rings = match drawing.provinces.get(i) {
            Some(s) if p.terrain != Terrain::Impassable => s.rings.as_slice(),
            _ => &[],
        };
        outlines.push(rings);
    }
    for w in &drawing.water {
        outlines.push(std::slice::from_ref(w));
    }
    let (shared, gave_up) = shared_lengths(&outlines);
    Touches {
        provinces: n,
        shared,
        gave_up,
    }
}

/// A segment of an outline: its ends and whose it is.
struct Segment {
    a: Point,
    b: Point,
    owner: usize,
}

fn segments(outlines: &[&[Ring]]) -> Vec<Segment> {
    let mut out = Vec::new();
    for (owner, rings) in outlines.iter().enumerate() {
        for ring in rings.iter() {
            let closing = ring.last().zip(ring.first());
            let pairs = ring
                .windows(2)
                .filter_map(|w| match w {
                    [a, b] => Some((*a, *b)),
                    _ => None,
                })
                .chain(closing.map(|(a, b)| (*a, *b)));
            for (a, b) in pairs {
                if a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite() {
                    out.push(Segment { a, b, owner });
                }
            }
        }
    }
    out
}

fn length(s: &Segment) -> f64 {
    ((s.b.0 - s.a.0).powi(2) + (s.b.1 - s.a.1).powi(2)).sqrt()
}

/// Does a piece of outline at `p`, running along `dir` (a unit vector), lie on
/// segment `s`: within [`TOLERANCE`] of it, its foot on the segment, and running
/// about the same way (within some 25°)? Where two outlines only meet at a corner,
/// or one goes on past the other's end, no piece does.
fn lies_on(p: Point, dir: Point, s: &Segment) -> bool {
    let (dx, dy) = (s.b.0 - s.a.0, s.b.1 - s.a.1);
    let l2 = dx * dx + dy * dy;
    if l2 <= 0.0 {
        return false;
    }
    let t = ((p.0 - s.a.0) * dx + (p.1 - s.a.1) * dy) / l2;
    if !(0.0..=1.0).contains(&t) {
        return false;
    }
    let (x, y) = (s.a.0 + t * dx, s.a.1 + t * dy);
    let near = (p.0 - x).powi(2) + (p.1 - y).powi(2) <= TOLERANCE * TOLERANCE;
    let cos = (dir.0 * dx + dir.1 * dy) / l2.sqrt();
    near && cos.abs() >= 0.9
}

/// Segments by grid cell: each segment is in every cell holding a point within
/// [`TOLERANCE`] of it.
struct Grid {
    cell: f64,
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Grid {
    fn key(&self, x: f64, y: f64) -> (i64, i64) {
        (
            (x / self.cell).floor() as i64,
            (y / self.cell).floor() as i64,
        )
    }

    fn new(segs: &[Segment], cell: f64) -> Grid {
        let mut g = Grid {
            cell,
            cells: HashMap::new(),
        };
        // Points every half cell along the segment; the cells within TOLERANCE plus a
        // quarter cell of each hold every point within TOLERANCE of the segment.
        let reach = TOLERANCE + cell / 4.0;
        for (id, s) in segs.iter().enumerate() {
            let steps = (length(s) / (cell / 2.0)).ceil().max(1.0) as usize;
            for k in 0..=steps {
                let t = k as f64 / steps as f64;
                let (x, y) = (s.a.0 + t * (s.b.0 - s.a.0), s.a.1 + t * (s.b.1 - s.a.1));
                let (x0, y0) = g.key(x - reach, y - reach);
                let (x1, y1) = g.key(x + reach, y + reach);
                for cx in x0..=x1 {
                    for cy in y0..=y1 {
                        let v = g.cells.entry((cx, cy)).or_default();
                        if v.last() != Some(&id) {
                            v.push(id);
                        }
                    }
                }
            }
        }
        g
    }
}

/// For every pair of outlines, the length of border they share: each outline is
/// walked in short pieces, and a piece whose middle lies within [`TOLERANCE`] of
/// another outline counts for the pair.
/// Also says whether it gave up past [`MAX_TESTS`].
fn shared_lengths(outlines: &[&[Ring]]) -> (BTreeMap<(usize, usize), f64>, bool) {
    let segs = segments(outlines);
    let total: f64 = segs.iter().map(length).sum();
    let cell = (4.0 * TOLERANCE).max(8.0 * total / BUDGET);
    let step = (TOLERANCE / 2.0).max(2.0 * total / BUDGET);
    let grid = Grid::new(&segs, cell);
    let mut ways: HashMap<(usize, usize), f64> = HashMap::new();
    let mut near: Vec<usize> = Vec::new();
    let mut tests = 0usize;
    'all: for s in &segs {
        let len = length(s);
        if len <= 0.0 {
            continue;
        }
        let dir = ((s.b.0 - s.a.0) / len, (s.b.1 - s.a.1) / len);
        let pieces = (len / step).ceil().max(1.0) as usize;
        let piece = len / pieces as f64;
        for k in 0..pieces {
            let t = (k as f64 + 0.5) / pieces as f64;
            let p = (s.a.0 + t * (s.b.0 - s.a.0), s.a.1 + t * (s.b.1 - s.a.1));
            near.clear();
            if let Some(ids) = grid.cells.get(&grid.key(p.0, p.1)) {
                tests += ids.len();
                if tests > MAX_TESTS {
                    break 'all;
                }
                for &id in ids {
                    let o = &segs[id];
                    if o.owner != s.owner && !near.contains(&o.owner) && lies_on(p, dir, o) {
                        near.push(o.owner);
                    }
                }
            }
            for &o in &near {
                *ways.entry((s.owner, o)).or_default() += piece;
            }
        }
    }
    let mut out: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for (&(a, b), &l) in &ways {
        let e = out.entry((a.min(b), a.max(b))).or_default();
        *e = e.max(l);
    }
    (out, tests > MAX_TESTS)
}

impl Checker<'_> {
    /// The drawing against the adjacency of `map` (loaded from `raw`'s file).
    pub(super) fn drawing(&mut self, raw: &Raw, map: &Map, drawing: &Drawing) {
        let t = touches(map, drawing);
        if t.gave_up {
            self.keep(super::Finding {
                file: self.file.to_string(),
                line: 1,
                column: 1,
                severity: crate::map::Severity::Warning,
                code: "DRAWING_TOUCH_NOT_ADJACENT",
                key: "provinces".into(),
                message: format!("the drawing's outlines are too crowded to compare with the edges (over {MAX_TESTS} tests): not compared"),
                rule: super::rule("DRAWING_TOUCH_NOT_ADJACENT"),
                hint: Some("outlines with fewer corners on one spot; `arbiter map draw` makes such a drawing".into()),
            });
            return;
        }
        let n = map.provinces.len();
        let adj = crate::draw::layout::neighbours(map);
        let passable = |i: usize| {
            map.provinces
                .get(i)
                .is_some_and(|p| p.terrain != Terrain::Impassable)
        };
        let is_sea = |i: usize| {
            map.provinces
                .get(i)
                .is_some_and(|p| p.terrain == Terrain::Sea)
        };
        // Where a province is written in the map file, and its key.
        let place = |c: &Self, i: usize| {
            let id = &map.provinces[i].id;
            let at = raw
                .prov(id)
                .map(|k| c.pos(&format!("provinces.{k}.id")))
                .unwrap_or_default();
            (at, format!("provinces.{id}"))
        };
        // The pairs found, as indices: a complete graph of hundreds of provinces gives
        // a finding for most of its edges, and only the first of each code are kept in
        // full (the rest counted), so messages are made for those alone.
        let mut found: Vec<(&'static str, usize, usize, f64)> = Vec::new();
        for (&(a, b), &l) in &t.shared {
            if b >= n || l < MIN_SHARED || !passable(a) || !passable(b) {
                continue;
            }
            if adj[a].contains(&b) {
                continue;
            }
            found.push(("DRAWING_TOUCH_NOT_ADJACENT", a, b, l));
        }
        let touching: Vec<BTreeSet<usize>> = (0..n).map(|i| t.of(i)).collect();
        for (a, list) in adj.iter().enumerate() {
            for &b in list {
                if b <= a || !passable(a) || !passable(b) || t.touch(a, b) {
                    continue;
                }
                // Joined across water: a sea province, or a water ring of the drawing,
                // that both touch.
                let across = touching[a]
                    .intersection(&touching[b])
                    .any(|&w| w >= n || is_sea(w));
                if !across {
                    found.push(("DRAWING_ADJACENT_APART", a, b, 0.0));
                }
            }
        }
        for (code, a, b, l) in found {
            if self.counted_only(code) {
                continue;
            }
            let (ia, ib) = (&map.provinces[a].id, &map.provinces[b].id);
            let (message, hint) = if code == "DRAWING_TOUCH_NOT_ADJACENT" {
                (
                    format!(
                        "`{ia}` and `{ib}` share a border of {l:.0} units in the drawing but are not neighbours"
                    ),
                    format!(
                        "if they are neighbours, add the edge at both ends (`army:`/`fleet:` of `{ia}` and `{ib}`); if not, move the border in the drawing (an extra seed for one of them in the geo spec, `seeds:`, then `arbiter map draw` again)"
                    ),
                )
            } else {
                (
                    format!(
                        "`{ia}` and `{ib}` are neighbours but do not touch in the drawing, and no sea joins them there"
                    ),
                    "if the edge is meant, move the border so that they touch (an extra seed for one of them between the two in the geo spec, `seeds:`, then `arbiter map draw` again); if not, remove the edge at both ends".to_string(),
                )
            };
            let (at, key) = place(self, a);
            self.add(at, code, key, message, Some(hint));
        }
    }
}
