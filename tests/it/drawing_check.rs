//! Issue 24, item 2: `arbiter map check` compares a map's drawing with its adjacency
//! (`DRAWING_TOUCH_NOT_ADJACENT`, `DRAWING_ADJACENT_APART`, a malformed drawing as
//! `DRAWING`), and `arbiter map layout` gives positions to a map without any
//! (`arbiter::draw::layout`).
//!
//! The drawings are built here: four squares of 100 units, two by two,
//!
//! ```text
//!   aaa | bbb
//!   ----+----
//!   ccc | ddd
//! ```
//!
//! where `aaa`–`ddd` and `bbb`–`ccc` meet at one corner only (no border).

use crate::common::{arbiter, code, s, stderr, stdout, temp_dir};
use arbiter::draw::layout;
use arbiter::map::drawing::{Drawing, Ring, Shape};
use arbiter::map::{dpjudge, Map};
use arbiter::mapcheck::{self as check, DrawingText, Finding};

/// A four-province land board; `extra` army edges are added at both ends.
fn board(extra: &[(&str, &str)]) -> String {
    let mut edges: Vec<(&str, &str)> = vec![
        ("aaa", "bbb"),
        ("aaa", "ccc"),
        ("bbb", "ddd"),
        ("ccc", "ddd"),
    ];
    edges.extend_from_slice(extra);
    let mut out = String::from(
        "name: squares\nstart: {season: spring, year: 1901}\nvictory: 2\npowers:\n  - id: red\n    name: Red\n    adjective: Reddish\n    home: [aaa]\n    units: [A aaa]\nprovinces:\n",
    );
    for (id, name) in [
        ("aaa", "Alpha"),
        ("bbb", "Beta"),
        ("ccc", "Gamma"),
        ("ddd", "Delta"),
    ] {
        let mut n: Vec<&str> = edges
            .iter()
            .filter_map(|&(a, b)| {
                if a == id {
                    Some(b)
                } else if b == id {
                    Some(a)
                } else {
                    None
                }
            })
            .collect();
        n.sort();
        out.push_str(&format!("  - id: {id}\n    name: {name}\n    kind: land\n"));
        if id == "aaa" {
            out.push_str("    supply: true\n    home: red\n");
        }
        if id == "bbb" {
            out.push_str("    supply: true\n");
        }
        out.push_str(&format!("    army: [{}]\n", n.join(", ")));
    }
    out
}

fn square(x: f64, y: f64) -> Ring {
    vec![
        (x, y),
        (x + 100.0, y),
        (x + 100.0, y + 100.0),
        (x, y + 100.0),
    ]
}

fn shape(rings: Vec<Ring>) -> Shape {
    let (x, y) = rings[0][0];
    Shape {
        rings,
        unit: (x + 10.0, y + 10.0),
        label: (x + 20.0, y + 20.0),
        centre: None,
    }
}

/// The drawing of `squares` with these outlines (by province: aaa, bbb, ccc, ddd) and
/// lakes, as the YAML a drawing file holds.
fn drawing_yaml(map: &Map, outlines: [Ring; 4], water: Vec<Ring>) -> String {
    let mut provinces: Vec<Shape> = Vec::new();
    for p in &map.provinces {
        let i = ["aaa", "bbb", "ccc", "ddd"]
            .iter()
            .position(|id| *id == p.id)
            .unwrap();
        let mut s = shape(vec![outlines[i].clone()]);
        if p.supply {
            s.centre = Some((s.unit.0 + 5.0, s.unit.1 + 40.0));
        }
        provinces.push(s);
    }
    square_drawing(200.0, provinces, water).to_yaml(map, "test drawing")
}

/// A `side`-by-`side` drawing of these provinces and lakes (no coasts, no land).
fn square_drawing(side: f64, provinces: Vec<Shape>, water: Vec<Ring>) -> Drawing {
    Drawing {
        width: side,
        height: side,
        provinces,
        coasts: Vec::new(),
        land: Vec::new(),
        water,
    }
}

fn squares() -> [Ring; 4] {
    [
        square(0.0, 0.0),
        square(100.0, 0.0),
        square(0.0, 100.0),
        square(100.0, 100.0),
    ]
}

/// `map check` on the board and its drawing: the drawing findings, as
/// `CODE a-b` (the province whose line is shown first), plus the line shown.
fn drawing_findings(map_src: &str, drawing_src: &str) -> Vec<Finding> {
    drawing_findings_in(map_src, "squares.yaml", "squares.drawing.yaml", drawing_src)
}

/// The drawing findings of `map check` on a map (in `file`) and its drawing (in
/// `drawing_file`).
fn drawing_findings_in(
    map_src: &str,
    file: &str,
    drawing_file: &str,
    drawing_src: &str,
) -> Vec<Finding> {
    let d = DrawingText {
        file: drawing_file,
        text: drawing_src,
    };
    check::check_with_drawing(map_src, file, None, Some(&d))
        .into_iter()
        .filter(|f| f.code.starts_with("DRAWING"))
        .collect()
}

fn line_of(src: &str, text: &str) -> usize {
    src.lines().position(|l| l.contains(text)).unwrap() + 1
}

#[test]
fn a_clean_drawing_has_no_drawing_finding() {
    let src = board(&[]);
    let map = Map::from_yaml(&src, "squares.yaml").unwrap();
    let d = drawing_yaml(&map, squares(), Vec::new());
    assert_eq!(drawing_findings(&src, &d), Vec::<Finding>::new());
    // And the whole check finds no error (a warning: no coastal home).
    let all = check::check_with_drawing(
        &src,
        "squares.yaml",
        None,
        Some(&DrawingText {
            file: "squares.drawing.yaml",
            text: &d,
        }),
    );
    assert!(all.iter().all(|f| f.code == "NO_COASTAL_HOME"), "{all:#?}");
}

#[test]
fn a_planted_border_between_non_neighbours_is_found() {
    let src = board(&[]);
    let map = Map::from_yaml(&src, "squares.yaml").unwrap();
    // The middle corner pulled apart into a border of about 28 units between `aaa`
    // and `ddd`, which are not neighbours; `bbb` and `ccc` no longer meet at all.
    let (q, p) = ((110.0, 90.0), (90.0, 110.0));
    let outlines = [
        vec![(0.0, 0.0), (100.0, 0.0), q, p, (0.0, 100.0)],
        vec![(100.0, 0.0), (200.0, 0.0), (200.0, 100.0), q],
        vec![(0.0, 100.0), p, (100.0, 200.0), (0.0, 200.0)],
        vec![q, (200.0, 100.0), (200.0, 200.0), (100.0, 200.0), p],
    ];
    let d = drawing_yaml(&map, outlines, Vec::new());
    let f = drawing_findings(&src, &d);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].code, "DRAWING_TOUCH_NOT_ADJACENT");
    assert_eq!(f[0].severity, arbiter::map::Severity::Warning);
    assert_eq!(f[0].file, "squares.yaml");
    assert_eq!(f[0].key, "provinces.aaa");
    assert_eq!(f[0].line, line_of(&src, "id: aaa"));
    assert!(
        f[0].message.contains("`aaa`") && f[0].message.contains("`ddd`"),
        "{}",
        f[0].message
    );
    assert!(f[0].hint.as_deref().unwrap().contains("seed"));
    // With the edge on the map, the border is right.
    let src = board(&[("aaa", "ddd")]);
    assert_eq!(drawing_findings(&src, &d), Vec::<Finding>::new());
}

#[test]
fn neighbours_drawn_apart_are_found_unless_water_joins_them() {
    // `bbb`–`ccc` are neighbours on the map, but their squares meet at a corner only.
    let src = board(&[("bbb", "ccc")]);
    let map = Map::from_yaml(&src, "squares.yaml").unwrap();
    let d = drawing_yaml(&map, squares(), Vec::new());
    let f = drawing_findings(&src, &d);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].code, "DRAWING_ADJACENT_APART");
    assert_eq!(f[0].key, "provinces.bbb");
    assert_eq!(f[0].line, line_of(&src, "id: bbb"));
    assert!(f[0].message.contains("`ccc`"), "{}", f[0].message);

    // A lake in the middle (a water ring of the drawing) that both touch joins them.
    let cut = |x: f64, y: f64, corner: usize| -> Ring {
        let mut r = square(x, y);
        let (cx, cy) = r[corner];
        let toward = |v: f64, c: f64| if v < c { c - 20.0 } else { c + 20.0 };
        let (px, py) = r[(corner + 3) % 4];
        let (nx, ny) = r[(corner + 1) % 4];
        let before = if px == cx {
            (cx, toward(py, cy))
        } else {
            (toward(px, cx), cy)
        };
        let after = if nx == cx {
            (cx, toward(ny, cy))
        } else {
            (toward(nx, cx), cy)
        };
        r.splice(corner..=corner, [before, after]);
        r
    };
    let outlines = [
        cut(0.0, 0.0, 2),
        cut(100.0, 0.0, 3),
        cut(0.0, 100.0, 1),
        cut(100.0, 100.0, 0),
    ];
    let lake = vec![(100.0, 80.0), (120.0, 100.0), (100.0, 120.0), (80.0, 100.0)];
    let d = drawing_yaml(&map, outlines.clone(), vec![lake]);
    assert_eq!(drawing_findings(&src, &d), Vec::<Finding>::new());
    // Without the lake the cut corners leave `bbb` and `ccc` apart again.
    let d = drawing_yaml(&map, outlines, Vec::new());
    let f = drawing_findings(&src, &d);
    assert_eq!(
        f.iter().map(|f| f.code).collect::<Vec<_>>(),
        ["DRAWING_ADJACENT_APART"]
    );
}

#[test]
fn a_malformed_drawing_is_reported_in_its_file_with_its_line() {
    let src = board(&[]);
    let map = Map::from_yaml(&src, "squares.yaml").unwrap();
    let d = drawing_yaml(&map, squares(), Vec::new()).replace("width: 200", "width: -5");
    let f = drawing_findings(&src, &d);
    assert!(!f.is_empty());
    for f in &f {
        assert_eq!(f.code, "DRAWING");
        assert_eq!(f.file, "squares.drawing.yaml");
        assert_eq!(f.severity, arbiter::map::Severity::Error);
    }
    assert_eq!(f[0].line, line_of(&d, "width: -5"));
}

#[test]
fn map_check_reads_the_drawing_beside_the_map() {
    let dir = temp_dir("drawing-check");
    let src = board(&[("bbb", "ccc")]);
    let map = Map::from_yaml(&src, "squares.yaml").unwrap();
    let mp = dir.join("squares.yaml");
    std::fs::write(&mp, &src).unwrap();
    std::fs::write(
        dir.join("squares.drawing.yaml"),
        drawing_yaml(&map, squares(), Vec::new()),
    )
    .unwrap();
    let o = arbiter(&["map", "check", s(&mp)]);
    code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("warning[DRAWING_ADJACENT_APART]"), "{out}");
    assert!(out.contains("  - id: bbb"), "{out}");
    // `map show --svg` rings it in the picture, as every `map check` finding.
    let svg = dir.join("squares.svg");
    code(&arbiter(&["map", "show", s(&mp), "--svg", s(&svg)]), 0);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains("DRAWING_ADJACENT_APART"), "{svg}");
    // A broken drawing is an error shown at its line.
    std::fs::write(dir.join("squares.drawing.yaml"), "map: squares\nwidth: x\n").unwrap();
    let o = arbiter(&["map", "check", s(&mp)]);
    code(&o, 1);
    let out = stdout(&o);
    assert!(out.contains("error[DRAWING]"), "{out}{}", stderr(&o));
    assert!(out.contains("squares.drawing.yaml:"), "{out}");
}

// ---------------------------------------------------------------------------------
// Layout.

/// The classic board as a DPjudge import: no positions.
fn imported_classic() -> (String, Map) {
    let mut missing = |_: &str| Err(dpjudge::NOT_FOUND.to_string());
    let imp = dpjudge::import("x.map", "MAP standard\n", None, &mut missing).unwrap();
    let map = Map::from_yaml(&imp.yaml, "x.yaml").unwrap();
    assert!(map.provinces.iter().all(|p| p.at.is_none()));
    (imp.yaml, map)
}

#[test]
fn the_layout_places_every_province_apart_and_neighbours_close() {
    let (_, map) = imported_classic();
    let pos = layout::positions(&map);
    assert_eq!(pos.len(), map.provinces.len());
    let mut seen = std::collections::HashSet::new();
    for &(x, y) in &pos {
        assert!(x.is_finite() && y.is_finite());
        assert!(
            seen.insert((x as i64, y as i64)),
            "two provinces at {x},{y}"
        );
    }
    let adj = layout::neighbours(&map);
    let (mut near, mut nn, mut far, mut nf) = (0.0, 0, 0.0, 0);
    for i in 0..pos.len() {
        for j in i + 1..pos.len() {
            let d = ((pos[i].0 - pos[j].0).powi(2) + (pos[i].1 - pos[j].1).powi(2)).sqrt();
            if adj[i].contains(&j) {
                near += d;
                nn += 1;
            } else if !adj[i].is_empty() && !adj[j].is_empty() {
                far += d;
                nf += 1;
            }
        }
    }
    let (near, far) = (near / nn as f64, far / nf as f64);
    assert!(
        near * 2.5 < far,
        "neighbours {near:.0} apart, others {far:.0}"
    );
    // The same map gets the same layout.
    assert_eq!(layout::positions(&map), pos);
    // About 1600 wide.
    let w = pos.iter().map(|p| p.0).fold(0.0, f64::max)
        - pos.iter().map(|p| p.0).fold(f64::MAX, f64::min);
    assert!((1000.0..=1700.0).contains(&w), "{w}");
}

#[test]
fn written_positions_load_back_and_given_ones_stay() {
    let (yaml, map) = imported_classic();
    let pos = layout::positions(&map);
    let text = layout::write_positions(&yaml, &map, &pos);
    // Only `at` lines added: the rest byte for byte.
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("at: "))
        .collect();
    assert_eq!(kept, yaml.lines().collect::<Vec<_>>());
    let back = Map::from_yaml(&text, "x.yaml").unwrap();
    for p in back.provs() {
        let q = map.prov_by_id(&back.province(p).id).unwrap();
        let (x, y) = pos[usize::from(q.0)];
        assert_eq!(back.province(p).at, Some((x as i32, y as i32)));
    }
    // The `at` line sits right after the `name:` line, indented as the other keys.
    let adr = text.find("  - id: adr").unwrap();
    let next: Vec<&str> = text[adr..].lines().take(3).collect();
    assert!(next[1].starts_with("    name: "), "{next:?}");
    assert!(next[2].starts_with("    at: ["), "{next:?}");

    // A map with some positions: those stay, the others are placed around them.
    let std_src = arbiter::map::STANDARD_YAML;
    let mut cut = String::new();
    let mut dropped = 0;
    let mut past_mos = false;
    for line in std_src.lines() {
        past_mos |= line == "  - id: mos";
        // The provinces' positions from `mos` on in the file are taken out.
        if past_mos && line.starts_with("    at: ") {
            dropped += 1;
            continue;
        }
        cut.push_str(line);
        cut.push('\n');
    }
    assert!(dropped > 10);
    let part = Map::from_yaml(&cut, "cut.yaml").unwrap();
    let pos = layout::positions(&part);
    let text = layout::write_positions(&cut, &part, &pos);
    let back = Map::from_yaml(&text, "cut.yaml").unwrap();
    let full = Map::standard();
    for p in part.provs() {
        let id = &part.province(p).id;
        let got = back.province(back.prov_by_id(id).unwrap()).at.unwrap();
        match part.province(p).at {
            Some(given) => assert_eq!(got, given, "{id}"),
            None => {
                // Placed near where the board has it: within a few neighbour spacings.
                // (Switzerland has no position on the board.)
                let Some(want) = full.province(full.prov_by_id(id).unwrap()).at else {
                    continue;
                };
                let d = (((got.0 - want.0).pow(2) + (got.1 - want.1).pow(2)) as f64).sqrt();
                assert!(d < 400.0, "{id} placed at {got:?}, the board has {want:?}");
            }
        }
    }
    // Every dropped position back, and one for Switzerland, which had none.
    assert_eq!(text.lines().count(), std_src.lines().count() + 1);
}

#[test]
fn map_layout_writes_in_place_keeping_a_backup() {
    let dir = temp_dir("layout");
    let (yaml, map) = imported_classic();
    let f = dir.join("v.yaml");
    std::fs::write(&f, &yaml).unwrap();
    let o = arbiter(&["map", "layout", s(&f)]);
    code(&o, 0);
    assert!(
        stdout(&o).contains(&format!("placed {} provinces", map.provinces.len())),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("v.yaml.bak")).unwrap(),
        yaml
    );
    let text = std::fs::read_to_string(&f).unwrap();
    let back = Map::from_yaml(&text, "v.yaml").unwrap();
    assert!(back.provinces.iter().all(|p| p.at.is_some()));
    // Again: nothing left to place.
    let o = arbiter(&["map", "layout", s(&f), "-o", s(&dir.join("w.yaml"))]);
    code(&o, 0);
    assert!(stdout(&o).contains("placed 0 provinces"), "{}", stdout(&o));
    assert_eq!(std::fs::read_to_string(dir.join("w.yaml")).unwrap(), text);
}

/// A board of `k × k` land squares, each neighbour of the next in its row and column.
fn grid_board(k: usize) -> String {
    let id = |r: usize, c: usize| format!("p{r}x{c}");
    let mut out = String::from(
        "name: grid\nstart: {season: spring, year: 1901}\nvictory: 1\npowers:\n  - id: red\n    name: Red\n    adjective: Reddish\n    home: [p0x0]\n    units: [A p0x0]\nprovinces:\n",
    );
    for r in 0..k {
        for c in 0..k {
            let mut n = Vec::new();
            if r > 0 {
                n.push(id(r - 1, c));
            }
            if r + 1 < k {
                n.push(id(r + 1, c));
            }
            if c > 0 {
                n.push(id(r, c - 1));
            }
            if c + 1 < k {
                n.push(id(r, c + 1));
            }
            out.push_str(&format!(
                "  - id: {}\n    name: Cell {r} {c}\n    kind: land\n",
                id(r, c)
            ));
            if r == 0 && c == 0 {
                out.push_str("    supply: true\n    home: red\n");
            }
            out.push_str(&format!("    army: [{}]\n", n.join(", ")));
        }
    }
    out
}

#[test]
fn a_board_of_world1914_size_is_checked_quickly_and_exactly() {
    // 17 × 17 = 289 provinces, each square's sides cut into 25 pieces (100 corners).
    let k = 17;
    let src = grid_board(k);
    let map = Map::from_yaml(&src, "grid.yaml").unwrap();
    let side = 90.0;
    let ring = |x: f64, y: f64| -> Ring {
        let mut r = Vec::new();
        let corners = [(x, y), (x + side, y), (x + side, y + side), (x, y + side)];
        for i in 0..4 {
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            for j in 0..25 {
                let t = j as f64 / 25.0;
                r.push((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)));
            }
        }
        r
    };
    let provinces = map
        .provinces
        .iter()
        .map(|p| {
            let (r, c) = p.id[1..].split_once('x').unwrap();
            let (r, c): (f64, f64) = (r.parse().unwrap(), c.parse().unwrap());
            let mut s = shape(vec![ring(c * side, r * side)]);
            if p.supply {
                s.centre = Some(s.label);
            }
            s
        })
        .collect();
    let d = square_drawing(side * k as f64, provinces, Vec::new());
    let start = std::time::Instant::now();
    let t = arbiter::mapcheck::drawing::touches(&map, &d);
    let took = start.elapsed();
    // Every row and column neighbour touches; nothing else does.
    let touching = t.shared.values().filter(|&&l| l >= 4.0).count();
    assert_eq!(touching, 2 * k * (k - 1));
    let yaml = d.to_yaml(&map, "grid");
    let f = drawing_findings_in(&src, "grid.yaml", "d.yaml", &yaml);
    assert_eq!(f, Vec::<Finding>::new());
    // Debug build; the release build is far faster still.
    assert!(took.as_secs_f64() < 5.0, "{took:?}");
    eprintln!("touches of {} provinces: {took:?}", map.provinces.len());

    // The layout of world1914 without positions: every province its own point.
    let w = Map::embedded("world1914").unwrap();
    let mut bare = w.clone();
    for p in &mut bare.provinces {
        p.at = None;
    }
    let start = std::time::Instant::now();
    let pos = layout::positions(&bare);
    eprintln!("layout of {} provinces: {:?}", pos.len(), start.elapsed());
    let distinct: std::collections::HashSet<(i64, i64)> =
        pos.iter().map(|&(x, y)| (x as i64, y as i64)).collect();
    assert_eq!(distinct.len(), pos.len());
}

#[test]
fn a_crowded_drawing_is_given_up_not_hung_on() {
    // Two provinces whose outlines zigzag 100,000 times over one 10-unit spot.
    let src = board(&[]);
    let map = Map::from_yaml(&src, "squares.yaml").unwrap();
    let zigzag = |off: f64| -> Ring {
        (0..100_000)
            .map(|i| (5.0 + off + (i % 2) as f64 * 8.0, 5.0 + (i % 7) as f64))
            .collect()
    };
    let mut provinces: Vec<Shape> = squares().into_iter().map(|r| shape(vec![r])).collect();
    provinces[0].rings = vec![zigzag(0.0)];
    provinces[3].rings = vec![zigzag(0.5)];
    let d = square_drawing(200.0, provinces, Vec::new());
    let start = std::time::Instant::now();
    let t = arbiter::mapcheck::drawing::touches(&map, &d);
    assert!(t.gave_up);
    assert!(
        start.elapsed().as_secs_f64() < 20.0,
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn positions_are_written_with_the_file_s_own_line_ends() {
    let (yaml, map) = imported_classic();
    let crlf = yaml.replace('\n', "\r\n");
    let pos = layout::positions(&map);
    let text = layout::write_positions(&crlf, &map, &pos);
    assert_eq!(text.matches('\n').count(), text.matches("\r\n").count());
    assert_eq!(text.matches("at: [").count(), map.provinces.len());
    // The last line without its line end: the file still reads.
    let cut = yaml.trim_end_matches('\n');
    let text = layout::write_positions(cut, &map, &pos);
    let back = Map::from_yaml(&text, "x.yaml").unwrap();
    assert!(back.provinces.iter().all(|p| p.at.is_some()));
}
