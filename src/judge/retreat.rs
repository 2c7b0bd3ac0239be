//! The retreat phase: each dislodged unit retreats to one of the places the movement
//! phase left it, or is disbanded. Two or more retreats to one province all fail and
//! those units are destroyed; a unit with no (legal) retreat order is destroyed.
//! No supports, convoys or other moves (DATC 6.H).

// Indexing is by dense ids and by positions in vectors built here, never by raw
// input. Prov/Loc/Power ids come from the map loader (which builds every adjacency
// table from validated ids) or from a position and orders that `game::check_ids`
// validated at the entry of `adjudicate`/`advance`; the public phase functions
// re-exported from `judge` take ids of the `map` they are given, the contract
// `advance` checks. Unit and order indices are positions in the vectors this
// phase built (one entry per unit, per order). An out-of-range index is a bug, not
// input.
#![allow(clippy::indexing_slicing)]

use super::outcome::{Failure, Illegal, OrderResult, Outcome};
use crate::map::{Loc, Map, UnitKind};
use crate::orders::{Diagnostic, Order, OrderKind};
use crate::state::{Position, Unit};

/// What a retreat phase decided.
#[derive(Clone, Debug)]
pub struct RetreatResult {
    /// The dislodged units (indices used by the outcomes).
    pub units: Vec<Unit>,
    /// One result per input order, in input order.
    pub orders: Vec<OrderResult>,
    /// Per dislodged unit: where it retreated, or `None` if it was destroyed.
    pub destination: Vec<Option<Loc>>,
    /// Orders that name no dislodged unit, another power's unit, or belong to another
    /// phase.
    pub diagnostics: Vec<Diagnostic>,
}

/// Judge retreat orders against the dislodged units of `position`: bind each order to
/// its dislodged unit, judge it on its own, keep one order per unit (DATC 4.D.3), then
/// fail every retreat into a province another unit retreats to.
pub fn adjudicate_retreats(map: &Map, position: &Position, orders: &[Order]) -> RetreatResult {
    let units: Vec<Unit> = position.dislodged.iter().map(|d| d.unit).collect();
    let mut diagnostics = Vec::new();
    let mut results: Vec<OrderResult> = orders
        .iter()
        .map(|o| {
            let (result, diagnostic) = bind(map, position, &units, o);
            diagnostics.extend(diagnostic);
            result
        })
        .collect();
    let acts: Vec<Option<Act>> = orders
        .iter()
        .zip(&mut results)
        .map(|(o, r)| act(map, position, o, r))
        .collect();
    let dest = one_order_per_unit(units.len(), &acts, &mut results);
    let destination = clashes(map, &units, &dest, &mut results);
    RetreatResult {
        units,
        orders: results,
        destination,
        diagnostics,
    }
}

/// Bind order `o` to its dislodged unit (of `units`): a retreat or a disband, for a
/// dislodged unit, of the power that gives it. Its result so far, and the referee's
/// diagnostic if it is bound to none.
fn bind(
    map: &Map,
    position: &Position,
    units: &[Unit],
    o: &Order,
) -> (OrderResult, Option<Diagnostic>) {
    let mut r = OrderResult {
        unit: None,
        power: o.power,
        outcome: Outcome::Succeeds,
        to: None,
    };
    let p = match (o.kind, o.prov(map)) {
        (OrderKind::Move { .. } | OrderKind::Disband, Some(p)) => p,
        _ => {
            r.outcome = Outcome::Illegal(Illegal::WrongPhase);
            let diagnostic = Diagnostic::error(
                o.span,
                "not a retreat-phase order",
                Some("a dislodged unit retreats (`A Par R Bur`) or disbands (`A Par D`)".into()),
            );
            return (r, Some(diagnostic));
        }
    };
    let Some(i) = units.iter().position(|u| map.prov_of(u.loc) == p) else {
        let name = &map.province(p).name;
        let (outcome, message) = match position.unit_in(map, p) {
            Some(u) if o.power.is_some_and(|pw| pw != u.power) => (
                Illegal::ForeignUnit(u.power),
                format!("the unit in {name} belongs to {}", map.power(u.power).name),
            ),
            Some(_) => (
                Illegal::NotDislodged,
                format!("the unit in {name} was not dislodged"),
            ),
            None => (
                Illegal::NoUnit,
                format!("there is no dislodged unit in {name}"),
            ),
        };
        r.outcome = Outcome::Illegal(outcome);
        let diagnostic = Diagnostic::error(
            o.span,
            message,
            Some("only dislodged units are ordered in a retreat phase".into()),
        );
        return (r, Some(diagnostic));
    };
    if let Some(pw) = o.power.filter(|&pw| pw != units[i].power) {
        r.outcome = Outcome::Illegal(Illegal::ForeignUnit(units[i].power));
        let diagnostic = Diagnostic::error(
            o.span,
            format!(
                "the unit in {} belongs to {}, not {}",
                map.province(p).name,
                map.power(units[i].power).name,
                map.power(pw).name
            ),
            Some("an order for another power's unit is illegal".into()),
        );
        return (r, Some(diagnostic));
    }
    r.unit = Some(i);
    r.power = Some(units[i].power);
    (r, None)
}

/// What a legal retreat-phase order does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Act {
    Disband,
    /// A retreat to this exact location.
    To(Loc),
}

/// Order `o` (its result `r` so far) on its own: a disband, a retreat to one of the
/// unit's options (its exact location), or illegal (`r` then says why). `None` for an
/// order bound to no unit or illegal.
fn act(map: &Map, position: &Position, o: &Order, r: &mut OrderResult) -> Option<Act> {
    let i = r.unit?;
    let a = match o.kind {
        OrderKind::Disband => Ok(Act::Disband),
        OrderKind::Move {
            via_convoy: true, ..
        } => Err(Illegal::NotARetreat),
        OrderKind::Move { to, .. } => retreat_to(map, position, i, to).map(Act::To),
        // Binding keeps only moves and disbands in a retreat phase; anything else
        // would be no retreat either.
        _ => Err(Illegal::NotARetreat),
    };
    match a {
        Ok(a) => Some(a),
        Err(e) => {
            r.outcome = Outcome::Illegal(e);
            None
        }
    }
}

/// Each unit's one order (DATC 4.D.3, as in a movement phase): illegal orders do not
/// count, identical orders are one order, and different legal orders are all illegal
/// (the unit is then destroyed). Per unit (of `n`): where it retreats, if it does.
fn one_order_per_unit(
    n: usize,
    acts: &[Option<Act>],
    results: &mut [OrderResult],
) -> Vec<Option<Loc>> {
    let mut one: Vec<Option<Act>> = vec![None; n];
    let mut conflict = vec![false; n];
    for (r, &a) in results.iter().zip(acts) {
        let (Some(i), Some(a)) = (r.unit, a) else {
            continue;
        };
        match one[i] {
            None => one[i] = Some(a),
            Some(b) if b == a => {}
            Some(_) => conflict[i] = true,
        }
    }
    let mut dest: Vec<Option<Loc>> = vec![None; n];
    for (r, &a) in results.iter_mut().zip(acts) {
        let (Some(i), Some(a)) = (r.unit, a) else {
            continue;
        };
        r.outcome = if conflict[i] {
            Outcome::Illegal(Illegal::DuplicateOrder)
        } else {
            if let Act::To(l) = a {
                dest[i] = Some(l);
                r.to = Some(l);
            }
            Outcome::Succeeds
        };
    }
    dest
}

/// Two or more retreats to one province all fail, and those units are destroyed
/// (DATC 6.H). Per unit: where it ends, from where it retreats (`dest`).
fn clashes(
    map: &Map,
    units: &[Unit],
    dest: &[Option<Loc>],
    results: &mut [OrderResult],
) -> Vec<Option<Loc>> {
    let mut destination = dest.to_vec();
    for i in 0..units.len() {
        let Some(l) = dest[i] else { continue };
        let p = map.prov_of(l);
        let mut with: Vec<usize> = (0..units.len())
            .filter(|&j| j != i && dest[j].is_some_and(|m| map.prov_of(m) == p))
            .collect();
        // By province, not by the order the dislodged units are listed in.
        with.sort_by_key(|&j| map.prov_of(units[j].loc));
        if !with.is_empty() {
            destination[i] = None;
            for r in results.iter_mut().filter(|r| r.unit == Some(i)) {
                r.outcome = Outcome::Fails(Failure::RetreatClash { with: with.clone() });
            }
        }
    }
    destination
}

/// The location a retreat to `to` means for dislodged unit `i`, if it is one of its
/// retreats. A fleet names the coast where two coasts of the province are open. A
/// province a unit stands in is no retreat, whatever the list says (the loaders refuse
/// such a list; a position built in code may still carry one): two units never end in
/// one province.
fn retreat_to(map: &Map, position: &Position, i: usize, to: Loc) -> Result<Loc, Illegal> {
    let d = &position.dislodged[i];
    let p = map.prov_of(to);
    if position.unit_in(map, p).is_some() {
        return Err(Illegal::NotARetreat);
    }
    let open: Vec<Loc> = d
        .retreats
        .iter()
        .copied()
        .filter(|&l| map.prov_of(l) == p)
        .collect();
    match open.as_slice() {
        [] => Err(Illegal::NotARetreat),
        _ if d.unit.kind == UnitKind::Army => Ok(open[0]),
        _ if map.is_named_coast(to) && open.contains(&to) => Ok(to),
        _ if map.is_named_coast(to) => Err(Illegal::UnreachableCoast),
        [one] => Ok(*one),
        _ => Err(Illegal::CoastNeeded(open)),
    }
}
