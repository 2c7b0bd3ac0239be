//! Reports: the Judge-style results sheet ([`text`]), JSON ([`json`]), Markdown
//! ([`markdown`]) and the explanation ([`explain`]), all rendered from one
//! [`PhaseResult`]; tags and reasons are derived from outcomes, never stored.

// Reports index a `PhaseResult` produced by the judge on the same map: unit
// and order indices (`k`, `unit`, supporters) are positions in
// that result's own vectors, and Prov/Loc/Power ids are the map's own or were
// checked by `game::check_ids` before the phase was judged. An out-of-range index
// is a bug, not input.
#![allow(clippy::indexing_slicing)]

pub mod explain;
pub mod json;
pub mod markdown;
pub mod text;

use crate::game::PhaseResult;
use crate::judge::{Failure, Illegal, Outcome, Void};
use crate::map::{Map, Power, Prov, UnitKind};
use crate::orders::{Order, OrderKind, UnitRef};
use crate::state::Unit;

/// The unit type an order is for: the unit's real type where the order was bound.
fn kind_of(result: &PhaseResult, k: usize, order: &Order) -> Option<UnitKind> {
    result.orders()[k]
        .unit
        .map(|u| result.units()[u].kind)
        .or(order.unit.and_then(|u| u.kind))
}

/// The first unit of `result` in province `p`.
fn unit_in<'r>(map: &Map, result: &'r PhaseResult, p: Prov) -> Option<&'r Unit> {
    result.units().iter().find(|u| map.prov_of(u.loc) == p)
}

/// The canonical form of input order `k`: `A PAR - BUR`, `F NTH C A LON - NWY`, with
/// the unit as it stands on the board.
pub fn canonical(map: &Map, result: &PhaseResult, k: usize) -> String {
    let mut s = String::with_capacity(24);
    write_canonical(&mut s, map, result, k);
    s
}

/// [`canonical`], appended to `s`.
pub(crate) fn write_canonical(s: &mut String, map: &Map, result: &PhaseResult, k: usize) {
    let orders = &result.input;
    let src = &orders[k];
    // A copy without the written text (which canonical form does not read).
    let mut o = Order {
        text: smol_str::SmolStr::default(),
        ..*src
    };
    if let (OrderKind::Move { via_convoy, .. }, Some(to)) = (o.kind, result.orders()[k].to) {
        o.kind = OrderKind::Move { to, via_convoy };
    }
    if let Some(u) = result.orders()[k].unit {
        if let Some(r) = o.unit.as_mut() {
            r.loc = result.units()[u].loc;
        }
    }
    // The supported unit or convoyed army as it stands on the board: `A MUN S A KIE -
    // BER` even when written `Mun S Kie - Ber`.
    let on_board = |r: &mut UnitRef| {
        if let Some(u) = unit_in(map, result, map.prov_of(r.loc)) {
            r.kind = Some(u.kind);
            r.loc = u.loc;
        }
    };
    match &mut o.kind {
        OrderKind::Support { target, .. } => on_board(target),
        OrderKind::Convoy { army, .. } => on_board(army),
        _ => {}
    }
    o.write_canonical(s, map, kind_of(result, k, &orders[k]));
}

/// The order unit `unit` (of [`PhaseResult::units`]) followed, in canonical form
/// (`A PAR H` if it had none).
pub fn unit_order(map: &Map, result: &PhaseResult, unit: usize) -> String {
    let mut s = String::with_capacity(24);
    write_unit_order(&mut s, map, result, unit);
    s
}

/// [`unit_order`], appended to `s`.
pub(crate) fn write_unit_order(s: &mut String, map: &Map, result: &PhaseResult, unit: usize) {
    match result.order_of(unit) {
        Some(k) => write_canonical(s, map, result, k),
        None => {
            result.units()[unit].write_short(s, map);
            s.push_str(" H");
        }
    }
}

/// Why input order `k` ended as it did, in words (`None` when it succeeded), and the
/// units that caused it (indices into [`PhaseResult::units`]).
pub fn reason(map: &Map, result: &PhaseResult, k: usize) -> (Option<String>, Vec<usize>) {
    let mut s = String::new();
    let why = write_reason(&mut s, map, result, k).then_some(s);
    (why, causes(result, k).collect())
}

/// The units that caused input order `k`'s outcome (indices into `result.units()`), as
/// [`reason`] gives them.
pub(crate) fn causes(result: &PhaseResult, k: usize) -> impl Iterator<Item = usize> + '_ {
    let (against, with, by): (&[_], &[usize], Option<usize>) = match &result.orders()[k].outcome {
        Outcome::Fails(Failure::Bounced { against, .. }) => (against, &[], None),
        Outcome::Fails(Failure::RetreatClash { with }) => (&[], with, None),
        Outcome::Fails(Failure::Cut { by } | Failure::Dislodged { by }) => (&[], &[], Some(*by)),
        _ => (&[], &[], None),
    };
    against
        .iter()
        .map(|o| o.unit)
        .chain(with.iter().copied())
        .chain(by)
}

/// Why input order `k` ended as it did, in words, appended to `s`; `false` (and
/// nothing written) when it succeeded.
pub(crate) fn write_reason(s: &mut String, map: &Map, result: &PhaseResult, k: usize) -> bool {
    match &result.orders()[k].outcome {
        Outcome::Succeeds => return false,
        Outcome::Illegal(i) => {
            s.push_str("illegal: ");
            s.push_str(&i.describe(map));
        }
        Outcome::Invalid(v) => s.push_str(match v {
            Void::SupportNotMatched => "void: the supported unit was not ordered to do that",
            Void::ConvoyNotMatched => "void: the army was not ordered to make that move",
            Void::NoConvoyOrdered => {
                "no convoy: the move needs a convoy and no convoy route was ordered"
            }
        }),
        Outcome::Fails(f) => match f {
            Failure::Bounced { attack, against } => {
                if *attack == 0 {
                    s.push_str("bounced: a unit may not dislodge a unit of its own power (");
                } else {
                    s.push_str("bounced: attack strength ");
                    push_number(s, *attack);
                    s.push_str(" did not beat ");
                }
                for (n, o) in against.iter().enumerate() {
                    if n > 0 {
                        s.push_str(", ");
                    }
                    write_unit_order(s, map, result, o.unit);
                    s.push_str(" (");
                    s.push_str(o.kind.word());
                    s.push_str(" strength ");
                    push_number(s, o.strength);
                    s.push(')');
                }
                if *attack == 0 {
                    s.push(')');
                }
            }
            Failure::ConvoyDisrupted => s.push_str("no convoy: every convoy route was disrupted"),
            Failure::Cut { by } => {
                s.push_str("cut by ");
                write_unit_order(s, map, result, *by);
            }
            Failure::Dislodged { by } => {
                s.push_str("dislodged by ");
                write_unit_order(s, map, result, *by);
            }
            Failure::RetreatClash { with } => {
                s.push_str("bounced: ");
                for (n, &u) in with.iter().enumerate() {
                    if n > 0 {
                        s.push_str(", ");
                    }
                    result.units()[u].write_short(s, map);
                }
                s.push_str(" retreated to the same province; all are destroyed");
            }
            Failure::Paradox => s.push_str(
                "paradox: the order fails by the backup rule (Szykman for a convoy, DATC 4.A.2 and 5.B.9)",
            ),
        },
    }
    true
}

/// A strength, in decimal (as `{}` writes it, without the formatting machinery).
fn push_number(s: &mut String, n: u8) {
    if n >= 100 {
        s.push(char::from(b'0' + n / 100));
    }
    if n >= 10 {
        s.push(char::from(b'0' + n / 10 % 10));
    }
    s.push(char::from(b'0' + n % 10));
}

/// Report tags for input order `k`: `bounce`, `cut`, `void`, `dislodged`, `no convoy`, `disrupted`.
pub fn tags(result: &PhaseResult, k: usize) -> Vec<&'static str> {
    let orders = &result.input;
    let r = &result.orders()[k];
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
    if r.unit.is_some_and(|u| result.is_destroyed(u)) && !foreign {
        t.push("destroyed");
    }
    t
}

/// The provinces whose owner differs between the owner tables `before` and `after`
/// (one entry per province), in province order, with the owner before and after.
pub(crate) fn centre_changes<'a>(
    map: &'a Map,
    before: &'a [Option<Power>],
    after: &'a [Option<Power>],
) -> impl Iterator<Item = (Prov, Option<Power>, Option<Power>)> + 'a {
    map.provs().filter_map(|p| {
        let (was, now) = (before[p.0 as usize], after[p.0 as usize]);
        (was != now).then_some((p, was, now))
    })
}

/// The sort key that lists each power's orders in map order, then the orders given for
/// no power.
pub(crate) fn power_first(power: Option<Power>) -> (bool, Option<Power>) {
    (power.is_none(), power)
}

/// The name of a centre's owner: the power's name, or `nobody`.
pub(crate) fn owner_name(map: &Map, owner: Option<Power>) -> String {
    owner.map_or_else(|| "nobody".to_string(), |pw| map.power(pw).name.clone())
}

/// `Army`, `Fleet`, with an adjective: `Turkish Army`.
pub(crate) fn unit_words(map: &Map, u: &Unit, adjective: bool) -> String {
    if adjective {
        format!("{} {}", map.power(u.power).adjective, u.kind.word())
    } else {
        u.kind.word().to_string()
    }
}

/// One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break
/// (quotes doubled), and a field beginning with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading `'`, so that a spreadsheet reads it as text, never
/// as a formula (`=HYPERLINK(…)`). A plain word is written as it is.
pub fn csv_field(s: &str) -> std::borrow::Cow<'_, str> {
    let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let quote = s.contains([',', '"', '\n', '\r']);
    if !formula && !quote {
        return std::borrow::Cow::Borrowed(s);
    }
    let body = if formula {
        format!("'{s}")
    } else {
        s.to_string()
    };
    std::borrow::Cow::Owned(format!("\"{}\"", body.replace('"', "\"\"")))
}
