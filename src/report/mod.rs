//! Reports: the Judge-style results sheet ([`text`]), JSON ([`json`]), Markdown
//! ([`markdown`]) and the explanation ([`explain`]), all rendered from one
//! [`PhaseResult`]; tags and reasons are derived from outcomes, never stored.

// Reports index a `PhaseResult` produced by the judge on the same map: unit
// and order indices (`k`, `unit`, `Dislodged::unit`, supporters) are positions in
// that result's own vectors, and Prov/Loc/Power ids are the map's own or were
// checked by `game::check_ids` before the phase was judged. An out-of-range index
// is a bug, not input.
#![allow(clippy::indexing_slicing)]

pub mod explain;
pub mod json;
pub mod markdown;
pub mod text;

use crate::game::{PhaseResult, Unit};
use crate::judge::{Failure, Illegal, Outcome, Void};
use crate::map::{Map, UnitKind};
use crate::orders::{Order, OrderKind, UnitRef};

/// The unit type an order is for: the unit's real type where the order was bound.
fn kind_of(result: &PhaseResult, k: usize, order: &Order) -> Option<UnitKind> {
    result.orders[k]
        .unit
        .map(|u| result.units[u].kind)
        .or(order.unit.and_then(|u| u.kind))
}

/// The canonical form of input order `k`.
pub fn canonical(map: &Map, result: &PhaseResult, k: usize) -> String {
    let orders = &result.input;
    let src = &orders[k];
    // A copy without the written text (which canonical form does not read).
    let mut o = Order {
        text: smol_str::SmolStr::default(),
        ..*src
    };
    if let (OrderKind::Move { via_convoy, .. }, Some(to)) = (o.kind, result.orders[k].to) {
        o.kind = OrderKind::Move { to, via_convoy };
    }
    if let Some(u) = result.orders[k].unit {
        if let Some(r) = o.unit.as_mut() {
            r.loc = result.units[u].loc;
        }
    }
    // The supported unit or convoyed army as it stands on the board: `A MUN S A KIE -
    // BER` even when written `Mun S Kie - Ber`.
    let on_board = |r: &mut UnitRef| {
        let p = map.prov_of(r.loc);
        if let Some(u) = result.units.iter().find(|u| map.prov_of(u.loc) == p) {
            r.kind = Some(u.kind);
            r.loc = u.loc;
        }
    };
    match &mut o.kind {
        OrderKind::Support { target, .. } => on_board(target),
        OrderKind::Convoy { army, .. } => on_board(army),
        _ => {}
    }
    o.canonical(map, kind_of(result, k, &orders[k]))
}

/// The order a unit was given, in canonical form (or `A PAR H` if it had none).
pub fn unit_order(map: &Map, result: &PhaseResult, unit: usize) -> String {
    match result
        .orders
        .iter()
        .position(|r| r.unit == Some(unit) && !matches!(r.outcome, Outcome::Illegal(_)))
    {
        Some(k) => canonical(map, result, k),
        None => format!("{} H", result.units[unit].short(map)),
    }
}

/// Why an order ended as it did, in words, and the units that caused it.
pub fn reason(map: &Map, result: &PhaseResult, k: usize) -> (Option<String>, Vec<usize>) {
    let name = |u: usize| unit_order(map, result, u);
    match &result.orders[k].outcome {
        Outcome::Succeeds => (None, vec![]),
        Outcome::Illegal(i) => (Some(format!("illegal: {}", i.describe(map))), vec![]),
        Outcome::Invalid(v) => (
            Some(
                match v {
                    Void::SupportNotMatched => {
                        "void: the supported unit was not ordered to do that"
                    }
                    Void::ConvoyNotMatched => "void: the army was not ordered to make that move",
                    Void::NoConvoyOrdered => {
                        "no convoy: the move needs a convoy and no convoy route was ordered"
                    }
                }
                .to_string(),
            ),
            vec![],
        ),
        Outcome::Fails(f) => match f {
            Failure::Bounced { attack, against } => {
                let parts: Vec<String> = against
                    .iter()
                    .map(|o| {
                        format!(
                            "{} ({} strength {})",
                            name(o.unit),
                            o.kind.word(),
                            o.strength
                        )
                    })
                    .collect();
                let why = if *attack == 0 {
                    format!(
                        "bounced: a unit may not dislodge a unit of its own power ({})",
                        parts.join(", ")
                    )
                } else {
                    format!(
                        "bounced: attack strength {attack} did not beat {}",
                        parts.join(", ")
                    )
                };
                (Some(why), against.iter().map(|o| o.unit).collect())
            }
            Failure::ConvoyDisrupted => (
                Some("no convoy: every convoy route was disrupted".into()),
                vec![],
            ),
            Failure::Cut { by } => (Some(format!("cut by {}", name(*by))), vec![*by]),
            Failure::Dislodged { by } => (Some(format!("dislodged by {}", name(*by))), vec![*by]),
            Failure::RetreatClash { with } => {
                let names: Vec<String> = with.iter().map(|&u| result.units[u].short(map)).collect();
                (
                    Some(format!(
                        "bounced: {} retreated to the same province; all are destroyed",
                        names.join(", ")
                    )),
                    with.clone(),
                )
            }
            Failure::Paradox => (
                Some("paradox: the order fails by the backup rule (Szykman for a convoy, DATC 4.A.2 and 5.B.9)".into()),
                vec![],
            ),
        },
    }
}

/// Report tags for input order `k`: `bounce`, `cut`, `void`, `dislodged`, `no convoy`, `disrupted`.
pub fn tags(result: &PhaseResult, k: usize) -> Vec<&'static str> {
    let orders = &result.input;
    let r = &result.orders[k];
    let mut t = Vec::new();
    match &r.outcome {
        Outcome::Succeeds => {}
        Outcome::Illegal(_)
        | Outcome::Invalid(Void::SupportNotMatched | Void::ConvoyNotMatched) => t.push("void"),
        Outcome::Invalid(Void::NoConvoyOrdered) | Outcome::Fails(Failure::ConvoyDisrupted) => {
            t.push("no convoy")
        }
        Outcome::Fails(Failure::Bounced { .. } | Failure::RetreatClash { .. }) => t.push("bounce"),
        Outcome::Fails(Failure::Cut { .. }) => t.push("cut"),
        Outcome::Fails(Failure::Paradox) => t.push("disrupted"),
        Outcome::Fails(Failure::Dislodged { .. }) => match orders[k].kind {
            OrderKind::Support { .. } => t.push("cut"),
            OrderKind::Convoy { .. } => t.push("disrupted"),
            _ => {}
        },
    }
    let foreign = matches!(r.outcome, Outcome::Illegal(Illegal::ForeignUnit(_)));
    if r.unit.is_some_and(|u| result.is_dislodged(u)) && !foreign {
        t.push("dislodged");
    }
    if r.unit.is_some_and(|u| result.destroyed.contains(&u)) && !foreign {
        t.push("destroyed");
    }
    t
}

/// `Army`, `Fleet`, with an adjective: `Turkish Army`.
pub(crate) fn unit_words(map: &Map, u: &Unit, adjective: bool) -> String {
    if adjective {
        format!("{} {}", map.power(u.power).adjective, u.kind.word())
    } else {
        u.kind.word().to_string()
    }
}
