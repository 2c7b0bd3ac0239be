//! The drawing generator (`arbiter::draw`, `arbiter map draw`): the classic board drawn
//! from its `at` positions, a tiny geography drawn from a coastline, and the command.

use arbiter::draw::{draw, GeoSpec, Land};
use arbiter::map::drawing::{Drawing, Point, Ring};
use arbiter::map::Map;

use crate::common::{arbiter, code, has, s, stderr, stdout, temp_dir};

/// The classic board with Switzerland given a position by hand: the map gives it none
/// (and no neighbours to place it by), so the generator refuses it as it is.
pub fn standard_with_swi() -> Map {
    let mut map = Map::standard();
    let swi = map.prov_by_id("swi").unwrap();
    map.provinces[usize::from(swi.0)].at = Some((455, 650));
    map
}

/// Is `p` inside the rings (even–odd)?
fn inside(rings: &[Ring], p: Point) -> bool {
    let mut odd = false;
    for r in rings {
        let n = r.len();
        for i in 0..n {
            let (a, b) = (r[i], r[(i + 1) % n]);
            if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1) {
                odd = !odd;
            }
        }
    }
    odd
}

fn near(a: &[Ring], b: &[Ring], within: f64) -> bool {
    a.iter().flatten().any(|p| {
        b.iter()
            .flatten()
            .any(|q| (p.0 - q.0).powi(2) + (p.1 - q.1).powi(2) <= within * within)
    })
}

#[test]
fn the_classic_board_from_its_positions() {
    let map = standard_with_swi();
    let d = draw(&map, None, None).unwrap();
    assert_eq!(d.provinces.len(), map.provinces.len());
    for (p, shape) in map.provinces.iter().zip(&d.provinces) {
        assert!(!shape.rings.is_empty(), "{} has no outline", p.id);
        assert!(shape.rings.iter().all(|r| r.len() >= 3), "{}", p.id);
        assert!(inside(&shape.rings, shape.unit), "{}: unit outside", p.id);
        assert!(inside(&shape.rings, shape.label), "{}: label outside", p.id);
        assert_eq!(shape.centre.is_some(), p.supply, "{}", p.id);
        if let Some(c) = shape.centre {
            assert!(inside(&shape.rings, c), "{}: centre outside", p.id);
        }
    }
    // A position well inside its cell holds the unit: nearly every unit point is its
    // `at` moved by the one offset of the picture.
    let par = map.prov_by_id("par").unwrap();
    let at = |i: usize| map.provinces[i].at.unwrap();
    let off = (
        d.provinces[usize::from(par.0)].unit.0 - f64::from(at(usize::from(par.0)).0),
        d.provinces[usize::from(par.0)].unit.1 - f64::from(at(usize::from(par.0)).1),
    );
    let kept = (0..map.provinces.len())
        .filter(|&i| {
            let u = d.provinces[i].unit;
            (u.0 - f64::from(at(i).0) - off.0).abs() < 0.01
                && (u.1 - f64::from(at(i).1) - off.1).abs() < 0.01
        })
        .count();
    assert!(kept * 10 >= map.provinces.len() * 9, "{kept}");
    // The positions are kept, shifted into the picture: Paris and Berlin are as far
    // apart as their `at`s.
    let (par, ber) = (
        &map.provinces[usize::from(map.prov_by_id("par").unwrap().0)],
        &map.provinces[usize::from(map.prov_by_id("ber").unwrap().0)],
    );
    let (pa, be) = (par.at.unwrap(), ber.at.unwrap());
    let shape = |id: &str| &d.provinces[usize::from(map.prov_by_id(id).unwrap().0)];
    let dx = shape("ber").unit.0 - shape("par").unit.0;
    assert!((dx - f64::from(be.0 - pa.0)).abs() < 1.0, "{dx}");
    // Named coasts: inside their province, north coast above south coast.
    let coast = |id: &str| d.point(map.loc_by_id(id).unwrap());
    for c in ["spa/nc", "spa/sc", "stp/nc", "stp/sc", "bul/ec", "bul/sc"] {
        let prov = &c[..3];
        assert!(inside(&shape(prov).rings, coast(c)), "{c} outside {prov}");
    }
    assert!(coast("spa/nc").1 < coast("spa/sc").1);
    assert!(coast("stp/nc").1 < coast("stp/sc").1);
    assert!(coast("bul/ec").0 > coast("bul/sc").0);
    // The drawing reads back through the loader's check.
    let text = d.to_yaml(&map, "test");
    let back = Drawing::from_yaml(&text, "standard.drawing.yaml", &map).unwrap();
    assert_eq!(back.provinces.len(), map.provinces.len());
}

#[test]
fn neighbours_on_the_map_share_a_border_in_the_picture() {
    let map = standard_with_swi();
    let d = draw(&map, None, None).unwrap();
    let (mut edges, mut shared) = (0, 0);
    let mut apart = Vec::new();
    for a in map.provs() {
        for b in map.provs().filter(|&b| b > a) {
            let fleet = map.fleet_reach_any(a).contains(b) || map.fleet_reach_any(b).contains(a);
            if !(map.army_adjacent(a, b) || fleet) {
                continue;
            }
            edges += 1;
            let (ra, rb) = (
                &d.provinces[usize::from(a.0)].rings,
                &d.provinces[usize::from(b.0)].rings,
            );
            if near(ra, rb, 3.0) {
                shared += 1;
            } else {
                apart.push(format!("{}-{}", map.province(a).id, map.province(b).id));
            }
        }
    }
    assert!(edges > 200, "{edges}");
    // The positions were placed for a graph, not as a partition: a plain nearest-
    // position split joins 160 of the 206 edges; corridors between neighbours that do
    // not touch bring it to 185.
    assert!(
        shared * 100 >= edges * 85,
        "{shared} of {edges} share a border; apart: {apart:?}"
    );
}

/// A tiny board: one land square in a sea, two land provinces and one sea.
fn tiny_map() -> Map {
    Map::from_yaml(&tiny_map_source(), "tiny.yaml").unwrap()
}

fn tiny_map_source() -> String {
    [
        "name: tiny",
        "start: {season: spring, year: 1901}",
        "victory: 2",
        "powers:",
        "  - {id: red, name: Red, adjective: Red, home: [wes], units: [A wes]}",
        "provinces:",
        "  - {id: wes, name: West, kind: coast, supply: true, home: red, army: [eas], fleet: [eas, sea]}",
        "  - {id: eas, name: East, kind: coast, supply: true, army: [wes], fleet: [wes, sea]}",
        "  - {id: sea, name: Sea, kind: sea, fleet: [wes, eas]}",
    ]
    .join("\n")
}

const TINY_GEO: &str = "map: tiny\nland: tiny-land.json\n\
projection: {kind: equirectangular, centre: [0.0, 0.0]}\n\
bounds: {west: 0.0, east: 10.0, south: 0.0, north: 10.0}\nwidth: 200\n\
provinces:\n  wes: [5.0, 3.5]\n  eas: [5.0, 6.5]\n  sea: [1.0, 1.0]\n";

const TINY_LAND: &str = r#"{"source": "a square", "rings": [[[2,2],[8,2],[8,8],[2,8]]]}"#;

#[test]
fn a_geography_gives_land_to_land_provinces_and_water_to_seas() {
    let map = tiny_map();
    let spec = GeoSpec::from_yaml(TINY_GEO, "tiny.geo.yaml", &map).unwrap();
    let land = Land::from_json(TINY_LAND, "tiny-land.json").unwrap();
    let d = draw(&map, Some(&spec), Some(&land)).unwrap();
    assert_eq!((d.width, d.height), (200.0, 200.0));
    let shape = |id: &str| &d.provinces[usize::from(map.prov_by_id(id).unwrap().0)];
    // The land square is x, y in 40..160 (20 units a degree, north up).
    for y in (45..160).step_by(10) {
        for x in (45..160).step_by(10) {
            let p = (f64::from(x), f64::from(y));
            let west = inside(&shape("wes").rings, p);
            let east = inside(&shape("eas").rings, p);
            assert!(west != east, "{p:?} is one land province's");
            assert_eq!(
                west,
                x < 100,
                "{p:?}: the border is halfway between the seeds"
            );
            assert!(!inside(&shape("sea").rings, p), "{p:?} is land");
        }
    }
    for p in [(10.0, 10.0), (190.0, 100.0), (100.0, 195.0)] {
        assert!(inside(&shape("sea").rings, p), "{p:?} is sea");
        assert!(!inside(&shape("wes").rings, p) && !inside(&shape("eas").rings, p));
    }
    assert!(d.land.is_empty() && d.water.is_empty());
    for id in ["wes", "eas", "sea"] {
        assert!(inside(&shape(id).rings, shape(id).unit), "{id}");
    }
    let text = d.to_yaml(&map, "tiny");
    Drawing::from_yaml(&text, "tiny.drawing.yaml", &map).unwrap();
}

#[test]
fn a_geography_without_its_coastlines_is_refused() {
    let map = tiny_map();
    let spec = GeoSpec::from_yaml(TINY_GEO, "tiny.geo.yaml", &map).unwrap();
    let e = draw(&map, Some(&spec), None).unwrap_err();
    assert!(
        e.to_string().contains("`tiny-land.json` were not given"),
        "{e}"
    );
    assert_eq!(e.problems[0].line, 2);
}

#[test]
fn land_no_seed_reaches_is_no_province() {
    let map = tiny_map();
    let spec = GeoSpec::from_yaml(TINY_GEO, "tiny.geo.yaml", &map).unwrap();
    // A second island, far from both land seeds' square.
    let land = Land::from_json(
        r#"{"rings": [[[2,2],[8,2],[8,8],[2,8]], [[0.5,8.5],[1.5,8.5],[1.5,9.5],[0.5,9.5]]]}"#,
        "l.json",
    )
    .unwrap();
    let d = draw(&map, Some(&spec), Some(&land)).unwrap();
    assert_eq!(d.land.len(), 1);
    assert!(inside(&d.land, (20.0, 20.0)));
    let sea = &d.provinces[usize::from(map.prov_by_id("sea").unwrap().0)];
    assert!(
        !inside(&sea.rings, (20.0, 20.0)),
        "the island is a hole in the sea"
    );
}

#[test]
fn a_land_province_placed_at_sea_is_named_with_its_line() {
    let map = tiny_map();
    let geo = TINY_GEO.replace("wes: [5.0, 3.5]", "wes: [5.0, 0.2]");
    let spec = GeoSpec::from_yaml(&geo, "tiny.geo.yaml", &map).unwrap();
    let land = Land::from_json(TINY_LAND, "tiny-land.json").unwrap();
    let e = draw(&map, Some(&spec), Some(&land)).unwrap_err();
    let all = e.to_string();
    assert!(all.contains("`wes` is not on land"), "{all}");
    assert_eq!(e.problems[0].line, 7, "{all}");
}

#[test]
fn map_draw_writes_the_drawing_beside_the_map_and_the_map_reads_it_back() {
    let dir = temp_dir("map-draw");
    let map_file = dir.join("tiny.yaml");
    let src = tiny_map_source();
    // No geography and no positions yet: drawn from the graph layout of its adjacency.
    std::fs::write(&map_file, &src).unwrap();
    let o = arbiter(&["map", "draw", s(&map_file)]);
    code(&o, 0);
    has(&stdout(&o), "tiny: 3 provinces");
    let from_layout = std::fs::read_to_string(dir.join("tiny.drawing.yaml")).unwrap();
    let map = Map::from_yaml(&src, "tiny.yaml").unwrap();
    Drawing::from_yaml(&from_layout, "tiny.drawing.yaml", &map).unwrap();
    // With the geography beside it (found by name) and its coastlines beside that.
    std::fs::write(dir.join("tiny.geo.yaml"), TINY_GEO).unwrap();
    std::fs::write(dir.join("tiny-land.json"), TINY_LAND).unwrap();
    let o = arbiter(&["map", "draw", s(&map_file)]);
    code(&o, 0);
    has(&stdout(&o), "tiny: 3 provinces, 4 rings, 200 x 200 units");
    let written = std::fs::read_to_string(dir.join("tiny.drawing.yaml")).unwrap();
    has(&written, "made by `arbiter map draw`");
    Drawing::from_yaml(&written, "tiny.drawing.yaml", &map).unwrap();
    // Every command that loads the map reads the drawing with it (and would refuse a
    // broken one).
    code(&arbiter(&["map", "show", s(&map_file)]), 0);
    // An embedded map needs -o; `--geo` names the geography.
    let o = arbiter(&["map", "draw", "standard"]);
    code(&o, 2);
    has(&stderr(&o), "-o FILE");
    let out = dir.join("other.yaml");
    let geo = dir.join("tiny.geo.yaml");
    code(
        &arbiter(&["map", "draw", s(&map_file), "--geo", s(&geo), "-o", s(&out)]),
        0,
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), written);
    // A problem in the geography: its file and line, exit 1.
    std::fs::write(&geo, TINY_GEO.replace("  sea: [1.0, 1.0]\n", "")).unwrap();
    let o = arbiter(&["map", "draw", s(&map_file)]);
    code(&o, 1);
    has(&stderr(&o), "province `sea` has no point");
    has(&stderr(&o), "tiny.geo.yaml:");
}
