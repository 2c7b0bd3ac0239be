//! # arbiter — a Diplomacy adjudicator
//!
//! The pipeline: orders text → [`orders::parse_orders`] (names resolved against a
//! [`map::Map`]) → [`judge::adjudicate`] (DATC 4.E.1 legality, then the DATC chapter-5
//! resolver) → a [`judge::MovementResult`] whose outcomes carry their causes →
//! [`report`] (Judge-style text or JSON).
//!
//! ```
//! use arbiter::{map::Map, state::Position, orders::parse_orders, judge::{adjudicate, Rules}};
//!
//! let map = Map::standard();
//! let position = Position::initial(&map);
//! let parsed = parse_orders(&map, "France:\nA Par - Bur\nGermany:\nA Mun - Bur\n");
//! assert!(parsed.diagnostics.is_empty());
//! let result = adjudicate(&map, &position, &parsed.orders, Rules::default()).unwrap();
//! assert!(result.orders.iter().all(|o| !o.outcome.succeeded()));
//! ```
//!
//! The library does no I/O and never prints; the binary (`src/main.rs`, `src/cli/`)
//! reads files and writes output.

// Library code where input can reach must not panic on it: no unwrap/expect, no
// unchecked indexing. Remaining exceptions are allowed on the smallest item or
// module, each with a comment saying why it cannot fail (docs/ARCHITECTURE.md,
// "Invariants").
#![forbid(unsafe_code)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unreachable
)]

pub mod batch;
pub mod cases;
pub mod game;
pub mod gamefile;
pub mod judge;
pub mod legal;
pub mod map;
pub mod mapcheck;
pub mod orders;
pub mod render;
pub mod report;
pub mod selfplay;
pub mod state;
pub mod suite;
pub mod yaml;
