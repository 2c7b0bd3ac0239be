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

use std::cell::Cell;
use std::num::NonZeroU16;

use super::convoy;
use super::outcome::{Illegal, OrderResult, Outcome};
use super::{ConvoyIntent, Rules};
use crate::map::{Loc, Map, Power, Prov, ProvSet, Terrain, UnitKind};
use crate::orders::{Diagnostic, Order, OrderKind, UnitRef};
use crate::state::{Position, Unit};

/// A unit of the phase as the judge's tables and lists name it: its index, held so
/// that `Option<UnitId>` (no unit; the end of a list) takes two bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct UnitId(NonZeroU16);

impl UnitId {
    /// Unit `u`, an index into the phase's units (fewer than `u16::MAX`: `advance`
    /// and `adjudicate` refuse a larger position).
    #[inline]
    pub(crate) fn new(u: usize) -> UnitId {
        UnitId(NonZeroU16::MIN.saturating_add(u as u16))
    }

    /// The unit's index.
    #[inline]
    pub(crate) fn index(self) -> usize {
        usize::from(self.0.get()) - 1
    }
}

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

/// The orders bound to units, ready for the resolver: per-province and per-unit
/// tables lent by [`with_checked`], and the results and diagnostics, owned.
pub(crate) struct Checked<'t> {
    /// Per province: the unit in it.
    pub unit_at: &'t [Option<UnitId>],
    /// Per unit: its order.
    pub eff: &'t [Eff],
    /// Per unit: the input order its `eff` came from.
    pub order_of: &'t [Option<usize>],
    /// (input order, the identical order whose outcome it shares) (4.D.3).
    pub same_as: &'t [(usize, usize)],
    /// Per input order: the result so far (illegal ones final).
    pub results: Vec<OrderResult>,
    pub diagnostics: Vec<Diagnostic>,
}

/// The tables a check fills (see [`Checked`]), kept by the thread for its next phase
/// so that a phase allocates none of them. Private to this module: [`with_checked`]
/// lends them to its caller for the length of a call and takes them back.
#[derive(Default)]
struct Tables {
    unit_at: Vec<Option<UnitId>>,
    eff: Vec<Eff>,
    order_of: Vec<Option<usize>>,
    same_as: Vec<(usize, usize)>,
}

thread_local! {
    static TABLES: Cell<Tables> = const {
        Cell::new(Tables {
            unit_at: Vec::new(),
            eff: Vec::new(),
            order_of: Vec::new(),
            same_as: Vec::new(),
        })
    };
}

/// Check `orders` against `position` ([`check`]) and hand the result to `then`.
pub(crate) fn with_checked<R>(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
    then: impl FnOnce(Checked<'_>) -> R,
) -> R {
    let mut tables = TABLES.take();
    let (results, diagnostics) = check(&mut tables, map, position, orders, rules);
    let out = then(Checked {
        unit_at: &tables.unit_at,
        eff: &tables.eff,
        order_of: &tables.order_of,
        same_as: &tables.same_as,
        results,
        diagnostics,
    });
    TABLES.set(tables);
    out
}

/// Bind each order to its unit, judge its legality on its own (DATC 4.E.1) and keep
/// one order per unit (4.D.3), then decide which moves go by convoy (4.A.3), filling
/// `tables`. Returns the result of every order and the diagnostics, in three groups:
/// every binding problem in input order, then every illegal order, then every unit
/// with more than one order.
fn check(
    tables: &mut Tables,
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
) -> (Vec<OrderResult>, Vec<Diagnostic>) {
    let units = &position.units;
    let Tables {
        unit_at,
        eff,
        order_of,
        same_as,
    } = tables;
    let board = Board::new(map, units, rules, unit_at);
    let mut kept = Kept::new(eff, order_of, same_as, units.len());
    let mut diagnostics = Vec::new();
    // Diagnostics of orders illegal on their own, reported after every binding one.
    let mut illegal = Vec::new();
    // Each order's result, collected rather than pushed: collected, it is written in
    // place (measured: a pushed result was copied from the stack in pieces the CPU
    // could not forward, a stall on every order).
    let mut results: Vec<OrderResult> = orders
        .iter()
        .enumerate()
        .map(|(k, o)| match board.bind(o) {
            Err(Unbound { result, diagnostic }) => {
                diagnostics.push(diagnostic);
                result
            }
            Ok((u, p)) => match board.legal(u, p, &o.kind) {
                Ok(e) => kept.keep(k, u, p, units[u].power, e),
                Err(why) => {
                    illegal.push(illegal_diagnostic(map, o, &why));
                    OrderResult {
                        unit: Some(u),
                        power: Some(units[u].power),
                        outcome: Outcome::Illegal(why),
                        to: None,
                    }
                }
            },
        })
        .collect();
    diagnostics.append(&mut illegal);
    kept.drop_conflicting(&board, orders, &mut results, &mut diagnostics);
    let Kept { eff, convoying, .. } = kept;
    convoy_intent(map, units, board.unit_at, &convoying, eff, rules);
    (results, diagnostics)
}

/// An order bound to no unit of this phase: its result and why, for the referee.
struct Unbound {
    result: OrderResult,
    diagnostic: Diagnostic,
}

/// The orders kept so far, one per unit (4.D.3), and the result of every order.
struct Kept<'t> {
    /// Per unit: its first legal order (until a different one makes it hold).
    eff: &'t mut [Eff],
    /// Per unit: the input order `eff` came from.
    order_of: &'t mut [Option<usize>],
    /// (input order, the identical earlier order whose outcome it shares).
    same_as: &'t mut Vec<(usize, usize)>,
    /// The provinces of units given different legal orders, and of fleets whose first
    /// legal order is a convoy. Only the unit `unit_at` names in a province is ever
    /// bound to an order, so a province stands for it.
    conflict: ProvSet,
    convoying: ProvSet,
}

impl<'t> Kept<'t> {
    /// Nothing kept yet for `units` units (in the per-unit tables given).
    fn new(
        eff: &'t mut Vec<Eff>,
        order_of: &'t mut Vec<Option<usize>>,
        same_as: &'t mut Vec<(usize, usize)>,
        units: usize,
    ) -> Kept<'t> {
        eff.clear();
        eff.resize(units, Eff::Hold);
        order_of.clear();
        order_of.resize(units, None);
        same_as.clear();
        Kept {
            eff: eff.as_mut_slice(),
            order_of: order_of.as_mut_slice(),
            same_as,
            conflict: ProvSet::EMPTY,
            convoying: ProvSet::EMPTY,
        }
    }

    /// DATC 4.D.3: order `k`, legal on its own, gives unit `u` (in province `p`, of
    /// `power`) the
    /// order `e`. Identical orders are one order; different legal orders are all
    /// illegal and the unit holds (found after the pass, from `conflict`). Returns the
    /// order's result so far.
    #[inline]
    fn keep(&mut self, k: usize, u: usize, p: Prov, power: Power, e: Eff) -> OrderResult {
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
        OrderResult {
            unit: Some(u),
            power: Some(power),
            outcome: Outcome::Succeeds,
            to: match e {
                Eff::Move { to, .. } => Some(to),
                _ => None,
            },
        }
    }

    /// DATC 4.D.3: a unit given different legal orders holds, and those of its orders
    /// that still succeed become illegal (`results`: of every order).
    fn drop_conflicting(
        &mut self,
        board: &Board<'_>,
        orders: &[Order],
        results: &mut [OrderResult],
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        if self.conflict.is_empty() {
            return;
        }
        let (map, units) = (board.map, board.units);
        let conflict = self.conflict;
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
        self.same_as
            .retain(|&(k, _)| !results[k].unit.is_some_and(conflicted));
        for u in conflict.iter().filter_map(|p| board.unit_in(p)) {
            self.eff[u] = Eff::Hold;
            self.order_of[u] = None;
        }
    }
}

/// DATC 4.A.3, by the edition's policy: which army moves to adjacent provinces go by
/// convoy, decided once every unit has its one order. `convoying`: the provinces of
/// the fleets whose first legal order is a convoy (some may hold now, after
/// conflicting orders).
fn convoy_intent(
    map: &Map,
    units: &[Unit],
    unit_at: &[Option<UnitId>],
    convoying: &ProvSet,
    eff: &mut [Eff],
    rules: Rules,
) {
    // Is any fleet ordered to convoy; the provinces of the armies a fleet of their own
    // power is ordered to convoy where they move. Only the unit `unit_at` names in a
    // province has an order, so a province stands for its army.
    let mut convoys = false;
    let mut own_convoy = ProvSet::EMPTY;
    for f in convoying
        .iter()
        .filter_map(|p| unit_at[p.0 as usize])
        .map(UnitId::index)
    {
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
            .filter_map(|p| unit_at[p.0 as usize])
            .for_each(|a| decide(a.index()));
    }
}

/// What the legality of one order is judged on: the board and the units on it.
struct Board<'a> {
    map: &'a Map,
    /// Per province: the unit in it.
    unit_at: &'a [Option<UnitId>],
    units: &'a [Unit],
    /// The provinces of the fleets at sea: where a convoy route may run.
    fleets_at_sea: ProvSet,
    rules: Rules,
}

impl<'a> Board<'a> {
    /// The board of `units`, its per-province table written into `unit_at`.
    fn new(
        map: &'a Map,
        units: &'a [Unit],
        rules: Rules,
        unit_at: &'a mut Vec<Option<UnitId>>,
    ) -> Board<'a> {
        unit_at.clear();
        unit_at.resize(map.province_count(), None);
        let mut fleets = ProvSet::EMPTY;
        for (i, u) in units.iter().enumerate() {
            let p = map.prov_of(u.loc);
            unit_at[p.0 as usize] = Some(UnitId::new(i));
            if u.kind == UnitKind::Fleet {
                fleets.insert(p);
            }
        }
        Board {
            map,
            unit_at,
            units,
            fleets_at_sea: fleets.and(map.seas()),
            rules,
        }
    }
}

impl Board<'_> {
    /// The unit in province `p`.
    fn unit_in(&self, p: Prov) -> Option<usize> {
        self.unit_at[p.0 as usize].map(UnitId::index)
    }

    /// Bind order `o` to its unit and the unit's province: a movement-phase order for
    /// a unit on the board, of the power that gives it.
    #[inline]
    fn bind(&self, o: &Order) -> Result<(usize, Prov), Unbound> {
        let map = self.map;
        let unbound = |unit, why, diagnostic| Unbound {
            result: OrderResult {
                unit,
                power: o.power,
                outcome: Outcome::Illegal(why),
                to: None,
            },
            diagnostic,
        };
        let unit_ref = match o.kind {
            OrderKind::Build | OrderKind::Waive | OrderKind::Save | OrderKind::Disband => None,
            _ => o.unit,
        };
        let Some(unit_ref) = unit_ref else {
            return Err(unbound(None, Illegal::WrongPhase, Diagnostic::error(
                o.span,
                "not a movement-phase order",
                Some("builds, removals, waives and disbands belong to the retreat and adjustment phases".into()),
            )));
        };
        let p = map.prov_of(unit_ref.loc);
        let Some(u) = self.unit_in(p) else {
            return Err(unbound(
                None,
                Illegal::NoUnit,
                Diagnostic::error(
                    o.span,
                    format!("there is no unit in {}", map.province(p).name),
                    Some("check the province, or the position the orders are for".into()),
                ),
            ));
        };
        let unit = &self.units[u];
        if let Some(pw) = o.power.filter(|&pw| pw != unit.power) {
            return Err(unbound(
                Some(u),
                Illegal::ForeignUnit(unit.power),
                Diagnostic::error(
                    o.span,
                    format!(
                        "the {} in {} belongs to {}, not {}",
                        unit.kind.word().to_lowercase(),
                        map.province(p).name,
                        map.power(unit.power).name,
                        map.power(pw).name
                    ),
                    Some("an order for another power's unit is illegal; the unit holds".into()),
                ),
            ));
        }
        Ok((u, p))
    }

    /// The order `kind` of unit `u`, in province `here`, as the resolver sees it, or
    /// why it can never be valid on this board.
    #[inline]
    fn legal(&self, u: usize, here: Prov, kind: &OrderKind) -> Result<Eff, Illegal> {
        let (map, units) = (self.map, self.units);
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
                let Some(a) = self.unit_in(ap) else {
                    return Err(Illegal::NoTarget);
                };
                if units[a].kind != UnitKind::Army {
                    return Err(Illegal::ConvoyNotArmy);
                }
                let dest = map.prov_of(to);
                if dest == ap {
                    return Err(Illegal::SameProvince);
                }
                if !map.is_coastal(ap)
                    || !map.is_coastal(dest)
                    || !convoy::necessary(map, &self.fleets_at_sea, ap, dest, here)
                {
                    return Err(Illegal::NotOnRoute);
                }
                Ok(Eff::Convoy {
                    army: a as u16,
                    to: dest,
                })
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
        let (map, units) = (self.map, self.units);
        let unit = &units[u];
        let tp = map.prov_of(target.loc);
        if tp == here {
            return Err(Illegal::SupportSelf);
        }
        let Some(t) = self.unit_in(tp) else {
            return Err(Illegal::NoTarget);
        };
        let tu = &units[t];
        let t = t as u16;
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
                            || (map.is_coastal(tp) && map.is_coastal(dest) && {
                                let mut fleets = self.fleets_at_sea;
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
                        if map.is_named_coast(dl) {
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
        let (map, units, fleets_at_sea, rules) =
            (self.map, self.units, &self.fleets_at_sea, self.rules);
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
#[inline]
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
            if !map.is_coastal(here) || !map.is_coastal(dest) {
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
                if map.is_named_coast(to) {
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
