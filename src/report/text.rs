//! The results listing in the Judge / DPjudge format that mappers and other programs read:
//!
//! ```text
//! Movement results for Spring of 1901. (standard)
//!
//! England: Fleet London -> North Sea.
//! France: Army Paris -> Burgundy.  (*bounce*)
//! ```

use std::fmt::Write;

use super::{tags, unit_words};
use crate::game::{Phase, Unit};
use crate::judge::MovementResult;
use crate::map::{Loc, Map, UnitKind};
use crate::orders::{Order, OrderKind};

/// One order as the Judge writes it, without the power prefix and tags.
fn order_text(map: &Map, result: &MovementResult, orders: &[Order], k: usize) -> String {
    let o = &orders[k];
    let r = &result.orders[k];
    let unit: Option<Unit> = r.unit.map(|u| result.units[u]);
    let (kind, loc) = match (unit, o.unit) {
        (Some(u), _) => (Some(u.kind), u.loc),
        (None, Some(u)) => (u.kind, u.loc),
        (None, None) => return "WAIVE".to_string(),
    };
    let me = format!(
        "{} {}",
        kind.map(|k| k.word()).unwrap_or("Unit"),
        map.loc_name(loc)
    );
    let other = |l: Loc, k: Option<UnitKind>, convoy: bool| -> String {
        let p = map.prov_of(l);
        let u = result.units.iter().find(|u| map.prov_of(u.loc) == p);
        match u {
            Some(u) => {
                let foreign = convoy || unit.is_some_and(|me| me.power != u.power);
                format!("{} {}", unit_words(map, u, foreign), map.loc_name(u.loc))
            }
            None => format!(
                "{} {}",
                k.map(|k| k.word()).unwrap_or("Unit"),
                map.loc_name(l)
            ),
        }
    };
    match o.kind {
        OrderKind::Hold => format!("{me} HOLD"),
        OrderKind::Move { to, .. } => format!("{me} -> {}", map.loc_name(r.to.unwrap_or(to))),
        OrderKind::Support { target, to: None } => {
            format!("{me} SUPPORT {}", other(target.loc, target.kind, false))
        }
        OrderKind::Support {
            target,
            to: Some(to),
        } => {
            format!(
                "{me} SUPPORT {} -> {}",
                other(target.loc, target.kind, false),
                map.loc_name(to)
            )
        }
        OrderKind::Convoy { army, to } => {
            format!(
                "{me} CONVOY {} -> {}",
                other(army.loc, Some(UnitKind::Army), true),
                map.loc_name(to)
            )
        }
        OrderKind::Disband => format!("{me} DISBAND"),
        OrderKind::Build => format!("BUILD {me}"),
        OrderKind::Waive => "WAIVE".to_string(),
    }
}

/// The whole listing for a movement phase. `owners`: the supply-centre owners before
/// the phase; after a Fall turn with no unit dislodged, the new ownership and the
/// adjustments each power owes follow the results.
pub fn movement(
    map: &Map,
    phase: Phase,
    owners: &[Option<crate::map::Power>],
    game: &str,
    result: &MovementResult,
    orders: &[Order],
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Movement results for {} of {}. ({game})",
        phase.season, phase.year
    );
    let _ = writeln!(out, "Rules: {} edition.", result.rules.name());
    out.push('\n');
    // Orders by power (map order), then as written.
    let mut idx: Vec<usize> = (0..orders.len()).collect();
    idx.sort_by_key(|&k| {
        result.orders[k]
            .power
            .map(|p| p.0 as usize)
            .unwrap_or(usize::MAX)
    });
    for k in idx {
        let power = match result.orders[k].power {
            Some(p) => map.power(p).name.clone(),
            None => "Unknown".to_string(),
        };
        let t = tags(result, orders, k);
        let tag = if t.is_empty() {
            String::new()
        } else {
            format!("  (*{}*)", t.join(", "))
        };
        let _ = writeln!(out, "{power}: {}.{tag}", order_text(map, result, orders, k));
    }
    if !result.dislodged.is_empty() {
        out.push('\n');
        let _ = writeln!(out, "The following units were dislodged:");
        for d in &result.dislodged {
            let u = &result.units[d.unit];
            let who = format!("The {} in {}", unit_words(map, u, true), the(map, u.loc));
            if d.retreats.is_empty() {
                let _ = writeln!(out, "{who} with no valid retreats.");
            } else {
                let places: Vec<String> = d.retreats.iter().map(|&l| map.loc_name(l)).collect();
                let _ = writeln!(out, "{who} can retreat to {}.", or_list(&places));
            }
        }
    }
    if !result.contested.is_empty() {
        out.push('\n');
        let names: Vec<String> = result
            .contested
            .iter()
            .map(|&p| map.province(p).name.clone())
            .collect();
        let _ = writeln!(out, "Standoffs (no retreat there): {}.", names.join(", "));
    }
    if phase.season == crate::map::Season::Fall {
        out.push('\n');
        if result.dislodged.is_empty() {
            centres(&mut out, map, owners, result);
        } else {
            let _ = writeln!(
                out,
                "Supply-centre ownership is decided after the retreats."
            );
        }
    }
    out
}

/// The ownership of supply centres after the Fall turn, and the adjustments owed.
fn centres(
    out: &mut String,
    map: &Map,
    owners: &[Option<crate::map::Power>],
    result: &MovementResult,
) {
    let after = result.units_after();
    let new = crate::judge::owners_after(map, owners, &after);
    let _ = writeln!(out, "Ownership of supply centres:");
    for pw in map.power_ids() {
        let mut names: Vec<&str> = map
            .provs()
            .filter(|p| new[p.0 as usize] == Some(pw))
            .map(|p| map.province(p).name.as_str())
            .collect();
        names.sort();
        if !names.is_empty() {
            let _ = writeln!(out, "{}: {}.", map.power(pw).name, names.join(", "));
        }
    }
    out.push('\n');
    for (pw, c, u, d) in crate::judge::adjustments(map, &new, &after) {
        if c == 0 && u == 0 {
            continue;
        }
        let name = &map.power(pw).name;
        let what = match d {
            0 => "neither builds nor removes".to_string(),
            d if d > 0 => format!("builds {d}"),
            d => format!("removes {}", -d),
        };
        let _ = writeln!(out, "{name} ({c} centres, {u} units) {what}.");
    }
}

/// `the North Sea` for seas, `London` for land.
fn the(map: &Map, l: Loc) -> String {
    let name = map.loc_name(l);
    if map.is_sea(map.prov_of(l)) {
        format!("the {name}")
    } else {
        name
    }
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}
