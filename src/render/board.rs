//! The board view: the map's [`Drawing`] as a table expects it. Provinces are filled
//! outlines (seas blue, impassable land hatched); every supply centre is filled with a
//! tint of its owner's colour, other land with a lighter tint of the power whose unit
//! stands in it, else plain; centre markers, abbreviations at each province's label
//! point (moved off any unit), units in their power's colour with their letter, and
//! over them what both views draw (`overlay`: orders, dislodged units, retreats,
//! builds and removals). The phase title is on top, the legend below.
//!
//! Sizes follow the drawing's scale: the drawing is scaled so that its locations
//! crowd no closer than a few unit symbols ([`frame`]), and every symbol and font is
//! sized in those units.

// Indexes per-province and per-location tables built here from the same map (one
// entry per id); a scene's ids were checked by `svg`.
#![allow(clippy::indexing_slicing)]

use std::fmt::Write as _;

use super::labels::{baseline, Placer, Rect};
use super::legend::{self, Item, SAMPLE};
use super::overlay::{self, Drawn};
use super::svg::{
    board_unit_box, cross, esc, n, power_colour, strip_titles, Point, View, CENTRE_R, FAIL, FONT,
    INK, UNIT,
};
use super::{Layout, Scene};
use crate::map::drawing::{Drawing, Ring};
use crate::map::{Map, Prov, Terrain};

/// Sea, as the board fills it.
pub const BOARD_SEA: &str = "#bcd4e6";
/// Land nobody owns or holds.
pub const BOARD_LAND: &str = "#e8e0c8";
/// Province borders.
const BORDER: &str = "#3c3c3c";
/// Sea labels.
const SEA_TEXT: &str = "#2a5d86";

/// The picture a board is drawn to fit: the drawing scaled by `scale`, moved down
/// by `top` (the title above it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub scale: f64,
    pub top: f64,
    /// The board's size in the picture.
    pub width: f64,
    pub height: f64,
}

impl Frame {
    /// Where a point of the drawing is in the picture (the SVG's user units, which
    /// are the PNG's pixels).
    pub fn at(&self, (x, y): Point) -> Point {
        (x * self.scale, y * self.scale + self.top)
    }
}

/// The board's width in the picture, at least and at most: a sparse board is drawn
/// large enough to read, a dense one (world1914) no larger than a screen or two.
const MIN_WIDTH: f64 = 1200.0;
const MAX_WIDTH: f64 = 3200.0;

/// How a drawing of `map` is fitted to the picture: scaled so that nine in ten of
/// its locations stand at least four units from their nearest neighbour (room for a
/// unit and a label), within [`MIN_WIDTH`]..[`MAX_WIDTH`]; the title band on top.
pub fn frame(map: &Map, d: &Drawing) -> Frame {
    let pts: Vec<Point> = map.locs().map(|l| d.point(l)).collect();
    let near = super::nearest_distances(&pts);
    let w = d.width.max(1.0);
    let d10 = near
        .get(near.len() / 10)
        .copied()
        .unwrap_or(w / 8.0)
        .max(w / 2000.0);
    let width = (w * 3.0 * UNIT / d10).clamp(MIN_WIDTH, MAX_WIDTH);
    let scale = width / w;
    let k = legend_scale(width);
    Frame {
        scale,
        top: 4.4 * UNIT * k,
        width,
        height: d.height.max(1.0) * scale,
    }
}

/// How much larger the title and legend are drawn on a wide board (so that they
/// read at the size of its labels when the picture is printed to fit a page).
fn legend_scale(width: f64) -> f64 {
    (width / 1400.0).clamp(1.0, 2.0)
}

/// The board view of a scene (its ids already checked against `map`).
pub(super) fn board(map: &Map, scene: &Scene, d: &Drawing) -> String {
    let fr = frame(map, d);
    let lay = Layout {
        points: map.locs().map(|l| fr.at(d.point(l))).collect(),
        width: fr.width,
        height: fr.height,
    };
    let drawn = overlay::drawn_units(scene, &lay);
    let orders = overlay::orders(map, scene, &lay, &drawn, View::Board);
    let mut marks = orders.marks;
    let mut under = String::new();
    provinces(&mut under, map, scene, d, &fr);
    centres(&mut under, map, scene, d, &fr);
    let (units, retreat_labels) = overlay::units(map, &lay, &drawn, &mut marks, View::Board);
    // Retreat options are drawn as arrows from the dislodged unit: labels keep off
    // them as off the orders.
    let mut lines = orders.lines;
    for d in &drawn {
        for &l in d.retreats.iter().flatten() {
            lines.push((d.at, lay.point(l)));
        }
    }
    let placer = Placer {
        units: drawn.iter().map(|d| board_unit_box(d.at)).collect(),
        lines,
        ..Placer::default()
    };
    let (leaders, labels) = labels(map, d, &fr, &lay, &drawn, placer, &retreat_labels);
    let problems = super::graph::problems(scene, &lay);
    let body = super::svg::layers(
        under,
        &orders.arrows,
        units,
        &marks,
        leaders,
        labels,
        problems,
    );
    assemble(map, scene, &fr, &body)
}

/// Path data of rings in the picture: `M x,y L x,y … Z` per ring.
fn path(rings: &[Ring], fr: &Frame) -> String {
    let mut o = String::new();
    for ring in rings {
        for (i, &p) in ring.iter().enumerate() {
            let (x, y) = fr.at(p);
            let _ = write!(o, "{}{},{} ", if i == 0 { "M" } else { "L" }, n(x), n(y));
        }
        if !ring.is_empty() {
            o.push_str("Z ");
        }
    }
    o.trim_end().to_string()
}

/// What fills each province: seas blue, impassable hatched, a supply centre its
/// owner's tint, other land the lighter tint of the power whose unit stands in it,
/// else plain.
pub(super) fn fills(map: &Map, scene: &Scene) -> Vec<String> {
    let pos = scene.position;
    let mut occupant = vec![None; map.province_count()];
    if !scene.bare {
        for u in &pos.units {
            occupant[map.prov_of(u.loc).0 as usize] = Some(u.power);
        }
    }
    map.provs()
        .map(|p| match map.province(p).terrain {
            Terrain::Sea => BOARD_SEA.to_string(),
            Terrain::Impassable => "url(#impassable)".to_string(),
            Terrain::Land | Terrain::Coastal => {
                let owner = pos.owners.get(p.0 as usize).copied().flatten();
                match (map.province(p).supply, owner, occupant[p.0 as usize]) {
                    (true, Some(w), _) => super::svg::centre_tint(w),
                    (false, _, Some(w)) => super::svg::occupied_tint(w),
                    _ => BOARD_LAND.to_string(),
                }
            }
        })
        .collect()
}

/// The water and land that is no province, then every province's outline, filled.
fn provinces(o: &mut String, map: &Map, scene: &Scene, d: &Drawing, fr: &Frame) {
    // The outlines are clipped to the board (a drawing's shapes may reach past its
    // box; they must not cover the title).
    let _ = writeln!(
        o,
        "<defs><pattern id=\"impassable\" patternUnits=\"userSpaceOnUse\" width=\"{s}\" height=\"{s}\" patternTransform=\"rotate(45)\"><rect width=\"{s}\" height=\"{s}\" fill=\"#d8d2c2\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"{s}\" stroke=\"#8a8170\" stroke-width=\"{}\"/></pattern><clipPath id=\"board-clip\"><rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath></defs>",
        n(0.3 * UNIT),
        n(fr.top),
        n(fr.width),
        n(fr.height),
        s = n(0.7 * UNIT)
    );
    let _ = writeln!(
        o,
        "<rect id=\"board\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{BOARD_SEA}\"/>",
        n(fr.top),
        n(fr.width),
        n(fr.height)
    );
    let _ = writeln!(o, "<g id=\"provinces\" clip-path=\"url(#board-clip)\" stroke=\"{BORDER}\" stroke-width=\"0.9\" stroke-linejoin=\"round\" fill-rule=\"evenodd\">");
    if !d.water.is_empty() {
        let _ = writeln!(
            o,
            "<path class=\"water\" d=\"{}\" fill=\"{BOARD_SEA}\" stroke=\"none\"/>",
            path(&d.water, fr)
        );
    }
    if !d.land.is_empty() {
        let _ = writeln!(
            o,
            "<path class=\"land\" d=\"{}\" fill=\"{BOARD_LAND}\"/>",
            path(&d.land, fr)
        );
    }
    let fills = fills(map, scene);
    for p in map.provs() {
        let Some(shape) = d.shape(p) else { continue };
        let prov = map.province(p);
        let class = match prov.terrain {
            Terrain::Sea => "sea",
            Terrain::Coastal => "coast",
            Terrain::Land => "land",
            Terrain::Impassable => "impassable",
        };
        let _ = writeln!(
            o,
            "<path class=\"province {class}\" id=\"p-{}\" d=\"{}\" fill=\"{}\"><title>{} ({})</title></path>",
            esc(&prov.id),
            path(&shape.rings, fr),
            fills[p.0 as usize],
            esc(&prov.name),
            esc(&prov.id)
        );
    }
    o.push_str("</g>\n");
}

/// Where a province's centre marker goes: its drawing's centre point (or beside its
/// unit, if the drawing has none).
fn centre_at(d: &Drawing, fr: &Frame, p: Prov) -> Point {
    match d.shape(p) {
        Some(s) => fr.at(s.centre.unwrap_or((s.unit.0, s.unit.1))),
        None => (0.0, 0.0),
    }
}

/// A supply centre's marker: a ring filled with its owner's colour (white when
/// nobody owns it), round a dark dot.
fn centre_marker(o: &mut String, (x, y): Point, fill: &str, title: &str) {
    let _ = writeln!(
        o,
        "<g class=\"centre\"><title>{}</title><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{INK}\" stroke-width=\"1.3\"/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{INK}\"/></g>",
        esc(title),
        n(x),
        n(y),
        n(0.85 * CENTRE_R),
        n(x),
        n(y),
        n(0.25 * CENTRE_R)
    );
}

fn centres(o: &mut String, map: &Map, scene: &Scene, d: &Drawing, fr: &Frame) {
    let _ = writeln!(o, "<g id=\"centres\">");
    for p in map.provs().filter(|&p| map.province(p).supply) {
        let owner = scene.position.owners.get(p.0 as usize).copied().flatten();
        let title = format!(
            "{} supply centre, {}",
            map.province(p).name,
            owner.map_or("unowned".to_string(), |w| map.power(w).name.clone())
        );
        let fill = owner.map_or("#ffffff", power_colour);
        centre_marker(o, centre_at(d, fr, p), fill, &title);
    }
    o.push_str("</g>\n");
}

/// The labels: retreat lists first, then every province's abbreviation at its label
/// point (seas in italic), moved off any unit symbol or other label, then the named
/// coasts beside their point. Returns the leader lines and the labels.
fn labels(
    map: &Map,
    d: &Drawing,
    fr: &Frame,
    lay: &Layout,
    drawn: &[Drawn],
    mut placer: Placer,
    retreat_labels: &[(String, Point)],
) -> (String, String) {
    for p in map.provs().filter(|&p| map.province(p).supply) {
        placer
            .soft
            .push(Rect::around(centre_at(d, fr, p), CENTRE_R, CENTRE_R));
    }
    for d in drawn.iter().filter(|d| d.retreats.is_some()) {
        placer.soft.push(Rect::around(d.at, 1.4 * UNIT, 1.4 * UNIT));
    }
    let (mut labels, mut leaders) = overlay::open_labels(&mut placer, retreat_labels, 1.9 * UNIT);
    for p in map.provs() {
        let Some(shape) = d.shape(p) else { continue };
        let prov = map.province(p);
        let id = prov.id.to_uppercase();
        // Kept on the board (a label point past its edge would write over the title).
        let (x, y) = fr.at(shape.label);
        let at = (
            x.clamp(2.0 * FONT, (fr.width - 2.0 * FONT).max(2.0 * FONT)),
            y.clamp(
                fr.top + FONT,
                (fr.top + fr.height - FONT).max(fr.top + FONT),
            ),
        );
        let pl = placer.place_at(&id, FONT, at, 0.8 * UNIT);
        overlay::leader(&mut leaders, pl.leader);
        let style = if prov.terrain == Terrain::Sea {
            format!(" font-style=\"italic\" fill=\"{SEA_TEXT}\"")
        } else {
            String::new()
        };
        let _ = writeln!(
            labels,
            "<text class=\"province-label\" x=\"{}\" y=\"{}\"{style}>{}</text>",
            n(pl.centre.0),
            n(baseline(pl.centre.1, FONT)),
            esc(&id)
        );
    }
    let small = 0.7 * FONT;
    for (i, c) in map.coasts.iter().enumerate() {
        let at = lay.points[map.province_count() + i];
        let pl = placer.place(&c.id.to_uppercase(), small, at, 0.9 * UNIT, 0.5 * UNIT);
        overlay::leader(&mut leaders, pl.leader);
        let _ = writeln!(
            labels,
            "<circle class=\"named-coast\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{SEA_TEXT}\" stroke=\"none\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" font-style=\"italic\" fill=\"{SEA_TEXT}\">{}</text>",
            n(at.0),
            n(at.1),
            n(0.18 * UNIT),
            n(pl.centre.0),
            n(baseline(pl.centre.1, small)),
            n(small),
            esc(&c.id.to_uppercase())
        );
    }
    labels.push_str("</g>\n");
    leaders.push_str("</g>\n");
    (leaders, labels)
}

/// The board view's key: sea, land, impassable, centres, the orders and what
/// happens to units, the problems.
fn items(scene: &Scene) -> Vec<Item> {
    let c = SAMPLE;
    let sq = |fill: &str| {
        format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"{BORDER}\" stroke-width=\"0.9\"/>",
            n(c.0 - 0.9 * UNIT),
            n(-0.7 * UNIT),
            n(1.8 * UNIT),
            n(1.4 * UNIT)
        )
    };
    let mut items: Vec<Item> = vec![
        (sq(BOARD_SEA), "sea"),
        (sq(BOARD_LAND), "land"),
        (sq("url(#impassable)"), "impassable"),
    ];
    let mut m = String::new();
    centre_marker(&mut m, c, "#ffffff", "");
    items.push((strip_titles(&m), "unowned centre"));
    if !scene.bare {
        items.extend(legend::arrow_items());
        let ring = format!(
            "<circle cx=\"{}\" cy=\"0\" r=\"{}\" fill=\"none\" stroke=\"#777777\" stroke-width=\"2.2\"/>",
            n(c.0),
            n(0.9 * UNIT)
        );
        items.push((ring.clone(), "hold"));
        items.push((
            format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"#bbbbbb\" stroke=\"{FAIL}\" stroke-width=\"2.6\"/>",
                n(c.0 - 0.8 * UNIT),
                n(-0.8 * UNIT),
                n(1.6 * UNIT),
                n(1.6 * UNIT)
            ),
            "dislodged",
        ));
        items.push((
            format!(
                "<line x1=\"0\" y1=\"0\" x2=\"{}\" y2=\"0\" stroke=\"#777777\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/><polygon points=\"{},{} {},{} {},{}\" fill=\"#777777\"/>",
                n(2.4 * UNIT),
                n(3.0 * UNIT),
                n(0.0),
                n(2.4 * UNIT),
                n(-0.35 * UNIT),
                n(2.4 * UNIT),
                n(0.35 * UNIT)
            ),
            "retreat option",
        ));
        items.push((
            ring.replace("#777777", INK)
                + &format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\">+</text>",
                    n(c.0),
                    n(0.45 * UNIT),
                    n(1.3 * UNIT)
                ),
            "built",
        ));
        let mut x = String::new();
        cross(&mut x, c, 0.6 * UNIT, "");
        items.push((strip_titles(&x), "removed / disbanded"));
    }
    items.extend(legend::problem_item(scene));
    items
}

/// The whole picture: the title on top, the board, the legend below.
fn assemble(map: &Map, scene: &Scene, fr: &Frame, board: &str) -> String {
    let k = legend_scale(fr.width);
    let (mut legend, legend_h, legend_w) = legend::legend_with(
        map,
        scene,
        (fr.top + fr.height) / k,
        fr.width / k,
        View::Board,
        &items(scene),
    );
    let mut title = String::new();
    let _ = writeln!(title, "<g id=\"title\" fill=\"{INK}\">");
    legend::title(&mut title, map, scene, 2.0 * UNIT, 2.2 * UNIT);
    title.push_str("</g>\n");
    if k > 1.0 {
        legend = format!("<g transform=\"scale({k:.3})\">\n{legend}{title}</g>\n");
    } else {
        legend.push_str(&title);
    }
    let width = fr.width.max(legend_w * k);
    let height = fr.top + fr.height + legend_h * k;
    super::svg::document(&scene.title, (width, height), board, &legend)
}
