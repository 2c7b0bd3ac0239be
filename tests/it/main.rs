//! The integration tests, one binary with a module per area, so the suite links once
//! (the DATC runner, `tests/datc.rs`, has its own harness and stays a binary of its own).

mod common;

mod album;
mod batch_stream;
mod begin;
mod board_picture;
mod cli;
mod convoy_scale;
mod dpjudge_import;
mod draw;
mod drawing_check;
mod explain;
mod foreign_ids;
mod games;
mod games_1914;
mod geo_data;
mod hostile;
mod hostile_bounds;
mod hostile_files;
mod hostile_fuzz;
mod hostile_memory;
mod hostile_names;
mod hostile_perf;
mod hostile_secure;
mod hostile_shown;
mod hostile_state;
mod hostile_text;
mod layers;
mod legal;
mod map_check;
mod maps;
mod maps_1914;
mod names;
mod night;
mod parser;
mod parser_props;
mod parser_styles;
mod phases;
mod properties;
mod random;
mod render;
mod selfplay;
#[cfg(feature = "serve")]
mod serve;
#[cfg(feature = "serve")]
mod serve_browser;
mod slips;
mod suite;
mod victory;
mod writes;
