//! A referee's night by the examples of docs/GAMES.md, with slips written the way
//! players write them: what it found. A place named on the command line is read as
//! an order reads it; every refusal of a retreat or adjustment order names the choices
//! the player has.

use crate::common::{arbiter, code, has, new_game, s, slip, stderr, stdout, temp_dir};

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

/// The night of docs/GAMES.md ("A night at the table"), played by its script
/// `examples/night/night.sh`: slips in the styles players write, every mistake sent back
/// with the place and the fix, and the board at the end that the rules give (checked
/// by hand, phase by phase, in docs/GAMES.md).
#[test]
fn the_night_of_games_md() {
    let dir = temp_dir("night");
    let game = dir.join("night.yaml");
    let o = std::process::Command::new("sh")
        .arg("examples/night/night.sh")
        .arg(&game)
        .env("ARBITER", env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    code(&o, 0);
    let (out, err) = (stdout(&o), stderr(&o));
    // Spring 1901: every style read; the two bounces.
    has(&out, "England: Army Liverpool -> Yorkshire.\n");
    has(&out, "France: Army Paris -> Burgundy.\n");
    has(&out, "Standoffs (no retreat there): Black Sea, Galicia.\n");
    // Fall 1901: the mistakes are sent back, each with its place and fix.
    for part in [
        "error: the army in Venice belongs to Italy, not Austria\n --> examples/night/2-fall-1901/Austria-F1901.txt:4:1",
        "error: this slip is headed `Spring 1901`, but the phase being judged is Fall 1901 movement\n --> examples/night/2-fall-1901/germany.txt:1:10",
        "Germany: Army Ruhr -> Burgundy.\n",
        "Austria (5 centres, 3 units) builds 2.",
        // Winter 1901.
        "error: illegal order: the centre is occupied\n --> examples/night/3-winter-1901/austria.txt:1:1",
        "ask the player: Austria builds 2: Trieste (army or fleet), Vienna (army);",
        "error: `waive France` names France in Germany's orders",
        "ask the player: name the coast: `stp/nc` or `stp/sc`;",
        "this slip is headed `Spring 1902`, but the phase being judged is Winter 1901 adjustment",
        // Fall 1902 retreat.
        "ask the player: the Fleet in Greece may retreat to Albania or Ionian Sea, or disband;",
        "ask the player: the Army in Burgundy may retreat to Picardy or Ruhr, or disband;",
        // Winter 1902.
        "error: the unit belongs to Turkey\n --> examples/night/7-winter-1902/austria.txt:2:1",
        "ask the player: England builds 2: Edinburgh (army or fleet), London (army or fleet), Liverpool (army or fleet);",
        "ask the player: Turkey builds 1: Smyrna (army or fleet);",
    ] {
        has(&format!("{out}{err}"), part);
    }
    for part in [
        "The Austrian Fleet in Greece can retreat to Albania or Ionian Sea.\n",
        "The German Army in Burgundy can retreat to Picardy or Ruhr.\n",
        "Russia (4 centres, 6 units) removes 2.\n",
        "Russia: Fleet Skagerrak removed in civil disorder (3 from the nearest owned\n    supply centre).\n",
        "Only the orders concerning Mid-Atlantic Ocean.",
        "1902        4        6       6        5      4       4       5        0\n",
    ] {
        has(&out, part);
    }
    // Four refusals, each leaving the game as it was; seven phases judged.
    assert_eq!(err.matches("nothing was judged").count(), 4, "{err}");
    let o = arbiter(&["status", s(&game), "--format", "json"]);
    code(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["phase"], "Spring 1903 movement");
    assert_eq!(v["judged"], 7);
    let expect = [
        ("austria", &["A BUD", "A SER", "A VIE", "F APU"][..]),
        (
            "england",
            &["A LVP", "A NWY", "F DEN", "F EDI", "F NTH", "F STP/NC"],
        ),
        (
            "france",
            &["A BEL", "A BUR", "A GAS", "A MAR", "F ENG", "F MAO"],
        ),
        ("germany", &["A BER", "A HOL", "A MUN", "A PIC", "F SWE"]),
        ("italy", &["A TUN", "A TYR", "F EAS", "F WES"]),
        ("russia", &["A RUM", "A WAR", "F BOT", "F SEV"]),
        ("turkey", &["A CON", "A GRE", "F AEG", "F ANK", "F SMY"]),
    ];
    for (power, units) in expect {
        assert_eq!(crate::common::units_of(&v, power), units, "{power}");
    }
    assert!(dir.join("night.yaml.fall1902.svg").exists());
}

/// `F Lon - North`: `North` is a coast word too, so it is not read as a short form of a
/// province; the refusal names the provinces it begins (before, it named none, with no
/// help at all).
#[test]
fn a_short_form_that_is_another_word_names_its_candidates() {
    let dir = temp_dir("north");
    let f = slip(&dir, "england.txt", "F Lon - North\n");
    let o = arbiter(&["adjudicate", &f]);
    code(&o, 1);
    has(&stderr(&o), "unknown province `North`\n --> ");
    has(
        &stderr(&o),
        "it could be `North Africa` (naf) or `North Atlantic Ocean` (nao) or `North Sea` \
         (nth), written short: write more of the name, or the province's id",
    );
}

/// `Germany: waive France` is left out when judged anyway, and the sheet does not show
/// it: the refusal says so, as every other refusal says what judging it as written does.
#[test]
fn another_powers_waive_says_what_accept_does() {
    let dir = temp_dir("waive-france");
    let f = slip(&dir, "orders.txt", "Germany: waive France\n");
    let o = arbiter(&["adjudicate", "--position", "examples/fall1901.yaml", &f]);
    has(
        &stderr(&o),
        "`waive France` names France in Germany's orders",
    );
    has(
        &stderr(&o),
        "if the orders are judged anyway, it is left out and the sheet does not show it",
    );
}

/// Headings with a season written short (`Spr`, `Aut`, `Wtr`) or a year of two digits
/// (`Fall '01`, `Spring 01`) are headings: checked against the phase judged like any
/// other. Before, `Germany Spr 1901` was refused as `unknown province `Spr`` with "did
/// you mean `Serbia`", and `Germany: Fall '01` as `unknown province `Fall``.
#[test]
fn headings_with_short_seasons_and_years() {
    let dir = temp_dir("short-headings");
    let game = new_game(&dir);
    let s1901 = slip(&dir, "s1901.txt", "France: A Par - Bur\n");
    code(&arbiter(&["judge", &game, &s1901]), 0);
    // Fall 1901 is judged now.
    for ok in [
        "Germany: Fall '01",
        "Germany Aut 1901",
        "Germany - Fall ’01",
        "Germany Fall 01",
    ] {
        let g = slip(&dir, "germany.txt", &format!("{ok}\nA Mun - Ruh\n"));
        let o = arbiter(&["judge", &game, &g]);
        code(&o, 0);
        code(&arbiter(&["undo", &game]), 0);
    }
    for (bad, named) in [
        ("Germany Spr 1901", "(Spring 1901)"),
        ("Germany - Spring '01", "(Spring '01)"),
        ("Germany: Fall '02", "(Fall '02)"),
        ("Germany Wtr 1901", "(Winter 1901)"),
    ] {
        let g = slip(&dir, "germany.txt", &format!("{bad}\nA Mun - Ruh\n"));
        let o = arbiter(&["judge", &game, &g]);
        code(&o, 1);
        has(
            &stderr(&o),
            &format!(
                "this slip is headed `{bad}` {named}, but the phase being judged is Fall 1901 movement"
            ),
        );
    }
}

/// Last phase's slip given by mistake: `Austria-S1902.txt`, with no heading inside,
/// judged in Fall 1902. Its file name names Spring 1902, so judging stops as for a
/// heading (before, it was judged in Fall 1902 without a word). A heading inside the
/// slip is the slip's own word and wins over its file name; a numbered file (`s1.txt`)
/// names no phase.
#[test]
fn a_file_name_naming_another_phase_blocks_judging() {
    let dir = temp_dir("file-phase");
    let game = new_game(&dir);
    let s = slip(&dir, "Austria-S1901.txt", "A Vie - Gal\n");
    code(&arbiter(&["judge", &game, &s]), 0);
    // Now Fall 1901: the same file again.
    let o = arbiter(&["judge", &game, &s]);
    code(&o, 1);
    has(
        &stderr(&o),
        "error: the file name `Austria-S1901.txt` names Spring 1901, but the phase being judged is Fall 1901 movement",
    );
    has(&stderr(&o), "Austria-S1901.txt:1:1");
    // A heading that fits wins over the file name.
    let h = slip(
        &dir,
        "Austria-S1901.txt",
        "Austria, Fall 1901\nA Gal - Vie\n",
    );
    code(&arbiter(&["judge", &game, &h]), 0);
    code(&arbiter(&["undo", &game]), 0);
    for ok in ["Austria-F1901.txt", "austria-fall-1901.txt", "s1.txt"] {
        let f = slip(&dir, ok, "Austria:\nA Gal H\n");
        code(&arbiter(&["judge", &game, &f]), 0);
        code(&arbiter(&["undo", &game]), 0);
    }
    let f = slip(&dir, "austria_spring_1901.txt", "A Gal H\n");
    code(&arbiter(&["judge", &game, &f]), 1);
    // adjudicate reads it the same way.
    let s = slip(&dir, "Austria-S1901.txt", "A Vie - Gal\n");
    let o = arbiter(&["adjudicate", "--position", "examples/fall1901.yaml", &s]);
    code(&o, 1);
    has(
        &stderr(&o),
        "names Spring 1901, but the phase being judged is Fall 1901 movement",
    );
}
