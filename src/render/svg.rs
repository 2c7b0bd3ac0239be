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

use super::labels::Rect;
use super::{dist, Scene};
use crate::map::{Map, Power, Prov, UnitKind};
use crate::state::{check_ids, ForeignIds, Unit};

/// The base size of the drawing: a unit symbol is about 1.8 of these wide.
pub const UNIT: f64 = 12.0;
/// A province's node (terrain disc or square), half its size.
pub(super) const NODE: f64 = 1.15 * UNIT;
/// A unit symbol, half its width.
pub const SYMBOL: f64 = 0.8 * UNIT;
/// Offset of a supply centre's marker from its province's point, in units.
pub(super) const CENTRE_DX: f64 = 1.15;
pub(super) const CENTRE_DY: f64 = -1.15;
/// A supply centre marker's radius.
pub const CENTRE_R: f64 = 0.45 * UNIT;
/// Label font size.
pub(super) const FONT: f64 = 0.95 * UNIT;
/// Dark outline of symbols and arrows.
pub(super) const INK: &str = "#1a1a1a";
/// The colour-blind-safe palette: Okabe–Ito first, then Paul Tol's muted colours.
const PALETTE: [&str; 14] = [
    "#D55E00", "#0072B2", "#56B4E9", "#4D4D4D", "#009E73", "#CC79A7", "#F0E442", "#E69F00",
    "#882255", "#44AA99", "#999933", "#332288", "#AA4499", "#DDCC77",
];
pub(super) const SEA_FILL: &str = "#cfe6f5";
pub(super) const LAND_FILL: &str = "#ece0bf";
pub(super) const WATER_EDGE: &str = "#3b8fc4";
pub(super) const PROBLEM: &str = "#e0002b";
/// What marks trouble on the board: a dislodged unit's outline.
pub(super) const FAIL: &str = "#d7191c";
/// How much of a power's colour fills the land of its supply centres, and the other
/// land its units stand in (the rest is white): light, so units and text on it read.
pub(super) const CENTRE_TINT: f64 = 0.5;
pub(super) const OCCUPIED_TINT: f64 = 0.25;

/// A power's colour (the palette in map order, repeated after 14 powers, when the
/// shapes still tell them apart).
pub fn power_colour(p: Power) -> &'static str {
    PALETTE[p.0 as usize % PALETTE.len()]
}

/// A number as the SVG writes it: one decimal place, no `-0.0`.
pub(super) fn n(x: f64) -> String {
    let s = format!("{:.1}", (x * 10.0).round() / 10.0);
    if s == "-0.0" {
        "0.0".to_string()
    } else {
        s
    }
}

/// Text for XML content or an attribute value.
pub(super) fn esc(s: &str) -> String {
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

pub(super) fn points(pts: &[(f64, f64)]) -> String {
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
pub(super) fn glyph(o: &mut String, k: usize, x: f64, y: f64, r: f64, fill: &str) {
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
pub(super) fn unit_symbol(o: &mut String, map: &Map, u: &Unit, (x, y): (f64, f64), opacity: f64) {
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

/// The tint a supply centre owned by `p` is filled with on the board: half its
/// colour, or more where that would look like plain land or sea (a sand or sky blue
/// power).
pub fn centre_tint(p: Power) -> String {
    clear_tint(power_colour(p), CENTRE_TINT, 48.0)
}

/// The tint other land with a unit of `p` in it is filled with on the board: a
/// quarter of its colour, or more where that would look like plain land or sea.
pub fn occupied_tint(p: Power) -> String {
    clear_tint(power_colour(p), OCCUPIED_TINT, 24.0)
}

/// `tint(hex, k)` with `k` raised (in tenths, up to 0.9) until the colour stands at
/// least `min` (RGB distance) from the board's plain land and sea.
fn clear_tint(hex: &str, k: f64, min: f64) -> String {
    let rgb = |h: &str| -> [f64; 3] {
        [1, 3, 5].map(|i| {
            h.get(i..i + 2)
                .and_then(|x| u8::from_str_radix(x, 16).ok())
                .map_or(0.0, f64::from)
        })
    };
    let far = |t: &str| {
        [super::board::BOARD_LAND, super::board::BOARD_SEA]
            .iter()
            .all(|b| {
                let (a, b) = (rgb(t), rgb(b));
                let d2: f64 = (0..3).map(|i| (a[i] - b[i]).powi(2)).sum();
                d2.sqrt() >= min
            })
    };
    let mut k = k;
    let mut t = tint(hex, k);
    while !far(&t) && k < 0.85 {
        k += 0.1;
        t = tint(hex, k);
    }
    t
}

/// A colour `k` of the way from white to `hex` (`#rrggbb`).
pub(super) fn tint(hex: &str, k: f64) -> String {
    let c = |i: usize| {
        let v = hex
            .get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0);
        (255.0 - (255.0 - f64::from(v)) * k)
            .round()
            .clamp(0.0, 255.0) as u8
    };
    format!("#{:02x}{:02x}{:02x}", c(1), c(3), c(5))
}

/// A unit on the board: an army a rounded square, a fleet a boat (a wide hull with
/// pointed ends), filled with its power's colour, with a dark outline (or `outline`:
/// a dislodged unit's red), and its letter (A or F) in white with a dark edge, so
/// kind and power read without colour.
pub(super) fn board_unit_symbol(
    o: &mut String,
    map: &Map,
    u: &Unit,
    (x, y): Point,
    outline: Option<&str>,
) {
    let colour = power_colour(u.power);
    let s = SYMBOL;
    let title = format!(
        "{} {} ({})",
        map.power(u.power).adjective,
        u.kind.word(),
        map.loc_name(u.loc)
    );
    let (kind, letter) = match u.kind {
        UnitKind::Army => ("army", "A"),
        UnitKind::Fleet => ("fleet", "F"),
    };
    let (stroke, sw) = match outline {
        Some(c) => (c, 2.6),
        None => (INK, 1.5),
    };
    let _ = write!(
        o,
        "<g class=\"unit {kind}{}\"><title>{}</title>",
        if outline.is_some() { " dislodged" } else { "" },
        esc(&title)
    );
    match u.kind {
        UnitKind::Army => {
            let _ = write!(
                o,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{colour}\" stroke=\"{stroke}\" stroke-width=\"{sw}\"/>",
                n(x - s),
                n(y - s),
                n(2.0 * s),
                n(2.0 * s),
                n(0.45 * s)
            );
        }
        UnitKind::Fleet => {
            // A hull: flat deck, rounded keel, pointed bow and stern.
            let _ = write!(
                o,
                "<path d=\"M{},{} L{},{} Q{},{} {},{} L{},{} Q{},{} {},{} Z\" fill=\"{colour}\" stroke=\"{stroke}\" stroke-width=\"{sw}\"/>",
                n(x - 1.35 * s),
                n(y - 0.55 * s),
                n(x + 1.35 * s),
                n(y - 0.55 * s),
                n(x + 1.0 * s),
                n(y + 0.85 * s),
                n(x + 0.4 * s),
                n(y + 0.85 * s),
                n(x - 0.4 * s),
                n(y + 0.85 * s),
                n(x - 1.0 * s),
                n(y + 0.85 * s),
                n(x - 1.35 * s),
                n(y - 0.55 * s)
            );
        }
    }
    let fs = 1.25 * s;
    let _ = writeln!(
        o,
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#ffffff\" stroke=\"{INK}\" stroke-width=\"{}\" paint-order=\"stroke\">{letter}</text></g>",
        n(x),
        n(super::labels::baseline(y + if u.kind == UnitKind::Fleet { 0.12 * s } else { 0.0 }, fs)),
        n(fs),
        n(0.22 * fs)
    );
}

/// The box a board unit symbol covers (for label placement).
pub(super) fn board_unit_box(at: Point) -> Rect {
    Rect::around(at, 1.4 * SYMBOL, 1.05 * SYMBOL)
}

/// A point of the picture.
pub(super) type Point = (f64, f64);

/// The box a unit symbol covers (for label placement).
pub(super) fn unit_box(at: (f64, f64)) -> Rect {
    Rect::around(at, 1.2 * SYMBOL, 0.9 * SYMBOL)
}

/// An arrow's style.
#[derive(Clone, Copy)]
pub(super) enum Line {
    Move,
    Support,
    Convoy,
    Retreat,
}

/// Which picture: the graph of the map, or its drawing as a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum View {
    Graph,
    Board,
}

/// The SVG of a scene on its map: the board view when the map has a drawing (and
/// the scene does not ask for the graph), else the graph view. Refused if an id of
/// the scene's position or result is not on `map` (they were made on another map).
pub fn svg(map: &Map, scene: &Scene) -> Result<String, ForeignIds> {
    check_ids(map, scene.position, &[])?;
    if let Some(r) = scene.result {
        r.check_ids(map)?;
    }
    Ok(match (&map.drawing, scene.graph) {
        (Some(d), false) => super::board::board(map, scene, d),
        _ => super::graph::graph(map, scene),
    })
}

/// The point a fraction `t` of the way from `a` to `b`.
pub(super) fn along(a: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

/// The segment from `a` to `b`, cut short by `s` at the start and `e` at the end
/// (never reversed).
pub(super) fn shorten(a: (f64, f64), b: (f64, f64), s: f64, e: f64) -> ((f64, f64), (f64, f64)) {
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

/// A cross (a failed order, a removed unit): white-cased black strokes.
pub(super) fn cross(o: &mut String, (x, y): (f64, f64), r: f64, title: &str) {
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
pub(super) fn arrow(
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

/// Drop `<title>…</title>` elements (legend samples are no real unit or order).
pub(super) fn strip_titles(s: &str) -> String {
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

/// The whole SVG document: its size, title and background, then the board's parts and
/// the legend (both views end so).
pub(super) fn document(title: &str, (width, height): Point, board: &str, legend: &str) -> String {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">",
        n(width),
        n(height),
        n(width),
        n(height)
    );
    let _ = writeln!(body, "<title>{}</title>", esc(title));
    let _ = writeln!(
        body,
        "<rect id=\"background\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#fbfaf6\"/>",
        n(width),
        n(height)
    );
    body.push_str(board);
    body.push_str(legend);
    body.push_str("</svg>\n");
    body
}

/// The board's layers, bottom to top, as both views stack them: what lies under the
/// units (provinces or graph, centres), the order arrows, the units, the marks on
/// them (crosses), label leaders, labels, and the problems' rings on top.
pub(super) fn layers(
    under: String,
    arrows: &str,
    units: String,
    marks: &str,
    leaders: String,
    labels: String,
    problems: String,
) -> String {
    [
        under,
        format!("<g id=\"orders\">\n{arrows}</g>\n"),
        units,
        format!("<g id=\"marks\">\n{marks}</g>\n"),
        leaders,
        labels,
        problems,
    ]
    .concat()
}
