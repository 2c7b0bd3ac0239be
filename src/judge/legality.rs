//! Binding orders to units and the legality filter (DATC 4.E.1): an order that can
//! never be valid on this board is illegal, ignored, and its unit holds. "Legal" is
//! judged from the board alone (6.D.31, 6.D.32, 6.G.19). Also decides, per the 2023
//! rules (4.A.3), which army moves to adjacent provinces go by convoy.

// Indexing is by dense ids and by positions in vectors built here, never by raw
// input. Prov/Loc/Power ids come from the map loader (which builds every adjacency
// table from validated ids) or from a position and orders whose ids `game::check_ids`
// (at the entry of `advance`) or `check_unit_ids` (of `adjudicate`: the units and
// orders, all a movement phase reads) validated; the public phase functions
// re-exported from `judge` take ids of the `map` they are given, the contract
// `advance` checks. Unit and order indices are positions in the vectors this
// phase built (one entry per unit, per order). An out-of-range index is a bug, not
// input.
#![allow(clippy::indexing_slicing)]

use super::convoy;
use super::outcome::{Illegal, OrderResult, Outcome};
use super::{ConvoyIntent, Rules};
use crate::map::{Loc, Map, Power, Prov, ProvSet, Terrain, UnitKind};
use crate::orders::{Diagnostic, Order, OrderKind, UnitRef};
use crate::state::Position;
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
/// hands to the resolver, given back with [`recycle`].
struct Bufs {
    unit_at: Vec<u16>,
    eff: Vec<Eff>,
    order_of: Vec<Option<usize>>,
}

impl Bufs {
    const fn new() -> Bufs {
        Bufs {
            unit_at: Vec::new(),
            eff: Vec::new(),
            order_of: Vec::new(),
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
        c.set(Bufs {
            unit_at,
            eff,
            order_of,
        })
    });
}

/// The orders kept so far, one per unit (4.D.3), and the result of every order.
struct Kept<'a> {
    /// Per unit: its first legal order (until a different one makes it hold).
    eff: &'a mut [Eff],
    /// Per unit: the input order `eff` came from.
    order_of: &'a mut [Option<usize>],
    /// (input order, the identical earlier order whose outcome it shares).
    same_as: Vec<(usize, usize)>,
    /// The provinces of units given different legal orders, and of fleets whose first
    /// legal order is a convoy. Only the unit `unit_at` names in a province is ever
    /// bound to an order, so a province stands for it.
    conflict: ProvSet,
    convoying: ProvSet,
    /// Per input order so far: its result.
    results: Vec<OrderResult>,
}

impl Kept<'_> {
    /// Order `k`, legal on its own, gives unit `u` (in province `p`, of `power`) the
    /// order `e`. Identical orders are one order; different legal orders are all
    /// illegal and the unit holds (found after the pass, from `conflict`). `eff` and
    /// `order_of` have one entry per unit and `u` is a unit's index.
    #[inline(always)]
    fn keep(&mut self, k: usize, u: usize, p: Prov, power: Option<Power>, e: Eff) {
        match self.order_of[u] {
            None => {
                self.order_of[u] = Some(k);
                self.eff[u] = e;
                if let Eff::Convoy { .. } = e {
                    self.convoying.insert(p);
                }
            }
            Some(first) if self.eff[u] == e => self.same_as.push((k, first)),
            Some(_) => self.conflict.insert(p),
        }
        // `extend` makes room before `once_with` makes the result, which the compiler
        // then writes straight into the vector; `push` takes a result already made,
        // built on the stack and copied.
        self.results.extend(std::iter::once_with(|| OrderResult {
            unit: Some(u),
            power,
            outcome: Outcome::Succeeds,
            to: match e {
                Eff::Move { to, .. } => Some(to),
                _ => None,
            },
        }));
    }
}

/// Bind each order to its unit, judge its legality and keep one order per unit, in
/// one pass over the orders. Diagnostics come as three passes would give them: every
/// binding problem in input order, then every illegal order, then every unit with
/// more than one order.
pub(crate) fn check(map: &Map, position: &Position, orders: &[Order], rules: Rules) -> Checked {
    let units = &position.units;
    let n = units.len();
    let Bufs {
        mut unit_at,
        mut eff,
        mut order_of,
    } = BUFS.with(|c| c.replace(Bufs::new()));
    refill(&mut unit_at, map.province_count(), NONE);
    // The provinces of every fleet, kept to the seas once: one set operation rather
    // than a sea test per fleet.
    let mut fleets = ProvSet::EMPTY;
    for (i, u) in units.iter().enumerate() {
        let p = map.prov_of(u.loc);
        unit_at[p.0 as usize] = i as u16;
        if u.kind == UnitKind::Fleet {
            fleets.insert(p);
        }
    }
    let fleets_at_sea = fleets.and(map.seas());
    refill(&mut eff, n, Eff::Hold);
    refill(&mut order_of, n, None);
    let mut diagnostics = Vec::new();
    // Diagnostics of orders illegal on their own, reported after every binding one.
    let mut illegal = Vec::new();
    let board = Board {
        map,
        unit_at: &unit_at,
        units,
        fleets_at_sea: &fleets_at_sea,
        rules,
    };
    let mut kept = Kept {
        eff: &mut eff[..n],
        order_of: &mut order_of[..n],
        same_as: Vec::new(),
        conflict: ProvSet::EMPTY,
        convoying: ProvSet::EMPTY,
        results: Vec::with_capacity(orders.len()),
    };
    'orders: for (k, o) in orders.iter().enumerate() {
        // An order legal on its own is kept below and goes to the next; an order
        // refused breaks out with its unit, power and why.
        let (unit, power, why) = 'refused: {
            // Bind the order to its unit (the unit tested first, the kind only for a
            // unit given: the usual order then costs fewer tests).
            let (p, u) = match o.unit {
                Some(u)
                    if !matches!(
                        o.kind,
                        OrderKind::Build | OrderKind::Waive | OrderKind::Save | OrderKind::Disband
                    ) =>
                {
                    let p = map.prov_of(u.loc);
                    let idx = unit_at[p.0 as usize];
                    if idx == NONE {
                        diagnostics.push(Diagnostic::error(
                            o.span,
                            format!("there is no unit in {}", map.province(p).name),
                            Some("check the province, or the position the orders are for".into()),
                        ));
                        break 'refused (None, o.power, Illegal::NoUnit);
                    }
                    (p, idx as usize)
                }
                _ => {
                    diagnostics.push(Diagnostic::error(
                        o.span,
                        "not a movement-phase order",
                        Some("builds, removals, waives and disbands belong to the retreat and adjustment phases".into()),
                    ));
                    break 'refused (None, o.power, Illegal::WrongPhase);
                }
            };
            let unit = &units[u];
            match o.power {
                Some(pw) if pw != unit.power => {
                    diagnostics.push(Diagnostic::error(
                        o.span,
                        format!(
                            "the {} in {} belongs to {}, not {}",
                            unit.kind.word().to_lowercase(),
                            map.province(p).name,
                            map.power(unit.power).name,
                            map.power(pw).name
                        ),
                        Some("an order for another power's unit is illegal; the unit holds".into()),
                    ));
                    break 'refused (Some(u), o.power, Illegal::ForeignUnit(unit.power));
                }
                _ => {}
            }
            let power = Some(unit.power);
            // Its legality, on its own. Moves and supports, the common orders, are
            // each judged and kept apart from the other kinds: their `Eff` is then
            // built and stored in place, not passed through a value of any kind.
            let legal = match o.kind {
                OrderKind::Move { to, via_convoy } => board
                    .legal_move(u, p, to, via_convoy)
                    .map(|e| kept.keep(k, u, p, power, e)),
                OrderKind::Support { target, to } => board
                    .legal_support(u, p, target, to)
                    .map(|e| kept.keep(k, u, p, power, e)),
                ref kind => board
                    .legal(u, p, kind)
                    .map(|e| kept.keep(k, u, p, power, e)),
            };
            match legal {
                Ok(()) => continue 'orders,
                Err(why) => {
                    illegal.push(illegal_diagnostic(map, o, &why));
                    break 'refused (Some(u), power, why);
                }
            }
        };
        kept.results.push(OrderResult {
            unit,
            power,
            outcome: Outcome::Illegal(why),
            to: None,
        });
    }
    let Kept {
        mut same_as,
        conflict,
        convoying,
        mut results,
        ..
    } = kept;
    diagnostics.append(&mut illegal);

    if !conflict.is_empty() {
        // The orders of a unit with more than one: its legal orders, those that still
        // succeed, become illegal.
        let conflicted = |u: usize| conflict.contains(map.prov_of(units[u].loc));
        for (r, o) in results.iter_mut().zip(orders) {
            let Some(u) = r
                .unit
                .filter(|&u| r.outcome == Outcome::Succeeds && conflicted(u))
            else {
                continue;
            };
            r.outcome = Outcome::Illegal(Illegal::DuplicateOrder);
            diagnostics.push(Diagnostic::error(
                o.span,
                format!("{} has more than one order", units[u].short(map)),
                Some("all its orders are illegal and the unit holds; keep one".into()),
            ));
        }
        same_as.retain(|&(k, _)| !results[k].unit.is_some_and(conflicted));
        for p in conflict {
            let u = unit_at[p.0 as usize] as usize;
            eff[u] = Eff::Hold;
            order_of[u] = None;
        }
    }

    convoy_intent(map, units, &unit_at, &convoying, &mut eff, rules);
    Checked {
        unit_at,
        eff,
        order_of,
        same_as,
        results,
        diagnostics,
    }
}

/// DATC 4.A.3, by the edition's policy: which army moves to adjacent provinces go by
/// convoy, decided once every unit has its one order. `convoying`: the provinces of
/// the fleets whose first legal order is a convoy (some may hold now, after
/// conflicting orders).
fn convoy_intent(
    map: &Map,
    units: &[crate::state::Unit],
    unit_at: &[u16],
    convoying: &ProvSet,
    eff: &mut [Eff],
    rules: Rules,
) {
    // Is any fleet ordered to convoy; the provinces of the armies a fleet of their own
    // power is ordered to convoy where they move. Only the unit `unit_at` names in a
    // province has an order, so a province stands for its army.
    let mut convoys = false;
    let mut own_convoy = ProvSet::EMPTY;
    for f in convoying.iter().map(|p| unit_at[p.0 as usize] as usize) {
        let Eff::Convoy { army, to: dest } = eff[f] else {
            continue;
        };
        convoys = true;
        let a = army as usize;
        if units[f].power == units[a].power
            && matches!(eff[a], Eff::Move { to, .. } if map.prov_of(to) == dest)
        {
            own_convoy.insert(map.prov_of(units[a].loc));
        }
    }
    // With no convoy ordered, a move keeps the convoy flag `legal` gave it (a "via
    // convoy" army move of the 2000 and 2023 editions, no other), except that the v2.4
    // land fallback sends it by land.
    if !convoys && !rules.land_fallback() {
        return;
    }
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
    let mut decide = |a: usize| {
        let Eff::Move { to, convoy, .. } = eff[a] else {
            return;
        };
        if units[a].kind != UnitKind::Army {
            return;
        }
        let here = map.prov_of(units[a].loc);
        let dest = map.prov_of(to);
        if !map.army_adjacent(here, dest) {
            return;
        }
        let by_convoy = match rules.convoy_intent {
            // 2000/2023 and 1982: a fleet of the army's own power legally ordered to
            // convoy it shows the intent to go by convoy.
            ConvoyIntent::ViaConvoyOrOwnFleet { .. } | ConvoyIntent::OwnFleet1982 => {
                convoy || own_convoy.contains(here)
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
    };
    if rules.land_fallback() || rules.convoy_intent == ConvoyIntent::Swap1971 {
        (0..units.len()).for_each(decide);
    } else {
        // Without the swap rule or the land fallback, `decide` keeps every move as
        // `legal` made it (by land, or by convoy as ordered "via convoy") but those of
        // the armies in `own_convoy`: only they need a look.
        own_convoy
            .iter()
            .for_each(|p| decide(unit_at[p.0 as usize] as usize));
    }
}

/// What the legality of one order is judged on: the board and the units on it.
struct Board<'a> {
    map: &'a Map,
    /// Per province: the unit in it, or `NONE`.
    unit_at: &'a [u16],
    units: &'a [crate::state::Unit],
    fleets_at_sea: &'a ProvSet,
    rules: Rules,
}

impl Board<'_> {
    /// The order `kind` of unit `u`, in province `here`, as the resolver sees it, or
    /// why it can never be valid on this board.
    #[inline]
    fn legal(&self, u: usize, here: Prov, kind: &OrderKind) -> Result<Eff, Illegal> {
        let &Board {
            map,
            unit_at,
            units,
            fleets_at_sea,
            ..
        } = self;
        let unit = &units[u];
        match *kind {
            OrderKind::Hold => Ok(Eff::Hold),
            OrderKind::Move { to, via_convoy } => self.legal_move(u, here, to, via_convoy),
            OrderKind::Support { target, to } => self.legal_support(u, here, target, to),
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

    /// [`Board::legal`] for a support by unit `u`, in province `here`, of the unit at
    /// `target` holding (`to`: `None`) or moving to `to`.
    #[inline]
    fn legal_support(
        &self,
        u: usize,
        here: Prov,
        target: UnitRef,
        to: Option<Loc>,
    ) -> Result<Eff, Illegal> {
        let (map, unit_at, units) = (self.map, self.unit_at, self.units);
        let unit = &units[u];
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
                let coast = match tu.kind {
                    UnitKind::Army => {
                        if matches!(map.terrain(dest), Terrain::Sea | Terrain::Impassable) {
                            return Err(Illegal::SupportedMoveImpossible);
                        }
                        let ok = map.army_adjacent(tp, dest)
                            || (map.is_shore(tp) && map.is_shore(dest) && {
                                let mut fleets = *self.fleets_at_sea;
                                fleets.remove(here);
                                convoy::route_exists(map, &fleets, tp, dest)
                            });
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

    /// [`Board::legal`] for a move of unit `u`, in province `here`, to `to`.
    #[inline]
    fn legal_move(&self, u: usize, here: Prov, to: Loc, via_convoy: bool) -> Result<Eff, Illegal> {
        let &Board {
            map,
            units,
            fleets_at_sea,
            rules,
            ..
        } = self;
        let unit = &units[u];
        // "via convoy" is a rule of the 2000 and 2023 editions only (4.A.3).
        let via = via_convoy
            && (unit.kind == UnitKind::Fleet
                || matches!(
                    rules.convoy_intent,
                    ConvoyIntent::ViaConvoyOrOwnFleet { .. }
                ));
        let (to, convoy) = match move_target(map, fleets_at_sea, unit.kind, unit.loc, here, to, via)
        {
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
}

/// The exact destination of a move from `from` (in province `here`) and whether it
/// goes by convoy, or why it is illegal.
pub(crate) fn move_target(
    map: &Map,
    fleets_at_sea: &ProvSet,
    kind: UnitKind,
    from: Loc,
    here: Prov,
    to: Loc,
    via_convoy: bool,
) -> Result<(Loc, bool), Illegal> {
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
