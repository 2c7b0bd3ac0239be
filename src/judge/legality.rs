//! Binding orders to units and the legality filter (DATC 4.E.1): an order that can
//! never be valid on this board is illegal, ignored, and its unit holds. "Legal" is
//! judged from the board alone (6.D.31, 6.D.32, 6.G.19). Also decides, per the 2023
//! rules (4.A.3), which army moves to adjacent provinces go by convoy.

// Indexing is by dense ids and by positions in vectors built here, never by raw
// input. Prov/Loc/Power ids come from the map loader (which builds every adjacency
// table from validated ids) or from a position and orders that `game::check_ids`
// validated at the entry of `adjudicate`/`advance`; the public phase functions
// re-exported from `judge` take ids of the `map` they are given, the contract
// `advance` checks. Unit and order indices are positions in the vectors this
// phase built (one entry per unit, per order). An out-of-range index is a bug, not
// input.
#![allow(clippy::indexing_slicing)]

use super::convoy;
use super::outcome::{Illegal, OrderResult, Outcome};
use super::{ConvoyIntent, Rules};
use crate::game::Position;
use crate::map::{Loc, Map, Prov, ProvSet, Terrain, UnitKind};
use crate::orders::{Diagnostic, Order, OrderKind};
use std::cell::Cell;

pub(crate) const NONE: u16 = u16::MAX;

/// A unit's order as the resolver sees it: dense ids, legality already checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Eff {
    Hold,
    /// `to` is the exact destination (coast decided); `convoy`: goes by convoy.
    Move {
        to: Loc,
        convoy: bool,
        /// By convoy only if the convoy route holds, otherwise by land (the 1971
        /// reading of DATC 4.A.3).
        fallback: bool,
    },
    SupHold {
        target: u16,
    },
    /// `coast`: the coast the support named, which must match (6.B.9).
    SupMove {
        target: u16,
        to: Prov,
        coast: Option<Loc>,
    },
    Convoy {
        army: u16,
        to: Prov,
    },
}

/// The orders bound to units, ready for the resolver.
pub(crate) struct Checked {
    /// Per province: the unit in it, or `NONE`.
    pub unit_at: Vec<u16>,
    /// Per unit: its order.
    pub eff: Vec<Eff>,
    /// Per unit: the input order its `eff` came from.
    pub order_of: Vec<Option<usize>>,
    /// (input order, the identical order whose outcome it shares) (4.D.3).
    pub same_as: Vec<(usize, usize)>,
    /// Per input order: the result so far (illegal ones final).
    pub results: Vec<OrderResult>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Buffers of [`check`] kept per thread for the next phase: the tables a [`Checked`]
/// hands to the resolver (given back with [`recycle`]) and `check`'s own.
struct Bufs {
    unit_at: Vec<u16>,
    eff: Vec<Eff>,
    order_of: Vec<Option<usize>>,
    legal_eff: Vec<Option<Eff>>,
    conflict: Vec<bool>,
}

impl Bufs {
    const fn new() -> Bufs {
        Bufs {
            unit_at: Vec::new(),
            eff: Vec::new(),
            order_of: Vec::new(),
            legal_eff: Vec::new(),
            conflict: Vec::new(),
        }
    }
}

thread_local! {
    static BUFS: Cell<Bufs> = const { Cell::new(Bufs::new()) };
}

/// `v` as `n` copies of `x`, in its own buffer.
pub(crate) fn refill<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

/// Give the tables of a [`Checked`] the resolver is done with back to this thread's
/// next [`check`].
pub(crate) fn recycle(unit_at: Vec<u16>, eff: Vec<Eff>, order_of: Vec<Option<usize>>) {
    BUFS.with(|c| {
        let mut b = c.replace(Bufs::new());
        b.unit_at = unit_at;
        b.eff = eff;
        b.order_of = order_of;
        c.set(b);
    });
}

pub(crate) fn check(map: &Map, position: &Position, orders: &[Order], rules: Rules) -> Checked {
    let units = &position.units;
    let mut b = BUFS.with(|c| c.replace(Bufs::new()));
    let mut unit_at = std::mem::take(&mut b.unit_at);
    refill(&mut unit_at, map.province_count(), NONE);
    let mut fleets_at_sea = ProvSet::EMPTY;
    for (i, u) in units.iter().enumerate() {
        let p = map.prov_of(u.loc);
        unit_at[p.0 as usize] = i as u16;
        if u.kind == UnitKind::Fleet && map.is_sea(p) {
            fleets_at_sea.insert(p);
        }
    }
    let mut results: Vec<OrderResult> = Vec::with_capacity(orders.len());
    let mut diagnostics = Vec::new();

    // Bind each order to its unit.
    for o in orders {
        let mut r = OrderResult {
            unit: None,
            power: o.power,
            outcome: Outcome::Succeeds,
            to: None,
        };
        match (o.kind, o.unit) {
            (OrderKind::Build | OrderKind::Waive | OrderKind::Save | OrderKind::Disband, _)
            | (_, None) => {
                r.outcome = Outcome::Illegal(Illegal::WrongPhase);
                diagnostics.push(Diagnostic::error(
                    o.span,
                    "not a movement-phase order",
                    Some("builds, removals, waives and disbands belong to the retreat and adjustment phases".into()),
                ));
            }
            (_, Some(u)) => {
                let p = map.prov_of(u.loc);
                let idx = unit_at[p.0 as usize];
                if idx == NONE {
                    r.outcome = Outcome::Illegal(Illegal::NoUnit);
                    diagnostics.push(Diagnostic::error(
                        o.span,
                        format!("there is no unit in {}", map.province(p).name),
                        Some("check the province, or the position the orders are for".into()),
                    ));
                } else {
                    let unit = &units[idx as usize];
                    r.unit = Some(idx as usize);
                    match o.power {
                        Some(pw) if pw != unit.power => {
                            r.outcome = Outcome::Illegal(Illegal::ForeignUnit(unit.power));
                            diagnostics.push(Diagnostic::error(
                                o.span,
                                format!(
                                    "the {} in {} belongs to {}, not {}",
                                    unit.kind.word().to_lowercase(),
                                    map.province(p).name,
                                    map.power(unit.power).name,
                                    map.power(pw).name
                                ),
                                Some(
                                    "an order for another power's unit is illegal; the unit holds"
                                        .into(),
                                ),
                            ));
                        }
                        _ => {
                            r.power = Some(unit.power);
                        }
                    }
                }
            }
        }
        results.push(r);
    }
    // Legality of each bound order, on its own.
    let mut legal_eff = std::mem::take(&mut b.legal_eff);
    refill(&mut legal_eff, orders.len(), None);
    for (k, o) in orders.iter().enumerate() {
        let Some(u) = results[k]
            .unit
            .filter(|_| results[k].outcome == Outcome::Succeeds)
        else {
            continue;
        };
        let unit = &units[u];
        match legal(
            map,
            &unit_at,
            units,
            &fleets_at_sea,
            u,
            map.prov_of(unit.loc),
            o.kind,
            rules,
        ) {
            Ok(e) => {
                if let Eff::Move { to, .. } = e {
                    results[k].to = Some(to);
                }
                legal_eff[k] = Some(e);
            }
            Err(why) => {
                diagnostics.push(illegal_diagnostic(map, o, &why));
                results[k].outcome = Outcome::Illegal(why);
            }
        }
    }

    // One order per unit (4.D.3): illegal orders do not count; identical orders are
    // one order; different legal orders are all illegal and the unit holds.
    let mut eff = std::mem::take(&mut b.eff);
    refill(&mut eff, units.len(), Eff::Hold);
    let mut order_of = std::mem::take(&mut b.order_of);
    refill(&mut order_of, units.len(), None);
    let mut same_as = Vec::new();
    let mut conflict = std::mem::take(&mut b.conflict);
    refill(&mut conflict, units.len(), false);
    for k in 0..orders.len() {
        let (Some(u), Some(e)) = (results[k].unit, legal_eff[k]) else {
            continue;
        };
        match order_of[u] {
            None => {
                order_of[u] = Some(k);
                eff[u] = e;
            }
            Some(first) if legal_eff[first] == Some(e) => same_as.push((k, first)),
            Some(_) => conflict[u] = true,
        }
    }
    if conflict.contains(&true) {
        for (k, o) in orders.iter().enumerate() {
            let Some(u) = results[k]
                .unit
                .filter(|&u| conflict[u] && legal_eff[k].is_some())
            else {
                continue;
            };
            results[k].outcome = Outcome::Illegal(Illegal::DuplicateOrder);
            diagnostics.push(Diagnostic::error(
                o.span,
                format!("{} has more than one order", units[u].short(map)),
                Some("all its orders are illegal and the unit holds; keep one".into()),
            ));
        }
        same_as.retain(|&(k, _)| !results[k].unit.is_some_and(|u| conflict[u]));
        for u in 0..units.len() {
            if conflict[u] {
                eff[u] = Eff::Hold;
                order_of[u] = None;
            }
        }
    }

    convoy_intent(map, units, &mut eff, rules);
    b.legal_eff = legal_eff;
    b.conflict = conflict;
    BUFS.with(|c| c.set(b));
    Checked {
        unit_at,
        eff,
        order_of,
        same_as,
        results,
        diagnostics,
    }
}

/// DATC 4.A.3, by the edition's policy: which army moves to an adjacent province go by
/// convoy, decided once every unit has its one order.
fn convoy_intent(map: &Map, units: &[crate::game::Unit], eff: &mut [Eff], rules: Rules) {
    // With no convoy order at all, no army has a convoy ordered: the scans below
    // are skipped.
    let convoys = eff.iter().any(|e| matches!(e, Eff::Convoy { .. }));
    // The route through the fleets ordered to convoy army `a` to `dest`.
    let ordered_route = |eff: &[Eff], a: usize, dest: Prov| {
        if !convoys {
            return false;
        }
        let fleets: ProvSet = eff
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(**e, Eff::Convoy { army, to } if army as usize == a && to == dest))
            .map(|(f, _)| map.prov_of(units[f].loc))
            .collect();
        convoy::route_exists(map, &fleets, map.prov_of(units[a].loc), dest)
    };
    for a in 0..units.len() {
        let Eff::Move { to, convoy, .. } = eff[a] else {
            continue;
        };
        if units[a].kind != UnitKind::Army {
            continue;
        }
        let here = map.prov_of(units[a].loc);
        let dest = map.prov_of(to);
        if !map.army_adjacent(here, dest) {
            continue;
        }
        let by_convoy = match rules.convoy_intent {
            // 2000/2023 and 1982: a fleet of the army's own power legally ordered to
            // convoy it shows the intent to go by convoy.
            ConvoyIntent::ViaConvoyOrOwnFleet { .. } | ConvoyIntent::OwnFleet1982 => {
                convoy
                    || (convoys && eff.iter().enumerate().any(|(f, e)| {
                        matches!(*e, Eff::Convoy { army, to } if army as usize == a && to == dest)
                            && units[f].power == units[a].power
                    }))
            }
            // 1971: only a swap with the unit in the destination goes by convoy.
            ConvoyIntent::Swap1971 => {
                let swap = convoys && units.iter().enumerate().any(|(o, u)| {
                    map.prov_of(u.loc) == dest
                        && matches!(eff[o], Eff::Move { to: back, .. } if map.prov_of(back) == here)
                });
                swap && ordered_route(eff, a, dest)
            }
        };
        // 2000 (v2.4 6.G.8): with no convoy route ordered, the army goes by land.
        let by_convoy = by_convoy && (!rules.land_fallback() || ordered_route(eff, a, dest));
        eff[a] = Eff::Move {
            to,
            convoy: by_convoy,
            fallback: by_convoy && rules.convoy_intent == ConvoyIntent::Swap1971,
        };
    }
}

#[allow(clippy::too_many_arguments)]
fn legal(
    map: &Map,
    unit_at: &[u16],
    units: &[crate::game::Unit],
    fleets_at_sea: &ProvSet,
    u: usize,
    here: Prov,
    kind: OrderKind,
    rules: Rules,
) -> Result<Eff, Illegal> {
    let unit = &units[u];
    match kind {
        OrderKind::Hold => Ok(Eff::Hold),
        OrderKind::Move { to, via_convoy } => {
            // "via convoy" is a rule of the 2000 and 2023 editions only (4.A.3).
            let via = via_convoy
                && (unit.kind == UnitKind::Fleet
                    || matches!(
                        rules.convoy_intent,
                        ConvoyIntent::ViaConvoyOrOwnFleet { .. }
                    ));
            let (to, convoy) = match move_target(map, fleets_at_sea, unit.kind, unit.loc, to, via) {
                // 2000 (v2.4 6.G.8): no convoy possible, so the army goes by land.
                Err(Illegal::NoPossibleConvoy)
                    if rules.land_fallback() && map.army_adjacent(here, map.prov_of(to)) =>
                {
                    (map.prov_of(to).into(), false)
                }
                r => r?,
            };
            Ok(Eff::Move {
                to,
                convoy,
                fallback: false,
            })
        }
        OrderKind::Support { target, to } => {
            let tp = map.prov_of(target.loc);
            let t = unit_at[tp.0 as usize];
            if tp == here {
                return Err(Illegal::SupportSelf);
            }
            if t == NONE {
                return Err(Illegal::NoTarget);
            }
            let tu = &units[t as usize];
            match to {
                None => {
                    if !map.can_reach(unit.kind, unit.loc, tp) {
                        return Err(Illegal::CannotReach);
                    }
                    Ok(Eff::SupHold { target: t })
                }
                Some(dl) => {
                    let dest = map.prov_of(dl);
                    if dest == tp {
                        return Err(Illegal::SupportedMoveImpossible);
                    }
                    if !map.can_reach(unit.kind, unit.loc, dest) {
                        return Err(Illegal::CannotReach);
                    }
                    // The supported move must be possible, with the supporter not
                    // convoying at the same time (6.D.31).
                    let mut fleets = *fleets_at_sea;
                    fleets.remove(here);
                    let coast = match tu.kind {
                        UnitKind::Army => {
                            if matches!(map.terrain(dest), Terrain::Sea | Terrain::Impassable) {
                                return Err(Illegal::SupportedMoveImpossible);
                            }
                            let ok = map.army_adjacent(tp, dest)
                                || (map.is_shore(tp)
                                    && map.is_shore(dest)
                                    && convoy::route_exists(map, &fleets, tp, dest));
                            if !ok {
                                return Err(Illegal::SupportedMoveImpossible);
                            }
                            None
                        }
                        UnitKind::Fleet => {
                            if !map.fleet_reach(tu.loc).contains(dest) {
                                return Err(Illegal::SupportedMoveImpossible);
                            }
                            if map.is_coast(dl) {
                                if !map.fleet_adjacent(tu.loc, dl) {
                                    return Err(Illegal::SupportedMoveImpossible);
                                }
                                Some(dl)
                            } else {
                                None
                            }
                        }
                    };
                    Ok(Eff::SupMove {
                        target: t,
                        to: dest,
                        coast,
                    })
                }
            }
        }
        OrderKind::Convoy { army, to } => {
            if unit.kind != UnitKind::Fleet || !map.is_sea(here) {
                return Err(Illegal::ConvoyNotAtSea);
            }
            let ap = map.prov_of(army.loc);
            let a = unit_at[ap.0 as usize];
            if a == NONE {
                return Err(Illegal::NoTarget);
            }
            if units[a as usize].kind != UnitKind::Army {
                return Err(Illegal::ConvoyNotArmy);
            }
            let dest = map.prov_of(to);
            if dest == ap {
                return Err(Illegal::SameProvince);
            }
            if !map.is_shore(ap)
                || !map.is_shore(dest)
                || !convoy::necessary(map, fleets_at_sea, ap, dest, here)
            {
                return Err(Illegal::NotOnRoute);
            }
            Ok(Eff::Convoy { army: a, to: dest })
        }
        OrderKind::Disband | OrderKind::Build | OrderKind::Waive | OrderKind::Save => {
            Err(Illegal::WrongPhase)
        }
    }
}

/// The exact destination of a move and whether it goes by convoy, or why it is illegal.
pub(crate) fn move_target(
    map: &Map,
    fleets_at_sea: &ProvSet,
    kind: UnitKind,
    from: Loc,
    to: Loc,
    via_convoy: bool,
) -> Result<(Loc, bool), Illegal> {
    let here = map.prov_of(from);
    let dest = map.prov_of(to);
    if dest == here {
        return Err(Illegal::SameProvince);
    }
    match kind {
        _ if map.terrain(dest) == Terrain::Impassable => Err(Illegal::Impassable),
        UnitKind::Army => {
            if map.terrain(dest) == Terrain::Sea {
                return Err(Illegal::ArmyToSea);
            }
            let adjacent = map.army_adjacent(here, dest);
            if adjacent && !via_convoy {
                return Ok((dest.into(), false));
            }
            if !map.is_shore(here) || !map.is_shore(dest) {
                return if adjacent {
                    Ok((dest.into(), false))
                } else {
                    Err(Illegal::NotAdjacent)
                };
            }
            if !convoy::route_exists(map, fleets_at_sea, here, dest) {
                return Err(Illegal::NoPossibleConvoy);
            }
            Ok((dest.into(), true))
        }
        UnitKind::Fleet => {
            if via_convoy && !map.fleet_reach(from).contains(dest) {
                return Err(Illegal::FleetConvoyed);
            }
            if map.terrain(dest) == Terrain::Land {
                return Err(Illegal::FleetInland);
            }
            if map.is_split(dest) {
                if map.is_coast(to) {
                    if map.fleet_adjacent(from, to) {
                        return Ok((to, false));
                    }
                    return Err(if map.fleet_reach(from).contains(dest) {
                        Illegal::UnreachableCoast
                    } else {
                        Illegal::NotAdjacent
                    });
                }
                let reach: Vec<Loc> = map
                    .province(dest)
                    .coasts
                    .iter()
                    .copied()
                    .filter(|&c| map.fleet_adjacent(from, c))
                    .collect();
                return match reach.len() {
                    0 => Err(Illegal::NotAdjacent),
                    1 => Ok((reach[0], false)),
                    _ => Err(Illegal::CoastNeeded(reach)),
                };
            }
            if map.fleet_reach(from).contains(dest) {
                Ok((dest.into(), false))
            } else {
                Err(Illegal::NotAdjacent)
            }
        }
    }
}

/// A referee-facing message for an illegal order.
pub(crate) fn illegal_diagnostic(map: &Map, o: &Order, why: &Illegal) -> Diagnostic {
    let text = why.describe(map);
    match why {
        Illegal::CoastNeeded(c) => {
            let ids: Vec<String> = c.iter().map(|&l| format!("`{}`", map.loc_id(l))).collect();
            let help = format!("name the coast: {}; the unit holds", ids.join(" or "));
            Diagnostic::error(o.span, text, Some(help))
        }
        _ => Diagnostic::warning(
            o.span,
            format!("illegal order: {text}"),
            Some("the order is ignored and the unit holds".into()),
        ),
    }
}

impl Illegal {
    /// Why, in words.
    pub fn describe(&self, map: &Map) -> String {
        match self {
            Illegal::NoUnit => "there is no unit there".into(),
            Illegal::ForeignUnit(p) => format!("the unit belongs to {}", map.power(*p).name),
            Illegal::DuplicateOrder => "the unit has more than one order".into(),
            Illegal::WrongPhase => "not an order of this phase".into(),
            Illegal::SameProvince => "a unit cannot move to the province it is in".into(),
            Illegal::ArmyToSea => "an army cannot move to sea".into(),
            Illegal::Impassable => "no unit may enter that province".into(),
            Illegal::FleetInland => "a fleet cannot move inland".into(),
            Illegal::NotAdjacent => "the destination is not adjacent".into(),
            Illegal::UnreachableCoast => "the fleet cannot reach that coast".into(),
            Illegal::CoastNeeded(c) => format!(
                "the coast must be named: both {} are reachable",
                c.iter()
                    .map(|&l| map.loc_id(l))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
            Illegal::FleetConvoyed => "a fleet cannot be convoyed".into(),
            Illegal::NoPossibleConvoy => {
                "the move needs a convoy and no fleet stands where a route could be".into()
            }
            Illegal::SupportSelf => "a unit cannot support itself".into(),
            Illegal::NoTarget => "there is no unit to support or convoy there".into(),
            Illegal::CannotReach => {
                "the supporting unit cannot move to the province it supports".into()
            }
            Illegal::SupportedMoveImpossible => "the supported move is impossible".into(),
            Illegal::ConvoyNotAtSea => "only a fleet at sea can convoy".into(),
            Illegal::ConvoyNotArmy => "only an army can be convoyed".into(),
            Illegal::NotOnRoute => "the fleet is on no possible convoy route".into(),
            Illegal::Build(s) => (*s).into(),
            Illegal::NotDislodged => {
                "the unit was not dislodged: only dislodged units move now".into()
            }
            Illegal::NotARetreat => "the unit cannot retreat there".into(),
        }
    }
}
