//! Advancing a game: [`advance`] adjudicates one phase of any kind and takes every
//! automatic step to the next phase that needs orders (retreat options, centre
//! ownership after Fall, adjustments owed, skipped phases, victory).

pub mod advance;

pub use advance::{advance, winner, Judged, PhaseResult};
