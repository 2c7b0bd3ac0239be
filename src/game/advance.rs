//! One step of a game: adjudicate the current phase ([`advance`]), then take the
//! automatic steps to the next phase that needs orders, all in one place:
//! dislodged units become the retreat phase's units; a retreat phase in which no
//! dislodged unit has anywhere to go is taken at once (the units are destroyed);
//! after the Fall (and its retreats) supply centres change hands and victory is
//! checked; an adjustment phase in which no power has anything to do
//! is skipped. Builds saved for a colonial build are carried from one winter to the
//! next and lost after it. Every phase's outcome is one [`PhaseResult`], whatever its
//! kind, and every report renders that.

// `advance` runs `check_ids` first, so every id indexed below is in range; the
// other indices are positions in the results the judge built (into `units`) and
// `saved` has one entry per power of the map. Out of range is a bug, not input.
#![allow(clippy::indexing_slicing)]

use crate::judge::{
    adjudicate_adjustments_checked, adjudicate_checked, adjudicate_retreats_checked, owed_checked,
    owners_after_checked, AdjustmentResult, MovementResult, OrderResult, Outcome, Owed,
    RetreatResult, Rules,
};
use crate::map::{Map, Power, Prov, YEARS};
use crate::orders::{Diagnostic, Order};
use crate::state::{
    check_ids, next_phase, Dislodged, ForeignIds, Ids, Phase, PhaseKind, Position, Unit,
};

/// What one phase decided, for every kind of phase: what the judge decided for the
/// phase's kind ([`Judged`]), then the steps [`advance`] took after it. Outcomes refer
/// to units by index into [`PhaseResult::units`]: the units on the board before a
/// movement or adjustment phase, the dislodged units in a retreat phase.
#[derive(Clone, Debug)]
pub struct PhaseResult {
    pub phase: Phase,
    pub rules: Rules,
    /// The orders as parsed, in input order.
    pub input: Vec<Order>,
    /// What the judge decided: the result of the phase's kind.
    pub judged: Judged,
    /// Per unit of [`PhaseResult::units`]: its first order that is not illegal (an
    /// index into `input`), or `None` if it had none.
    pub order_of: Vec<Option<usize>>,
    /// Builds saved the winter before, per power (map order; empty: none), as the
    /// phase's position had them.
    pub saved_before: Vec<u32>,
    /// The units on the board after the phase (dislodged units not among them).
    pub units_after: Vec<Unit>,
    /// Supply-centre owners before the phase.
    pub owners_before: Vec<Option<Power>>,
    /// Supply-centre owners after the Fall turn, when this phase ended it.
    pub owners_after: Option<Vec<Option<Power>>>,
    /// What each power owes in the coming adjustment phase, when this phase ended
    /// the Fall turn.
    pub owed: Vec<Owed>,
    /// Phases with nothing to do, passed over after this one.
    pub skipped: Vec<Phase>,
    /// The next phase that needs orders; `None` when the game is over.
    pub next: Option<Phase>,
    /// The power that reached the map's victory threshold.
    pub winner: Option<Power>,
}

/// What the judge decided in one phase, by the phase's kind: a retreat result cannot
/// carry a movement's dislodgements, nor a movement result builds.
#[derive(Clone, Debug)]
pub enum Judged {
    Movement(MovementResult),
    Retreat(RetreatResult),
    Adjustment(AdjustmentResult),
}

impl PhaseResult {
    /// The units the outcomes refer to: the units on the board before a movement or
    /// adjustment phase, the dislodged units in a retreat phase.
    pub fn units(&self) -> &[Unit] {
        match &self.judged {
            Judged::Movement(m) => &m.units,
            Judged::Retreat(t) => &t.units,
            Judged::Adjustment(a) => &a.units,
        }
    }

    /// One result per input order.
    pub fn orders(&self) -> &[OrderResult] {
        match &self.judged {
            Judged::Movement(m) => &m.orders,
            Judged::Retreat(t) => &t.orders,
            Judged::Adjustment(a) => &a.orders,
        }
    }

    /// Problems binding orders to units (foreign unit, no unit, coast needed).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match &self.judged {
            Judged::Movement(m) => &m.diagnostics,
            Judged::Retreat(t) => &t.diagnostics,
            Judged::Adjustment(a) => &a.diagnostics,
        }
    }

    /// [`PhaseResult::diagnostics`], to add to or replace (a caller that read the orders
    /// from several files words them for each file).
    pub fn diagnostics_mut(&mut self) -> &mut Vec<Diagnostic> {
        match &mut self.judged {
            Judged::Movement(m) => &mut m.diagnostics,
            Judged::Retreat(t) => &mut t.diagnostics,
            Judged::Adjustment(a) => &mut a.diagnostics,
        }
    }

    /// The movement phase's result, if this was one.
    pub fn movement(&self) -> Option<&MovementResult> {
        match &self.judged {
            Judged::Movement(m) => Some(m),
            _ => None,
        }
    }

    /// The adjustment phase's result, if this was one.
    pub fn adjustment(&self) -> Option<&AdjustmentResult> {
        match &self.judged {
            Judged::Adjustment(a) => Some(a),
            _ => None,
        }
    }

    /// The units dislodged in a movement phase, with their retreats (none in the
    /// other kinds).
    pub fn dislodged(&self) -> &[Dislodged] {
        self.movement().map_or(&[], |m| &m.dislodged)
    }

    /// Is unit `i` (of [`PhaseResult::units`]) dislodged in this movement phase?
    pub fn is_dislodged(&self, i: usize) -> bool {
        self.units()
            .get(i)
            .is_some_and(|u| self.dislodged().iter().any(|d| d.unit == *u))
    }

    /// Is unit `i` (of [`PhaseResult::units`]) destroyed in this retreat phase
    /// (bounced, no order, illegal order)?
    pub fn is_destroyed(&self, i: usize) -> bool {
        match &self.judged {
            Judged::Retreat(t) => t.destination.get(i).is_some_and(Option::is_none),
            _ => false,
        }
    }

    /// The dislodged units destroyed, in unit order: in a retreat phase those
    /// bounced, not ordered or illegally ordered; in a movement phase whose retreat
    /// phase was taken at once ([`PhaseResult::retreats_taken_at_once`]), every unit
    /// dislodged.
    pub fn destroyed(&self) -> Vec<usize> {
        if self.retreats_taken_at_once() {
            return (0..self.units().len())
                .filter(|&i| self.is_dislodged(i))
                .collect();
        }
        (0..self.units().len())
            .filter(|&i| self.is_destroyed(i))
            .collect()
    }

    /// Was this a movement phase whose retreat phase was taken at once, because units
    /// were dislodged and none of them had anywhere to retreat? They are destroyed
    /// without a retreat phase, which is listed in [`PhaseResult::skipped`].
    pub fn retreats_taken_at_once(&self) -> bool {
        !self.dislodged().is_empty()
            && self
                .skipped
                .first()
                .is_some_and(|p| p.kind == PhaseKind::Retreat)
    }

    /// Check that every id this result holds is on `map`: a result judged on another
    /// map is refused by whoever draws or words it against `map`. Linear in the result.
    pub fn check_ids(&self, map: &Map) -> Result<(), ForeignIds> {
        let ids = Ids::of(map);
        let dislodged = self.dislodged().iter().map(|d| &d.unit);
        ids.units(
            self.units()
                .iter()
                .chain(&self.units_after)
                .chain(dislodged),
        )?;
        ids.orders(&self.input)?;
        let provs = map.province_count();
        let in_range = |p: &Prov| usize::from(p.0) < provs;
        let owners = std::iter::once(&self.owners_before).chain(&self.owners_after);
        let ok = match &self.judged {
            Judged::Movement(m) => {
                m.dislodged
                    .iter()
                    .all(|d| in_range(&d.by) && d.retreats.iter().all(|&l| ids.loc_ok(l)))
                    && m.contested.iter().all(in_range)
                    && m.destination.iter().all(|&l| ids.loc_ok(l))
            }
            Judged::Retreat(t) => t.destination.iter().flatten().all(|&l| ids.loc_ok(l)),
            Judged::Adjustment(a) => {
                ids.units(a.built.iter())?;
                a.waived
                    .iter()
                    .chain(&a.saved)
                    .all(|&(p, _)| ids.power_ok(p))
            }
        } && self.owed.iter().all(|o| {
            ids.power_ok(o.power) && o.build_sites.iter().chain(&o.colonial_sites).all(in_range)
        }) && self.winner.is_none_or(|p| ids.power_ok(p));
        let owners_ok = owners
            .into_iter()
            .all(|o| o.len() == provs && o.iter().flatten().all(|&p| ids.power_ok(p)));
        if ok && owners_ok {
            Ok(())
        } else {
            ids.fail("a phase result".into())
        }
    }

    /// The first order of unit `i` that is not illegal (an index into `input`).
    pub fn order_of(&self, i: usize) -> Option<usize> {
        self.order_of.get(i).copied().flatten()
    }
}

/// Per unit of `units`: its first order whose outcome is not illegal.
fn orders_of_units(units: usize, orders: &[OrderResult]) -> Vec<Option<usize>> {
    // Not `vec![None; units]`: a zeroed allocation takes the allocator's slow path.
    let mut order_of: Vec<Option<usize>> = std::iter::repeat_n(None, units).collect();
    for (k, r) in orders.iter().enumerate() {
        if let Some(slot) = r.unit.and_then(|u| order_of.get_mut(u)) {
            if slot.is_none() && !matches!(r.outcome, Outcome::Illegal(_)) {
                *slot = Some(k);
            }
        }
    }
    order_of
}

/// Adjudicate the phase of `position` with `orders` and step to the next phase that
/// needs orders. `last_year`: a tournament game ends after that year's Fall turn. Every
/// game ends after the Fall turn of the last year arbiter plays ([`crate::map::YEARS`]),
/// and an adjustment phase of that year (given as a position) has no next phase.
/// Refused, with nothing judged, if an id is not on `map` ([`check_ids`]).
pub fn advance(
    map: &Map,
    rules: Rules,
    position: &Position,
    orders: &[Order],
    last_year: Option<i32>,
) -> Result<(PhaseResult, Position), ForeignIds> {
    check_ids(map, position, orders)?;
    let last_year = Some(last_year.map_or(*YEARS.end(), |y| y.min(*YEARS.end())));
    let mut next = Position {
        phase: next_phase(position.phase),
        units: Vec::new(),
        owners: position.owners.clone(),
        dislodged: Vec::new(),
        // Kept through the year to the next adjustment phase.
        saved: position.saved.clone(),
    };
    let judged = match position.phase.kind {
        PhaseKind::Movement => {
            let m = adjudicate_checked(map, position, orders, rules);
            next.units = m.units_after();
            next.dislodged = m.dislodged.clone();
            Judged::Movement(m)
        }
        PhaseKind::Retreat => {
            let t = adjudicate_retreats_checked(map, position, orders);
            next.units = position.units.clone();
            let retreated = t.units.iter().zip(&t.destination);
            next.units
                .extend(retreated.filter_map(|(u, d)| Some(Unit { loc: (*d)?, ..*u })));
            Judged::Retreat(t)
        }
        PhaseKind::Adjustment => {
            let a = adjudicate_adjustments_checked(map, position, orders, rules);
            next.units = a.units_after();
            // A saving not used this winter is lost; this winter's are kept for the next.
            let mut saved = vec![0u32; map.powers.len()];
            for &(pw, n) in &a.saved {
                saved[pw.0 as usize] = n as u32;
            }
            next.set_saved(saved);
            Judged::Adjustment(a)
        }
    };
    let mut r = PhaseResult {
        phase: position.phase,
        rules,
        input: orders.to_vec(),
        order_of: Vec::new(),
        judged,
        saved_before: position.saved.clone(),
        units_after: Vec::new(),
        owners_before: position.owners.clone(),
        owners_after: None,
        owed: Vec::new(),
        skipped: Vec::new(),
        next: None,
        winner: None,
    };
    r.order_of = orders_of_units(r.units().len(), r.orders());
    r.units_after = next.units.clone();
    // The automatic steps up to the next phase that needs orders.
    loop {
        match next.phase.kind {
            // Nobody dislodged, or nobody with anywhere to go: the retreat phase is
            // taken at once, and the dislodged units (if any) are destroyed.
            PhaseKind::Retreat if next.dislodged.iter().all(|d| d.retreats.is_empty()) => {
                r.skipped.push(next.phase);
                next.dislodged.clear();
                next.phase = next_phase(next.phase);
            }
            PhaseKind::Adjustment if r.owners_after.is_none() => {
                // The Fall turn is over: centres change hands, victory is checked.
                next.owners = owners_after_checked(map, &next.owners, &next.units);
                r.owners_after = Some(next.owners.clone());
                r.owed = owed_checked(map, &next.owners, &next.units, &next.saved);
                r.winner = winner(map, &next.owners);
                if r.winner.is_some() || last_year.is_some_and(|y| next.phase.year >= y) {
                    return Ok((r, next));
                }
                if !r.owed.iter().any(Owed::has_work) {
                    r.skipped.push(next.phase);
                    next.phase = next_phase(next.phase);
                    // Nobody could build: builds saved for this winter are lost.
                    next.set_saved(Vec::new());
                }
            }
            _ => break,
        }
    }
    if next.phase.year > *YEARS.end() {
        // Past the last year: no phase follows.
        return Ok((r, next));
    }
    r.next = Some(next.phase);
    Ok((r, next))
}

/// The winner after a Fall turn, if any: of the powers owning at least the map's
/// victory threshold of supply centres, the one owning the most. When several share
/// the most, nobody has won yet and the game goes on (docs/RULES.md, "Victory").
pub fn winner(map: &Map, owners: &[Option<Power>]) -> Option<Power> {
    let centres = |pw: Power| owners.iter().filter(|o| **o == Some(pw)).count();
    let mut best: Option<(Power, usize)> = None;
    let mut tied = false;
    for pw in map.power_ids() {
        let n = centres(pw);
        if n < map.victory as usize {
            continue;
        }
        match best {
            Some((_, m)) if n < m => {}
            Some((_, m)) if n == m => tied = true,
            _ => {
                best = Some((pw, n));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(pw, _)| pw)
}
