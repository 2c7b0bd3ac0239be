//! # arbiter — a Diplomacy adjudicator
//!
//! The library runs one way, from the board up (each layer names only the layers before
//! it; `tests/it/layers.rs` holds it, docs/ARCHITECTURE.md explains it):
//!
//! - [`map`]: the board ([`map::Map`]: dense ids, adjacency tables, names), loaded from YAML;
//! - [`draw`]: the generator of a board's drawing (province outlines) from its geography
//!   or its positions;
//! - [`orders`]: orders as people write them, read into [`orders::Order`]s (ids) with
//!   diagnostics ([`orders::parse_orders`]);
//! - [`state`]: the position a phase starts from ([`state::Position`]) and the check that
//!   its ids are the map's ([`state::check_ids`]);
//! - [`judge`]: legality (DATC 4.E.1), the movement resolver (DATC chapter 5), retreats and
//!   adjustments, each outcome with its cause;
//! - [`game`]: [`game::advance`], the one step from a phase to the next that needs orders,
//!   giving a [`game::PhaseResult`] whose per-kind part is [`game::Judged`];
//! - [`report`]: the results sheet, JSON, Markdown and explanations of a result;
//! - tools on top: [`gamefile`] (a whole game in one file), [`legal`] (every legal
//!   order), [`render`] (pictures), [`selfplay`], [`batch`] (JSON Lines), [`suite`] and
//!   [`cases`] (conformance suites), [`mapcheck`] (a designer's map linter).
//!
//! One phase of each kind, from the opening to Spring 1902:
//!
//! ```
//! use arbiter::game::{advance, Judged};
//! use arbiter::judge::Rules;
//! use arbiter::map::Map;
//! use arbiter::orders::parse_orders;
//! use arbiter::report;
//! use arbiter::state::{Phase, PhaseKind, Position};
//!
//! let map = Map::standard();
//! let rules = Rules::default();
//!
//! // Spring 1901, movement: Italy takes Trieste with support, dislodging the fleet there.
//! let italy = ["A ven", "A tyr"];
//! let austria = ["F tri"];
//! let units = [("italy", &italy[..]), ("austria", &austria[..])];
//! let spring = Position::from_units(&map, Phase::first(&map), units)?;
//! let slips = "Italy:\nA Ven - Tri\nA Tyr S A Ven - Tri\nAustria:\nF Tri H\n";
//! let parsed = parse_orders(&map, slips);
//! assert!(parsed.diagnostics.is_empty());
//! let (moved, retreat) = advance(&map, rules, &spring, &parsed.orders, None)?;
//! let Judged::Movement(movement) = &moved.judged else { panic!("a movement phase") };
//! assert_eq!(movement.dislodged.len(), 1);
//! assert!(report::text::sheet(&map, "demo", &moved).contains("dislodged"));
//!
//! // Spring 1901, retreat: the fleet retreats to Albania.
//! assert_eq!(retreat.phase.kind, PhaseKind::Retreat);
//! let parsed = parse_orders(&map, "Austria: F Tri - Alb\n");
//! let (retreated, fall) = advance(&map, rules, &retreat, &parsed.orders, None)?;
//! assert!(retreated.orders()[0].outcome.succeeded());
//!
//! // Fall 1901, movement: no orders, every unit holds; Trieste becomes Italian.
//! let (_, winter) = advance(&map, rules, &fall, &[], None)?;
//! assert_eq!(winter.phase.kind, PhaseKind::Adjustment);
//!
//! // Winter 1901, adjustments: Italy builds in Venice and Austria in Vienna; the builds
//! // nobody ordered are waived.
//! let parsed = parse_orders(&map, "Italy: Build A Ven\nAustria: Build A Vie\n");
//! let (adjusted, next) = advance(&map, rules, &winter, &parsed.orders, None)?;
//! let built = adjusted.adjustment().map(|a| a.built.len());
//! assert_eq!(built, Some(2));
//! assert_eq!(next.phase.to_string(), "Spring 1902 movement");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The library does no I/O and never prints; the binary (`src/main.rs`, `src/cli/`)
//! reads files and writes output. The one exception is [`files`]: how every door (the
//! binary, its server, the Python package) reads a file, locks and saves a game, which
//! no other module of the library calls.

// No unsafe code anywhere. Library code where input can reach must not panic on it:
// no unwrap/expect, no panic!/unreachable!, no unchecked indexing. Remaining exceptions
// are allowed on the smallest item or module, each with a comment saying why it cannot
// fail (docs/ARCHITECTURE.md, "Invariants").
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
pub mod draw;
pub mod encoding;
pub mod files;
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
