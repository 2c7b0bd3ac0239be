//! The graph view: provinces as nodes by terrain (placed by `layout` from the map's
//! `at` positions), every edge by kind, supply centres beside their node, and over
//! them what both views draw (`overlay`); labels placed clear of units and of each
//! other, and the legend below.

// Indexes the layout's point tables by the map's dense ids (one entry per location /
// province, built by `layout` from the same map); a scene's ids were checked by `svg`.
#![allow(clippy::indexing_slicing)]

use std::fmt::Write as _;

use super::labels::{baseline, Placed, Placer, Rect};
use super::legend::legend;
use super::overlay::{self, Drawn};
use super::svg::{
    esc, glyph, n, power_colour, unit_box, View, CENTRE_R, FONT, INK, LAND_FILL, NODE, PROBLEM,
    SEA_FILL, UNIT, WATER_EDGE,
};
use super::{dist, layout, Layout, Scene};
use crate::map::{Loc, Map, Prov, Terrain, UnitKind};
use crate::state::Position;

/// The graph view of a scene (its ids already checked against `map`).
pub(super) fn graph(map: &Map, scene: &Scene) -> String {
    let lay = layout(map);
    let drawn = overlay::drawn_units(scene, &lay);
    let orders = overlay::orders(map, scene, &lay, &drawn, View::Graph);
    let mut marks = orders.marks;
    let mut under = String::new();
    edges(&mut under, map, &lay);
    nodes(&mut under, map, &lay);
    centres(&mut under, map, scene.position, &lay);
    let (units, retreat_labels) = overlay::units(map, &lay, &drawn, &mut marks, View::Graph);
    let (leaders, labels) = labels(map, &lay, &drawn, orders.lines, &retreat_labels);
    let problems = problems(scene, &lay);
    let body = super::svg::layers(
        under,
        &orders.arrows,
        units,
        &marks,
        leaders,
        labels,
        problems,
    );
    assemble(map, scene, &lay, &body)
}

/// Edges: per pair of provinces, army and fleet, between the locations they join.
fn edges(o: &mut String, map: &Map, lay: &Layout) {
    // Edges: per pair of provinces, army and fleet, between the locations they join.
    let _ = writeln!(o, "<g id=\"edges\" fill=\"none\" opacity=\"0.75\">");
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
                edge(o, lay, p.into(), q.into(), "both");
            } else {
                if army {
                    edge(o, lay, p.into(), q.into(), "army");
                }
                for &(a, b) in &fleet {
                    edge(o, lay, a, b, "fleet");
                }
            }
        }
    }
    o.push_str("</g>\n");
}

/// Province nodes, and named coasts joined to their province.
fn nodes(o: &mut String, map: &Map, lay: &Layout) {
    // Province nodes, and named coasts joined to their province.
    let _ = writeln!(o, "<g id=\"provinces\">");
    for p in map.provs() {
        let (x, y) = lay.point(p.into());
        let prov = map.province(p);
        let title = format!("<title>{} ({})</title>", esc(&prov.name), esc(&prov.id));
        let r = NODE;
        match prov.terrain {
            Terrain::Sea => {
                let _ = writeln!(
                o,
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
                o,
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
                o,
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
            o,
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
    o.push_str("</g>\n");
}

/// Supply centres: the owner's colour and shape; unowned centres white with a dot.
fn centres(o: &mut String, map: &Map, pos: &Position, lay: &Layout) {
    // Supply centres: the owner's colour and shape; unowned centres white with a dot.
    let _ = writeln!(o, "<g id=\"centres\">");
    for p in map.provs().filter(|&p| map.province(p).supply) {
        let (x, y) = lay.centre_marker(p);
        let owner = pos.owners.get(p.0 as usize).copied().flatten();
        let _ = write!(
            o,
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
                o,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"1.2\"/>",
                n(x),
                n(y),
                n(CENTRE_R),
                power_colour(w)
            );
                glyph(o, w.0 as usize, x, y, 0.5 * CENTRE_R, "#ffffff");
            }
            None => {
                let _ = write!(
                o,
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
        o.push_str("</g>\n");
    }
    o.push_str("</g>\n");
}

/// The labels (and their leader lines): every province, named coasts, retreat lists;
/// clear of every unit and of each other, and if they can be, of nodes, centres and
/// order lines.
fn labels(
    map: &Map,
    lay: &Layout,
    drawn: &[Drawn],
    order_lines: Vec<((f64, f64), (f64, f64))>,
    retreat_labels: &[(String, (f64, f64))],
) -> (String, String) {
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
    let (mut labels, mut leaders) = overlay::open_labels(&mut placer, retreat_labels, 1.45 * UNIT);
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
        overlay::leader(&mut leaders, pl.leader);
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
            overlay::leader(&mut leaders, pl.leader);
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

    (leaders, labels)
}

/// Problems: rings and numbers on the provinces named.
pub(super) fn problems(scene: &Scene, lay: &Layout) -> String {
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

    problems
}

/// The whole picture: the board's parts, then the legend below it.
fn assemble(map: &Map, scene: &Scene, lay: &Layout, board: &str) -> String {
    // A wide board's legend is drawn larger, so that it reads at the same size as
    // the board's labels when the picture is printed to fit a page.
    let k = (lay.width / 1400.0).clamp(1.0, 2.0);
    let (mut legend, legend_h, legend_w) = legend(map, scene, lay.height / k, lay.width / k);
    if k > 1.0 {
        legend = format!("<g transform=\"scale({k:.3})\">\n{legend}</g>\n");
    }
    let width = lay.width.max(legend_w * k);
    let height = lay.height + legend_h * k;
    super::svg::document(&scene.title, (width, height), board, &legend)
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
