//! Retreat and adjustment phases through `arbiter judge` (issue 23, items 3 and 4):
//! an illegal retreat, build, removal or waive-less build blocks judging as a bad
//! movement order does, unless the referee accepts, and the sheet then lists the void
//! orders with the reason; a retreat phase in which no dislodged unit can go anywhere
//! and an adjustment phase in which nobody can act are taken at once.
//!
//! Each game starts from a position written by hand (a game file with no history, as
//! a referee may write one, docs/GAMES.md "Editing by hand").

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::arbiter_bytes;
use crate::common::{code, has, s, stderr, stdout, units_of};

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    arbiter_bytes(args, stdin.map(str::as_bytes))
}

/// A game file at `phase` with `position` (the YAML of the `position` key, indented by
/// two spaces), in a fresh directory.
fn game(tag: &str, phase: &str, position: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-phases-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.yaml");
    let text = format!(
        "arbiter_game: 1\nname: t\nmap: standard\nrules: '2023'\nphase: {phase}\n\
         position:\n{position}history: []\ncomplete: true\n"
    );
    std::fs::write(&path, text).unwrap();
    code(&run(&["status", s(&path)], None), 0);
    path
}

/// `judge GAME -` with `orders` on standard input, and extra arguments.
fn judge(game: &Path, orders: &str, extra: &[&str]) -> Output {
    let mut args = vec!["judge", s(game), "-"];
    args.extend_from_slice(extra);
    run(&args, Some(orders))
}

fn status_json(game: &Path) -> Value {
    let o = run(&["status", s(game), "--format", "json"], None);
    code(&o, 0);
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// Judging blocked: exit code 1 (as for a bad movement order), the game file unchanged.
fn blocked(game: &Path, orders: &str) -> String {
    let before = std::fs::read(game).unwrap();
    let o = judge(game, orders, &[]);
    code(&o, 1);
    assert_eq!(
        std::fs::read(game).unwrap(),
        before,
        "the game file changed"
    );
    let err = stderr(&o);
    has(&err, "nothing was judged");
    has(&err, "--accept");
    err
}

/// Fall 1901 retreat: the German army in Burgundy was dislodged by the French army
/// from Paris and may go to Belgium, Gascony, Munich, Picardy or Ruhr.
const RETREAT: &str = "  units:
    france: [A BUR, A MAR, F BRE]
    germany: [A BER, F KIE]
  owners:
    france: [BRE, MAR, PAR]
    germany: [BER, KIE, MUN]
  dislodged:
  - {power: germany, unit: A BUR, by: PAR, retreats: [BEL, GAS, MUN, PIC, RUH]}
";

#[test]
fn an_illegal_retreat_blocks_unless_accepted() {
    let g = game("retreat", "Fall 1901 retreat", RETREAT);
    // Marseilles is not among Burgundy's retreats: it is occupied.
    let err = blocked(&g, "Germany: A Bur - Mar\n");
    has(&err, "error: illegal order: the unit cannot retreat there");
    has(&err, "--> <stdin>:1:10");
    has(&err, "the unit is disbanded");
    // Accepted: judged, the order void with its reason, the unit destroyed.
    let o = judge(&g, "Germany: A Bur - Mar\n", &["--accept"]);
    code(&o, 0);
    let sheet = stdout(&o);
    has(
        &sheet,
        "Germany: Army Burgundy -> Marseilles.  (*void, destroyed*)\n",
    );
    has(
        &sheet,
        "Void orders (not carried out):\nGermany: Army Burgundy -> Marseilles: the unit cannot retreat there.\n",
    );
    has(
        &sheet,
        "The German Army in Burgundy (its order was illegal).\n",
    );
    let v = status_json(&g);
    assert_eq!(v["phase"], "Winter 1901 adjustment");
    assert_eq!(units_of(&v, "germany"), ["A BER", "F KIE"]);
    // The game file records that the phase was accepted.
    has(&std::fs::read_to_string(&g).unwrap(), "  accepted: true\n");
    // A legal retreat and a disband are not problems.
    code(&run(&["undo", s(&g)], None), 0);
    code(&judge(&g, "Germany: A Bur - Mun\n", &[]), 0);
    code(&run(&["undo", s(&g)], None), 0);
    code(&judge(&g, "Germany: A Bur disband\n", &[]), 0);
    code(&run(&["undo", s(&g)], None), 0);
    // No order at all: the unit is disbanded, a rules outcome, not a problem.
    code(&judge(&g, "", &[]), 0);
}

/// Winter 1901: Russia owns five centres with four units (one build: St Petersburg
/// and Warsaw are vacant); Germany owns five with four (one build: Munich); Austria owns three
/// centres with four units (one removal); France is even.
const WINTER: &str = "  units:
    austria: [A BUD, F TRI, A VIE, A GAL]
    france: [A PAR, A MAR, F BRE]
    germany: [A BER, F KIE, A HOL, A RUH]
    russia: [A MOS, F SEV, A UKR, A RUM]
  owners:
    austria: [BUD, TRI, VIE]
    france: [BRE, MAR, PAR]
    germany: [BER, KIE, MUN, HOL, DEN]
    russia: [MOS, SEV, STP, WAR, RUM]
";

#[test]
fn an_illegal_build_blocks_unless_accepted() {
    let g = game("build", "Winter 1901 adjustment", WINTER);
    // A fleet in St Petersburg without its coast (DATC 4.B.7), a build in an occupied
    // centre, a build in a centre that is not a home centre, a fleet inland.
    for (orders, message) in [
        (
            "Russia: Build F StP\n",
            "a fleet built in a province with two coasts needs its coast",
        ),
        ("Germany: Build A Ber\n", "the centre is occupied"),
        ("Germany: Build A Hol\n", "not a home centre"),
        ("Germany: Build F Mun\n", "a fleet cannot be built inland"),
        // More builds than the power has.
        (
            "Russia: Build A Stp\nRussia: Build A War\n",
            "no build left",
        ),
    ] {
        let err = blocked(&g, orders);
        has(&err, &format!("error: illegal order: {message}"));
        has(&err, "a build not made is waived");
    }
    // Accepted: the builds are void, the sheet says which and why, and they are waived.
    let o = judge(
        &g,
        "Russia: Build F StP\nGermany: Build A Ber\nAustria: Remove A Gal\n",
        &["--accept"],
    );
    code(&o, 0);
    let sheet = stdout(&o);
    has(&sheet, "Russia: BUILD Fleet St Petersburg.  (*void*)\n");
    has(&sheet, "Germany: BUILD Army Berlin.  (*void*)\n");
    has(
        &sheet,
        "Void orders (not carried out):\n\
         Germany: BUILD Army Berlin: the centre is occupied.\n\
         Russia: BUILD Fleet St Petersburg: a fleet built in a province with two coasts\n    \
         needs its coast (4.B.7).\n",
    );
    has(&sheet, "Germany waives 1 build.\n");
    has(&sheet, "Russia waives 1 build.\n");
    let v = status_json(&g);
    assert_eq!(v["phase"], "Spring 1902 movement");
    assert_eq!(v["units"]["russia"].as_array().unwrap().len(), 4);
    // JSON: each void order with its reason.
    code(&run(&["undo", s(&g)], None), 0);
    let o = judge(
        &g,
        "Russia: Build F StP\n",
        &["--accept", "--format", "json"],
    );
    code(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["orders"][0]["outcome"], "illegal");
    has(
        v["orders"][0]["reason"].as_str().unwrap(),
        "needs its coast",
    );
    code(&run(&["undo", s(&g)], None), 0);
    // Not problems: fewer builds than allowed, a waive, nothing ordered (builds waived,
    // Austria's removal made in civil disorder), an extra waive (a warning).
    code(&judge(&g, "Russia: Build A Stp\n", &[]), 0);
    code(&run(&["undo", s(&g)], None), 0);
    code(&judge(&g, "Russia: waive\nGermany: waive\n", &[]), 0);
    code(&run(&["undo", s(&g)], None), 0);
    let o = judge(&g, "", &[]);
    code(&o, 0);
    has(&stdout(&o), "removed in civil disorder");
    code(&run(&["undo", s(&g)], None), 0);
    let o = judge(&g, "Russia: waive, waive\n", &[]);
    code(&o, 0);
    has(
        &stderr(&o),
        "warning: illegal order: no build left to waive",
    );
}

#[test]
fn an_illegal_removal_blocks_unless_accepted() {
    let g = game("removal", "Winter 1901 adjustment", WINTER);
    // Austria owes one removal: a second one, and a removal by a power that owes
    // none, are void.
    let err = blocked(&g, "Austria: Remove A Gal\nAustria: Remove A Vie\n");
    has(&err, "error: illegal order: no removal left");
    has(&err, "--> <stdin>:2:10");
    let err = blocked(&g, "France: Remove A Par\n");
    has(&err, "error: illegal order: no removal left");
    let o = judge(&g, "Austria: Remove A Gal, Remove A Vie\n", &["--accept"]);
    code(&o, 0);
    let sheet = stdout(&o);
    has(&sheet, "Austria: Army Vienna DISBAND.  (*void*)\n");
    has(
        &sheet,
        "Void orders (not carried out):\nAustria: Army Vienna DISBAND: no removal left.\n",
    );
    let v = status_json(&g);
    assert_eq!(units_of(&v, "austria"), ["A BUD", "A VIE", "F TRI"]);
}

/// Spring 1901: the French army in Belgium, supported from Ruhr, dislodges the German
/// army in Holland, which has nowhere to go: Belgium is where the attack came from,
/// Ruhr and Kiel are occupied.
const NO_RETREAT: &str = "  units:
    france: [A BEL, A RUH, A PAR]
    germany: [A HOL, F KIE, A BER]
  owners:
    france: [BRE, MAR, PAR]
    germany: [BER, KIE, MUN]
";

#[test]
fn a_retreat_phase_with_no_possible_retreat_is_taken_at_once() {
    let g = game("no-retreat", "Spring 1901 movement", NO_RETREAT);
    let before = status_json(&g);
    let orders = "France: A Bel - Hol, A Ruh S A Bel - Hol\n";
    let o = judge(&g, orders, &[]);
    code(&o, 0);
    let sheet = stdout(&o);
    has(
        &sheet,
        "The following units were dislodged:\n\
         The German Army in Holland with no valid retreats was destroyed.\n",
    );
    has(
        &sheet,
        "Spring 1901 retreat: no dislodged unit can retreat, so the phase is taken at\n    \
         once: the dislodged units are destroyed.\nNext: Fall 1901 movement.\n",
    );
    has(&stderr(&o), "Judged Spring 1901 movement and saved");
    has(&stderr(&o), "next: Fall 1901 movement.");
    // `status` shows the next phase that needs orders, the German army gone.
    let v = status_json(&g);
    assert_eq!(v["phase"], "Fall 1901 movement");
    assert_eq!(v["dislodged"], serde_json::json!([]));
    assert_eq!(units_of(&v, "germany"), ["A BER", "F KIE"]);
    assert_eq!(units_of(&v, "france"), ["A HOL", "A PAR", "A RUH"]);
    // The history names the skipped phase.
    let o = run(&["history", s(&g), "Spring 1901 retreat"], None);
    code(&o, 0);
    has(&stdout(&o), "Spring 1901 retreat was skipped");
    has(
        &std::fs::read_to_string(&g).unwrap(),
        "skipped: [Spring 1901 retreat]",
    );
    // The game file loads again, and undo goes back exactly across the skipped phase.
    code(&run(&["undo", s(&g)], None), 0);
    assert_eq!(status_json(&g), before);
    // JSON: `skipped` names the retreat phase, `destroyed` the unit, `next` the Fall.
    let o = judge(&g, orders, &["--format", "json"]);
    code(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["skipped"], serde_json::json!(["Spring 1901 retreat"]));
    assert_eq!(
        v["destroyed"],
        serde_json::json!([{"power": "germany", "unit": "A HOL"}])
    );
    assert_eq!(v["next"], "Fall 1901 movement");
    assert_eq!(v["dislodged"][0]["retreats"], serde_json::json!([]));
}

#[test]
fn a_retreat_phase_with_one_possible_retreat_is_not_skipped() {
    // The same attack with Kiel empty: Holland may retreat to Kiel.
    let g = game(
        "one-retreat",
        "Spring 1901 movement",
        &NO_RETREAT.replace("[A HOL, F KIE, A BER]", "[A HOL, A BER]"),
    );
    let o = judge(&g, "France: A Bel - Hol, A Ruh S A Bel - Hol\n", &[]);
    code(&o, 0);
    has(&stdout(&o), "Next: Spring 1901 retreat.\n");
    assert_eq!(status_json(&g)["phase"], "Spring 1901 retreat");
}

/// Fall 1901: Germany's army in Ruhr walks into unowned Belgium. Germany then owns
/// five centres with four units, but its home centres are all occupied: nobody can
/// build or must remove.
const NOBODY_ACTS: &str = "  units:
    france: [A PAR, A MAR, F BRE]
    germany: [A BER, F KIE, A MUN, A RUH]
  owners:
    france: [BRE, MAR, PAR]
    germany: [BER, KIE, MUN, HOL]
";

#[test]
fn an_adjustment_phase_in_which_nobody_can_act_is_skipped() {
    let g = game("nobody", "Fall 1901 movement", NOBODY_ACTS);
    let before = status_json(&g);
    let o = judge(&g, "Germany: A Ruh - Bel\n", &[]);
    code(&o, 0);
    let sheet = stdout(&o);
    has(&sheet, "Germany (5 centres, 4 units) builds 1.\n");
    has(
        &sheet,
        "Winter 1901 adjustment: nobody can build or must remove, so the phase is\n    \
         skipped: Germany waives 1 build (no vacant centre to build in).\n\
         Next: Spring 1902 movement.\n",
    );
    let v = status_json(&g);
    assert_eq!(v["phase"], "Spring 1902 movement");
    assert_eq!(v["units"]["germany"].as_array().unwrap().len(), 4);
    assert_eq!(v["centres"]["germany"], 5);
    code(&run(&["undo", s(&g)], None), 0);
    assert_eq!(status_json(&g), before);
    let o = judge(&g, "Germany: A Ruh - Bel\n", &["--format", "json"]);
    code(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["skipped"],
        serde_json::json!(["Fall 1901 retreat", "Winter 1901 adjustment"])
    );
    assert_eq!(v["next"], "Spring 1902 movement");
}
