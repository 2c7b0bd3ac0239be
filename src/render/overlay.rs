//! What both views draw over the board, from a [`Layout`]'s points (the graph's nodes,
//! or the drawing's unit points): the units as drawn (dislodged ones beside their
//! province, built and removed ones marked), the phase's orders as arrows with their
//! outcomes, the dislodged units' retreats, and the retreat lists' labels.

// Indexes the layout's point tables by the map's dense ids (one entry per location,
// built from the same map); a scene's ids were checked by `svg` first.
#![allow(clippy::indexing_slicing)]

use std::fmt::Write as _;

use super::labels::{baseline, Placer};
use super::svg::{
    arrow, board_unit_symbol, cross, esc, n, power_colour, shorten, unit_symbol, Line, View, FONT,
    INK, UNIT,
};
use super::{dist, Layout, Scene};
use crate::game::PhaseResult;
use crate::map::{Loc, Map};
use crate::orders::{Order, OrderKind};
use crate::state::{PhaseKind, Unit};

/// A point of the picture.
type Pt = (f64, f64);

/// A unit as drawn: where, and what happened to it.
pub(super) struct Drawn {
    pub unit: Unit,
    pub at: Pt,
    /// Dislodged: drawn beside its province, with where it may retreat.
    pub retreats: Option<Vec<Loc>>,
    /// Built this phase (drawn with a ring).
    pub built: bool,
    /// Removed or disbanded this phase (crossed out).
    pub removed: bool,
}

/// Where a dislodged unit is drawn: beside its province, on the side away from the
/// attack.
fn beside(lay: &Layout, loc: Loc, by: Option<Pt>) -> Pt {
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

fn plain(unit: Unit, at: Pt) -> Drawn {
    Drawn {
        unit,
        at,
        retreats: None,
        built: false,
        removed: false,
    }
}

/// The units of a scene as drawn (none on a bare board).
pub(super) fn drawn_units(scene: &Scene, lay: &Layout) -> Vec<Drawn> {
    let mut drawn: Vec<Drawn> = Vec::new();
    if scene.bare {
        return drawn;
    }
    let pos = scene.position;
    match scene.result {
        Some(r) if r.phase.kind == PhaseKind::Movement => {
            for u in r.units() {
                let d = r.dislodged().iter().find(|d| d.unit == *u);
                drawn.push(Drawn {
                    retreats: d.map(|d| d.retreats.clone()),
                    ..plain(
                        *u,
                        match d {
                            Some(d) => beside(lay, u.loc, Some(lay.point(d.by.into()))),
                            None => lay.point(u.loc),
                        },
                    )
                });
            }
        }
        _ => {
            for u in &pos.units {
                drawn.push(plain(*u, lay.point(u.loc)));
            }
            for d in &pos.dislodged {
                drawn.push(Drawn {
                    retreats: Some(d.retreats.clone()),
                    ..plain(
                        d.unit,
                        beside(lay, d.unit.loc, Some(lay.point(d.by.into()))),
                    )
                });
            }
        }
    }
    if let Some(a) = scene.result.and_then(|r| Some((r, r.adjustment()?))) {
        let (r, a) = a;
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
                built: true,
                ..plain(*u, lay.point(u.loc))
            });
        }
    }
    drawn
}

/// The phase's orders as drawn: the arrows, the marks over them (crosses on failed
/// orders), and the lines (which labels keep off).
#[derive(Default, PartialEq)]
pub(super) struct Orders {
    pub arrows: String,
    pub marks: String,
    pub lines: Vec<(Pt, Pt)>,
}

/// What drawing one order needs.
struct Ctx<'a> {
    map: &'a Map,
    r: &'a PhaseResult,
    lay: &'a Layout,
    drawn: &'a [Drawn],
    view: View,
    /// Every move ordered, as (the mover's province, the province it moves to): found
    /// once, not by a pass over the orders for each order drawn.
    moves: std::collections::HashSet<(crate::map::Prov, crate::map::Prov)>,
}

impl Ctx<'_> {
    /// Where the result's unit `i` is drawn.
    fn unit_at(&self, i: usize) -> Option<Pt> {
        let u = self.r.units().get(i)?;
        if self.r.phase.kind == PhaseKind::Retreat {
            self.drawn
                .iter()
                .find(|d| d.retreats.is_some() && d.unit == *u)
                .map(|d| d.at)
        } else {
            Some(self.lay.point(u.loc))
        }
    }

    /// The point of the unit standing in a location's province.
    fn target_at(&self, l: Loc) -> Pt {
        let p = self.map.prov_of(l);
        self.r
            .units()
            .iter()
            .position(|u| self.map.prov_of(u.loc) == p)
            .and_then(|i| self.unit_at(i))
            .unwrap_or_else(|| self.lay.point(l))
    }

    /// Whether the unit at `here` moving to `to` meets a unit of `to` moving to
    /// `here` (their arrows are drawn side by side).
    fn head_to_head(&self, here: Loc, to: Loc) -> bool {
        let map = self.map;
        self.moves.contains(&(map.prov_of(to), map.prov_of(here)))
    }

    /// [`Ctx::moves`] of a result.
    fn moves_of(
        map: &Map,
        r: &PhaseResult,
    ) -> std::collections::HashSet<(crate::map::Prov, crate::map::Prov)> {
        r.input
            .iter()
            .enumerate()
            .filter_map(|(j, o2)| {
                let OrderKind::Move { to: t2, .. } = o2.kind else {
                    return None;
                };
                let res2 = r.orders().get(j)?;
                let t2 = res2.to.unwrap_or(t2);
                let u2 = res2.unit.and_then(|i| r.units().get(i))?;
                Some((map.prov_of(u2.loc), map.prov_of(t2)))
            })
            .collect()
    }

    /// Draw order `k` (`o`) of unit `u` drawn at `from`.
    fn order(&self, out: &mut Orders, k: usize, o: &Order, u: &Unit, from: Pt) {
        let (map, r, lay) = (self.map, self.r, self.lay);
        let Some(res) = r.orders().get(k) else {
            return;
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
        let (arrows, marks) = (&mut out.arrows, &mut out.marks);
        match o.kind {
            OrderKind::Move { to, .. } => {
                let to = res.to.unwrap_or(to);
                let line = if r.phase.kind == PhaseKind::Retreat {
                    Line::Retreat
                } else {
                    Line::Move
                };
                // Two units moving into each other's province: each arrow keeps to
                // its right, so both are seen.
                let (a, b) = (from, lay.point(to));
                let (a, b) = if self.head_to_head(u.loc, to) {
                    let d = dist(a, b).max(1e-6);
                    let (px, py) = (-(b.1 - a.1) / d * 0.4 * UNIT, (b.0 - a.0) / d * 0.4 * UNIT);
                    ((a.0 + px, a.1 + py), (b.0 + px, b.1 + py))
                } else {
                    (a, b)
                };
                out.lines.push((a, b));
                arrow(arrows, marks, a, b, colour, line, failed, &title);
            }
            OrderKind::Support { target, to } => {
                let s = self.target_at(target.loc);
                let end = match to {
                    Some(to) => {
                        let d = lay.point(map.prov_of(to).into());
                        super::svg::along(s, d, 0.55)
                    }
                    None => s,
                };
                out.lines.push((from, end));
                arrow(
                    arrows,
                    marks,
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
                let a = self.target_at(army.loc);
                let end = super::svg::along(a, lay.point(map.prov_of(to).into()), 0.5);
                out.lines.push((from, end));
                arrow(
                    arrows,
                    marks,
                    from,
                    end,
                    colour,
                    Line::Convoy,
                    failed,
                    &title,
                );
            }
            OrderKind::Disband if r.phase.kind == PhaseKind::Retreat => {
                cross(marks, from, 0.9 * UNIT, &title);
            }
            OrderKind::Hold if self.view == View::Board => {
                let _ = writeln!(
                    arrows,
                    "<g class=\"order hold{}\"><title>{}</title><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\"/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\"/></g>",
                    if failed { " failed" } else { "" },
                    esc(&title),
                    n(from.0),
                    n(from.1),
                    n(1.3 * UNIT),
                    n(4.2),
                    n(from.0),
                    n(from.1),
                    n(1.3 * UNIT),
                    n(2.2)
                );
            }
            _ => {}
        }
    }
}

/// The phase's orders (none on a bare board or without a result).
pub(super) fn orders(
    map: &Map,
    scene: &Scene,
    lay: &Layout,
    drawn: &[Drawn],
    view: View,
) -> Orders {
    let mut out = Orders::default();
    let (Some(r), false) = (scene.result, scene.bare) else {
        return out;
    };
    let ctx = Ctx {
        map,
        r,
        lay,
        drawn,
        view,
        moves: Ctx::moves_of(map, r),
    };
    // An order drawn exactly as one already drawn for its unit (the same order written
    // again) is not drawn twice: thousands of copies made a picture many times the
    // orders' size, with nothing more to see.
    let mut seen: std::collections::HashMap<usize, Vec<Orders>> = Default::default();
    for (k, o) in r.input.iter().enumerate() {
        let Some(i) = r.orders().get(k).and_then(|res| res.unit) else {
            continue;
        };
        let (Some(u), Some(from)) = (r.units().get(i), ctx.unit_at(i)) else {
            continue;
        };
        let mut one = Orders::default();
        ctx.order(&mut one, k, o, u, from);
        let drawn = seen.entry(i).or_default();
        if drawn.contains(&one) {
            continue;
        }
        out.arrows.push_str(&one.arrows);
        out.marks.push_str(&one.marks);
        out.lines.extend_from_slice(&one.lines);
        drawn.push(one);
    }
    out
}

/// The units (a group `units`), then the dislodged units with their retreats (a group
/// `dislodged`); crosses over removed units go to `marks`. Returns the SVG and each
/// dislodged unit's retreat list with where it is drawn (for its label).
pub(super) fn units(
    map: &Map,
    lay: &Layout,
    drawn: &[Drawn],
    marks: &mut String,
    view: View,
) -> (String, Vec<(String, Pt)>) {
    let mut units = String::new();
    let _ = writeln!(units, "<g id=\"units\">");
    for d in drawn.iter().filter(|d| d.retreats.is_none()) {
        symbol(&mut units, map, &d.unit, d.at, view);
        if d.built {
            built(&mut units, d.at, view);
        }
        if d.removed {
            cross(marks, d.at, 0.9 * UNIT, "removed");
        }
    }
    units.push_str("</g>\n<g id=\"dislodged\">\n");
    let mut retreat_labels: Vec<(String, Pt)> = Vec::new();
    for d in drawn.iter().filter(|d| d.retreats.is_some()) {
        let retreats = d.retreats.as_deref().unwrap_or(&[]);
        dislodged(&mut units, map, lay, d, retreats, view);
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
    (units, retreat_labels)
}

fn symbol(o: &mut String, map: &Map, u: &Unit, at: Pt, view: View) {
    match view {
        View::Graph => unit_symbol(o, map, u, at, 1.0),
        View::Board => board_unit_symbol(o, map, u, at, None),
    }
}

/// A built unit's mark: a ring (and on the board a `+`).
fn built(o: &mut String, at: Pt, view: View) {
    let _ = writeln!(
        o,
        "<circle class=\"built\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"2.2\"/>",
        n(at.0),
        n(at.1),
        n(1.45 * UNIT)
    );
    if view == View::Board {
        let (x, y) = (at.0 + 1.2 * UNIT, at.1 - 1.0 * UNIT);
        let r = 0.55 * UNIT;
        let _ = writeln!(
            o,
            "<g class=\"built-plus\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\" stroke=\"{INK}\" stroke-width=\"1.2\"/><path d=\"M{},{} L{},{} M{},{} L{},{}\" stroke=\"{INK}\" stroke-width=\"1.8\"/></g>",
            n(x),
            n(y),
            n(r),
            n(x - 0.6 * r),
            n(y),
            n(x + 0.6 * r),
            n(y),
            n(x),
            n(y - 0.6 * r),
            n(x),
            n(y + 0.6 * r)
        );
    }
}

/// A dislodged unit beside its province, joined to it, with its retreat options.
fn dislodged(o: &mut String, map: &Map, lay: &Layout, d: &Drawn, retreats: &[Loc], view: View) {
    let home = lay.point(d.unit.loc);
    let _ = writeln!(
        o,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{INK}\" stroke-width=\"1\" stroke-dasharray=\"2 2\"/>",
        n(home.0),
        n(home.1),
        n(d.at.0),
        n(d.at.1)
    );
    let colour = power_colour(d.unit.power);
    for &l in retreats {
        match view {
            View::Graph => {
                let (a, b) = shorten(d.at, lay.point(l), 1.0 * UNIT, 0.9 * UNIT);
                let _ = writeln!(
                    o,
                    "<line class=\"retreat-option\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"1.6\" stroke-dasharray=\"1 3\" stroke-linecap=\"round\"/>",
                    n(a.0),
                    n(a.1),
                    n(b.0),
                    n(b.1)
                );
                let _ = writeln!(
                    o,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\"/>",
                    n(b.0),
                    n(b.1)
                );
            }
            View::Board => retreat_option(o, d.at, lay.point(l), colour),
        }
    }
    match view {
        View::Graph => {
            let _ = writeln!(
                o,
                "<circle class=\"dislodged\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\" fill-opacity=\"0.7\" stroke=\"{INK}\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>",
                n(d.at.0),
                n(d.at.1),
                n(1.4 * UNIT)
            );
            unit_symbol(o, map, &d.unit, d.at, 1.0);
        }
        View::Board => board_unit_symbol(o, map, &d.unit, d.at, Some(super::svg::FAIL)),
    }
}

/// A retreat option on the board: a short dashed arrow from the dislodged unit
/// towards the province it may retreat to.
fn retreat_option(o: &mut String, from: Pt, to: Pt, colour: &str) {
    let (a, b) = shorten(from, to, 1.1 * UNIT, 0.0);
    let d = dist(a, b);
    // Short: at most three units long, and never past the middle of the way.
    let len = (3.0 * UNIT).min(0.55 * d);
    if d < 1e-6 {
        return;
    }
    let (ux, uy) = ((b.0 - a.0) / d, (b.1 - a.1) / d);
    let e = (a.0 + ux * len, a.1 + uy * len);
    let hl = 0.55 * UNIT;
    let base = (e.0 - ux * hl, e.1 - uy * hl);
    let hw = 0.35 * UNIT;
    let _ = writeln!(
        o,
        "<g class=\"retreat-option\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/><polygon points=\"{},{} {},{} {},{}\" fill=\"{colour}\" stroke=\"{INK}\" stroke-width=\"0.8\"/></g>",
        n(a.0),
        n(a.1),
        n(base.0),
        n(base.1),
        n(e.0),
        n(e.1),
        n(base.0 - uy * hw),
        n(base.1 + ux * hw),
        n(base.0 + uy * hw),
        n(base.1 - ux * hw)
    );
}

/// The label and leader groups opened, with the retreat lists placed first (clear
/// `clear` of their dislodged unit): both views then add their province labels.
pub(super) fn open_labels(
    placer: &mut Placer,
    list: &[(String, Pt)],
    clear: f64,
) -> (String, String) {
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
    retreat_labels(placer, list, &mut labels, &mut leaders, clear);
    (labels, leaders)
}

/// Place the retreat lists' labels (before any other label: they have the fewest
/// places); write them to `labels` and their leader lines to `leaders`.
fn retreat_labels(
    placer: &mut Placer,
    list: &[(String, Pt)],
    labels: &mut String,
    leaders: &mut String,
    clear: f64,
) {
    let small = 0.8 * FONT;
    for (text, at) in list {
        let pl = placer.place(text, small, *at, clear, 0.8 * UNIT);
        leader(leaders, pl.leader);
        let _ = writeln!(
            labels,
            "<text class=\"retreats\" x=\"{}\" y=\"{}\" font-size=\"{}\" font-style=\"italic\">{}</text>",
            n(pl.centre.0),
            n(baseline(pl.centre.1, small)),
            n(small),
            esc(text)
        );
    }
}

/// A label's leader line, if it has one.
pub(super) fn leader(leaders: &mut String, o: Option<(Pt, Pt)>) {
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
}
