//! The SVG of a [`Scene`]: provinces by terrain, every edge by kind, supply centres in
//! their owner's colour and shape, units, the phase's orders with their outcomes,
//! dislodged units with their retreats, labels placed clear of units and of each
//! other (`labels`), and a legend.
//! Output is deterministic: fixed order, one decimal place.

// Drawing indexes the layout's point tables by the map's dense ids (one entry per
// location / province, built by `layout` from the same map) and by positions in
// vectors built here; a scene's position and orders are of that map (checked by
// `game::check_ids` when judged). An out-of-range index is a bug, not input.
#![allow(clippy::indexing_slicing)]

use std::fmt::Write as _;

use super::labels::{baseline, Placed, Placer, Rect};
use super::{dist, layout, Layout, Scene};
use crate::map::{Loc, Map, Power, Prov, Terrain, UnitKind};
use crate::orders::OrderKind;
use crate::state::{check_ids, ForeignIds, PhaseKind, Unit};

/// The base size of the drawing: a unit symbol is about 1.8 of these wide.
pub const UNIT: f64 = 12.0;
/// A province's node (terrain disc or square), half its size.
const NODE: f64 = 1.15 * UNIT;
/// A unit symbol, half its width.
pub const SYMBOL: f64 = 0.8 * UNIT;
/// Offset of a supply centre's marker from its province's point, in units.
pub(super) const CENTRE_DX: f64 = 1.15;
pub(super) const CENTRE_DY: f64 = -1.15;
/// A supply centre marker's radius.
pub const CENTRE_R: f64 = 0.45 * UNIT;
/// Label font size.
const FONT: f64 = 0.95 * UNIT;
/// Dark outline of symbols and arrows.
const INK: &str = "#1a1a1a";
/// The colour-blind-safe palette: Okabe–Ito first, then Paul Tol's muted colours.
const PALETTE: [&str; 14] = [
    "#D55E00", "#0072B2", "#56B4E9", "#4D4D4D", "#009E73", "#CC79A7", "#F0E442", "#E69F00",
    "#882255", "#44AA99", "#999933", "#332288", "#AA4499", "#DDCC77",
];
const SEA_FILL: &str = "#cfe6f5";
const LAND_FILL: &str = "#ece0bf";
const WATER_EDGE: &str = "#3b8fc4";
const PROBLEM: &str = "#e0002b";

/// A power's colour (the palette in map order, repeated after 14 powers, when the
/// shapes still tell them apart).
pub fn power_colour(p: Power) -> &'static str {
    PALETTE[p.0 as usize % PALETTE.len()]
}

/// A number as the SVG writes it: one decimal place, no `-0.0`.
fn n(x: f64) -> String {
    let s = format!("{:.1}", (x * 10.0).round() / 10.0);
    if s == "-0.0" {
        "0.0".to_string()
    } else {
        s
    }
}

/// Text for XML content or an attribute value.
fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

fn points(pts: &[(f64, f64)]) -> String {
    pts.iter()
        .map(|&(x, y)| format!("{},{}", n(x), n(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The points of a power's marker shape number `k`, centred on (x, y), radius r.
fn shape_points(k: usize, x: f64, y: f64, r: f64) -> Vec<(f64, f64)> {
    let regular = |sides: usize, rot: f64, r: f64| -> Vec<(f64, f64)> {
        (0..sides)
            .map(|i| {
                let a = rot + i as f64 * std::f64::consts::TAU / sides as f64;
                (x + r * a.cos(), y + r * a.sin())
            })
            .collect()
    };
    let up = -std::f64::consts::FRAC_PI_2;
    let cross = |rot: f64| -> Vec<(f64, f64)> {
        let w = 0.38 * r;
        let pts = [
            (-w, -r),
            (w, -r),
            (w, -w),
            (r, -w),
            (r, w),
            (w, w),
            (w, r),
            (-w, r),
            (-w, w),
            (-r, w),
            (-r, -w),
            (-w, -w),
        ];
        pts.iter()
            .map(|&(a, b)| {
                (
                    x + a * rot.cos() - b * rot.sin(),
                    y + a * rot.sin() + b * rot.cos(),
                )
            })
            .collect()
    };
    match k % 14 {
        1 => regular(4, std::f64::consts::FRAC_PI_4, r * 1.05),
        2 => regular(3, up, r * 1.15),
        3 => regular(4, 0.0, r * 1.15),
        4 => regular(3, -up, r * 1.15),
        5 => cross(0.0),
        6 => cross(std::f64::consts::FRAC_PI_4),
        7 => (0..10)
            .map(|i| {
                let a = up + i as f64 * std::f64::consts::PI / 5.0;
                let rr = if i % 2 == 0 { r * 1.2 } else { r * 0.5 };
                (x + rr * a.cos(), y + rr * a.sin())
            })
            .collect(),
        8 => regular(6, 0.0, r),
        9 => regular(3, 0.0, r * 1.15),
        10 => regular(3, std::f64::consts::PI, r * 1.15),
        11 => vec![
            (x - r, y - 0.4 * r),
            (x + r, y - 0.4 * r),
            (x + r, y + 0.4 * r),
            (x - r, y + 0.4 * r),
        ],
        13 => regular(5, up, r * 1.05),
        // 0 (circle) and 12 (ring) are drawn as circles.
        _ => Vec::new(),
    }
}

/// A power's marker shape (circle, square, triangle, diamond …), so powers are told
/// apart without colour.
fn glyph(o: &mut String, k: usize, x: f64, y: f64, r: f64, fill: &str) {
    let style = format!("fill=\"{fill}\" stroke=\"{INK}\" stroke-width=\"0.9\"");
    match k % 14 {
        0 => {
            let _ = writeln!(
                o,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {style}/>",
                n(x),
                n(y),
                n(r * 0.95)
            );
        }
        12 => {
            let _ = writeln!(
                o,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\"/>\n<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{fill}\" stroke-width=\"{}\"/>",
                n(x),
                n(y),
                n(r * 0.8),
                n(r * 0.55),
                n(x),
                n(y),
                n(r * 0.8),
                n(r * 0.3)
            );
        }
        k => {
            let _ = writeln!(
                o,
                "<polygon points=\"{}\" {style}/>",
                points(&shape_points(k, x, y, r))
            );
        }
    }
}

/// A unit symbol: an army is a rectangle, a fleet a ship's hull; filled with its
/// power's colour, with the power's shape inside in white.
fn unit_symbol(o: &mut String, map: &Map, u: &Unit, (x, y): (f64, f64), opacity: f64) {
    let colour = power_colour(u.power);
    let s = SYMBOL;
    let title = format!(
        "{} {} ({})",
        map.power(u.power).adjective,
        u.kind.word(),
        map.loc_name(u.loc)
    );
    let _ = write!(
        o,
        "<g class=\"unit {}\" opacity=\"{}\"><title>{}</title>",
        match u.kind {
            UnitKind::Army => "army",
            UnitKind::Fleet => "fleet",
        },
        n(opacity),
        esc(&title)
    );
    match u.kind {
        UnitKind::Army => {
            let _ = writeln!(
                o,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" fill=\"{colour}\" stroke=\"{INK}\" stroke-width=\"1.5\"/>",
                n(x - s),
                n(y - 0.8 * s),
                n(2.0 * s),
                n(1.6 * s)
            );
        }
        UnitKind::Fleet => {
            let hull = [
                (x - 1.15 * s, y - 0.55 * s),
                (x + 1.15 * s, y - 0.55 * s),
                (x + 0.7 * s, y + 0.8 * s),
                (x - 0.7 * s, y + 0.8 * s),
            ];
            let _ = writeln!(
                o,
                "<polygon points=\"{}\" fill=\"{colour}\" stroke=\"{INK}\" stroke-width=\"1.5\"/>",
                points(&hull)
            );
        }
    }
    glyph(o, u.power.0 as usize, x, y + 0.05 * s, 0.42 * s, "#ffffff");
    o.push_str("</g>\n");
}

/// The box a unit symbol covers (for label placement).
fn unit_box(at: (f64, f64)) -> Rect {
    Rect::around(at, 1.2 * SYMBOL, 0.9 * SYMBOL)
}

/// A unit as drawn: where, and what happened to it.
struct Drawn {
    unit: Unit,
    at: (f64, f64),
    /// Dislodged: drawn beside its province, with where it may retreat.
    retreats: Option<Vec<Loc>>,
    /// Built this phase (drawn with a dashed ring).
    built: bool,
    /// Removed or disbanded this phase (crossed out).
    removed: bool,
}

/// Where a dislodged unit is drawn: beside its province, on the side away from the
/// attack.
fn beside(lay: &Layout, loc: Loc, by: Option<(f64, f64)>) -> (f64, f64) {
    let p = lay.point(loc);
    let (dx, dy) = match by {
        Some(b) if dist(p, b) > 1e-6 => {
            let d = dist(p, b);
            ((p.0 - b.0) / d, (p.1 - b.1) / d)
        }
        _ => (0.8, 0.6),
    };
    (p.0 + dx * 2.3 * UNIT, p.1 + dy * 2.3 * UNIT)
}

/// An arrow's style.
#[derive(Clone, Copy)]
enum Line {
    Move,
    Support,
    Convoy,
    Retreat,
}

/// The SVG of a scene on its map. Refused if an id of the scene's position or result
/// is not on `map` (they were made on another map).
pub fn svg(map: &Map, scene: &Scene) -> Result<String, ForeignIds> {
    check_ids(map, scene.position, &[])?;
    if let Some(r) = scene.result {
        r.check_ids(map)?;
    }
    let lay = layout(map);
    let pos = scene.position;
    let result = scene.result;
    let retreat_phase = pos.phase.kind == PhaseKind::Retreat;

    // The units as drawn.
    let mut drawn: Vec<Drawn> = Vec::new();
    if !scene.bare {
        match result {
            Some(r) if r.phase.kind == PhaseKind::Movement => {
                for u in r.units() {
                    let d = r.dislodged().iter().find(|d| d.unit == *u);
                    drawn.push(Drawn {
                        unit: *u,
                        at: match d {
                            Some(d) => beside(&lay, u.loc, Some(lay.point(d.by.into()))),
                            None => lay.point(u.loc),
                        },
                        retreats: d.map(|d| d.retreats.clone()),
                        built: false,
                        removed: false,
                    });
                }
            }
            _ => {
                for u in &pos.units {
                    drawn.push(Drawn {
                        unit: *u,
                        at: lay.point(u.loc),
                        retreats: None,
                        built: false,
                        removed: false,
                    });
                }
                for d in &pos.dislodged {
                    drawn.push(Drawn {
                        unit: d.unit,
                        at: beside(&lay, d.unit.loc, Some(lay.point(d.by.into()))),
                        retreats: Some(d.retreats.clone()),
                        built: false,
                        removed: false,
                    });
                }
            }
        }
        if let Some(r) = result {
            if let Some(a) = r.adjustment() {
                for &i in a
                    .removed
                    .iter()
                    .chain(a.civil_disorder.iter().map(|(i, _)| i))
                {
                    if let Some(u) = r.units().get(i) {
                        if let Some(d) = drawn.iter_mut().find(|d| d.unit == *u) {
                            d.removed = true;
                        }
                    }
                }
                for u in &a.built {
                    drawn.push(Drawn {
                        unit: *u,
                        at: lay.point(u.loc),
                        retreats: None,
                        built: true,
                        removed: false,
                    });
                }
            }
        }
    }
    // Where the result's unit `i` is drawn.
    let unit_at = |i: usize| -> Option<(f64, f64)> {
        let r = result?;
        let u = r.units().get(i)?;
        if retreat_phase {
            drawn
                .iter()
                .find(|d| d.retreats.is_some() && d.unit == *u)
                .map(|d| d.at)
        } else {
            Some(lay.point(u.loc))
        }
    };

    let mut body = String::new();
    let mut under = String::new(); // edges and nodes
    let mut arrows = String::new();
    let mut marks = String::new(); // crosses over failed orders and removed units

    // Edges: per pair of provinces, army and fleet, between the locations they join.
    let _ = writeln!(under, "<g id=\"edges\" fill=\"none\" opacity=\"0.75\">");
    for p in map.provs() {
        for q in map.provs().filter(|q| q.0 > p.0) {
            let army = map.army_adjacent(p, q) || map.army_adjacent(q, p);
            let mut fleet: Vec<(Loc, Loc)> = Vec::new();
            for a in map.unit_locs(UnitKind::Fleet, p) {
                for &b in map.fleet_neighbours(a) {
                    if map.prov_of(b) == q && !fleet.contains(&(a, b)) {
                        fleet.push((a, b));
                    }
                }
            }
            for b in map.unit_locs(UnitKind::Fleet, q) {
                for &a in map.fleet_neighbours(b) {
                    if map.prov_of(a) == p && !fleet.contains(&(a, b)) {
                        fleet.push((a, b));
                    }
                }
            }
            let plain = fleet.len() == 1 && fleet[0] == (p.into(), q.into());
            if army && plain {
                edge(&mut under, &lay, p.into(), q.into(), "both");
            } else {
                if army {
                    edge(&mut under, &lay, p.into(), q.into(), "army");
                }
                for &(a, b) in &fleet {
                    edge(&mut under, &lay, a, b, "fleet");
                }
            }
        }
    }
    under.push_str("</g>\n");

    // Province nodes, and named coasts joined to their province.
    let _ = writeln!(under, "<g id=\"provinces\">");
    for p in map.provs() {
        let (x, y) = lay.point(p.into());
        let prov = map.province(p);
        let title = format!("<title>{} ({})</title>", esc(&prov.name), esc(&prov.id));
        let r = NODE;
        match prov.terrain {
            Terrain::Sea => {
                let _ = writeln!(
                    under,
                    "<circle class=\"sea\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{SEA_FILL}\" stroke=\"#8bbbd9\" stroke-width=\"1\">{title}</circle>",
                    n(x),
                    n(y),
                    n(r)
                );
            }
            Terrain::Land | Terrain::Coastal => {
                let (stroke, sw) = if prov.terrain == Terrain::Coastal {
                    (WATER_EDGE, 2.2)
                } else {
                    ("#a89466", 1.0)
                };
                let _ = writeln!(
                    under,
                    "<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{LAND_FILL}\" stroke=\"{stroke}\" stroke-width=\"{}\">{title}</rect>",
                    if prov.terrain == Terrain::Coastal { "coast" } else { "land" },
                    n(x - r),
                    n(y - r),
                    n(2.0 * r),
                    n(2.0 * r),
                    n(0.35 * r),
                    n(sw)
                );
            }
            Terrain::Impassable => {
                let _ = writeln!(
                    under,
                    "<g class=\"impassable\">{title}<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#9e9e9e\" stroke=\"#555555\" stroke-width=\"1\"/><path d=\"M{},{} L{},{} M{},{} L{},{}\" stroke=\"#555555\" stroke-width=\"1.5\"/></g>",
                    n(x - r),
                    n(y - r),
                    n(2.0 * r),
                    n(2.0 * r),
                    n(x - r),
                    n(y - r),
                    n(x + r),
                    n(y + r),
                    n(x + r),
                    n(y - r),
                    n(x - r),
                    n(y + r)
                );
            }
        }
        for &c in &prov.coasts {
            let (cx, cy) = lay.point(c);
            let _ = writeln!(
                under,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{WATER_EDGE}\" stroke-width=\"1.5\" stroke-dasharray=\"1 2\"/>\n<circle class=\"named-coast\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{SEA_FILL}\" stroke=\"{WATER_EDGE}\" stroke-width=\"1.5\"><title>{}</title></circle>",
                n(x),
                n(y),
                n(cx),
                n(cy),
                n(cx),
                n(cy),
                n(0.4 * UNIT),
                esc(&map.loc_name(c))
            );
        }
    }
    under.push_str("</g>\n");

    // Supply centres: the owner's colour and shape; unowned centres white with a dot.
    let _ = writeln!(under, "<g id=\"centres\">");
    for p in map.provs().filter(|&p| map.province(p).supply) {
        let (x, y) = lay.centre_marker(p);
        let owner = pos.owners.get(p.0 as usize).copied().flatten();
        let _ = write!(
            under,
            "<g class=\"centre\"><title>{} supply centre{}</title>",
            esc(&map.province(p).name),
            match owner {
                Some(w) => format!(", {}", esc(&map.power(w).name)),
                None => ", unowned".to_string(),
            }
        );
        match owner {
            Some(w) => {
                let _ = write!(
                    under,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"1.2\"/>",
                    n(x),
                    n(y),
                    n(CENTRE_R),
                    power_colour(w)
                );
                glyph(&mut under, w.0 as usize, x, y, 0.5 * CENTRE_R, "#ffffff");
            }
            None => {
                let _ = write!(
                    under,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\" stroke=\"{INK}\" stroke-width=\"1.2\"/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{INK}\"/>",
                    n(x),
                    n(y),
                    n(CENTRE_R),
                    n(x),
                    n(y),
                    n(0.3 * CENTRE_R)
                );
            }
        }
        under.push_str("</g>\n");
    }
    under.push_str("</g>\n");

    // Orders (and their lines, which labels keep off).
    let mut order_lines: Vec<((f64, f64), (f64, f64))> = Vec::new();
    if let (Some(r), false) = (result, scene.bare) {
        for (k, o) in r.input.iter().enumerate() {
            let Some(res) = r.orders().get(k) else {
                continue;
            };
            let Some(i) = res.unit else { continue };
            let (Some(u), Some(from)) = (r.units().get(i), unit_at(i)) else {
                continue;
            };
            let colour = power_colour(u.power);
            let failed = !res.outcome.succeeded();
            let title = format!(
                "{}{}",
                crate::report::canonical(map, r, k),
                match crate::report::reason(map, r, k).0 {
                    Some(why) => format!(": {why}"),
                    None => String::new(),
                }
            );
            // The point of the unit standing in a location's province.
            let target_at = |l: Loc| -> (f64, f64) {
                let p = map.prov_of(l);
                r.units()
                    .iter()
                    .position(|u| map.prov_of(u.loc) == p)
                    .and_then(unit_at)
                    .unwrap_or_else(|| lay.point(l))
            };
            match o.kind {
                OrderKind::Move { to, .. } => {
                    let to = res.to.unwrap_or(to);
                    let line = if r.phase.kind == PhaseKind::Retreat {
                        Line::Retreat
                    } else {
                        Line::Move
                    };
                    // Two units moving into each other's province: each arrow keeps
                    // to its right, so both are seen.
                    let here = map.prov_of(u.loc);
                    let head_to_head = r.input.iter().enumerate().any(|(j, o2)| {
                        let OrderKind::Move { to: t2, .. } = o2.kind else {
                            return false;
                        };
                        let Some(res2) = r.orders().get(j) else {
                            return false;
                        };
                        let t2 = res2.to.unwrap_or(t2);
                        res2.unit.and_then(|i| r.units().get(i)).is_some_and(|u2| {
                            map.prov_of(u2.loc) == map.prov_of(to) && map.prov_of(t2) == here
                        })
                    });
                    let (a, b) = (from, lay.point(to));
                    let (a, b) = if head_to_head {
                        let d = dist(a, b).max(1e-6);
                        let (px, py) =
                            (-(b.1 - a.1) / d * 0.4 * UNIT, (b.0 - a.0) / d * 0.4 * UNIT);
                        ((a.0 + px, a.1 + py), (b.0 + px, b.1 + py))
                    } else {
                        (a, b)
                    };
                    order_lines.push((a, b));
                    arrow(&mut arrows, &mut marks, a, b, colour, line, failed, &title);
                }
                OrderKind::Support { target, to } => {
                    let s = target_at(target.loc);
                    let end = match to {
                        Some(to) => {
                            let d = lay.point(map.prov_of(to).into());
                            along(s, d, 0.55)
                        }
                        None => s,
                    };
                    order_lines.push((from, end));
                    arrow(
                        &mut arrows,
                        &mut marks,
                        from,
                        end,
                        colour,
                        Line::Support,
                        failed,
                        &title,
                    );
                    if to.is_none() {
                        let _ = writeln!(
                            arrows,
                            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" stroke-dasharray=\"4 2\"/>",
                            n(s.0),
                            n(s.1),
                            n(1.45 * UNIT)
                        );
                    }
                }
                OrderKind::Convoy { army, to } => {
                    let a = target_at(army.loc);
                    let end = along(a, lay.point(map.prov_of(to).into()), 0.5);
                    order_lines.push((from, end));
                    arrow(
                        &mut arrows,
                        &mut marks,
                        from,
                        end,
                        colour,
                        Line::Convoy,
                        failed,
                        &title,
                    );
                }
                OrderKind::Disband if r.phase.kind == PhaseKind::Retreat => {
                    cross(&mut marks, from, 0.9 * UNIT, &title);
                }
                _ => {}
            }
        }
    }

    // Units, then dislodged units with their retreats.
    let mut units = String::new();
    let _ = writeln!(units, "<g id=\"units\">");
    for d in drawn.iter().filter(|d| d.retreats.is_none()) {
        unit_symbol(&mut units, map, &d.unit, d.at, 1.0);
        if d.built {
            let _ = writeln!(
                units,
                "<circle class=\"built\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"2.2\"/>",
                n(d.at.0),
                n(d.at.1),
                n(1.45 * UNIT)
            );
        }
        if d.removed {
            cross(&mut marks, d.at, 0.9 * UNIT, "removed");
        }
    }
    units.push_str("</g>\n<g id=\"dislodged\">\n");
    let mut retreat_labels: Vec<(String, (f64, f64))> = Vec::new();
    for d in drawn.iter().filter(|d| d.retreats.is_some()) {
        let home = lay.point(d.unit.loc);
        let _ = writeln!(
            units,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{INK}\" stroke-width=\"1\" stroke-dasharray=\"2 2\"/>",
            n(home.0),
            n(home.1),
            n(d.at.0),
            n(d.at.1)
        );
        let retreats = d.retreats.as_deref().unwrap_or(&[]);
        let colour = power_colour(d.unit.power);
        for &l in retreats {
            let (a, b) = shorten(d.at, lay.point(l), 1.0 * UNIT, 0.9 * UNIT);
            let _ = writeln!(
                units,
                "<line class=\"retreat-option\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"1.6\" stroke-dasharray=\"1 3\" stroke-linecap=\"round\"/>",
                n(a.0),
                n(a.1),
                n(b.0),
                n(b.1)
            );
            let _ = writeln!(
                units,
                "<circle cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\"/>",
                n(b.0),
                n(b.1)
            );
        }
        let _ = writeln!(
            units,
            "<circle class=\"dislodged\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\" fill-opacity=\"0.7\" stroke=\"{INK}\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>",
            n(d.at.0),
            n(d.at.1),
            n(1.4 * UNIT)
        );
        unit_symbol(&mut units, map, &d.unit, d.at, 1.0);
        let text = if retreats.is_empty() {
            "no retreat".to_string()
        } else {
            let ids: Vec<String> = retreats
                .iter()
                .map(|&l| map.loc_id(l).to_uppercase())
                .collect();
            format!("retreat: {}", ids.join(" "))
        };
        retreat_labels.push((text, d.at));
    }
    units.push_str("</g>\n");

    // Labels: every province, named coasts, retreat lists; clear of every unit and
    // of each other, and if they can be, of nodes, centres and order lines.
    let mut placer = Placer {
        units: drawn.iter().map(|d| unit_box(d.at)).collect(),
        lines: order_lines,
        points: lay.points.clone(),
        ..Placer::default()
    };
    for p in map.provs() {
        placer
            .soft
            .push(Rect::around(lay.point(p.into()), NODE, NODE));
        if map.province(p).supply {
            placer
                .soft
                .push(Rect::around(lay.centre_marker(p), CENTRE_R, CENTRE_R));
        }
        for &c in &map.province(p).coasts {
            placer
                .soft
                .push(Rect::around(lay.point(c), 0.4 * UNIT, 0.4 * UNIT));
        }
    }
    for d in drawn.iter().filter(|d| d.retreats.is_some()) {
        placer.soft.push(Rect::around(d.at, 1.4 * UNIT, 1.4 * UNIT));
        for &l in d.retreats.as_deref().unwrap_or(&[]) {
            placer.lines.push((d.at, lay.point(l)));
        }
    }
    let mut labels = String::new();
    let mut leaders = String::new();
    let _ = writeln!(
        labels,
        "<g id=\"labels\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{INK}\" stroke=\"#ffffff\" stroke-width=\"2.5\" stroke-linejoin=\"round\" paint-order=\"stroke\">",
        n(FONT)
    );
    let _ = writeln!(
        leaders,
        "<g id=\"leaders\" stroke=\"#555555\" stroke-width=\"0.8\">"
    );
    let mut leader = |o: Option<((f64, f64), (f64, f64))>| {
        if let Some((a, b)) = o {
            let _ = writeln!(
                leaders,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                n(a.0),
                n(a.1),
                n(b.0),
                n(b.1)
            );
        }
    };
    let small = 0.8 * FONT;
    for (text, at) in &retreat_labels {
        let pl = placer.place(text, small, *at, 1.45 * UNIT, 0.8 * UNIT);
        leader(pl.leader);
        let _ = writeln!(
            labels,
            "<text class=\"retreats\" x=\"{}\" y=\"{}\" font-size=\"{}\" font-style=\"italic\">{}</text>",
            n(pl.centre.0),
            n(baseline(pl.centre.1, small)),
            n(small),
            esc(text)
        );
    }
    // Province labels go most crowded first (they have the fewest places), each
    // with its named coasts; they are written in the map's order.
    let crowd = |p: Prov| {
        let at = lay.point(p.into());
        lay.points
            .iter()
            .filter(|&&q| dist(at, q) < 6.0 * UNIT)
            .count()
    };
    let mut order: Vec<Prov> = map.provs().collect();
    order.sort_by_key(|&p| (std::cmp::Reverse(crowd(p)), p.0));
    let coast_size = 0.7 * FONT;
    let mut at_of: Vec<Option<Placed>> = vec![None; lay.points.len()];
    for &p in &order {
        let id = map.province(p).id.to_uppercase();
        let pl = placer.place(&id, FONT, lay.point(p.into()), NODE, 0.8 * UNIT);
        at_of[p.0 as usize] = Some(pl);
        for &c in &map.province(p).coasts {
            let cid = map.loc_id(c).to_uppercase();
            let pl = placer.place(&cid, coast_size, lay.point(c), 0.45 * UNIT, 0.5 * UNIT);
            at_of[c.0 as usize] = Some(pl);
        }
    }
    for p in map.provs() {
        let Some(pl) = at_of[p.0 as usize] else {
            continue;
        };
        leader(pl.leader);
        let id = map.province(p).id.to_uppercase();
        let _ = writeln!(
            labels,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            n(pl.centre.0),
            n(baseline(pl.centre.1, FONT)),
            esc(&id)
        );
        for &c in &map.province(p).coasts {
            let Some(pl) = at_of[c.0 as usize] else {
                continue;
            };
            leader(pl.leader);
            let cid = map.loc_id(c).to_uppercase();
            let _ = writeln!(
                labels,
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{WATER_EDGE}\">{}</text>",
                n(pl.centre.0),
                n(baseline(pl.centre.1, coast_size)),
                n(coast_size),
                esc(&cid)
            );
        }
    }
    labels.push_str("</g>\n");
    leaders.push_str("</g>\n");

    // Problems: rings and numbers on the provinces named.
    let mut problems = String::new();
    if !scene.problems.is_empty() {
        let _ = writeln!(problems, "<g id=\"problems\">");
        for (k, pr) in scene.problems.iter().enumerate() {
            let Some(p) = pr.prov else { continue };
            let (x, y) = lay.point(p.into());
            let _ = writeln!(
                problems,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{PROBLEM}\" stroke-width=\"3\" stroke-dasharray=\"5 2\"><title>{}</title></circle>\n<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"{PROBLEM}\" stroke=\"#ffffff\" stroke-width=\"2.5\" paint-order=\"stroke\">{}</text>",
                n(x),
                n(y),
                n(2.0 * UNIT),
                esc(&pr.text),
                n(x - 2.6 * UNIT),
                n(y - 1.5 * UNIT),
                n(FONT * 1.2),
                k + 1
            );
        }
        problems.push_str("</g>\n");
    }

    // A wide board's legend is drawn larger, so that it reads at the same size as
    // the board's labels when the picture is printed to fit a page.
    let k = (lay.width / 1400.0).clamp(1.0, 2.0);
    let (mut legend, legend_h, legend_w) = legend(map, scene, lay.height / k, lay.width / k);
    if k > 1.0 {
        legend = format!("<g transform=\"scale({k:.3})\">\n{legend}</g>\n");
    }
    let width = lay.width.max(legend_w * k);
    let height = lay.height + legend_h * k;
    let _ = writeln!(
        body,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">",
        n(width),
        n(height),
        n(width),
        n(height)
    );
    let _ = writeln!(body, "<title>{}</title>", esc(&scene.title));
    let _ = writeln!(
        body,
        "<rect id=\"background\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#fbfaf6\"/>",
        n(width),
        n(height)
    );
    body.push_str(&under);
    let _ = writeln!(body, "<g id=\"orders\">");
    body.push_str(&arrows);
    body.push_str("</g>\n");
    body.push_str(&units);
    let _ = writeln!(body, "<g id=\"marks\">");
    body.push_str(&marks);
    body.push_str("</g>\n");
    body.push_str(&leaders);
    body.push_str(&labels);
    body.push_str(&problems);
    body.push_str(&legend);
    body.push_str("</svg>\n");
    Ok(body)
}

/// The point a fraction `t` of the way from `a` to `b`.
fn along(a: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

/// The segment from `a` to `b`, cut short by `s` at the start and `e` at the end
/// (never reversed).
fn shorten(a: (f64, f64), b: (f64, f64), s: f64, e: f64) -> ((f64, f64), (f64, f64)) {
    let d = dist(a, b);
    if d < 1e-6 {
        return (a, b);
    }
    let (s, e) = if s + e > 0.8 * d {
        let k = 0.8 * d / (s + e);
        (s * k, e * k)
    } else {
        (s, e)
    };
    (along(a, b, s / d), along(a, b, 1.0 - e / d))
}

/// One edge of the graph between two locations: `army`, `fleet` or `both`.
fn edge(o: &mut String, lay: &Layout, a: Loc, b: Loc, kind: &str) {
    let (pa, pb) = (lay.point(a), lay.point(b));
    let style = match kind {
        "army" => "stroke=\"#8c510a\" stroke-width=\"2\" stroke-dasharray=\"2 3\"",
        "fleet" => "stroke=\"#0072B2\" stroke-width=\"1.6\" stroke-dasharray=\"7 4\"",
        _ => "stroke=\"#7a7a7a\" stroke-width=\"1.4\"",
    };
    // An edge between the two far sides of a wide board goes round the back of the
    // world (world1914's Pacific): drawn straight it would cross the whole board.
    let (lo, hi) = (pa.0.min(pb.0), pa.0.max(pb.0));
    let wraps = hi - lo > (lay.width / 2.0).max(60.0 * UNIT)
        && lo < 0.25 * lay.width
        && hi > 0.75 * lay.width
        && (pa.1 - pb.1).abs() < 0.25 * lay.height;
    if wraps {
        // An edge round the back of the world: a stub at each end, pointing off the
        // board, named after the other end.
        for (p, other_left) in [(pa, pb.0 < pa.0), (pb, pa.0 < pb.0)] {
            // The other end lies the other way round the world.
            let end = if other_left {
                lay.width - 0.5 * UNIT
            } else {
                0.5 * UNIT
            };
            let _ = writeln!(
                o,
                "<line class=\"{kind} wrap\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {style}/>",
                n(p.0),
                n(p.1),
                n(end),
                n(p.1)
            );
        }
        return;
    }
    let _ = writeln!(
        o,
        "<line class=\"{kind}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {style}/>",
        n(pa.0),
        n(pa.1),
        n(pb.0),
        n(pb.1)
    );
}

/// A cross (a failed order, a removed unit): white-cased black strokes.
fn cross(o: &mut String, (x, y): (f64, f64), r: f64, title: &str) {
    let d = format!(
        "M{},{} L{},{} M{},{} L{},{}",
        n(x - r),
        n(y - r),
        n(x + r),
        n(y + r),
        n(x + r),
        n(y - r),
        n(x - r),
        n(y + r)
    );
    let _ = writeln!(
        o,
        "<g class=\"cross\"><title>{}</title><path d=\"{d}\" stroke=\"#ffffff\" stroke-width=\"5\" stroke-linecap=\"round\"/><path d=\"{d}\" stroke=\"{INK}\" stroke-width=\"2.4\" stroke-linecap=\"round\"/></g>",
        esc(title)
    );
}

/// An order's line from `a` to `b` with its end (arrowhead, dot, diamond); a failed
/// order is thinner, paler and crossed out at its middle.
#[allow(clippy::too_many_arguments)]
fn arrow(
    o: &mut String,
    marks: &mut String,
    a: (f64, f64),
    b: (f64, f64),
    colour: &str,
    line: Line,
    failed: bool,
    title: &str,
) {
    let end_cut = match line {
        Line::Move | Line::Retreat => 1.05 * UNIT,
        Line::Support | Line::Convoy => 0.1 * UNIT,
    };
    let (s, e) = shorten(a, b, 0.95 * UNIT, end_cut);
    let d = dist(s, e).max(1e-6);
    let (ux, uy) = ((e.0 - s.0) / d, (e.1 - s.1) / d);
    let (w, dash, cls) = match line {
        Line::Move => (3.2, "", "move"),
        Line::Retreat => (2.6, "", "retreat"),
        Line::Support => (2.2, " stroke-dasharray=\"6 3\"", "support"),
        Line::Convoy => (2.4, " stroke-dasharray=\"0.5 4\"", "convoy"),
    };
    let w = if failed { w * 0.6 } else { w };
    let head = matches!(line, Line::Move | Line::Retreat);
    let hl = if head {
        (0.85 * UNIT).min(0.6 * d)
    } else {
        0.0
    };
    let e2 = (e.0 - ux * hl * 0.8, e.1 - uy * hl * 0.8);
    let cap = if matches!(line, Line::Convoy) {
        " stroke-linecap=\"round\""
    } else {
        ""
    };
    let opacity = if failed { "0.8" } else { "1.0" };
    let _ = writeln!(
        o,
        "<g class=\"order {cls}{}\" opacity=\"{opacity}\"><title>{}</title>",
        if failed { " failed" } else { "" },
        esc(title)
    );
    let seg = format!(
        "x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"",
        n(s.0),
        n(s.1),
        n(e2.0),
        n(e2.1)
    );
    let _ = writeln!(
        o,
        "<line {seg} stroke=\"{INK}\" stroke-width=\"{}\"{dash}{cap}/>\n<line {seg} stroke=\"{colour}\" stroke-width=\"{}\"{dash}{cap}/>",
        n(w + 2.2),
        n(w)
    );
    if head {
        let hw = 0.5 * hl.max(0.5 * UNIT);
        let base = (e.0 - ux * hl, e.1 - uy * hl);
        let pts = [
            e,
            (base.0 - uy * hw, base.1 + ux * hw),
            (base.0 + uy * hw, base.1 - ux * hw),
        ];
        let _ = writeln!(
            o,
            "<polygon points=\"{}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"1.2\"/>",
            points(&pts),
            if failed { "#ffffff" } else { colour }
        );
    } else {
        let r = if matches!(line, Line::Convoy) {
            0.38
        } else {
            0.3
        } * UNIT;
        let _ = writeln!(
            o,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\" stroke=\"{INK}\" stroke-width=\"1.2\"/>",
            n(e.0),
            n(e.1),
            n(r)
        );
    }
    o.push_str("</g>\n");
    if failed {
        cross(
            marks,
            along(s, e2, 0.5),
            0.42 * UNIT,
            &format!("failed: {title}"),
        );
    }
}

/// The legend below the board: title, powers with colour, shape and counts, the key
/// to the symbols, the problems, in `room` wide (at least 1000). Returns the SVG,
/// its height and its width.
fn legend(map: &Map, scene: &Scene, top: f64, room: f64) -> (String, f64, f64) {
    let mut o = String::new();
    let pos = scene.position;
    let margin = 2.0 * UNIT;
    let min_w = room.max(1000.0);
    let mut y = top + 2.2 * UNIT;
    let _ = writeln!(o, "<g id=\"legend\" fill=\"{INK}\">");
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

    // Powers.
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
        let colour = power_colour(w);
        let _ = writeln!(
            o,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\" stroke=\"{INK}\" stroke-width=\"1.2\"/>",
            n(x + CENTRE_R),
            n(yy),
            n(CENTRE_R)
        );
        glyph(
            &mut o,
            w.0 as usize,
            x + CENTRE_R,
            yy,
            0.5 * CENTRE_R,
            "#ffffff",
        );
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
        unit_symbol(&mut sym, map, &army, (x + 2.6 * UNIT, yy), 1.0);
        unit_symbol(&mut sym, map, &fleet, (x + 4.9 * UNIT, yy), 1.0);
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

    // The key to the symbols, in rows.
    let mut items: Vec<(String, &str)> = Vec::new();
    let mut add = |svg: String, text: &'static str| items.push((svg, text));
    let c = (1.5 * UNIT, 0.0);
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
        add(demo(Line::Move, false), "move");
        add(demo(Line::Support, false), "support");
        add(demo(Line::Convoy, false), "convoy");
        add(demo(Line::Move, true), "failed");
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
    if !scene.problems.is_empty() {
        add(
            format!(
                "<circle cx=\"{}\" cy=\"0\" r=\"{}\" fill=\"none\" stroke=\"{PROBLEM}\" stroke-width=\"3\" stroke-dasharray=\"5 2\"/>",
                n(c.0),
                n(UNIT)
            ),
            "problem",
        );
    }
    let mut x = margin;
    y += 0.8 * UNIT;
    for (sym, text) in &items {
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
    o.push_str("</g>\n");
    (o, y - top, min_w)
}

fn s(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Drop `<title>…</title>` elements (legend samples are no real unit or order).
fn strip_titles(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("<title>") {
        out.push_str(&rest[..i]);
        match rest[i..].find("</title>") {
            Some(j) => rest = &rest[i + j + "</title>".len()..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The province a problem's key names (`provinces.aaa.army` → `aaa`), if it is one
/// of the map's.
pub fn problem_province(map: &Map, key: &str) -> Option<Prov> {
    let rest = key.strip_prefix("provinces.")?;
    let id = rest.split('.').next()?;
    map.prov_by_id(id)
}
