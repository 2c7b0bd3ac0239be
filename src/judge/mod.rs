//! Adjudication: legality (DATC 4.E.1), the movement resolver (DATC chapter 5),
//! and the outcomes, each naming its cause.

mod adjust;
pub(crate) mod convoy;
mod legality;
mod nationality;
mod outcome;
mod resolve;
mod retreat;
mod rules;

pub use adjust::{
    adjudicate_adjustments, distances, is_save, owed, owners_after, save_order, unit_distances,
    AdjustmentResult, Owed,
};
pub use nationality::nationality_warnings;
pub use outcome::{Failure, Illegal, Opposition, OrderResult, Outcome, Strength, Void};
pub use resolve::Enumeration;
pub use retreat::{adjudicate_retreats, RetreatResult};
pub use rules::{CivilDisorder, ConvoyIntent, ParadoxRule, Rules};

use crate::map::{Loc, Map, Prov};
use crate::orders::{Diagnostic, Order};
use crate::state::{Position, Unit};

/// A unit dislodged in a movement phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dislodged {
    /// Index into [`MovementResult::units`].
    pub unit: usize,
    /// The province the attacker came from.
    pub by: Prov,
    /// The attacker came by convoy (a retreat to `by` is then allowed, DATC 4.A.5).
    pub by_convoy: bool,
    /// Where the unit may retreat.
    pub retreats: Vec<Loc>,
}

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
        self.dislodged.iter().any(|d| d.unit == i)
    }
}

/// Adjudicate a movement phase: `orders` against `position` on `map` under `rules`.
pub fn adjudicate(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
) -> Result<MovementResult, crate::state::ForeignIds> {
    // What a movement phase reads: its units and orders.
    crate::state::check_unit_ids(map, position, orders)?;
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
    let checked = legality::check(map, position, orders, rules);
    resolve::resolve(map, position, checked, rules)
}

/// Brute force for tests: every consistent resolution of a movement phase with at most
/// `max_decisions` moves, supports and convoys (`None` if it has more), beside what
/// the resolver decided and whether its backup rule fired.
#[doc(hidden)]
pub fn enumerate_resolutions(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
    max_decisions: usize,
) -> Option<Enumeration> {
    let checked = legality::check(map, position, orders, rules);
    resolve::enumerate(map, rules, position, &checked, max_decisions)
}
