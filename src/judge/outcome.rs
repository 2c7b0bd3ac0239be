//! Outcomes: illegal, invalid (void), succeeds, fails — each failure with its cause.
//! Report tags (`bounce`, `cut`, `dislodged`, `void`, `no convoy`) are computed from
//! these, never stored beside them.

use crate::map::{Loc, Power};

/// Why an order can never be valid on this board (DATC 4.E.1); the unit holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// No unit in the ordered province.
    NoUnit,
    /// The unit belongs to another power.
    ForeignUnit(Power),
    /// The unit received more than one order (4.D.3).
    DuplicateOrder,
    /// The order belongs to another phase (build, waive, disband in movement).
    WrongPhase,
    /// A move to the province the unit is in.
    SameProvince,
    /// An army ordered to sea.
    ArmyToSea,
    /// A move into a province no unit may enter (Switzerland).
    Impassable,
    /// A fleet ordered inland.
    FleetInland,
    /// Not adjacent, and no convoy possible.
    NotAdjacent,
    /// A fleet move naming a coast it cannot reach (4.B.3).
    UnreachableCoast,
    /// A fleet move to a split province without a coast, both reachable (4.B.1).
    CoastNeeded(Vec<Loc>),
    /// A fleet cannot be convoyed.
    FleetConvoyed,
    /// A move that needs a convoy, and no fleet stands where a route could be (6.D.32).
    NoPossibleConvoy,
    /// A unit supporting itself.
    SupportSelf,
    /// No unit to support or convoy there.
    NoTarget,
    /// The supporter cannot move to the province it supports into (or holds in).
    CannotReach,
    /// The supported move is itself impossible (6.D.22, 6.D.31).
    SupportedMoveImpossible,
    /// A convoy by a fleet not at sea.
    ConvoyNotAtSea,
    /// A convoy of a unit that is not an army.
    ConvoyNotArmy,
    /// A convoy by a fleet on no possible route (6.G.19).
    NotOnRoute,
    /// A build or removal on a board in the wrong state, or without a needed coast (4.B.7).
    Build(&'static str),
    /// A retreat-phase order for a unit that was not dislodged.
    NotDislodged,
    /// A retreat to a place that is not among the unit's retreats (occupied, the
    /// attacker's province, a standoff, not adjacent, or by convoy).
    NotARetreat,
}

/// Legal, but does not match: the order is void.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Void {
    /// The supported unit does something else.
    SupportNotMatched,
    /// The army is not ordered to make this move.
    ConvoyNotMatched,
    /// The move needs a convoy and no convoy route is ordered.
    NoConvoyOrdered,
}

/// Which strength opposed a move (DATC 5.B).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// The unit in the destination, staying there.
    Hold,
    /// The unit in the destination, moving head to head against the mover.
    Defend,
    /// Another unit moving to the same destination.
    Prevent,
}

impl Strength {
    pub fn word(self) -> &'static str {
        match self {
            Strength::Hold => "hold",
            Strength::Defend => "defend",
            Strength::Prevent => "prevent",
        }
    }
}

/// One unit that stood against a move, with its strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opposition {
    /// Index into `MovementResult::units`.
    pub unit: usize,
    pub kind: Strength,
    pub strength: u8,
}

/// Why a legal order failed. Units are indices into `MovementResult::units`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The move was stopped: its attack strength did not beat every opposition.
    /// `against` lists each opposing unit whose strength was at least the attack.
    /// An attack strength of 0 means the move met a unit of its own power.
    Bounced {
        attack: u8,
        against: Vec<Opposition>,
    },
    /// Every convoy route was disrupted.
    ConvoyDisrupted,
    /// A support cut by an attack from this unit.
    Cut { by: usize },
    /// The unit was dislodged by this unit (a hold, support or convoy that failed).
    Dislodged { by: usize },
    /// Two or more units retreated to one province: all are destroyed. `with` lists the
    /// others (indices into the phase's units).
    RetreatClash { with: Vec<usize> },
    /// A paradox rule decided it: the convoy failed by the Szykman rule (DATC 4.A.2, the
    /// fleets in the paradox hold), or, in a cycle with neither a convoy nor only moves,
    /// the backup rule failed every order of the cycle (DATC 5.B.9).
    Paradox,
}

/// The outcome of one order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Succeeds,
    Fails(Failure),
    Illegal(Illegal),
    Invalid(Void),
}

impl Outcome {
    pub fn succeeded(&self) -> bool {
        matches!(self, Outcome::Succeeds)
    }

    /// `succeeds`, `fails`, `illegal`, `invalid`.
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Succeeds => "succeeds",
            Outcome::Fails(_) => "fails",
            Outcome::Illegal(_) => "illegal",
            Outcome::Invalid(_) => "invalid",
        }
    }
}

/// The result of one input order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderResult {
    /// The unit it was bound to (index into `MovementResult::units`), if any.
    pub unit: Option<usize>,
    /// The power it counts for: the unit's owner, or the power that wrote it.
    pub power: Option<Power>,
    pub outcome: Outcome,
    /// For a fleet move to a split province: the coast it was taken to mean (4.B.2).
    pub to: Option<Loc>,
}
