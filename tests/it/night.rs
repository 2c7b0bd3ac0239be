//! A referee's night by the examples of docs/GAMES.md, with slips written the way
//! players write them: what it found. A place named on the command line is read as
//! an order reads it; every refusal of a retreat or adjustment order names the choices
//! the player has.

use std::path::Path;
use std::process::Output;

use crate::common::arbiter_bytes;
use crate::common::{code, has, s, stderr, stdout, temp_dir};

fn arbiter(args: &[&str]) -> Output {
    arbiter_bytes(args, None)
}

/// A new game on the classic board in `dir`, at Spring 1901 movement.
fn new_game(dir: &Path) -> String {
    let game = dir.join("game.yaml");
    code(&arbiter(&["new", s(&game)]), 0);
    s(&game).to_string()
}

/// Write a slip named `name` in `dir`.
fn slip(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    s(&path).to_string()
}

/// `explain` and `map show` read a place as an order does: the short forms players
/// write (`Mid Atl`, `N Sea`, `Lpool`, `Wes Med`) are read, a misspelling that only
/// sounds right (`Bergendee`) gets a suggestion, an ambiguous short form names its
/// candidates. Before, `explain GAME "Mid Atl"` was `unknown province` with no help,
/// although the same words in a slip were read.
#[test]
fn explain_reads_places_as_orders_do() {
    let dir = temp_dir("explain-places");
    let game = new_game(&dir);
    let f = slip(
        &dir,
        "france.txt",
        "The fleet at Brest move to Mid Atl.\nA Par - Bergendee\n",
    );
    code(&arbiter(&["judge", &game, &f]), 0);
    for (written, name) in [
        ("Mid Atl", "Mid-Atlantic Ocean"),
        ("N Sea", "North Sea"),
        ("Nth Sea", "North Sea"),
        ("Lpool", "Liverpool"),
        ("Wes Med", "Western Mediterranean"),
        ("E Med", "Eastern Mediterranean"),
        ("stp/nc", "St Petersburg"),
    ] {
        let o = arbiter(&["explain", &game, written]);
        code(&o, 0);
        has(&stdout(&o), &format!("Only the orders concerning {name}."));
    }
    let o = arbiter(&["explain", &game, "Bergendee"]);
    code(&o, 2);
    has(
        &stderr(&o),
        "unknown province `Bergendee` (did you mean `Burgundy` (bur)?)",
    );
    let o = arbiter(&["explain", &game, "Gul"]);
    code(&o, 2);
    has(
        &stderr(&o),
        "`Gulf of Bothnia` (bot) or `Gulf of Lyon` (lyo)",
    );
    let o = arbiter(&["map", "show", "standard", "Lpool"]);
    code(&o, 0);
    has(&stdout(&o), "Liverpool (lvp)");
    let o = arbiter(&["map", "show", "standard", "Bergendee"]);
    code(&o, 2);
    has(&stderr(&o), "did you mean `Burgundy` (bur)?");
}
