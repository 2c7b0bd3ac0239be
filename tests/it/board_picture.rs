//! The board view (`render::svg` on a map with a `Drawing`): well-formed SVG with a
//! path per province, centres filled with their owner's tint and other land with its
//! occupant's, seas blue, labels off units, `--graph` for the old picture, PNG pixel
//! probes, readability on a 244-province board, a snapshot of a small position.
//! The drawings are synthetic: a grid of squares, one per province.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbiter::game::advance;
use arbiter::judge::Rules;
use arbiter::map::drawing::{Drawing, Point, Shape};
use arbiter::map::{Map, Terrain, EMBEDDED};
use arbiter::orders::parse_orders;
use arbiter::render::{self, BOARD_SEA, SYMBOL, UNIT};
use arbiter::state::Position;

use crate::common::svg::{has_class, judged, parse, render_fixture, rgb, scene};
use crate::common::{arbiter, temp_dir};

/// The title of the scenes drawn here.
const BOARD: &str = "Spring 1901 movement: board";

/// The side of a grid cell, in drawing units.
const CELL: f64 = 100.0;

/// A grid drawing of `map`: province `i` is the square of cell `i` (row by row,
/// `cols` to a row), its unit left of the middle, its label above, its centre marker
/// at the lower right, its named coasts along the bottom.
fn grid_drawing(map: &Map, cols: usize) -> Drawing {
    let n = map.province_count();
    let rows = n.div_ceil(cols);
    let origin = |i: usize| ((i % cols) as f64 * CELL, (i / cols) as f64 * CELL);
    let provinces = (0..n)
        .map(|i| {
            let (x, y) = origin(i);
            let p = map.provs().nth(i).unwrap();
            Shape {
                rings: vec![vec![
                    (x, y),
                    (x + CELL, y),
                    (x + CELL, y + CELL),
                    (x, y + CELL),
                ]],
                unit: (x + 0.4 * CELL, y + 0.55 * CELL),
                label: (x + 0.5 * CELL, y + 0.2 * CELL),
                centre: map
                    .province(p)
                    .supply
                    .then_some((x + 0.8 * CELL, y + 0.8 * CELL)),
            }
        })
        .collect();
    let coasts = map
        .coasts
        .iter()
        .map(|c| {
            let (x, y) = origin(c.province.0 as usize);
            let j = map
                .coasts
                .iter()
                .filter(|d| d.province == c.province)
                .position(|d| std::ptr::eq(d, c))
                .unwrap() as f64;
            (x + (0.2 + 0.3 * j) * CELL, y + 0.85 * CELL)
        })
        .collect();
    Drawing {
        width: cols as f64 * CELL,
        height: rows as f64 * CELL,
        provinces,
        coasts,
        land: Vec::new(),
        water: Vec::new(),
    }
}

fn with_drawing(mut map: Map, cols: usize) -> Map {
    let d = grid_drawing(&map, cols);
    map.drawing = Some(Arc::new(d));
    map
}

fn standard() -> Map {
    with_drawing(Map::embedded("standard").unwrap(), 9)
}

/// The fill of province `id`'s path.
fn fill<'a>(doc: &'a roxmltree::Document, id: &str) -> &'a str {
    doc.descendants()
        .find(|n| n.attribute("id") == Some(&format!("p-{id}")))
        .unwrap_or_else(|| panic!("no path for {id}"))
        .attribute("fill")
        .unwrap()
}

#[test]
fn every_province_is_a_path_filled_by_owner_or_occupant() {
    let map = standard();
    let fr = map
        .power_ids()
        .find(|&w| map.power(w).name == "France")
        .unwrap();
    // A French army in Burgundy (no centre): Burgundy takes France's lighter tint.
    let position = Position::from_yaml(
        &map,
        "phase: Spring 1901\nunits:\n  france: [A bur, F bre]\n  england: [F nth]\nowners:\n  france: [par, bre, mar]\n",
    )
    .unwrap();
    let svg = render::svg(&map, &scene(&position, None, BOARD, false)).unwrap();
    let doc = parse(&svg);
    let paths: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "path" && has_class(n, "province"))
        .collect();
    assert_eq!(paths.len(), map.province_count());
    for p in map.provs() {
        let id = &map.province(p).id;
        let d = doc
            .descendants()
            .find(|n| n.attribute("id") == Some(&format!("p-{id}")))
            .unwrap();
        assert!(d.attribute("d").unwrap().starts_with('M'), "{id}");
    }
    // Centres by ownership, other land by occupation, neutral land plain, seas blue.
    assert_eq!(fill(&doc, "par"), render::centre_tint(fr));
    assert_eq!(fill(&doc, "mar"), render::centre_tint(fr));
    assert_eq!(fill(&doc, "bur"), render::occupied_tint(fr));
    assert_eq!(fill(&doc, "bel"), render::BOARD_LAND);
    assert_eq!(fill(&doc, "pic"), render::BOARD_LAND);
    assert_eq!(fill(&doc, "nth"), BOARD_SEA);
    assert_eq!(fill(&doc, "swi"), "url(#impassable)");
    // The tints are light, not the power's colour itself.
    assert_ne!(
        render::centre_tint(fr),
        render::power_colour(fr).to_lowercase()
    );
    // A centre marker per supply centre; units with their letter.
    let centres = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g" && has_class(n, "centre"))
        .filter(|n| !n.ancestors().any(|a| a.attribute("id") == Some("legend")))
        .count();
    assert_eq!(
        centres,
        map.provs().filter(|&p| map.province(p).supply).count()
    );
    let letters: Vec<String> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g" && has_class(n, "unit"))
        .filter(|n| !n.ancestors().any(|a| a.attribute("id") == Some("legend")))
        .map(|g| {
            g.children()
                .find(|c| c.tag_name().name() == "text")
                .and_then(|t| t.text())
                .unwrap()
                .to_string()
        })
        .collect();
    let mut letters = letters;
    letters.sort();
    assert_eq!(letters, ["A", "F", "F"]);
}

#[test]
fn graph_gives_the_old_picture() {
    let drawn = standard();
    // `Map::standard()` carries no drawing (the embedded map by name does).
    let plain = Map::standard();
    assert!(plain.drawing.is_none());
    let position = Position::initial(&plain);
    let old = render::svg(&plain, &scene(&position, None, BOARD, false)).unwrap();
    let graph = render::svg(&drawn, &scene(&position, None, BOARD, true)).unwrap();
    assert_eq!(old, graph);
    let board = render::svg(&drawn, &scene(&position, None, BOARD, false)).unwrap();
    assert!(board.contains("id=\"board\""));
    assert!(!graph.contains("id=\"board\""));
}

/// The standard map written to `dir/std.yaml`, with its grid drawing beside it.
fn drawn_map_file(dir: &Path) -> PathBuf {
    let (_, _, src) = EMBEDDED.iter().find(|(n, _, _)| *n == "standard").unwrap();
    let file = dir.join("std.yaml");
    std::fs::write(&file, src).unwrap();
    let map = Map::embedded("standard").unwrap();
    let d = grid_drawing(&map, 9);
    std::fs::write(dir.join("std.drawing.yaml"), d.to_yaml(&map, "a test grid")).unwrap();
    file
}

#[test]
fn the_cli_draws_the_board_and_graph_draws_the_graph() {
    let dir = temp_dir("cli");
    let file = drawn_map_file(&dir);
    let f = file.to_str().unwrap();
    let board = arbiter(&["render", "--map", f]);
    assert!(
        board.status.success(),
        "{}",
        String::from_utf8_lossy(&board.stderr)
    );
    let board = String::from_utf8(board.stdout).unwrap();
    assert!(board.contains("id=\"board\""), "the board view");
    let graph = arbiter(&["render", "--map", f, "--graph"]);
    assert!(graph.status.success());
    assert!(graph.stderr.is_empty());
    // The old picture: what a map without a drawing gives.
    let bare_dir = dir.join("bare");
    std::fs::create_dir_all(&bare_dir).unwrap();
    let bare = bare_dir.join("std.yaml");
    std::fs::copy(&file, &bare).unwrap();
    let plain = arbiter(&["render", "--map", bare.to_str().unwrap()]);
    assert!(plain.status.success());
    assert_eq!(graph.stdout, plain.stdout);
    // Without a drawing, the graph and a note saying how to get the board.
    let note = String::from_utf8_lossy(&plain.stderr);
    assert!(
        note.contains(
            "no drawing for this map: run `arbiter map draw standard`; drawing the graph"
        ),
        "{note}"
    );
    // `map show --svg`: the board, or the graph with --graph.
    let out = dir.join("show.svg");
    let o = out.to_str().unwrap();
    let shown = arbiter(&["map", "show", f, "--svg", o]);
    assert!(
        shown.status.success(),
        "{}",
        String::from_utf8_lossy(&shown.stderr)
    );
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("id=\"board\""));
    let shown = arbiter(&["map", "show", f, "--svg", o, "--graph"]);
    assert!(shown.status.success());
    assert!(!std::fs::read_to_string(&out)
        .unwrap()
        .contains("id=\"board\""));
    let _ = std::fs::remove_dir_all(&dir);
}

fn pixel(p: &render::RasterPixmap, (x, y): Point) -> (u8, u8, u8) {
    let c = p
        .pixel(x.round() as u32, y.round() as u32)
        .unwrap()
        .demultiply();
    (c.red(), c.green(), c.blue())
}

fn close(a: (u8, u8, u8), b: (u8, u8, u8), what: &str) {
    let d = |x: u8, y: u8| (i16::from(x) - i16::from(y)).abs();
    assert!(
        d(a.0, b.0) <= 3 && d(a.1, b.1) <= 3 && d(a.2, b.2) <= 3,
        "{what}: pixel {a:?}, expected {b:?}"
    );
}

#[test]
fn png_probes_find_owner_tints_and_sea() {
    let map = standard();
    let d = map.drawing.clone().unwrap();
    let position = Position::initial(&map);
    let svg = render::svg(&map, &scene(&position, None, BOARD, false)).unwrap();
    let pixmap = render::raster(&svg).unwrap();
    let fr = render::frame(&map, &d);
    // A point of a province away from its label, unit and centre marker: the cell's
    // lower left corner area.
    let interior = |id: &str| {
        let p = map.prov_by_id(id).unwrap();
        let s = d.shape(p).unwrap();
        let (x, y) = s.rings[0][0];
        fr.at((x + 0.12 * CELL, y + 0.88 * CELL))
    };
    for (power, centres) in [
        ("France", ["par", "bre", "mar"]),
        ("Turkey", ["ank", "con", "smy"]),
    ] {
        let w = map
            .power_ids()
            .find(|&w| map.power(w).name == power)
            .unwrap();
        for id in centres {
            close(
                pixel(&pixmap, interior(id)),
                rgb(&render::centre_tint(w)),
                &format!("{power} owns {id}"),
            );
        }
    }
    for id in ["nth", "mao", "bla"] {
        close(pixel(&pixmap, interior(id)), rgb(BOARD_SEA), id);
    }
    close(
        pixel(&pixmap, interior("bur")),
        rgb(render::BOARD_LAND),
        "bur",
    );
    // A unit's pixel is its power's colour (beside its letter).
    let par = map.prov_by_id("par").unwrap();
    let (ux, uy) = fr.at(d.shape(par).unwrap().unit);
    let fr_power = map
        .power_ids()
        .find(|&w| map.power(w).name == "France")
        .unwrap();
    close(
        pixel(&pixmap, (ux - 0.75 * SYMBOL, uy - 0.75 * SYMBOL)),
        rgb(render::power_colour(fr_power)),
        "the army in Paris",
    );
}

/// The boxes of the province labels and of the unit symbols, from the SVG.
/// A box: x0, y0, x1, y1.
type Box4 = [f64; 4];

fn label_and_unit_boxes(svg: &str) -> (Vec<(String, Box4)>, Vec<Box4>) {
    let doc = parse(svg);
    let font = |n: &roxmltree::Node| -> f64 {
        n.ancestors()
            .find_map(|a| a.attribute("font-size"))
            .unwrap()
            .parse()
            .unwrap()
    };
    let labels = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text" && has_class(n, "province-label"))
        .map(|t| {
            let f = |a: &str| t.attribute(a).unwrap().parse::<f64>().unwrap();
            let text = t.text().unwrap().to_string();
            let size = font(&t);
            let w = render::text_width(&text, size);
            let (x, y) = (f("x"), f("y"));
            (text, [x - w / 2.0, y - 0.73 * size, x + w / 2.0, y])
        })
        .collect();
    let units = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g" && has_class(n, "unit"))
        .filter(|n| !n.ancestors().any(|a| a.attribute("id") == Some("legend")))
        .map(|g| {
            // The letter sits on the unit's point.
            let t = g
                .children()
                .find(|c| c.tag_name().name() == "text")
                .unwrap();
            let x: f64 = t.attribute("x").unwrap().parse().unwrap();
            let y: f64 = t.attribute("y").unwrap().parse().unwrap();
            let y = y - 0.45 * 1.25 * SYMBOL;
            [
                x - 1.35 * SYMBOL,
                y - SYMBOL,
                x + 1.35 * SYMBOL,
                y + 0.85 * SYMBOL,
            ]
        })
        .collect();
    (labels, units)
}

fn overlaps(a: &Box4, b: &Box4) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

#[test]
fn a_label_over_a_unit_is_moved_off_it() {
    // Paris's label point on its unit point: the label must move.
    let mut map = Map::embedded("standard").unwrap();
    let mut d = grid_drawing(&map, 9);
    let par = map.prov_by_id("par").unwrap();
    let s = &mut d.provinces[par.0 as usize];
    s.label = s.unit;
    map.drawing = Some(Arc::new(d.clone()));
    let position = Position::initial(&map);
    let svg = render::svg(&map, &scene(&position, None, BOARD, false)).unwrap();
    let (labels, units) = label_and_unit_boxes(&svg);
    assert_eq!(labels.len(), map.province_count());
    for (text, b) in &labels {
        for u in &units {
            assert!(!overlaps(b, u), "{text} over a unit: {b:?} {u:?}");
        }
    }
    // Labels without a unit in the way stay on their point.
    let fr = render::frame(&map, &d);
    let bur = map.prov_by_id("bur").unwrap();
    let (lx, _) = fr.at(d.shape(bur).unwrap().label);
    let (_, b) = labels.iter().find(|(t, _)| t == "BUR").unwrap();
    assert!(((b[0] + b[2]) / 2.0 - lx).abs() < 0.2);
}

#[test]
fn world1914_reads_at_its_244_provinces_and_on_a4() {
    let map = with_drawing(Map::embedded("world1914").unwrap(), 18);
    assert!(map.province_count() >= 240);
    let position = Position::initial(&map);
    let svg = render::svg(&map, &scene(&position, None, BOARD, false)).unwrap();
    let doc = parse(&svg);
    let width: f64 = doc
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap();
    let (labels, units) = label_and_unit_boxes(&svg);
    assert_eq!(labels.len(), map.province_count());
    // Every label clear of every unit and of every other label.
    for (i, (t, a)) in labels.iter().enumerate() {
        for u in &units {
            assert!(!overlaps(a, u), "{t} over a unit");
        }
        for (t2, b) in &labels[i + 1..] {
            assert!(!overlaps(a, b), "{t} over {t2}");
        }
    }
    // Sizes follow the drawing's scale: a unit symbol fits well inside a province.
    let fr = render::frame(&map, map.drawing.as_ref().unwrap());
    assert!(2.8 * SYMBOL < 0.6 * CELL * fr.scale, "{}", fr.scale);
    // At A4 landscape, 150 dpi (1754 pixels across), the labels are still at least
    // 6 pixels high (the board is never drawn wider than 3200 units for 11.4-unit
    // labels).
    assert!(width <= 3200.0 + 1.0, "{width}");
    let font = 0.95 * UNIT * 1754.0 / width;
    assert!(font >= 6.0, "{font}");
}

/// The fixture map (six provinces) drawn as a row of squares.
fn fixture() -> Map {
    with_drawing(render_fixture(), 3)
}

#[test]
fn snapshot_of_a_small_board() {
    let map = fixture();
    let position = Position::from_yaml(
        &map,
        "phase: Spring 1901\nunits:\n  red: [A aaa, A bbb]\n  blue: [A ccc, F sss]\n",
    )
    .unwrap();
    let result = judged(
        &map,
        &position,
        "Red: A aaa - ccc\nRed: A bbb S A aaa - ccc\nBlue: A ccc H\nBlue: F sss S A ccc\n",
    );
    let svg = render::svg(&map, &scene(&position, Some(&result), BOARD, false)).unwrap();
    let doc = parse(&svg);
    // Four orders: a move, its support, a hold (a ring), a support to hold.
    let orders: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g" && has_class(n, "order"))
        .filter(|n| !n.ancestors().any(|a| a.attribute("id") == Some("legend")))
        .collect();
    assert_eq!(orders.len(), 4);
    assert_eq!(orders.iter().filter(|n| has_class(n, "hold")).count(), 1);
    // 2 against 2: the move fails and is crossed out.
    assert_eq!(orders.iter().filter(|n| has_class(n, "failed")).count(), 1);
    assert!(map
        .provs()
        .any(|p| map.province(p).terrain == Terrain::Impassable));
    insta::assert_snapshot!("board_small_position", svg);
}

/// Not a test: writes the pictures to look at (`cargo test --test it
/// board_picture::look -- --ignored`), to $ARBITER_LOOK (a folder).
#[test]
#[ignore]
fn look() {
    let dir = PathBuf::from(std::env::var("ARBITER_LOOK").unwrap());
    let map = standard();
    let position = Position::from_yaml(
        &map,
        "phase: Fall 1901\nunits:\n  france: [A bur, F mao, A par]\n  germany: [A mun, A ruh, F hol]\n  england: [F nth, F eng, A yor]\n  italy: [A ven, A tyr]\n  austria: [A vie, F tri]\n  russia: [F stp/sc, A war]\n  turkey: [F bla, A con]\n",
    )
    .unwrap();
    let result = judged(&map, &position, "France: A bur - bel\nFrance: A par - bur\nFrance: F mao - spa/nc\nGermany: A mun - bur\nGermany: A ruh S A mun - bur\nGermany: F hol - bel\nEngland: F nth C A yor - nwy\nEngland: A yor - nwy\nEngland: F eng H\nItaly: A ven - tri\nItaly: A tyr S A ven - tri\nAustria: F tri H\nAustria: A vie S F tri\nRussia: F stp/sc - bot\nTurkey: F bla - rum\n");
    let svg = render::svg(&map, &scene(&position, Some(&result), BOARD, false)).unwrap();
    std::fs::write(dir.join("standard.svg"), &svg).unwrap();
    std::fs::write(dir.join("standard.png"), render::png(&svg).unwrap()).unwrap();
    let world = with_drawing(Map::embedded("world1914").unwrap(), 18);
    let wp = Position::initial(&world);
    let svg = render::svg(&world, &scene(&wp, None, BOARD, false)).unwrap();
    std::fs::write(dir.join("world.png"), render::png(&svg).unwrap()).unwrap();
    let fx = fixture();
    let p = Position::initial(&fx);
    let svg = render::svg(&fx, &scene(&p, None, BOARD, false)).unwrap();
    std::fs::write(dir.join("fixture.png"), render::png(&svg).unwrap()).unwrap();
}

/// A drawing of `map` from its `at` positions: each province an octagon round its
/// point, half way to its nearest neighbour (gaps are sea), for looking at a board
/// with geography.
fn octagon_drawing(map: &Map) -> Drawing {
    let at: Vec<Point> = map
        .provs()
        .map(|p| {
            let (x, y) = map.province(p).at.unwrap_or((0, 0));
            (f64::from(x), f64::from(y))
        })
        .collect();
    let dist = |a: Point, b: Point| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let (w, h) = at
        .iter()
        .fold((0.0f64, 0.0f64), |(w, h), p| (w.max(p.0), h.max(p.1)));
    let provinces = at
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let r = at
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &q)| dist(c, q))
                .fold(f64::INFINITY, f64::min)
                / 2.0;
            let ring = (0..8)
                .map(|k| {
                    let a = (k as f64 + 0.5) * std::f64::consts::TAU / 8.0;
                    (c.0 + r * a.cos(), c.1 + r * a.sin())
                })
                .collect();
            let p = map.provs().nth(i).unwrap();
            Shape {
                rings: vec![ring],
                unit: (c.0 - 0.25 * r, c.1 + 0.1 * r),
                label: (c.0, c.1 - 0.6 * r),
                centre: map
                    .province(p)
                    .supply
                    .then_some((c.0 + 0.55 * r, c.1 + 0.4 * r)),
            }
        })
        .collect();
    let coasts = map
        .coasts
        .iter()
        .map(|c| match c.at {
            Some((x, y)) => (f64::from(x), f64::from(y)),
            None => at[c.province.0 as usize],
        })
        .collect();
    Drawing {
        width: w + 40.0,
        height: h + 40.0,
        provinces,
        coasts,
        land: Vec::new(),
        water: Vec::new(),
    }
}

/// Not a test: the standard board drawn from its `at` positions, to look at.
#[test]
#[ignore]
fn look_geography() {
    let dir = PathBuf::from(std::env::var("ARBITER_LOOK").unwrap());
    let mut map = Map::embedded("standard").unwrap();
    map.drawing = Some(Arc::new(octagon_drawing(&map)));
    let position = Position::from_yaml(
        &map,
        "phase: Fall 1901\nunits:\n  france: [A bur, F mao, A par]\n  germany: [A mun, A ruh, F hol]\n  england: [F nth, F eng, A yor]\n  italy: [A ven, A tyr]\n  austria: [A vie, F tri]\n  russia: [F stp/sc, A war]\n  turkey: [F bla, A con]\nowners:\n  france: [par, bre, mar, spa]\n",
    )
    .unwrap();
    let orders = parse_orders(
        &map,
        "France: A bur - bel\nFrance: A par - bur\nFrance: F mao - spa/nc\nGermany: A mun - bur\nGermany: A ruh S A mun - bur\nGermany: F hol - bel\nEngland: F nth C A yor - nwy\nEngland: A yor - nwy\nEngland: F eng H\nItaly: A ven - tri\nItaly: A tyr S A ven - tri\nAustria: F tri H\nAustria: A vie S F tri\nRussia: F stp/sc - bot\nTurkey: F bla - rum\n",
    );
    let (result, _) = advance(&map, Rules::default(), &position, &orders.orders, None).unwrap();
    let svg = render::svg(&map, &scene(&position, Some(&result), BOARD, false)).unwrap();
    std::fs::write(dir.join("geo.png"), render::png(&svg).unwrap()).unwrap();
}

#[test]
fn dislodged_units_stand_beside_their_province_with_retreat_arrows_and_builds_are_marked() {
    let map = standard();
    let d = map.drawing.clone().unwrap();
    let fr = render::frame(&map, &d);
    // Germany dislodges the French army in Burgundy (2 against 1).
    let position = Position::from_yaml(
        &map,
        "phase: Spring 1901\nunits:\n  france: [A bur]\n  germany: [A mun, A ruh]\n",
    )
    .unwrap();
    let orders = parse_orders(&map, "Germany: A mun - bur\nGermany: A ruh S A mun - bur\n");
    let (result, _) = advance(&map, Rules::default(), &position, &orders.orders, None).unwrap();
    let svg = render::svg(&map, &scene(&position, Some(&result), BOARD, false)).unwrap();
    let doc = parse(&svg);
    let dislodged: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g" && has_class(n, "dislodged"))
        .filter(|n| !n.ancestors().any(|a| a.attribute("id") == Some("legend")))
        .collect();
    assert_eq!(dislodged.len(), 1);
    let rect = dislodged[0]
        .children()
        .find(|c| c.tag_name().name() == "rect")
        .unwrap();
    // A red outline, away from Burgundy's unit point.
    assert_eq!(rect.attribute("stroke"), Some("#d7191c"));
    let x: f64 = rect.attribute("x").unwrap().parse().unwrap();
    let bur = map.prov_by_id("bur").unwrap();
    let (ux, _) = fr.at(d.shape(bur).unwrap().unit);
    assert!(
        (x + SYMBOL - ux).abs() > UNIT,
        "drawn beside, not on, its province"
    );
    // One short dashed arrow per retreat option.
    let options = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g" && has_class(n, "retreat-option"))
        .count();
    let retreats = result.dislodged()[0].retreats.len();
    assert!(retreats > 0);
    assert_eq!(options, retreats);

    // A build: ringed with a plus.
    let winter = Position::from_yaml(
        &map,
        "phase: Winter 1901\nunits:\n  france: [A bur]\nowners:\n  france: [par, bre]\n",
    )
    .unwrap();
    let result = judged(&map, &winter, "France: Build A par\n");
    let svg = render::svg(&map, &scene(&winter, Some(&result), BOARD, false)).unwrap();
    let doc = parse(&svg);
    let plus = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g" && has_class(n, "built-plus"))
        .count();
    assert_eq!(plus, 1);
}

/// Is `(x, y)` inside `rings` (even–odd)?
fn inside(rings: &[Vec<Point>], (x, y): Point) -> bool {
    let mut c = false;
    for r in rings {
        for (i, &(xi, yi)) in r.iter().enumerate() {
            let (xj, yj) = r[(i + r.len() - 1) % r.len()];
            if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
                c = !c;
            }
        }
    }
    c
}

/// A point well inside province `id` of the drawing, away from its unit, label and
/// centre marker and from its border (so no stroke or symbol covers it).
fn open_ground(d: &Drawing, map: &Map, id: &str) -> Point {
    let s = d.shape(map.prov_by_id(id).unwrap()).unwrap();
    let xs = s.rings.iter().flatten().map(|p| p.0);
    let ys = s.rings.iter().flatten().map(|p| p.1);
    let (x0, x1) = (
        xs.clone().fold(f64::MAX, f64::min),
        xs.fold(f64::MIN, f64::max),
    );
    let (y0, y1) = (
        ys.clone().fold(f64::MAX, f64::min),
        ys.fold(f64::MIN, f64::max),
    );
    let far = |a: Point, b: Point, r: f64| (a.0 - b.0).hypot(a.1 - b.1) > r;
    let mut marks = vec![s.unit, s.label];
    marks.extend(s.centre);
    for i in 0..60 {
        for j in 0..60 {
            let p = (
                x0 + (x1 - x0) * (f64::from(i) + 0.5) / 60.0,
                y0 + (y1 - y0) * (f64::from(j) + 0.5) / 60.0,
            );
            let ring_ok = [(-3.0, 0.0), (3.0, 0.0), (0.0, -3.0), (0.0, 3.0)]
                .iter()
                .all(|(dx, dy)| inside(&s.rings, (p.0 + dx, p.1 + dy)));
            if ring_ok && marks.iter().all(|&m| far(p, m, 15.0)) {
                return p;
            }
        }
    }
    panic!("no open ground in {id}")
}

/// The shipped classic board (its generated drawing, embedded): pixel probes find each
/// power's centre tint inside its home centres, the sea colour inside the seas and
/// plain land inside a neutral inland province.
#[test]
fn the_shipped_classic_board_is_coloured_by_owner() {
    let map = Map::embedded("standard").unwrap();
    let d = map.drawing.clone().unwrap();
    let position = Position::initial(&map);
    let svg = render::svg(&map, &scene(&position, None, BOARD, false)).unwrap();
    let pixmap = render::raster(&svg).unwrap();
    let fr = render::frame(&map, &d);
    for w in map.power_ids() {
        for p in map.provs().filter(|&p| map.province(p).home == Some(w)) {
            let id = map.province(p).id.clone();
            let at = fr.at(open_ground(&d, &map, &id));
            close(
                pixel(&pixmap, at),
                rgb(&render::centre_tint(w)),
                &format!("{} owns {id}", map.power(w).name),
            );
        }
    }
    for id in ["nth", "mao", "bla", "ion", "bal"] {
        close(
            pixel(&pixmap, fr.at(open_ground(&d, &map, id))),
            rgb(BOARD_SEA),
            id,
        );
    }
    for id in ["bur", "ukr", "boh"] {
        close(
            pixel(&pixmap, fr.at(open_ground(&d, &map, id))),
            rgb(render::BOARD_LAND),
            id,
        );
    }
}
