//! One step of a game: adjudicate the current phase ([`advance`]), then take the
//! automatic steps to the next phase that needs orders, all in one place:
//! dislodged units become the retreat phase's units; a retreat phase with nobody to
//! retreat is skipped; after the Fall (and its retreats) supply centres change hands
//! and victory is checked; an adjustment phase in which no power has anything to do
//! is skipped. Builds saved for a colonial build are carried from one winter to the
//! next and lost after it. Every phase's outcome is one [`PhaseResult`], whatever its
//! kind, and every report renders that.

// `advance` runs `check_ids` first, so every id indexed below is in range; the
// other indices are positions in the results the judge built (`Dislodged::unit`
// into `units`) and `saved` has one entry per power of the map. Out of range is
// a bug, not input.
#![allow(clippy::indexing_slicing)]

use crate::judge::{
    adjudicate_adjustments, adjudicate_checked, adjudicate_retreats, owed, owners_after, Dislodged,
    OrderResult, Owed, Rules,
};
use crate::map::{Map, Power, Prov};
use crate::orders::{Diagnostic, Order};
use crate::state::{
    check_ids, next_phase, ForeignIds, Phase, PhaseKind, Position, Retreating, Unit,
};

/// What one phase decided, for every kind of phase. Outcomes refer to units by index
/// into `units`: the units on the board before a movement or adjustment phase, the
/// dislodged units in a retreat phase.
#[derive(Clone, Debug)]
pub struct PhaseResult {
    pub phase: Phase,
    pub rules: Rules,
    /// The orders as parsed, in input order.
    pub input: Vec<Order>,
    /// The units the outcomes refer to.
    pub units: Vec<Unit>,
    /// One result per input order.
    pub orders: Vec<OrderResult>,
    /// Movement: the units dislodged, with their retreats.
    pub dislodged: Vec<Dislodged>,
    /// Movement: provinces left vacant by a standoff.
    pub contested: Vec<Prov>,
    /// Movement: per unit, its move went by convoy (DATC 4.A.3 as the edition decides).
    pub convoyed: Vec<bool>,
    /// Retreat: the dislodged units destroyed (bounced, no order, illegal order).
    pub destroyed: Vec<usize>,
    /// Adjustment: units built, units removed by order, units removed in civil
    /// disorder (with their distance), builds not used per power.
    pub built: Vec<Unit>,
    pub removed: Vec<usize>,
    pub civil_disorder: Vec<(usize, Option<u32>)>,
    pub waived: Vec<(Power, usize)>,
    /// Adjustment: builds saved for a colonial build next winter, per power.
    pub saved: Vec<(Power, usize)>,
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
    /// Problems binding orders to units (foreign unit, no unit, coast needed).
    pub diagnostics: Vec<Diagnostic>,
}

impl PhaseResult {
    /// Is unit `i` (of `units`) dislodged in this movement phase?
    pub fn is_dislodged(&self, i: usize) -> bool {
        self.dislodged.iter().any(|d| d.unit == i)
    }
}

/// Adjudicate the phase of `position` with `orders` and step to the next phase that
/// needs orders. `last_year`: a tournament game ends after that year's Fall turn.
/// Refused, with nothing judged, if an id is not on `map` ([`check_ids`]).
pub fn advance(
    map: &Map,
    rules: Rules,
    position: &Position,
    orders: &[Order],
    last_year: Option<i32>,
) -> Result<(PhaseResult, Position), ForeignIds> {
    check_ids(map, position, orders)?;
    let mut r = PhaseResult {
        phase: position.phase,
        rules,
        input: orders.to_vec(),
        units: Vec::new(),
        orders: Vec::new(),
        dislodged: Vec::new(),
        contested: Vec::new(),
        convoyed: Vec::new(),
        destroyed: Vec::new(),
        built: Vec::new(),
        removed: Vec::new(),
        civil_disorder: Vec::new(),
        waived: Vec::new(),
        saved: Vec::new(),
        saved_before: position.saved.clone(),
        units_after: Vec::new(),
        owners_before: position.owners.clone(),
        owners_after: None,
        owed: Vec::new(),
        skipped: Vec::new(),
        next: None,
        winner: None,
        diagnostics: Vec::new(),
    };
    let mut next = Position {
        phase: next_phase(position.phase),
        units: Vec::new(),
        owners: position.owners.clone(),
        dislodged: Vec::new(),
        // Kept through the year to the next adjustment phase.
        saved: position.saved.clone(),
    };
    match position.phase.kind {
        PhaseKind::Movement => {
            let m = adjudicate_checked(map, position, orders, rules);
            next.units = m.units_after();
            next.dislodged = m
                .dislodged
                .iter()
                .map(|d| Retreating {
                    unit: m.units[d.unit],
                    by: d.by,
                    retreats: d.retreats.clone(),
                })
                .collect();
            r.units = m.units;
            r.orders = m.orders;
            r.dislodged = m.dislodged;
            r.contested = m.contested;
            r.convoyed = m.convoyed;
            r.diagnostics = m.diagnostics;
        }
        PhaseKind::Retreat => {
            let t = adjudicate_retreats(map, position, orders);
            next.units = position.units.clone();
            for (i, d) in t.destination.iter().enumerate() {
                match d {
                    Some(loc) => next.units.push(Unit {
                        loc: *loc,
                        ..t.units[i]
                    }),
                    None => r.destroyed.push(i),
                }
            }
            r.units = t.units;
            r.orders = t.orders;
            r.diagnostics = t.diagnostics;
        }
        PhaseKind::Adjustment => {
            let a = adjudicate_adjustments(map, position, orders, rules);
            next.units = a.units_after();
            r.built = a.built;
            r.removed = a.removed;
            r.civil_disorder = a.civil_disorder;
            r.waived = a.waived;
            // A saving not used this winter is lost; this winter's are kept for the next.
            let mut saved = vec![0u32; map.powers.len()];
            for &(pw, n) in &a.saved {
                saved[pw.0 as usize] = n as u32;
            }
            next.set_saved(saved);
            r.saved = a.saved;
            r.units = a.units;
            r.orders = a.orders;
            r.diagnostics = a.diagnostics;
        }
    }
    r.units_after = next.units.clone();
    // The automatic steps up to the next phase that needs orders.
    loop {
        match next.phase.kind {
            PhaseKind::Retreat if next.dislodged.is_empty() => {
                r.skipped.push(next.phase);
                next.phase = next_phase(next.phase);
            }
            PhaseKind::Adjustment if r.owners_after.is_none() => {
                // The Fall turn is over: centres change hands, victory is checked.
                next.owners = owners_after(map, &next.owners, &next.units);
                r.owners_after = Some(next.owners.clone());
                r.owed = owed(map, &next.owners, &next.units, &next.saved);
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
    r.next = Some(next.phase);
    Ok((r, next))
}

/// The power owning at least the map's victory threshold of supply centres, if any.
pub fn winner(map: &Map, owners: &[Option<Power>]) -> Option<Power> {
    map.power_ids()
        .find(|&pw| owners.iter().filter(|o| **o == Some(pw)).count() >= map.victory as usize)
}
