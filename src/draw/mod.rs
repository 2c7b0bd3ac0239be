//! Drawing a board as a map: positions for maps that have none ([`layout`]).
//! Names only `map` and `yaml` (tests/it/layers.rs).

pub mod layout;
