//! Markdown: the sheet as a document (a heading, a table of orders, the rest as lists).

use crate::game::PhaseResult;
use crate::map::Map;

/// The sheet as Markdown.
pub fn sheet(map: &Map, game: &str, result: &PhaseResult) -> String {
    let _ = (map, game, result);
    String::new()
}
