//! Positions for the provinces of a map that has none (a DPjudge import), from its
//! adjacency graph alone: stress majorisation on the graph distances, so that
//! neighbours end up about [`SPACING`] apart and provinces far apart in the graph far
//! apart in the picture. `arbiter map layout` writes them back into the map file as
//! `at: [x, y]` ([`write_positions`]) for a designer to adjust.
//!
//! The graph: army and fleet edges, a named coast counting as its province. The start
//! is deterministic (classical scaling of the distances, or, beside provinces that
//! already have a position, the mean of their placed neighbours), so one map always
//! gets the same layout. Provinces that have a position keep it; the others are
//! placed around them. Parts of the graph that do not reach each other are laid out
//! one by one and set side by side. Without any given position the picture is scaled
//! to about [`WIDTH`] wide.

// The tables here are built in this module with one entry per province (`n`), or
// per pair (`n * n`), of the map being laid out; every index is a province index or a
// member of a component of that same map, below `n`.
#![allow(clippy::indexing_slicing)]

use std::collections::{HashSet, VecDeque};

use crate::map::locate::Locations;
use crate::map::Map;

/// About how far apart neighbours are placed (picture units).
pub const SPACING: f64 = 60.0;

/// About how wide the picture of a map without any position is made.
pub const WIDTH: f64 = 1600.0;

/// The most rounds of stress majorisation.
const ROUNDS: usize = 300;

/// The border left round a picture without any given position.
const MARGIN: f64 = 40.0;

/// Rounds of power iteration for the starting layout.
const POWER_ROUNDS: usize = 100;

/// The province graph of `map`: per province, its neighbours by army or fleet (a named
/// coast's edges are its province's), sorted, without itself.
pub fn neighbours(map: &Map) -> Vec<Vec<usize>> {
    map.provs()
        .map(|p| {
            let mut out: Vec<usize> = map
                .army_neighbours(p)
                .iter()
                .chain(map.fleet_reach_any(p).iter())
                .map(|q| usize::from(q.0))
                .filter(|&q| q != usize::from(p.0))
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect()
}

/// Graph distances between every pair (`n * n`, row by row); `u32::MAX` where one
/// cannot reach the other.
fn distances(adj: &[Vec<usize>]) -> Vec<u32> {
    let n = adj.len();
    let mut d = vec![u32::MAX; n * n];
    let mut queue = VecDeque::new();
    for s in 0..n {
        let row = &mut d[s * n..(s + 1) * n];
        row[s] = 0;
        queue.clear();
        queue.push_back(s);
        while let Some(u) = queue.pop_front() {
            let du = row[u];
            for &v in &adj[u] {
                if v < n && row[v] == u32::MAX {
                    row[v] = du + 1;
                    queue.push_back(v);
                }
            }
        }
    }
    d
}

/// The parts of the graph that reach each other, each sorted, in order of their
/// lowest province.
fn components(n: usize, dist: &[u32]) -> Vec<Vec<usize>> {
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for s in 0..n {
        if seen[s] {
            continue;
        }
        let comp: Vec<usize> = (0..n).filter(|&t| dist[s * n + t] != u32::MAX).collect();
        for &t in &comp {
            seen[t] = true;
        }
        out.push(comp);
    }
    out
}

/// A position for every province of `map` (by [`Prov`](crate::map::Prov) index): those with `at` keep
/// it; the others are placed by stress majorisation on the graph distances (see the
/// module comment). Positions placed here are whole numbers, distinct from each other
/// and from the given ones.
pub fn positions(map: &Map) -> Vec<(f64, f64)> {
    let adj = neighbours(map);
    let n = adj.len();
    let dist = distances(&adj);
    let fixed: Vec<Option<(f64, f64)>> = map
        .provinces
        .iter()
        .map(|p| p.at.map(|(x, y)| (f64::from(x), f64::from(y))))
        .collect();
    let any_fixed = fixed.iter().any(Option::is_some);
    let mut pos: Vec<(f64, f64)> = fixed.iter().map(|f| f.unwrap_or((0.0, 0.0))).collect();
    let mut loose: Vec<Vec<usize>> = Vec::new();
    for comp in components(n, &dist) {
        let pinned: Vec<usize> = comp
            .iter()
            .copied()
            .filter(|&i| fixed[i].is_some())
            .collect();
        if comp.len() == pinned.len() {
            continue;
        }
        if pinned.is_empty() {
            let unit = SPACING;
            start_free(&comp, &dist, n, unit, &mut pos);
            stress(&comp, &dist, n, unit, &fixed, &mut pos);
            loose.push(comp);
        } else {
            let unit = pinned_unit(&pinned, &adj, &pos);
            start_pinned(&comp, &adj, &fixed, unit, &mut pos);
            stress(&comp, &dist, n, unit, &fixed, &mut pos);
        }
    }
    side_by_side(&mut loose, &fixed, &mut pos);
    if !any_fixed {
        fit(&mut pos);
    }
    distinct(&fixed, &mut pos);
    pos
}

/// The spacing of the given positions: the median distance between neighbours that
/// both have one (else [`SPACING`]).
fn pinned_unit(pinned: &[usize], adj: &[Vec<usize>], pos: &[(f64, f64)]) -> f64 {
    let set: HashSet<usize> = pinned.iter().copied().collect();
    let mut lengths: Vec<f64> = Vec::new();
    for &i in pinned {
        for &j in &adj[i] {
            if j > i && set.contains(&j) {
                let l = dist2(pos[i], pos[j]).sqrt();
                if l > 0.0 {
                    lengths.push(l);
                }
            }
        }
    }
    lengths.sort_by(f64::total_cmp);
    match lengths.get(lengths.len() / 2) {
        Some(&l) if l.is_finite() => l,
        _ => SPACING,
    }
}

fn dist2(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)
}

/// A small deterministic offset for the `k`th province (golden-angle turns), to part
/// provinces that would start on one point.
fn nudge(k: usize, r: f64) -> (f64, f64) {
    let a = k as f64 * 2.399_963_229_728_653;
    (r * a.cos(), r * a.sin())
}

/// The start for a part of the graph without given positions: classical scaling of
/// its distances (the two leading eigenvectors of the doubly centred squared
/// distances, by power iteration from fixed vectors), or a circle when that fails.
fn start_free(comp: &[usize], dist: &[u32], n: usize, unit: f64, pos: &mut [(f64, f64)]) {
    let m = comp.len();
    // Doubly centred -1/2 D²: b[i][j] = -1/2 (d²ij - row_i - row_j + all).
    let mut b = vec![0.0f64; m * m];
    for (a, &i) in comp.iter().enumerate() {
        for (c, &j) in comp.iter().enumerate() {
            let d = f64::from(dist[i * n + j]);
            b[a * m + c] = d * d;
        }
    }
    let rows: Vec<f64> = (0..m)
        .map(|a| b[a * m..(a + 1) * m].iter().sum::<f64>() / m as f64)
        .collect();
    let all = rows.iter().sum::<f64>() / m as f64;
    for a in 0..m {
        for c in 0..m {
            b[a * m + c] = -0.5 * (b[a * m + c] - rows[a] - rows[c] + all);
        }
    }
    let first = leading(&b, m, None, |i| (i as f64 * 1.3 + 0.5).sin() + 0.1);
    let second = leading(&b, m, first.as_ref(), |i| (i as f64 * 0.7 + 0.3).cos());
    for (a, &i) in comp.iter().enumerate() {
        let (x, y) = match (&first, &second) {
            (Some((u, l1)), Some((v, l2))) => (u[a] * l1.sqrt(), v[a] * l2.sqrt()),
            _ => {
                let t = a as f64 / m as f64 * std::f64::consts::TAU;
                let r = m as f64 / std::f64::consts::TAU;
                (r * t.cos(), r * t.sin())
            }
        };
        let (dx, dy) = nudge(a, 0.05);
        pos[i] = ((x + dx) * unit, (y + dy) * unit);
    }
}

/// The leading eigenvector (unit length) and eigenvalue of the symmetric `m × m`
/// matrix `b`, with `other`'s direction taken out; `None` when the eigenvalue is not
/// positive.
fn leading(
    b: &[f64],
    m: usize,
    other: Option<&(Vec<f64>, f64)>,
    start: impl Fn(usize) -> f64,
) -> Option<(Vec<f64>, f64)> {
    let mut v: Vec<f64> = (0..m).map(start).collect();
    let mut lambda = 0.0;
    let deflate = |w: &mut Vec<f64>| {
        if let Some((u, _)) = other {
            let dot: f64 = w.iter().zip(u).map(|(a, b)| a * b).sum();
            for (x, y) in w.iter_mut().zip(u) {
                *x -= dot * y;
            }
        }
    };
    deflate(&mut v);
    for _ in 0..POWER_ROUNDS {
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm.is_nan() || norm <= 1e-12 {
            return None;
        }
        for x in &mut v {
            *x /= norm;
        }
        let mut w: Vec<f64> = (0..m)
            .map(|a| {
                b[a * m..(a + 1) * m]
                    .iter()
                    .zip(&v)
                    .map(|(x, y)| x * y)
                    .sum()
            })
            .collect();
        deflate(&mut w);
        lambda = w.iter().zip(&v).map(|(a, b)| a * b).sum();
        v = w;
    }
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm.is_nan() || norm <= 1e-12 || lambda.is_nan() || lambda <= 1e-9 {
        return None;
    }
    for x in &mut v {
        *x /= norm;
    }
    Some((v, lambda))
}

/// The start for a part of the graph with given positions: outward from them, each
/// province at the mean of its neighbours placed before it, a little apart.
fn start_pinned(
    comp: &[usize],
    adj: &[Vec<usize>],
    fixed: &[Option<(f64, f64)>],
    unit: f64,
    pos: &mut [(f64, f64)],
) {
    let mut placed: HashSet<usize> = comp
        .iter()
        .copied()
        .filter(|&i| fixed[i].is_some())
        .collect();
    let mut queue: VecDeque<usize> = comp
        .iter()
        .copied()
        .filter(|&i| fixed[i].is_some())
        .collect();
    let mut k = 0;
    while let Some(u) = queue.pop_front() {
        for &v in &adj[u] {
            if placed.contains(&v) {
                continue;
            }
            let near: Vec<(f64, f64)> = adj[v]
                .iter()
                .filter(|w| placed.contains(w))
                .map(|&w| pos[w])
                .collect();
            let cnt = near.len().max(1) as f64;
            let (sx, sy) = near
                .iter()
                .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
            k += 1;
            let (dx, dy) = nudge(k, unit * 0.5);
            pos[v] = (sx / cnt + dx, sy / cnt + dy);
            placed.insert(v);
            queue.push_back(v);
        }
    }
}

/// Stress majorisation, one province at a time: each province not given a position
/// moves to where its distances to the others in `comp` best match `unit` times
/// their graph distances (weighted by the inverse square), until nothing moves much
/// or [`ROUNDS`] rounds.
fn stress(
    comp: &[usize],
    dist: &[u32],
    n: usize,
    unit: f64,
    fixed: &[Option<(f64, f64)>],
    pos: &mut [(f64, f64)],
) {
    for _ in 0..ROUNDS {
        let mut moved: f64 = 0.0;
        for (k, &i) in comp.iter().enumerate() {
            if fixed[i].is_some() {
                continue;
            }
            let (xi, yi) = pos[i];
            let (mut sx, mut sy, mut sw) = (0.0, 0.0, 0.0);
            for &j in comp {
                if j == i {
                    continue;
                }
                let d = f64::from(dist[i * n + j]) * unit;
                let w = 1.0 / (d * d);
                let (xj, yj) = pos[j];
                let (mut dx, mut dy) = (xi - xj, yi - yj);
                let mut len = (dx * dx + dy * dy).sqrt();
                if len < 1e-9 {
                    (dx, dy) = nudge(k + j, 1.0);
                    len = 1.0;
                }
                sx += w * (xj + d * dx / len);
                sy += w * (yj + d * dy / len);
                sw += w;
            }
            if sw > 0.0 {
                let new = (sx / sw, sy / sw);
                moved = moved.max(dist2(new, (xi, yi)).sqrt());
                pos[i] = new;
            }
        }
        if moved < unit * 1e-3 {
            break;
        }
    }
}

/// The bounding box of `idx`'s positions: (min x, min y, max x, max y).
fn bbox(idx: impl Iterator<Item = usize>, pos: &[(f64, f64)]) -> Option<(f64, f64, f64, f64)> {
    idx.map(|i| pos[i]).fold(None, |b, (x, y)| {
        Some(match b {
            None => (x, y, x, y),
            Some((a, c, d, e)) => (a.min(x), c.min(y), d.max(x), e.max(y)),
        })
    })
}

/// Set the parts laid out without given positions side by side, largest first, in
/// rows about [`WIDTH`] wide, below the given positions if there are any.
fn side_by_side(loose: &mut [Vec<usize>], fixed: &[Option<(f64, f64)>], pos: &mut [(f64, f64)]) {
    loose.sort_by_key(|c| std::cmp::Reverse(c.len()));
    let gap = 2.0 * SPACING;
    let given = bbox((0..fixed.len()).filter(|&i| fixed[i].is_some()), pos);
    let (left, mut top) = given.map_or((0.0, 0.0), |(x0, _, _, y1)| (x0, y1 + gap));
    let row_width = loose
        .first()
        .and_then(|c| bbox(c.iter().copied(), pos))
        .map_or(0.0, |(x0, _, x1, _)| x1 - x0)
        .max(WIDTH - 2.0 * MARGIN);
    let (mut x, mut row_height) = (left, 0.0f64);
    for comp in loose.iter() {
        let Some((x0, y0, x1, y1)) = bbox(comp.iter().copied(), pos) else {
            continue;
        };
        let (w, h) = (x1 - x0, y1 - y0);
        if x > left && x + w > left + row_width {
            x = left;
            top += row_height + gap;
            row_height = 0.0;
        }
        for &i in comp {
            pos[i] = (pos[i].0 - x0 + x, pos[i].1 - y0 + top);
        }
        x += w + gap;
        row_height = row_height.max(h);
    }
}

/// Scale a picture without given positions to about [`WIDTH`] wide (neighbours kept
/// between 2/3 and 2 times [`SPACING`] apart) with a margin, in whole units.
fn fit(pos: &mut [(f64, f64)]) {
    let Some((x0, y0, x1, _)) = bbox(0..pos.len(), pos) else {
        return;
    };
    let w = x1 - x0;
    let s = if w > 0.0 {
        ((WIDTH - 2.0 * MARGIN) / w).clamp(2.0 / 3.0, 2.0)
    } else {
        1.0
    };
    for p in pos.iter_mut() {
        *p = (
            ((p.0 - x0) * s + MARGIN).round(),
            ((p.1 - y0) * s + MARGIN).round(),
        );
    }
}

/// Round the placed positions to whole units, each on a point of its own.
fn distinct(fixed: &[Option<(f64, f64)>], pos: &mut [(f64, f64)]) {
    let key = |p: (f64, f64)| (p.0.round() as i64, p.1.round() as i64);
    let mut taken: HashSet<(i64, i64)> = fixed.iter().flatten().map(|&p| key(p)).collect();
    for (i, p) in pos.iter_mut().enumerate() {
        if fixed[i].is_some() {
            continue;
        }
        let (mut x, y) = key(*p);
        while !taken.insert((x, y)) {
            x += 1;
        }
        *p = (x as f64, y as f64);
    }
}

/// The map file's text with `at: [x, y]` added to every province that has none, from
/// `positions` (by [`Prov`](crate::map::Prov) index, as [`positions`] gives them; rounded to whole
/// units): on the line after the province's `id:` (or `name:`, whichever comes
/// later), indented as its other keys. Everything else stays byte for byte.
/// A province written as a flow mapping (`- {id: a, …}`) is left as it is.
pub fn write_positions(src: &str, map: &Map, positions: &[(f64, f64)]) -> String {
    let locs = Locations::scan(src);
    let lines: Vec<&str> = src.split_inclusive('\n').collect();
    // Per line (0-based) the text to add after it.
    let mut after: Vec<Option<String>> = vec![None; lines.len()];
    for i in 0.. {
        let path = format!("provinces.{i}");
        let Some(id_key) = locs.key(&format!("{path}.id")) else {
            if locs.value(&path).is_none() {
                break;
            }
            continue;
        };
        if locs.key(&format!("{path}.at")).is_some() {
            continue;
        }
        let Some(line) = lines.get(id_key.line.wrapping_sub(1)) else {
            continue;
        };
        // Only a block mapping gets a line: before its `id` key, a list dash at most.
        let before: String = line.chars().take(id_key.column.saturating_sub(1)).collect();
        if before.chars().any(|c| !c.is_whitespace() && c != '-') {
            continue;
        }
        let id = line
            .chars()
            .skip(id_key.column.saturating_sub(1))
            .collect::<String>();
        let id = id
            .trim_start()
            .strip_prefix("id:")
            .map(|v| {
                v.split('#')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .trim_matches(['"', '\''])
            })
            .unwrap_or("");
        let Some(p) = map.prov_by_id(id) else {
            continue;
        };
        let Some(&(x, y)) = positions.get(usize::from(p.0)) else {
            continue;
        };
        if map.province(p).at.is_some() {
            continue;
        }
        let indent = id_key.column.saturating_sub(1);
        let mut last = id_key.line;
        if let Some(name) = locs.key(&format!("{path}.name")) {
            if name.line == id_key.line + 1 && name.column == id_key.column {
                last = name.line;
            }
        }
        // A value that goes on over more indented lines (a long plain scalar).
        while let Some(next) = lines.get(last) {
            let t = next.trim_start();
            let depth = next.len() - t.len();
            if t.trim().is_empty() || depth <= indent || t.starts_with('#') {
                break;
            }
            last += 1;
        }
        if let Some(slot) = after.get_mut(last - 1) {
            // The file's own line ends (CRLF kept CRLF).
            let end = if line.ends_with("\r\n") { "\r\n" } else { "\n" };
            let text = format!(
                "{}at: [{}, {}]{end}",
                " ".repeat(indent),
                x.round() as i64,
                y.round() as i64
            );
            slot.get_or_insert_with(String::new).push_str(&text);
        }
    }
    let mut out = String::with_capacity(src.len() + 20 * map.provinces.len());
    for (line, add) in lines.iter().zip(after) {
        out.push_str(line);
        if let Some(add) = add {
            if !line.ends_with('\n') {
                out.push_str(if add.ends_with("\r\n") { "\r\n" } else { "\n" });
            }
            out.push_str(&add);
        }
    }
    out
}
