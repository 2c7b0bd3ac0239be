//! The legend: the title (the graph view's, below the board; the board view has its
//! title on top), each power with its colour, shape, centres and units, the key to
//! the symbols, and the problems `map check` found.

use std::fmt::Write as _;

use super::svg::{
    arrow, board_unit_symbol, cross, esc, glyph, n, power_colour, strip_titles, unit_symbol, Line,
    View, CENTRE_R, FONT, INK, LAND_FILL, NODE, PROBLEM, SEA_FILL, UNIT, WATER_EDGE,
};
use super::Scene;
use crate::map::{Loc, Map, Power, UnitKind};
use crate::state::{PhaseKind, Unit};

/// One entry of the key: its symbol (drawn round (0, 0), about 4 units wide) and
/// its text.
pub(super) type Item = (String, &'static str);

/// Where a legend's sample symbol stands.
pub(super) const SAMPLE: (f64, f64) = (1.5 * UNIT, 0.0);

/// The graph view's legend below the board: title, powers with colour, shape and
/// counts, the key to the symbols, the problems, in `room` wide (at least 1000).
/// Returns the SVG, its height and its width.
pub(super) fn legend(map: &Map, scene: &Scene, top: f64, room: f64) -> (String, f64, f64) {
    legend_with(map, scene, top, room, View::Graph, &graph_items(map, scene))
}

/// A legend for `view` with the key `items`.
pub(super) fn legend_with(
    map: &Map,
    scene: &Scene,
    top: f64,
    room: f64,
    view: View,
    items: &[Item],
) -> (String, f64, f64) {
    let mut o = String::new();
    let margin = 2.0 * UNIT;
    let min_w = room.max(1000.0);
    let _ = writeln!(o, "<g id=\"legend\" fill=\"{INK}\">");
    let mut y = match view {
        View::Graph => title(&mut o, map, scene, margin, top + 2.2 * UNIT),
        View::Board => top + 0.8 * UNIT,
    };
    y = powers(&mut o, map, scene, view, margin, min_w, y);
    y = key(&mut o, items, margin, min_w, y);
    y = problem_list(&mut o, scene, margin, y);
    o.push_str("</g>\n");
    (o, y - top, min_w)
}

/// The title and the map's name from baseline `y`; returns where the next part goes.
pub(super) fn title(o: &mut String, map: &Map, scene: &Scene, margin: f64, mut y: f64) -> f64 {
    let _ = writeln!(
        o,
        "<text class=\"title\" x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\">{}</text>",
        n(margin),
        n(y),
        n(1.7 * UNIT),
        esc(&scene.title)
    );
    y += 1.6 * UNIT;
    let sub = if map.title.is_empty() {
        map.name.clone()
    } else {
        format!("{} ({})", map.title, map.name)
    };
    let _ = writeln!(
        o,
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>",
        n(margin),
        n(y),
        n(FONT),
        esc(&sub)
    );
    y += 1.4 * UNIT;
    y
}

/// Each power: its colour, shape, unit symbols, centres and units.
fn powers(
    o: &mut String,
    map: &Map,
    scene: &Scene,
    view: View,
    margin: f64,
    min_w: f64,
    mut y: f64,
) -> f64 {
    let pos = scene.position;
    let col_w = 330.0;
    let cols = (((min_w - 2.0 * margin) / col_w).floor() as usize).max(1);
    let row_h = 2.3 * UNIT;
    let units_of = |w: Power| -> usize {
        match scene.result {
            Some(r) if r.phase.kind == PhaseKind::Movement => {
                r.units().iter().filter(|u| u.power == w).count()
            }
            _ => {
                pos.units.iter().filter(|u| u.power == w).count()
                    + pos.dislodged.iter().filter(|d| d.unit.power == w).count()
            }
        }
    };
    for (k, w) in map.power_ids().enumerate() {
        let (col, row) = (k % cols, k / cols);
        let x = margin + col as f64 * col_w;
        let yy = y + row as f64 * row_h + UNIT;
        swatch(o, w, x, yy, view);
        let army = Unit {
            power: w,
            kind: UnitKind::Army,
            loc: Loc(0),
        };
        let fleet = Unit {
            kind: UnitKind::Fleet,
            ..army
        };
        let mut sym = String::new();
        for (u, dx) in [(army, 2.6), (fleet, 4.9)] {
            match view {
                View::Graph => unit_symbol(&mut sym, map, &u, (x + dx * UNIT, yy), 1.0),
                View::Board => board_unit_symbol(&mut sym, map, &u, (x + dx * UNIT, yy), None),
            }
        }
        // The legend's symbols stand for no unit: no tooltip.
        o.push_str(&strip_titles(&sym));
        let centres = pos.owners.iter().filter(|&&x| x == Some(w)).count();
        let mut text = format!("{}: {} centre{}", map.power(w).name, centres, s(centres));
        if let Some(after) = scene.result.and_then(|r| r.owners_after.as_ref()) {
            let a = after.iter().filter(|&&x| x == Some(w)).count();
            if a != centres {
                let _ = write!(text, " (then {a})");
            }
        }
        if !scene.bare {
            let u = units_of(w);
            let _ = write!(text, ", {u} unit{}", s(u));
            if let Some((r, a)) = scene.result.and_then(|r| Some((r, r.adjustment()?))) {
                let gone = a
                    .removed
                    .iter()
                    .chain(a.civil_disorder.iter().map(|(i, _)| i))
                    .filter(|&&i| r.units().get(i).is_some_and(|u| u.power == w))
                    .count();
                let built = a.built.iter().filter(|u| u.power == w).count();
                if gone + built > 0 {
                    let _ = write!(text, " (then {})", u + built - gone.min(u + built));
                }
            }
        }
        let _ = writeln!(
            o,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>",
            n(x + 6.5 * UNIT),
            n(yy + 0.35 * FONT),
            n(FONT),
            esc(&text)
        );
    }
    let rows = map.powers.len().div_ceil(cols);
    y += rows as f64 * row_h + 1.0 * UNIT;

    y
}

/// A power's sample beside its name: the graph's centre marker (its colour and
/// shape), or on the board a square of the tint its centres are filled with.
fn swatch(o: &mut String, w: Power, x: f64, y: f64, view: View) {
    let colour = power_colour(w);
    match view {
        View::Graph => {
            let _ = writeln!(
                o,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\" stroke=\"{INK}\" stroke-width=\"1.2\"/>",
                n(x + CENTRE_R),
                n(y),
                n(CENTRE_R)
            );
            glyph(o, w.0 as usize, x + CENTRE_R, y, 0.5 * CENTRE_R, "#ffffff");
        }
        View::Board => {
            let _ = writeln!(
                o,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"1\"/>",
                n(x - 0.2 * UNIT),
                n(y - 0.7 * UNIT),
                n(1.4 * UNIT),
                n(1.4 * UNIT),
                super::svg::centre_tint(w)
            );
        }
    }
}

/// The graph view's key: its terrain, edges, named coasts, orders, problems.
fn graph_items(map: &Map, scene: &Scene) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    let mut add = |svg: String, text: &'static str| items.push((svg, text));
    let c = SAMPLE;
    let mut sea = String::new();
    let _ = write!(
        sea,
        "<circle cx=\"{}\" cy=\"0\" r=\"{}\" fill=\"{SEA_FILL}\" stroke=\"#8bbbd9\"/>",
        n(c.0),
        n(0.7 * NODE)
    );
    add(sea, "sea");
    let sq = |fill: &str, stroke: &str, sw: f64| {
        format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            n(c.0 - 0.7 * NODE),
            n(-0.7 * NODE),
            n(1.4 * NODE),
            n(1.4 * NODE),
            n(sw)
        )
    };
    add(sq(LAND_FILL, "#a89466", 1.0), "land");
    add(sq(LAND_FILL, WATER_EDGE, 2.2), "coast");
    add(sq("#9e9e9e", "#555555", 1.0), "impassable");
    add(
        format!(
            "<circle cx=\"{}\" cy=\"0\" r=\"{}\" fill=\"#ffffff\" stroke=\"{INK}\" stroke-width=\"1.2\"/><circle cx=\"{}\" cy=\"0\" r=\"{}\" fill=\"{INK}\"/>",
            n(c.0),
            n(CENTRE_R),
            n(c.0),
            n(0.3 * CENTRE_R)
        ),
        "unowned centre",
    );
    let line = |style: &str| {
        format!(
            "<line x1=\"0\" y1=\"0\" x2=\"{}\" y2=\"0\" {style}/>",
            n(3.0 * UNIT)
        )
    };
    add(
        line("stroke=\"#7a7a7a\" stroke-width=\"1.4\""),
        "army and fleet",
    );
    add(
        line("stroke=\"#8c510a\" stroke-width=\"2\" stroke-dasharray=\"2 3\""),
        "army only",
    );
    add(
        line("stroke=\"#0072B2\" stroke-width=\"1.6\" stroke-dasharray=\"7 4\""),
        "fleet only",
    );
    if !map.coasts.is_empty() {
        add(
            format!(
                "<circle cx=\"{}\" cy=\"0\" r=\"{}\" fill=\"{SEA_FILL}\" stroke=\"{WATER_EDGE}\" stroke-width=\"1.5\"/>",
                n(c.0),
                n(0.4 * UNIT)
            ),
            "named coast",
        );
    }
    if !scene.bare {
        for (sym, text) in arrow_items() {
            add(sym, text);
        }
        add(
            format!(
                "<circle cx=\"{}\" cy=\"0\" r=\"{}\" fill=\"#ffffff\" stroke=\"{INK}\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>",
                n(c.0),
                n(0.9 * UNIT)
            ),
            "dislodged",
        );
        add(
            format!(
                "<circle cx=\"{}\" cy=\"0\" r=\"{}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"2.2\"/>",
                n(c.0),
                n(0.9 * UNIT)
            ),
            "built",
        );
        add(
            format!(
                "<line x1=\"0\" y1=\"0\" x2=\"{}\" y2=\"0\" stroke=\"#777777\" stroke-width=\"1.6\" stroke-dasharray=\"1 3\" stroke-linecap=\"round\"/>",
                n(3.0 * UNIT)
            ),
            "retreat option",
        );
        let mut x = String::new();
        cross(&mut x, c, 0.6 * UNIT, "");
        add(strip_titles(&x), "removed / disbanded");
    }
    if let Some((sym, text)) = problem_item(scene) {
        add(sym, text);
    }
    items
}

/// The key to the order arrows: move, support, convoy, failed.
pub(super) fn arrow_items() -> Vec<Item> {
    let demo = |line: Line, failed: bool| {
        let (mut a, mut m) = (String::new(), String::new());
        arrow(
            &mut a,
            &mut m,
            (-0.9 * UNIT, 0.0),
            (3.9 * UNIT, 0.0),
            "#777777",
            line,
            failed,
            "",
        );
        strip_titles(&(a + &m))
    };
    vec![
        (demo(Line::Move, false), "move"),
        (demo(Line::Support, false), "support"),
        (demo(Line::Convoy, false), "convoy"),
        (demo(Line::Move, true), "failed"),
    ]
}

/// The key's entry for the problems' rings, when there are problems.
pub(super) fn problem_item(scene: &Scene) -> Option<Item> {
    (!scene.problems.is_empty()).then(|| {
        (
            format!(
                "<circle cx=\"{}\" cy=\"0\" r=\"{}\" fill=\"none\" stroke=\"{PROBLEM}\" stroke-width=\"3\" stroke-dasharray=\"5 2\"/>",
                n(SAMPLE.0),
                n(UNIT)
            ),
            "problem",
        )
    })
}

/// The key's entries in rows from `y`; returns where the next part goes.
fn key(o: &mut String, items: &[Item], margin: f64, min_w: f64, mut y: f64) -> f64 {
    let mut x = margin;
    y += 0.8 * UNIT;
    for (sym, text) in items {
        let w = 4.6 * UNIT + super::labels::text_width(text, FONT) + 1.5 * UNIT;
        if x + w > min_w - margin && x > margin {
            x = margin;
            y += 2.2 * UNIT;
        }
        let _ = writeln!(
            o,
            "<g transform=\"translate({},{})\">{sym}</g><text x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>",
            n(x),
            n(y),
            n(x + 4.6 * UNIT),
            n(y + 0.35 * FONT),
            n(FONT),
            esc(text)
        );
        x += w;
    }
    y += 2.0 * UNIT;

    y
}

/// The problems, numbered as on the board, from `y`; returns where the next part goes.
fn problem_list(o: &mut String, scene: &Scene, margin: f64, mut y: f64) -> f64 {
    // Problems, numbered as on the board.
    if !scene.problems.is_empty() {
        let _ = writeln!(
            o,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"{PROBLEM}\">{} problem{} found by map check:</text>",
            n(margin),
            n(y),
            n(FONT * 1.1),
            scene.problems.len(),
            s(scene.problems.len())
        );
        y += 1.4 * UNIT;
        for (k, p) in scene.problems.iter().enumerate() {
            let _ = writeln!(
                o,
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\">{}. {}</text>",
                n(margin),
                n(y),
                n(FONT),
                k + 1,
                esc(&p.text)
            );
            y += 1.3 * UNIT;
        }
        y += 0.6 * UNIT;
    }
    y
}

fn s(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
