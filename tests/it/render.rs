//! Pictures of the board (`arbiter::render`, `arbiter render`, `judge --svg`,
//! `map show --svg`): well-formed SVG on every board and every phase of the example
//! game, pixel probes of the rasterised PNG, labels clear of units, a snapshot of a
//! small fixed position, and the errors.

use std::path::{Path, PathBuf};

use arbiter::game::advance;
use arbiter::judge::Rules;
use arbiter::map::{Map, Prov, EMBEDDED};
use arbiter::orders::parse_orders;
use arbiter::render::{self, layout, power_colour, CENTRE_R, SYMBOL, UNIT};
use arbiter::state::Position;

use crate::common::svg::{has_class, judged, parse, render_fixture, rgb, scene};
use crate::common::{arbiter, code, stderr, temp_dir};

/// The boxes of the unit symbols in a parsed SVG (from their shapes' coordinates).
fn unit_boxes(doc: &roxmltree::Document) -> Vec<(f64, f64, f64, f64)> {
    let mut out = Vec::new();
    for g in doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g" && has_class(n, "unit"))
    {
        // Skip the legend's samples.
        if g.ancestors().any(|a| a.attribute("id") == Some("legend")) {
            continue;
        }
        let shape = g
            .children()
            .find(|c| matches!(c.tag_name().name(), "rect" | "polygon"))
            .expect("a unit has a shape");
        let f = |a: &str| shape.attribute(a).unwrap().parse::<f64>().unwrap();
        if shape.tag_name().name() == "rect" {
            out.push((f("x"), f("y"), f("x") + f("width"), f("y") + f("height")));
        } else {
            let pts: Vec<(f64, f64)> = shape
                .attribute("points")
                .unwrap()
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            let x0 = pts.iter().map(|p| p.0).fold(f64::MAX, f64::min);
            let x1 = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max);
            let y0 = pts.iter().map(|p| p.1).fold(f64::MAX, f64::min);
            let y1 = pts.iter().map(|p| p.1).fold(f64::MIN, f64::max);
            out.push((x0, y0, x1, y1));
        }
    }
    out
}

/// A box: x0, y0, x1, y1.
type Box4 = (f64, f64, f64, f64);

fn overlap(a: &Box4, b: &Box4) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The boxes of what resvg draws (with the embedded font): each label's ink (its
/// text and the glyphs' outline box), and each unit symbol on the board.
fn drawn_boxes(svg: &str) -> (Vec<(String, Box4)>, Vec<Box4>) {
    use resvg::usvg;
    let mut opt = usvg::Options {
        font_family: render::FONT_FAMILY.to_string(),
        ..Default::default()
    };
    opt.fontdb_mut().load_font_data(render::FONT.to_vec());
    let tree = usvg::Tree::from_str(svg, &opt).unwrap();
    fn find<'a>(g: &'a usvg::Group, id: &str) -> Option<&'a usvg::Group> {
        if g.id() == id {
            return Some(g);
        }
        g.children().iter().find_map(|n| match n {
            usvg::Node::Group(c) => find(c, id),
            _ => None,
        })
    }
    let b4 = |r: usvg::Rect| {
        (
            f64::from(r.left()),
            f64::from(r.top()),
            f64::from(r.right()),
            f64::from(r.bottom()),
        )
    };
    let mut labels = Vec::new();
    if let Some(g) = find(tree.root(), "labels") {
        for n in g.children() {
            if let usvg::Node::Text(t) = n {
                let text: String = t.chunks().iter().map(|c| c.text()).collect();
                labels.push((text, b4(t.flattened().abs_bounding_box())));
            }
        }
    }
    let mut units = Vec::new();
    for id in ["units", "dislodged"] {
        if let Some(g) = find(tree.root(), id) {
            for n in g.children() {
                if let usvg::Node::Group(u) = n {
                    units.push(b4(u.abs_bounding_box()));
                }
            }
        }
    }
    (labels, units)
}

/// No label (province, coast, retreat list) overlaps a unit symbol or another label,
/// as resvg draws them with the embedded font.
fn assert_labels_clear(svg: &str, what: &str) {
    let (labels, units) = drawn_boxes(svg);
    assert!(!labels.is_empty(), "{what}: no labels");
    assert!(
        labels.iter().all(|(_, b)| b.2 > b.0 && b.3 > b.1),
        "{what}: a label with no ink"
    );
    for (i, (text, b)) in labels.iter().enumerate() {
        for u in &units {
            assert!(
                !overlap(b, u),
                "{what}: label `{text}` {b:?} overlaps the unit at {u:?}"
            );
        }
        for (other, c) in &labels[i + 1..] {
            assert!(
                !overlap(b, c),
                "{what}: label `{text}` {b:?} overlaps label `{other}` {c:?}"
            );
        }
    }
}

#[test]
fn the_label_check_finds_labels_that_touch() {
    // Two labels a few pixels apart, as BUR and RUH once were on world1914, and a
    // label on a unit: each is caught.
    let svg = |a: &str, b: &str| {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"100\"><g id=\"units\"><g class=\"unit army\"><rect x=\"150\" y=\"40\" width=\"20\" height=\"16\"/></g></g><g id=\"labels\" font-size=\"11.4\" text-anchor=\"middle\">{a}{b}</g></svg>"
        )
    };
    let bur = "<text x=\"50\" y=\"50\">BUR</text>";
    assert_labels_clear(&svg(bur, "<text x=\"50\" y=\"70\">RUH</text>"), "apart");
    for (b, what) in [
        ("<text x=\"72\" y=\"50\">RUH</text>", "touching"),
        ("<text x=\"160\" y=\"52\">KIE</text>", "on a unit"),
    ] {
        let s = svg(bur, b);
        assert!(
            std::panic::catch_unwind(|| assert_labels_clear(&s, what)).is_err(),
            "{what} not caught"
        );
    }
}

#[test]
fn every_board_draws_well_formed_with_every_province_labelled_and_units_clear() {
    for (name, _, _) in EMBEDDED {
        let map = Map::embedded(name).unwrap();
        let position = Position::initial(&map);
        let svg = render::svg(&map, &scene(&position, None, name, true)).unwrap();
        let doc = parse(&svg);
        let labels: Vec<&str> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "text")
            .filter_map(|n| n.text())
            .collect();
        for p in map.provs() {
            let id = map.province(p).id.to_uppercase();
            assert!(labels.contains(&id.as_str()), "{name}: no label {id}");
        }
        assert_eq!(unit_boxes(&doc).len(), position.units.len(), "{name}");
        assert_labels_clear(&svg, name);
        // Only the world's board has edges round the back (drawn as stubs).
        let wraps = doc.descendants().filter(|n| has_class(n, "wrap")).count();
        assert_eq!(
            wraps > 0,
            *name == "world1914",
            "{name}: {wraps} wrap stubs"
        );
        // The same picture twice is the same text (snapshots and diffs rely on it).
        assert_eq!(
            svg,
            render::svg(&map, &scene(&position, None, name, true)).unwrap()
        );
    }
}

#[test]
fn layout_keeps_locations_apart_on_every_board() {
    for (name, _, _) in EMBEDDED {
        let map = Map::embedded(name).unwrap();
        let lay = layout(&map);
        let mut min = f64::MAX;
        for i in 0..lay.points.len() {
            for j in i + 1..lay.points.len() {
                let (a, b) = (lay.points[i], lay.points[j]);
                min = min.min(((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt());
            }
        }
        // Two unit symbols side by side need 2.4 units; the layout keeps about 3.6,
        // and on the crowded world, where labels need the room, about 4.6.
        let least = if *name == "world1914" { 4.2 } else { 3.0 };
        assert!(min >= least * UNIT, "{name}: two locations {min:.1} apart");
        // Small enough to print: the world, evened out, is not much wider than the
        // classic board's twice.
        assert!(lay.width < 2700.0, "{name}: {} wide", lay.width);
        for &(x, y) in &lay.points {
            assert!(
                x > 0.0 && y > 0.0 && x < lay.width && y < lay.height,
                "{name}"
            );
        }
    }
}

/// Orders for several powers on the world's crowded European corner: moves,
/// supports to a move and a bounce.
const WORLD_ORDERS: &str = "\
Germany: A mun - bur
Germany: A ber - sil
Germany: F kie - hol
France: A par - bur
France: A mar S A par - bur
France: F bre - eng
England: F lon - nth
England: A lvp - yor
Russia: A war - gal
Russia: F sev - bla
Austria: A vie - gal
Austria: A bud S A vie - gal
Austria: F tri - adr
Italy: A ven - tyr
Italy: F nap - ion
Turkey: F ank - bla
Turkey: A con - bul
China: A pek - man
USA: F mia - gom
";

#[test]
fn world_labels_clear_of_each_other_and_near_their_province_with_orders() {
    let map = Map::embedded("world1914").unwrap();
    let position = Position::initial(&map);
    let result = judged(&map, &position, WORLD_ORDERS);
    let svg = render::svg(&map, &scene(&position, Some(&result), "world orders", true)).unwrap();
    assert_labels_clear(&svg, "world1914 with orders");
    let doc = parse(&svg);
    let drawn = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g" && has_class(n, "order"))
        .filter(|n| !n.ancestors().any(|a| a.attribute("id") == Some("legend")))
        .count();
    assert_eq!(drawn, 19);
    // Each province's label is next to its node: nearer to it than to any other
    // location, and within about two symbols, or it has a leader line to it.
    let lay = layout(&map);
    let labels = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("labels"))
        .unwrap();
    let leaders: Vec<(f64, f64)> = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("leaders"))
        .unwrap()
        .children()
        .filter(|n| n.tag_name().name() == "line")
        .map(|l| {
            let f = |a: &str| l.attribute(a).unwrap().parse::<f64>().unwrap();
            (f("x1"), f("y1"))
        })
        .collect();
    assert!(leaders.len() <= 12, "{} leader lines", leaders.len());
    let d = |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let mut astray = Vec::new();
    for t in labels.children().filter(|c| c.tag_name().name() == "text") {
        let text = t.text().unwrap();
        let Some(p) = map.prov_by_id(&text.to_lowercase()) else {
            continue;
        };
        let at = lay.point(p.into());
        let x: f64 = t.attribute("x").unwrap().parse().unwrap();
        let y: f64 = t.attribute("y").unwrap().parse().unwrap();
        // The text's middle: its y is the baseline.
        let c = (x, y - 0.35 * 0.95 * UNIT);
        if leaders.iter().any(|&l| d(l, at) < 2.0 * UNIT) {
            continue;
        }
        let own = d(c, at);
        let nearest = lay.points.iter().map(|&q| d(c, q)).fold(f64::MAX, f64::min);
        if own > 3.0 * UNIT || nearest < own - 0.5 {
            astray.push(format!("{text} ({own:.1} from its node)"));
        }
    }
    assert!(astray.is_empty(), "labels astray: {astray:?}");
}

fn pixel(p: &render::RasterPixmap, (x, y): (f64, f64)) -> (u8, u8, u8, u8) {
    let c = p
        .pixel(x.round() as u32, y.round() as u32)
        .expect("inside the picture");
    (c.red(), c.green(), c.blue(), c.alpha())
}

fn close(a: (u8, u8, u8, u8), b: (u8, u8, u8), what: &str) {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).abs();
    assert!(
        d(a.0, b.0) <= 6 && d(a.1, b.1) <= 6 && d(a.2, b.2) <= 6 && a.3 == 255,
        "{what}: pixel {a:?}, expected {b:?}"
    );
}

/// A position on the classic board with units of four powers and a centre taken.
const PROBE_POSITION: &str = "\
phase: Fall 1901
units:
  england: [F nth, A yor]
  france: [A bur, F mao]
  russia: [F stp/sc]
  turkey: [A bul]
owners:
  england: [lon, edi, lvp, bel]
  france: [par, bre, mar]
  russia: [mos, sev, stp, war]
  turkey: [ank, con, smy]
";

/// The probes: inside each unit symbol beside the power's shape, inside each centre
/// marker beside its owner's shape, in a picture drawn `k` pixels per unit.
fn probe(map: &Map, pixmap: &render::RasterPixmap, k: f64, what: &str) {
    let lay = layout(map);
    let pixel = |p: &render::RasterPixmap, (x, y): (f64, f64)| pixel(p, (x * k, y * k));
    let position = Position::from_yaml(map, PROBE_POSITION).unwrap();
    for u in &position.units {
        let (x, y) = lay.point(u.loc);
        let at = (x - 0.72 * SYMBOL, y);
        close(
            pixel(pixmap, at),
            rgb(power_colour(u.power)),
            &format!("{what}: unit {}", map.loc_id(u.loc)),
        );
    }
    let centre = |id: &str| {
        let p: Prov = map.prov_by_id(id).unwrap();
        let (x, y) = lay.centre_marker(p);
        (x - 0.75 * CENTRE_R, y)
    };
    let england = map.power_by_name("england").unwrap();
    let turkey = map.power_by_name("turkey").unwrap();
    close(
        pixel(pixmap, centre("bel")),
        rgb(power_colour(england)),
        &format!("{what}: Belgium (English)"),
    );
    close(
        pixel(pixmap, centre("smy")),
        rgb(power_colour(turkey)),
        &format!("{what}: Smyrna (Turkish)"),
    );
    // Unowned: white.
    close(
        pixel(pixmap, centre("hol")),
        (255, 255, 255),
        &format!("{what}: Holland (unowned)"),
    );
    // Not every pixel is one colour: a probe between provinces finds the background.
    let bg = pixel(pixmap, (2.0, 2.0));
    close(bg, rgb("#fbfaf6"), &format!("{what}: background"));
}

#[test]
fn png_has_the_power_colours_at_units_and_centres() {
    let map = Map::standard();
    let position = Position::from_yaml(&map, PROBE_POSITION).unwrap();
    let svg = render::svg(&map, &scene(&position, None, "probe", true)).unwrap();
    let pixmap = render::raster(&svg).unwrap();
    probe(&map, &pixmap, 1.0, "library");

    // The same through the binary's --png.
    let dir = temp_dir("png");
    let pos = dir.join("position.yaml");
    std::fs::write(&pos, PROBE_POSITION).unwrap();
    let out = dir.join("probe.png");
    let o = arbiter(&[
        "render",
        "--position",
        pos.to_str().unwrap(),
        "--graph",
        "--png",
        "-o",
        out.to_str().unwrap(),
    ]);
    code(&o, 0);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let decoded = render::RasterPixmap::decode_png(&bytes).unwrap();
    // The PNG is 1600 pixels wide (the default), the SVG's picture scaled to it.
    assert_eq!(decoded.width(), render::PNG_WIDTH);
    let k = f64::from(decoded.width()) / f64::from(pixmap.width());
    probe(&map, &decoded, k, "--png");
}

#[test]
fn png_text_is_drawn_with_the_embedded_font() {
    // A label's pixels are dark ink: without a font, nothing would be drawn there.
    let map = render_fixture();
    let position = Position::initial(&map);
    let svg = render::svg(&map, &scene(&position, None, "font", true)).unwrap();
    let doc = parse(&svg);
    let title = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("title"))
        .unwrap();
    let x: f64 = title.attribute("x").unwrap().parse().unwrap();
    let y: f64 = title.attribute("y").unwrap().parse().unwrap();
    let pixmap = render::raster(&svg).unwrap();
    let dark = (0..200)
        .flat_map(|dx| (0..14).map(move |dy| (x + f64::from(dx), y - f64::from(dy))))
        .filter(|&p| pixel(&pixmap, p).0 < 80)
        .count();
    assert!(dark > 100, "only {dark} dark pixels where the title is");
}

/// The fixed position of the snapshot on the small board: a supported attack that
/// dislodges, a bounce, a support.
fn fixture_result(map: &Map) -> (Position, arbiter::game::PhaseResult) {
    let position = Position::from_yaml(
        map,
        "phase: Spring 1901\nunits:\n  red: [A aaa, A bbb]\n  blue: [A ccc, F sss]\n",
    )
    .unwrap();
    let result = judged(map, &position, "Red: A aaa - ccc\nRed: A bbb S A aaa - ccc\nBlue: A ccc - aaa\nBlue: F sss S A ccc - aaa\n");
    (position, result)
}

#[test]
fn snapshot_of_a_small_fixed_position() {
    let map = render_fixture();
    let (position, result) = fixture_result(&map);
    let svg = render::svg(
        &map,
        &scene(&position, Some(&result), "Spring 1901 movement: test", true),
    )
    .unwrap();
    let doc = parse(&svg);
    // Names with `&`, `<` and quotes are escaped, and read back as written.
    let titles: Vec<&str> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "title")
        .filter_map(|n| n.text())
        .collect();
    assert!(titles.contains(&"Alpha & Omega (aaa)"), "{titles:?}");
    assert!(titles.contains(&"Beta <inland> (bbb)"), "{titles:?}");
    assert!(titles.contains(&"Gamma \"Port\" (ccc)"), "{titles:?}");
    // Four orders drawn; the two moves bounce (a head-to-head of equal strength)
    // and are crossed out.
    let orders: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g" && has_class(n, "order"))
        .filter(|n| !n.ancestors().any(|a| a.attribute("id") == Some("legend")))
        .collect();
    assert_eq!(orders.len(), 4);
    assert_eq!(orders.iter().filter(|n| has_class(n, "failed")).count(), 2);
    assert_labels_clear(&svg, "fixture");
    insta::assert_snapshot!("render_small_position", svg);
}

#[test]
fn dislodged_units_are_drawn_beside_their_province_with_their_retreats() {
    let map = Map::standard();
    let position = Position::from_yaml(
        &map,
        "phase: Spring 1901\nunits:\n  france: [A bur, A par]\n  germany: [A mun, A ruh]\n",
    )
    .unwrap();
    let orders = parse_orders(&map, "Germany: A mun - bur\nA ruh S A mun - bur\n");
    let (result, next) = advance(&map, Rules::default(), &position, &orders.orders, None).unwrap();
    assert_eq!(result.dislodged().len(), 1);
    for (pos, res, what) in [
        (&position, Some(&result), "movement"),
        (&next, None, "retreat position"),
    ] {
        let svg = render::svg(&map, &scene(pos, res, what, true)).unwrap();
        let doc = parse(&svg);
        let group = doc
            .descendants()
            .find(|n| n.attribute("id") == Some("dislodged"))
            .unwrap();
        let options = group
            .descendants()
            .filter(|n| has_class(n, "retreat-option"))
            .count();
        // Burgundy's retreats: Belgium, Gascony, Marseilles, Picardy (not Paris, held;
        // not Munich, the attacker's province; not Ruhr).
        assert_eq!(options, 4, "{what}");
        assert!(svg.contains("retreat: BEL GAS MAR PIC"), "{what}");
        // The dislodged unit is not where the attacker arrives.
        let lay = layout(&map);
        let bur = lay.point(map.loc_by_id("bur").unwrap());
        let ring = group
            .descendants()
            .find(|n| has_class(n, "dislodged"))
            .unwrap();
        let cx: f64 = ring.attribute("cx").unwrap().parse().unwrap();
        let cy: f64 = ring.attribute("cy").unwrap().parse().unwrap();
        assert!(((cx - bur.0).powi(2) + (cy - bur.1).powi(2)).sqrt() > 1.5 * UNIT);
        assert_labels_clear(&svg, what);
    }
}

/// Play the example game (examples/game/) into a game file; returns it.
fn play_example(dir: &Path) -> PathBuf {
    let game = dir.join("demo.yaml");
    code(
        &arbiter(&["new", game.to_str().unwrap(), "--name", "demo"]),
        0,
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/game");
    let mut phases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    phases.sort();
    for (k, p) in phases.iter().enumerate() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let svg = dir.join(format!("judged-{k}.svg"));
        let mut args = vec![
            "judge".to_string(),
            game.display().to_string(),
            "--svg".into(),
            svg.display().to_string(),
        ];
        // `--png` is the twin of `--svg`: the first phase draws both.
        let png = dir.join(format!("judged-{k}.png"));
        if k == 0 {
            args.extend(["--png".to_string(), png.display().to_string()]);
        }
        args.extend(files.iter().map(|f| f.display().to_string()));
        // Turkey's illegal build in Winter 1901 is judged as the referee accepts it.
        if p.ends_with("4-winter-1901") {
            args.push("--accept".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        code(&arbiter(&args), 0);
        parse(&std::fs::read_to_string(&svg).unwrap());
        if k == 0 {
            let bytes = std::fs::read(&png).unwrap();
            assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
        }
    }
    game
}

#[test]
fn every_phase_of_the_example_game_has_a_sheet_and_a_picture() {
    let dir = temp_dir("game");
    let game = play_example(&dir);
    let g = game.to_str().unwrap();
    let phases = [
        "Spring 1901",
        "Fall 1901",
        "Fall 1901 retreat",
        "Winter 1901",
        "Spring 1902",
        "Spring 1902 retreat",
        "Fall 1902",
        "Winter 1902",
    ];
    for (k, phase) in phases.iter().enumerate() {
        let sheet = arbiter(&["history", g, phase]);
        code(&sheet, 0);
        assert!(!sheet.stdout.is_empty());
        let out = dir.join(format!("{k}.svg"));
        code(
            &arbiter(&["render", g, "--phase", phase, "-o", out.to_str().unwrap()]),
            0,
        );
        let svg = std::fs::read_to_string(&out).unwrap();
        parse(&svg);
        // The graph view's labels clear of every unit and retreat arrow (the board
        // view's are held by tests/it/board_picture.rs).
        let graph = arbiter(&["render", g, "--phase", phase, "--graph"]);
        code(&graph, 0);
        assert_labels_clear(&String::from_utf8(graph.stdout).unwrap(), phase);
        // `judge --svg` drew the same picture when the phase was judged.
        let judged = std::fs::read_to_string(dir.join(format!("judged-{k}.svg"))).unwrap();
        assert_eq!(svg, judged, "{phase}");
        let png = arbiter(&["render", g, "--phase", phase, "--png"]);
        code(&png, 0);
        assert!(
            render::RasterPixmap::decode_png(&png.stdout).is_ok(),
            "{phase}"
        );
    }
    // The default is the last phase judged.
    let last = arbiter(&["render", g]);
    code(&last, 0);
    let expected = std::fs::read_to_string(dir.join("7.svg")).unwrap();
    assert_eq!(String::from_utf8(last.stdout).unwrap(), expected);
    // Fall 1901 has orders that failed and a unit dislodged.
    let f1901 = std::fs::read_to_string(dir.join("1.svg")).unwrap();
    assert!(f1901.contains("class=\"order move failed\""));
    // The board view: the dislodged unit's symbol is classed `dislodged`.
    assert!(f1901.contains(" dislodged\""));
}

#[test]
fn render_errors_name_the_problem_and_the_fix() {
    let dir = temp_dir("errors");
    let game = dir.join("demo.yaml");
    let g = game.to_str().unwrap();
    code(&arbiter(&["new", g, "--name", "demo"]), 0);
    // Nothing judged: the current position is drawn.
    let o = arbiter(&["render", g]);
    code(&o, 0);
    parse(&String::from_utf8(o.stdout).unwrap());

    let o = arbiter(&["render", g, "--phase", "Fall 1903"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("Fall 1903 movement has not been played yet"),
        "{e}"
    );
    assert!(
        e.contains("the phases that can be drawn are `Spring 1901 movement`"),
        "{e}"
    );

    let o = arbiter(&["render", g, "--phase", "Sommer 1901"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown phase `Sommer 1901`"),
        "{}",
        stderr(&o)
    );

    let o = arbiter(&["render", "no-such-game.yaml"]);
    assert_eq!(o.status.code(), Some(2));

    let o = arbiter(&["render", "--map", "no-such-map"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown map `no-such-map`"),
        "{}",
        stderr(&o)
    );

    // Orders that cannot be read are reported; the rest is drawn.
    let orders = dir.join("orders.txt");
    std::fs::write(&orders, "A Par - Burgandi\nA Mar - Spa\nA Ven Xyzzy\n").unwrap();
    let o = arbiter(&["render", "--orders", orders.to_str().unwrap()]);
    code(&o, 0);
    assert!(stderr(&o).contains("could not be read"), "{}", stderr(&o));
    let svg = String::from_utf8(o.stdout).unwrap();
    assert!(parse(&svg).descendants().any(|n| has_class(&n, "move")));

    // An unwritable output is an error, and nothing is left behind.
    let o = arbiter(&["render", "-o", "/no/such/dir/x.svg"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn map_show_svg_draws_the_graph_and_rings_the_problems() {
    let dir = temp_dir("map");
    let out = dir.join("map.svg");
    let o = arbiter(&[
        "map",
        "show",
        "standard",
        "--svg",
        out.to_str().unwrap(),
        "--graph",
    ]);
    code(&o, 0);
    let svg = std::fs::read_to_string(&out).unwrap();
    let doc = parse(&svg);
    let map = Map::standard();
    // Every edge drawn: one line per adjacent pair (two where a named coast makes the
    // fleet edge go from the coast), and no unit.
    let lines = |class: &str| {
        doc.descendants()
            .filter(|n| n.tag_name().name() == "line" && has_class(n, class))
            .count()
    };
    let mut pairs = 0;
    for p in map.provs() {
        for q in map.provs().filter(|q| q.0 > p.0) {
            let fleet = map.fleet_reach_any(p).contains(q);
            if map.army_adjacent(p, q) || fleet {
                pairs += 1;
            }
        }
    }
    assert!(lines("both") + lines("army") + lines("fleet") >= pairs);
    assert!(lines("army") > 0 && lines("fleet") > 0 && lines("both") > 0);
    assert!(unit_boxes(&doc).is_empty());
    // The classic board's findings are notes (its canals): each is ringed.
    let findings = arbiter::mapcheck::check(arbiter::map::STANDARD_YAML, "standard", None);
    let named = findings
        .iter()
        .filter(|f| render::problem_province(&map, &f.key).is_some())
        .count();
    assert!(named > 0);
    let rings = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("problems"))
        .expect("problems drawn")
        .children()
        .filter(|n| n.tag_name().name() == "circle")
        .count();
    assert_eq!(rings, named);

    // A map whose check finds a problem: the province is ringed and the problem listed.
    let out = dir.join("isolated.svg");
    let o = arbiter(&[
        "map",
        "show",
        "test-cases/maps/isolated-province.ymap",
        "--svg",
        out.to_str().unwrap(),
    ]);
    code(&o, 0);
    let svg = std::fs::read_to_string(&out).unwrap();
    let doc = parse(&svg);
    let rings = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("problems"))
        .expect("problems drawn")
        .children()
        .filter(|n| n.tag_name().name() == "circle")
        .count();
    assert_eq!(rings, 1);
    assert!(
        svg.contains("ISOLATED_PROVINCE"),
        "the legend lists the problem"
    );
}
