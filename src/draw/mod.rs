//! The generator of a board's drawing (`arbiter map draw`; docs/MAPS.md, "Drawing"):
//! from a map and, where there is one, its geography, the outline of every province and
//! where its unit, label, centre marker and named coasts go
//! ([`crate::map::drawing::Drawing`]).
//!
//! The stages, each its own module:
//!
//! 1. [`spec`]: the geography (`NAME.geo.yaml`, [`GeoSpec`]) and its coastlines
//!    ([`Land`]), read and checked against the map;
//! 2. [`project`]: the globe flattened into picture units;
//! 3. [`raster`]: the picture as a grid of cells; the land mask (the coastlines filled)
//!    or, for a map with no geography, the board from its provinces' `at` positions;
//!    then a flood from every province's seeds, land seeds over land and sea seeds over
//!    water, giving each cell to the nearest seed it can reach;
//! 4. [`trace`]: each province's cells traced into rings and simplified;
//! 5. [`points`]: the unit, label, centre and coast points.
//!
//! A map with neither geography nor positions gets positions first from its
//! adjacency graph ([`layout`], `arbiter map layout`).
//!
//! No I/O: [`draw`] takes the map, the spec and the land, and returns the drawing.

pub mod layout;
pub mod points;
pub mod project;
pub mod raster;
pub mod spec;
pub mod trace;

pub use spec::{GeoSpec, Land};

use crate::map::drawing::{Drawing, Ring, Shape};
use crate::map::locate::Pos;
use crate::map::{Loc, Map, MapError, Terrain};
use raster::{
    Class, Grid, Label, Seed, CLASS_LAND, CLASS_WATER, NOBODY_LAND, NOBODY_WATER, OUTSIDE,
};

/// A point of the picture (x right, y down).
pub type Point = (f64, f64);

/// How far (picture units) a simplified outline may stray from the traced one.
pub const TOLERANCE: f64 = 1.0;

/// How far (picture units) a named coast's point lies inside the border with its seas.
pub const COAST_PULL: f64 = 10.0;

/// How far (picture units) a seed that falls on the wrong side of a coastline (a port
/// on a rough coast) is moved to the nearest cell of its own kind.
pub const SNAP: f64 = 30.0;

/// The labelled grid a drawing is traced from.
struct Board {
    grid: Grid,
    labels: Vec<Label>,
    /// Per province: its own point (where its unit goes if that is well inside), in
    /// cell units.
    seeds: Vec<Point>,
}

/// Draw `map`: from its geography when `spec` (and its `land`) are given, else from
/// its provinces' `at` positions and terrain. Problems (a province with no place of its
/// own, a seed in the sea, positions missing) come back as a [`MapError`] naming the
/// spec's lines where it has them.
pub fn draw(map: &Map, spec: Option<&GeoSpec>, land: Option<&Land>) -> Result<Drawing, MapError> {
    let board = match spec {
        Some(spec) => {
            let Some(land) = land else {
                return Err(MapError {
                    file: spec.file.clone(),
                    problems: vec![spec::problem(
                        spec.at("land"),
                        "land",
                        format!("the coastlines `{}` were not given", spec.land),
                        None,
                    )],
                    omitted: Default::default(),
                });
            };
            board_from_geography(map, spec, land)?
        }
        None => board_from_positions(map, &positions_for(map)?),
    };
    let file = spec.map_or_else(|| map.name.clone(), |s| s.file.clone());
    assemble(map, &board, spec, &file)
}

/// Every province's position (`at`, picture units): the given ones kept, and those a
/// map leaves out (a DPjudge import has none) placed by the graph layout of its
/// adjacency ([`layout::positions`]), as `arbiter map layout` writes them back.
pub fn positions_for(map: &Map) -> Result<Vec<Point>, MapError> {
    Ok(layout::positions(map))
}

/// The median distance from a position to its nearest other one.
fn spacing(pos: &[Point]) -> f64 {
    let mut nn: Vec<f64> = pos
        .iter()
        .enumerate()
        .map(|(i, a)| {
            pos.iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, b)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt())
                .fold(f64::INFINITY, f64::min)
        })
        .filter(|d| d.is_finite())
        .collect();
    nn.sort_by(f64::total_cmp);
    nn.get(nn.len() / 2)
        .copied()
        .filter(|&d| d > 0.0)
        .unwrap_or(50.0)
}

/// The board of a map with no geography: a picture around the positions, each cell
/// the nearest province's (an unconstrained flood), cells farther than three spacings
/// from every position outside the board. Where two neighbours on the map do not
/// touch, a second flood adds seeds along the line between them (a corridor), unless
/// that line passes close by a third province's position.
fn board_from_positions(map: &Map, pos: &[Point]) -> Board {
    let s = spacing(pos);
    let margin = s;
    let (x0, x1, y0, y1) = pos.iter().fold(
        (f64::MAX, f64::MIN, f64::MAX, f64::MIN),
        |(a, b, c, d), p| (a.min(p.0), b.max(p.0), c.min(p.1), d.max(p.1)),
    );
    let (ox, oy) = (x0 - margin, y0 - margin);
    let width = (x1 - x0 + 2.0 * margin).clamp(10.0, crate::map::drawing::MAX_SIZE);
    let height = (y1 - y0 + 2.0 * margin).clamp(10.0, crate::map::drawing::MAX_SIZE);
    let grid = Grid::new(width, height);
    let seeds: Vec<Point> = pos
        .iter()
        .map(|p| ((p.0 - ox) / grid.cell, (p.1 - oy) / grid.cell))
        .collect();
    let mut flood_seeds: Vec<Seed> = seeds
        .iter()
        .zip(0..map.provinces.len())
        .map(|(&at, i)| Seed {
            at,
            label: i as Label,
            class: 0,
        })
        .collect();
    let class = vec![0 as Class; grid.len()];
    let reach = 3.0 * s / grid.cell;
    let mut labels = raster::flood(&grid, &class, &flood_seeds, reach);
    let corridors = corridor_seeds(map, &grid, &labels, &seeds);
    if !corridors.is_empty() {
        flood_seeds.extend(corridors);
        labels = raster::flood(&grid, &class, &flood_seeds, reach);
    }
    Board {
        grid,
        labels,
        seeds,
    }
}

/// Neighbours on the map whose regions do not touch: seeds along the line between
/// their positions (`seeds`, cell units), each half to its own end, when no third
/// position lies within a quarter of the line's length of it.
fn corridor_seeds(map: &Map, grid: &Grid, labels: &[Label], seeds: &[Point]) -> Vec<Seed> {
    let n = map.provinces.len();
    let mut touch = vec![false; n * n];
    let (w, h) = (grid.w, grid.h);
    for (i, &a) in labels.iter().enumerate() {
        let (x, y) = (i % w, i / w);
        for j in [(x + 1 < w).then_some(i + 1), (y + 1 < h).then_some(i + w)]
            .into_iter()
            .flatten()
        {
            let b = labels.get(j).copied().unwrap_or(OUTSIDE);
            let (a, b) = (usize::from(a), usize::from(b));
            if a != b && a < n && b < n {
                for k in [a * n + b, b * n + a] {
                    if let Some(t) = touch.get_mut(k) {
                        *t = true;
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for a in map.provs() {
        for b in map.provs().filter(|&b| b > a) {
            let (ia, ib) = (usize::from(a.0), usize::from(b.0));
            let joined = map.army_adjacent(a, b) || map.fleet_reach_any(a).contains(b);
            if !joined || touch.get(ia * n + ib).copied().unwrap_or(true) {
                continue;
            }
            let (Some(&pa), Some(&pb)) = (seeds.get(ia), seeds.get(ib)) else {
                continue;
            };
            let len = ((pb.0 - pa.0).powi(2) + (pb.1 - pa.1).powi(2)).sqrt();
            let blocked = seeds
                .iter()
                .enumerate()
                .any(|(k, &c)| k != ia && k != ib && segment_distance(pa, pb, c) < 0.25 * len);
            if blocked || len <= 0.0 {
                continue;
            }
            let steps = (len / 4.0).ceil().clamp(2.0, CORRIDOR_SEEDS as f64) as usize;
            if out.len() + steps > MAX_CORRIDOR_SEEDS {
                return out;
            }
            for k in 1..steps {
                let t = k as f64 / steps as f64;
                let (label, at) = (
                    if t < 0.5 { ia } else { ib },
                    (pa.0 + (pb.0 - pa.0) * t, pa.1 + (pb.1 - pa.1) * t),
                );
                out.push(Seed {
                    at,
                    label: label as Label,
                    class: 0,
                });
            }
        }
    }
    out
}

/// The most seeds along one corridor, and in all (a hostile map's positions cannot
/// make the flood's input unbounded).
const CORRIDOR_SEEDS: usize = 64;
const MAX_CORRIDOR_SEEDS: usize = 100_000;

/// The distance from `c` to the segment a–b.
fn segment_distance(a: Point, b: Point, c: Point) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((c.0 - a.0) * dx + (c.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((a.0 + t * dx - c.0).powi(2) + (a.1 + t * dy - c.1).powi(2)).sqrt()
}

/// The class of cells a province's seeds cross.
fn class_of(t: Terrain) -> Class {
    if t == Terrain::Sea {
        CLASS_WATER
    } else {
        CLASS_LAND
    }
}

/// The board of a map with a geography: the coastlines filled, every seed (moved onto
/// its own kind of cell if it fell just beside it) flooding its kind.
fn board_from_geography(map: &Map, spec: &GeoSpec, land: &Land) -> Result<Board, MapError> {
    let proj = &spec.projection;
    let grid = Grid::new(proj.width, proj.height);
    let to_cell = |(lat, lon): Point| {
        let (x, y) = proj.point(lat, lon);
        (x / grid.cell, y / grid.cell)
    };
    let rings: Vec<Vec<Point>> = land
        .rings
        .iter()
        .map(|r| r.iter().map(|&(lon, lat)| proj.point(lat, lon)).collect())
        .collect();
    let fail = |key: &str, message: String, hint: Option<&str>| MapError {
        file: spec.file.clone(),
        problems: vec![spec::problem(spec.at(key), key, message, hint)],
        omitted: Default::default(),
    };
    let mask = raster::fill(&grid, &rings).map_err(|e| fail("land", e, None))?;
    let class: Vec<Class> = mask
        .iter()
        .map(|&m| if m { CLASS_LAND } else { CLASS_WATER })
        .collect();
    let mut problems = Vec::new();
    let mut seeds = Vec::new();
    let mut own = Vec::with_capacity(map.provinces.len());
    for (i, (p, list)) in map.provinces.iter().zip(&spec.seeds).enumerate() {
        let want = class_of(p.terrain);
        for (k, &ll) in list.iter().enumerate() {
            let key = if k == 0 {
                format!("provinces.{}", p.id)
            } else {
                format!("seeds.{}.{}", p.id, k - 1)
            };
            match snap(&grid, &class, to_cell(ll), want) {
                Ok(at) => {
                    if k == 0 {
                        own.push(at);
                    }
                    seeds.push(Seed {
                        at,
                        label: i as Label,
                        class: want,
                    });
                }
                Err(why) => {
                    if k == 0 {
                        own.push(to_cell(ll));
                    }
                    let kind = if want == CLASS_LAND { "land" } else { "water" };
                    problems.push(spec::problem(
                        spec.at(&key),
                        &key,
                        format!(
                            "the point {:?} of `{}` is not on {kind}: {why}",
                            [ll.0, ll.1],
                            p.id
                        ),
                        Some("move it inside the province, or check lat and lon are not swapped"),
                    ));
                }
            }
        }
        if list.is_empty() {
            own.push((0.0, 0.0));
        }
    }
    for &ll in &spec.filler {
        let at = to_cell(ll);
        if let Some(i) = grid.cell_of((at.0 * grid.cell, at.1 * grid.cell)) {
            let c = class.get(i).copied().unwrap_or(CLASS_WATER);
            let label = if c == CLASS_LAND {
                NOBODY_LAND
            } else {
                NOBODY_WATER
            };
            seeds.push(Seed {
                at,
                label,
                class: c,
            });
        }
    }
    if !problems.is_empty() {
        return Err(MapError {
            file: spec.file.clone(),
            problems,
            omitted: Default::default(),
        });
    }
    let mut labels = raster::flood(&grid, &class, &seeds, f64::INFINITY);
    for (l, m) in labels.iter_mut().zip(&mask) {
        if *l == OUTSIDE {
            *l = if *m { NOBODY_LAND } else { NOBODY_WATER };
        }
    }
    Ok(Board {
        grid,
        labels,
        seeds: own,
    })
}

/// `at` (cell units) if its cell is of class `want`, else the centre of the nearest
/// such cell within [`SNAP`]; else why not.
fn snap(grid: &Grid, class: &[Class], at: Point, want: Class) -> Result<Point, String> {
    let Some(i) = grid.cell_of((at.0 * grid.cell, at.1 * grid.cell)) else {
        return Err("it is outside the picture (see `bounds`)".into());
    };
    if class.get(i) == Some(&want) {
        return Ok(at);
    }
    let r = (SNAP / grid.cell).ceil() as i64;
    let (cx, cy) = ((i % grid.w) as i64, (i / grid.w) as i64);
    let mut best: Option<(i64, Point)> = None;
    for y in (cy - r).max(0)..=(cy + r).min(grid.h as i64 - 1) {
        for x in (cx - r).max(0)..=(cx + r).min(grid.w as i64 - 1) {
            let d = (x - cx).pow(2) + (y - cy).pow(2);
            if d <= r * r
                && class.get(y as usize * grid.w + x as usize) == Some(&want)
                && best.is_none_or(|(bd, _)| d < bd)
            {
                best = Some((d, (x as f64 + 0.5, y as f64 + 0.5)));
            }
        }
    }
    best.map(|(_, p)| p)
        .ok_or_else(|| format!("none within {SNAP} units of it"))
}

/// From the labelled grid to the drawing: outlines, points, checks.
fn assemble(
    map: &Map,
    board: &Board,
    spec: Option<&GeoSpec>,
    file: &str,
) -> Result<Drawing, MapError> {
    let grid = &board.grid;
    let n = map.provinces.len();
    let scale = |(x, y): Point| (x * grid.cell, y * grid.cell);
    let mut rings: Vec<Vec<Ring>> = vec![Vec::new(); n];
    let (mut land, mut water) = (Vec::new(), Vec::new());
    for t in trace::trace(grid, &board.labels, |l| l != OUTSIDE) {
        let ring: Ring = trace::simplify(&t, TOLERANCE / grid.cell)
            .into_iter()
            .map(|(x, y)| scale((x as f64, y as f64)))
            .collect();
        match t.label {
            NOBODY_LAND => land.push(ring),
            NOBODY_WATER => water.push(ring),
            l => {
                if let Some(r) = rings.get_mut(usize::from(l)) {
                    r.push(ring);
                }
            }
        }
    }
    let bd = points::border_distance(grid, &board.labels);
    let own: Vec<Option<usize>> = board
        .seeds
        .iter()
        .map(|&(x, y)| grid.cell_of((x * grid.cell, y * grid.cell)))
        .collect();
    let pieces = points::main_pieces(grid, &board.labels, n, &own);
    let mut problems = Vec::new();
    let mut provinces = Vec::with_capacity(n);
    for (i, (p, piece)) in map.provinces.iter().zip(&pieces).enumerate() {
        let seed = board.seeds.get(i).copied().unwrap_or((0.0, 0.0));
        if piece.is_empty() {
            let key = format!("provinces.{}", p.id);
            problems.push(spec::problem(
                spec.map_or(Pos::default(), |s| s.at(&key)),
                &key,
                format!(
                    "province `{}` has no place of its own: nearer seeds take it all",
                    p.id
                ),
                Some("move its point, or add seeds (`seeds:`) where it should be"),
            ));
        }
        let places = points::places(grid, piece, &bd, seed);
        provinces.push(Shape {
            rings: rings.get_mut(i).map(std::mem::take).unwrap_or_default(),
            unit: scale(places.unit),
            label: scale(places.label),
            centre: p.supply.then_some(scale(places.centre)),
        });
    }
    if !problems.is_empty() {
        return Err(MapError {
            file: file.to_string(),
            problems,
            omitted: Default::default(),
        });
    }
    let coasts = coast_points(map, board, &pieces, &provinces);
    let (width, height) = grid.size();
    Ok(Drawing {
        width,
        height,
        provinces,
        coasts,
        land,
        water,
    })
}

/// Each named coast's point (picture units): inside its province near the border
/// with the seas its fleet edges reach and its other coasts' do not (else on the
/// shore of its seas nearest the land neighbours only it reaches, else near any
/// neighbour only it reaches, else with all its seas; if the drawing shows no such
/// border, the place nearest those neighbours).
fn coast_points(map: &Map, board: &Board, pieces: &[Vec<usize>], shapes: &[Shape]) -> Vec<Point> {
    let grid = &board.grid;
    let n = map.provinces.len();
    map.coasts
        .iter()
        .enumerate()
        .map(|(ci, c)| {
            let p = usize::from(c.province.0);
            let piece: &[usize] = pieces.get(p).map_or(&[], Vec::as_slice);
            let unit = shapes.get(p).map_or((0.0, 0.0), |s| s.unit);
            let reach = |k: usize| -> Vec<Label> {
                map.fleet_neighbours(Loc((n + k) as u16))
                    .iter()
                    .map(|&l| map.prov_of(l).0 as Label)
                    .collect()
            };
            let near = reach(ci);
            // What the province's other coasts reach too says nothing of where this
            // one is (the Mid-Atlantic for both of Spain's).
            let shared: Vec<Label> = map
                .coasts
                .iter()
                .enumerate()
                .filter(|&(k, o)| k != ci && o.province == c.province)
                .flat_map(|(k, _)| reach(k))
                .collect();
            let is_sea = |q: &Label| {
                map.provinces
                    .get(usize::from(*q))
                    .is_some_and(|x| x.terrain == Terrain::Sea)
            };
            let own: Vec<Label> = near
                .iter()
                .copied()
                .filter(|q| !shared.contains(q))
                .collect();
            let own_seas: Vec<Label> = own.iter().copied().filter(is_sea).collect();
            let seas: Vec<Label> = near.iter().copied().filter(is_sea).collect();
            let inward = (unit.0 / grid.cell, unit.1 / grid.cell);
            let pull = COAST_PULL / grid.cell;
            let at =
                |to: &[Label]| points::coast_point(grid, &board.labels, piece, to, inward, pull);
            let own_land: Vec<Label> = own.iter().copied().filter(|q| !is_sea(q)).collect();
            let found = at(&own_seas)
                .or_else(|| {
                    // Only shared seas (Spain's north coast): the shore along them
                    // nearest its own land neighbours (Gascony), not the border with those.
                    points::coast_point_toward(
                        grid,
                        &board.labels,
                        piece,
                        (&seas, &own_land),
                        inward,
                        pull,
                    )
                })
                .or_else(|| at(&own))
                .or_else(|| at(&seas))
                .or_else(|| at(&near))
                .or_else(|| {
                    // No shared border: the place nearest the middle of those seas.
                    let pts: Vec<Point> = near
                        .iter()
                        .filter_map(|&q| shapes.get(usize::from(q)))
                        .map(|s| (s.unit.0 / grid.cell, s.unit.1 / grid.cell))
                        .collect();
                    let k = pts.len().max(1) as f64;
                    let mid = pts
                        .iter()
                        .fold((0.0, 0.0), |a, b| (a.0 + b.0 / k, a.1 + b.1 / k));
                    (!pts.is_empty())
                        .then_some(mid)
                        .and_then(|m| points::nearest(grid, piece, m))
                });
            found.map_or(unit, |(x, y)| (x * grid.cell, y * grid.cell))
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn a_map_without_positions_is_drawn_from_its_graph_layout() {
        // Switzerland has no position on the classic board; a map with none at all is
        // what a DPjudge import is. Both are placed by the graph layout, then drawn.
        let mut map = Map::standard();
        for p in &mut map.provinces {
            p.at = None;
        }
        let d = draw(&map, None, None).unwrap();
        assert_eq!(d.provinces.len(), map.provinces.len());
        assert!(d.provinces.iter().all(|s| !s.rings.is_empty()));
    }

    #[test]
    fn positions_far_apart_do_not_make_a_huge_picture() {
        let mut map = Map::standard();
        for (i, p) in map.provinces.iter_mut().enumerate() {
            p.at = Some(if i == 0 {
                (1_000_000, 0)
            } else {
                (i as i32, 0)
            });
        }
        match draw(&map, None, None) {
            Ok(d) => assert!(d.width <= crate::map::drawing::MAX_SIZE && d.height <= 30.0),
            Err(e) => assert!(e.to_string().contains("has no place of its own"), "{e}"),
        }
    }

    #[test]
    fn a_province_without_a_position_goes_between_its_neighbours() {
        let mut map = Map::standard();
        let swi = map.prov_by_id("swi").unwrap();
        map.provinces[usize::from(swi.0)].at = Some((455, 650));
        let bur = usize::from(map.prov_by_id("bur").unwrap().0);
        map.provinces[bur].at = None;
        let pos = positions_for(&map).unwrap();
        let (x, y) = pos[bur];
        assert!(
            (300.0..500.0).contains(&x) && (550.0..700.0).contains(&y),
            "{x} {y}"
        );
    }
}
