//! Adjudication: legality (DATC 4.E.1), the movement resolver (DATC chapter 5), the
//! retreat and adjustment phases (with civil disorder), centre ownership after Fall,
//! and the outcomes, each naming its cause.

mod adjust;
pub(crate) mod convoy;
mod legality;
mod nationality;
mod outcome;
mod resolve;
mod retreat;
mod rules;

pub use adjust::{is_save, save_order, AdjustmentResult, Owed};
pub(crate) use adjust::{
    owed as owed_checked, owners_after as owners_after_checked, unit_distances,
};
pub use nationality::nationality_warnings;
pub use outcome::{Failure, Illegal, Opposition, OrderResult, Outcome, Strength, Void};
pub use resolve::Enumeration;
pub use retreat::RetreatResult;
pub use rules::{CivilDisorder, ConvoyIntent, ParadoxRule, Rules};

use crate::map::Power;
use crate::map::{Loc, Map, Prov};
use crate::orders::{Diagnostic, Order};
use crate::state::{
    check_board_ids, check_ids, check_unit_ids, Dislodged, ForeignIds, Position, Unit,
};

/// Everything a movement phase decided.
#[derive(Clone, Debug)]
pub struct MovementResult {
    pub rules: Rules,
    /// The units before the phase (indices used by outcomes).
    pub units: Vec<Unit>,
    /// One result per input order, in input order.
    pub orders: Vec<OrderResult>,
    /// Per unit: where it ends the phase (its own location if it did not move).
    pub destination: Vec<Loc>,
    pub dislodged: Vec<Dislodged>,
    /// Provinces left empty by a standoff (no retreat there).
    pub contested: Vec<Prov>,
    /// Per unit: its move went by convoy (DATC 4.A.3 as the edition decides it).
    pub convoyed: Vec<bool>,
    /// Problems with the orders found while binding them to units (foreign unit,
    /// no unit, a coast that must be named).
    pub diagnostics: Vec<Diagnostic>,
}

impl MovementResult {
    /// The units after the phase, dislodged units left out.
    pub fn units_after(&self) -> Vec<Unit> {
        self.units
            .iter()
            .zip(&self.destination)
            .enumerate()
            .filter(|&(i, _)| !self.is_dislodged(i))
            .map(|(_, (u, &loc))| Unit { loc, ..*u })
            .collect()
    }

    /// Is unit `i` dislodged?
    pub fn is_dislodged(&self, i: usize) -> bool {
        self.units
            .get(i)
            .is_some_and(|u| self.dislodged.iter().any(|d| d.unit == *u))
    }
}

/// Adjudicate a movement phase: `orders` against `position` on `map` under `rules`.
pub fn adjudicate(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
) -> Result<MovementResult, ForeignIds> {
    // What a movement phase reads: its units and orders.
    check_unit_ids(map, &position.units, orders)?;
    Ok(adjudicate_checked(map, position, orders, rules))
}

/// [`adjudicate`] for a position and orders whose ids [`crate::state::check_ids`]
/// accepted for `map`.
pub(crate) fn adjudicate_checked(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
) -> MovementResult {
    legality::with_checked(map, position, orders, rules, |checked| {
        resolve::resolve(map, position, checked, rules)
    })
}

/// Judge the retreat orders of `position` (its dislodged units) on `map`. Refused,
/// with nothing judged, if an id is not on `map` ([`check_ids`]).
pub fn adjudicate_retreats(
    map: &Map,
    position: &Position,
    orders: &[Order],
) -> Result<RetreatResult, ForeignIds> {
    check_ids(map, position, orders)?;
    Ok(retreat::adjudicate_retreats(map, position, orders))
}

/// Judge the adjustment orders of `position` on `map` under `rules` (civil disorder
/// for the removals nobody ordered). Refused, with nothing judged, if an id is not on
/// `map` ([`check_ids`]).
pub fn adjudicate_adjustments(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
) -> Result<AdjustmentResult, ForeignIds> {
    check_ids(map, position, orders)?;
    Ok(adjust::adjudicate_adjustments(map, position, orders, rules))
}

/// What each power owes in the adjustment phase that follows a Fall turn ending with
/// `owners` (per province) and `units`, with `saved` builds per power (colonial maps).
/// Refused if an id is not on `map`.
pub fn owed(
    map: &Map,
    owners: &[Option<Power>],
    units: &[Unit],
    saved: &[u32],
) -> Result<Vec<Owed>, ForeignIds> {
    check_board_ids(map, owners, saved, units)?;
    Ok(adjust::owed(map, owners, units, saved))
}

/// The supply-centre owners after a Fall turn: `owners` with every centre where a unit
/// of `units` stands given to that unit's power. Refused if an id is not on `map`.
pub fn owners_after(
    map: &Map,
    owners: &[Option<Power>],
    units: &[Unit],
) -> Result<Vec<Option<Power>>, ForeignIds> {
    check_board_ids(map, owners, &[], units)?;
    Ok(adjust::owners_after(map, owners, units))
}

/// [`adjudicate_retreats`] for a position and orders whose ids [`check_ids`] accepted.
pub(crate) fn adjudicate_retreats_checked(
    map: &Map,
    position: &Position,
    orders: &[Order],
) -> RetreatResult {
    retreat::adjudicate_retreats(map, position, orders)
}

/// [`adjudicate_adjustments`] for a position and orders whose ids [`check_ids`]
/// accepted.
pub(crate) fn adjudicate_adjustments_checked(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
) -> AdjustmentResult {
    adjust::adjudicate_adjustments(map, position, orders, rules)
}

/// The strengths of DATC 5.B of one unit once its phase is resolved: for a move, its
/// attack, defend and prevent strengths (0 for a unit that does not move); for every
/// unit, the hold strength of its province.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strengths {
    pub attack: u8,
    pub defend: u8,
    pub prevent: u8,
    pub hold: u8,
}

/// The strengths the resolver reckons for the movement phase of `position` with
/// `orders` (legality, then the resolver, as [`adjudicate`] runs them), one per unit of
/// the position: what an explanation of the phase reads rather than reckoning them
/// again. Refused, as [`adjudicate`] is, if an id is not on `map`.
pub fn strengths(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
) -> Result<Vec<Strengths>, ForeignIds> {
    check_unit_ids(map, &position.units, orders)?;
    Ok(legality::with_checked(map, position, orders, rules, |c| {
        resolve::strengths(map, position, &c, rules)
    }))
}

/// Brute force for tests: every consistent resolution of a movement phase with at most
/// `max_decisions` moves, supports and convoys (`None` if it has more, or if an id is
/// not on `map`), beside what
/// the resolver decided and whether its backup rule fired.
#[doc(hidden)]
pub fn enumerate_resolutions(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
    max_decisions: usize,
) -> Option<Enumeration> {
    check_unit_ids(map, &position.units, orders).ok()?;
    legality::with_checked(map, position, orders, rules, |c| {
        resolve::enumerate(map, rules, position, &c, max_decisions)
    })
}
