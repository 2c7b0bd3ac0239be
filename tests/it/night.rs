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

/// An illegal retreat, build or removal blocks judging; its help names what the player
/// may order instead, so the referee can ask: the places the unit may retreat to, the
/// coasts of a two-coast build, the power's build sites. Before, the help only said
/// "ask the player" (`the unit cannot retreat there`, `the centre is occupied`).
#[test]
fn refusals_of_retreats_and_builds_name_the_choices() {
    let dir = temp_dir("refusal-choices");
    let pos = slip(
        &dir,
        "retreat.yaml",
        "phase: Fall 1902 retreat\nunits:\n  france: [A par, A bel, A mar]\n  germany: [A mun]\n  \
         turkey: [A gre, F aeg, A ser]\ndislodged:\n  - {power: germany, unit: A BUR, by: PAR, \
         retreats: [PIC, RUH]}\n  - {power: austria, unit: F GRE, by: BUL, retreats: []}\n",
    );
    let g = slip(&dir, "germany.txt", "A Bur - Par\n");
    let o = arbiter(&["adjudicate", "--position", &pos, &g]);
    code(&o, 1);
    has(
        &stderr(&o),
        "ask the player: the Army in Burgundy may retreat to Picardy or Ruhr, or disband;",
    );
    let a = slip(&dir, "austria.txt", "F Gre - Alb\n");
    let o = arbiter(&["adjudicate", "--position", &pos, &a]);
    code(&o, 1);
    has(
        &stderr(&o),
        "ask the player: the Fleet in Greece has nowhere to retreat: it can only disband;",
    );

    let pos = slip(
        &dir,
        "winter.yaml",
        "phase: Winter 1901\nunits:\n  austria: [A bud, F gre, A ser]\n  russia: [A war, F sev]\n  \
         england: [F nth, F edi, A lvp]\nowners:\n  austria: [bud, tri, vie, gre, ser]\n  \
         russia: [mos, sev, stp, war]\n  england: [edi, lon, lvp]\n",
    );
    let w = slip(
        &dir,
        "orders.txt",
        "Austria: Build A Bud\nRussia: Build F StP\nEngland: Remove F Nth\n",
    );
    let o = arbiter(&["adjudicate", "--position", &pos, &w]);
    code(&o, 1);
    let e = stderr(&o);
    has(
        &e,
        "ask the player: Austria builds 2: Trieste (army or fleet), Vienna (army);",
    );
    has(&e, "ask the player: name the coast: `stp/nc` or `stp/sc`;");
    has(&e, "ask the player: England has no unit to remove;");

    // A fleet without its coast where the power may not build at all: the sites are the
    // fix, not the coast.
    let pos = slip(
        &dir,
        "winter2.yaml",
        "phase: Winter 1902\nunits:\n  england: [F nth]\nowners:\n  england: [edi, lon, lvp, stp]\n",
    );
    let w = slip(&dir, "england.txt", "Build F StP\n");
    let o = arbiter(&["adjudicate", "--position", &pos, &w]);
    code(&o, 1);
    let e = stderr(&o);
    has(&e, "illegal order: not a home centre of the power");
    has(
        &e,
        "ask the player: England builds 3: Edinburgh (army or fleet), London (army or fleet), \
         Liverpool (army or fleet);",
    );
}
