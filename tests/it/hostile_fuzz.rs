//! Hostile inputs of issue 28 (helper FUZZ): retreat options checked against the board
//! at every door (item 2) and the silent acceptances of item 13.

use arbiter::map::Map;
use arbiter::state::Position;

use crate::common::{arbiter, arbiter_bytes, code, has, s, stderr, stdout, temp_dir};

// ---------------------------------------------------------------------------------
// Item 2: a retreat option the board refuses is an error naming it, at every door.
// ---------------------------------------------------------------------------------

/// A retreat phase whose French army in Burgundy, dislodged from Munich, is given
/// `retreats` (the German army in Munich's neighbour Ruhr stands on the board).
fn retreat_yaml(by: &str, retreats: &str) -> String {
    format!(
        "phase: Fall 1901 retreat\nunits:\n  germany: [A bur, A ruh]\n  france: [A par]\n\
         dislodged:\n  - {{power: france, unit: A BUR, by: {by}, retreats: [{retreats}]}}\n"
    )
}

fn position(src: &str) -> Result<Position, String> {
    Position::from_yaml(&Map::standard(), src).map_err(|e| e.to_string())
}

#[test]
fn a_retreat_listed_into_an_occupied_province_is_refused_with_its_line() {
    // Ruhr holds a German army: no unit may retreat there (DATC 4.A.5; before the
    // fix the position loaded and `A BUR R RUH` succeeded: two units in Ruhr).
    let e = position(&retreat_yaml("MUN", "BEL, RUH")).unwrap_err();
    has(&e, "line 6");
    has(&e, "cannot retreat to `RUH`");
    has(&e, "Ruhr is occupied (by A RUH of Germany)");
    // Paris too (France's own unit).
    let e = position(&retreat_yaml("MUN", "PAR")).unwrap_err();
    has(&e, "Paris is occupied (by A PAR of France)");
    // The options the board allows still load.
    let p = position(&retreat_yaml("MUN", "BEL, GAS, MAR")).unwrap();
    assert_eq!(p.dislodged[0].retreats.len(), 3);
}

#[test]
fn a_retreat_to_the_attackers_province_is_refused_unless_the_attack_came_by_convoy() {
    // The army in Burgundy came from Munich over land: Munich is no retreat.
    let e = position(&retreat_yaml("MUN", "BEL, MUN")).unwrap_err();
    has(&e, "cannot retreat to `MUN`");
    has(&e, "the attack came from Munich (`by`)");
    // An army that came from Brest to Picardy may have come by convoy (both coastal):
    // the dislodged unit may retreat to Brest then (DATC 6.H.11).
    let src = "phase: Fall 1901 retreat\nunits:\n  england: [A pic]\n\
               dislodged:\n  - {power: france, unit: A PIC, by: BRE, retreats: [BRE, PAR]}\n";
    let p = position(src).unwrap();
    assert_eq!(p.dislodged[0].retreats.len(), 2);
    // A fleet never comes by convoy.
    let src = "phase: Fall 1901 retreat\nunits:\n  england: [F pic]\n\
               dislodged:\n  - {power: france, unit: A PIC, by: BRE, retreats: [BRE]}\n";
    has(&position(src).unwrap_err(), "the attack came from Brest");
}

#[test]
fn a_dislodged_units_attacker_must_stand_there_and_could_have_come_from_by() {
    // Item 13: `by` not adjacent, and no convoy possible (Moscow is inland).
    let e = position(&retreat_yaml("MOS", "BEL")).unwrap_err();
    has(&e, "`by: MOS` cannot be");
    has(&e, "could not have come from Moscow");
    has(&e, "line 6");
    // A fleet cannot come from an inland province.
    let src = "phase: Fall 1901 retreat\nunits:\n  england: [F bel]\n\
               dislodged:\n  - {power: france, unit: A BEL, by: BUR, retreats: [PIC]}\n";
    has(
        &position(src).unwrap_err(),
        "the fleet in Belgium could not have come from Burgundy",
    );
    // No unit in the dislodged unit's province (the attacker left out): `by` must still
    // be a place some unit could have come from.
    let src = "phase: Fall 1901 retreat\nunits:\n  germany: [A ruh]\n\
               dislodged:\n  - {power: france, unit: A BUR, by: MUN, retreats: [BEL]}\n";
    position(src).unwrap();
    let src = "phase: Fall 1901 retreat\nunits:\n  germany: [A ruh]\n\
               dislodged:\n  - {power: france, unit: A BUR, by: BOH, retreats: [BEL]}\n";
    has(
        &position(src).unwrap_err(),
        "a unit attacking Burgundy could not have come from Bohemia",
    );
    // `by` the unit's own province.
    let e = position(&retreat_yaml("BUR", "BEL")).unwrap_err();
    has(&e, "the unit's own province");
    // Without `by` (it may be left out) the options are still checked.
    let src = "phase: Fall 1901 retreat\nunits:\n  germany: [A bur, A ruh]\n\
               dislodged:\n  - {power: france, unit: A BUR, retreats: [RUH]}\n";
    has(&position(src).unwrap_err(), "Ruhr is occupied");
}

#[test]
fn the_batch_door_refuses_a_retreat_into_an_occupied_province() {
    let line = r#"{"id": 7, "phase": "retreat", "units": {"germany": ["A bur", "A ruh"]}, "dislodged": [{"power": "france", "unit": "A BUR", "by": "MUN", "retreats": ["RUH"]}], "orders": {"france": ["A BUR R RUH"]}}"#;
    let o = arbiter_bytes(
        &["adjudicate", "--batch", "-"],
        Some(format!("{line}\n").as_bytes()),
    );
    code(&o, 1);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["id"], 7);
    let e = v["error"].as_str().unwrap();
    has(e, "cannot retreat to `RUH`");
    has(e, "Ruhr is occupied");
}

#[test]
fn the_position_door_refuses_a_retreat_into_an_occupied_province() {
    let dir = temp_dir("fuzz-pos");
    let pos = dir.join("pos.yaml");
    std::fs::write(&pos, retreat_yaml("MUN", "RUH")).unwrap();
    let orders = dir.join("france.txt");
    std::fs::write(&orders, "France\nA BUR R RUH\n").unwrap();
    let o = arbiter(&["adjudicate", "--position", s(&pos), s(&orders)]);
    code(&o, 2);
    has(&stderr(&o), "cannot retreat to `RUH`");
    has(&stderr(&o), "line 6");
}

/// A hand-edited game file at Fall 1901 retreat whose dislodged French army is given
/// Ruhr, where a German army stands.
const EDITED_GAME: &str = concat!(
    "arbiter_game: 1\nname: edited\nmap: standard\nrules: '2023'\n",
    "phase: Fall 1901 retreat\nposition:\n  units:\n    germany: [A BUR, A RUH]\n",
    "  owners: {}\n  dislodged:\n",
    "  - {power: france, unit: A BUR, by: MUN, retreats: [BEL, RUH]}\ncomplete: true\n"
);

#[test]
fn a_hand_edited_game_with_a_retreat_into_an_occupied_province_is_refused_and_kept() {
    let dir = temp_dir("fuzz-game");
    let game = dir.join("g.yaml");
    std::fs::write(&game, EDITED_GAME).unwrap();
    let slip = dir.join("france.txt");
    std::fs::write(&slip, "France\nA BUR R RUH\n").unwrap();
    // Before the fix: exit 0, two units in Ruhr, and a saved game no command could load.
    let o = arbiter(&["judge", s(&game), s(&slip)]);
    code(&o, 2);
    has(&stderr(&o), "cannot retreat to `RUH`");
    assert_eq!(std::fs::read_to_string(&game).unwrap(), EDITED_GAME);
    for cmd in ["status", "history"] {
        let o = arbiter(&[cmd, s(&game)]);
        code(&o, 2);
        has(&stderr(&o), "Ruhr is occupied");
    }
}

#[test]
fn the_judge_never_moves_a_retreat_into_an_occupied_province() {
    // A position built in code (no loader checks it) that lists an occupied province
    // among the retreats: the retreat is illegal, the unit is destroyed, and no two
    // units share a province.
    use arbiter::game::advance;
    use arbiter::judge::Rules;
    use arbiter::state::{Dislodged, Phase, PhaseKind, Unit};
    let map = Map::standard();
    let id = |s: &str| map.loc_by_id(s).unwrap();
    let germany = map.power_by_name("germany").unwrap();
    let france = map.power_by_name("france").unwrap();
    let army = arbiter::map::UnitKind::Army;
    let mut p = Position::initial(&map);
    p.phase = Phase {
        kind: PhaseKind::Retreat,
        ..Phase::first_movement(&map)
    };
    p.units = vec![
        Unit {
            power: germany,
            kind: army,
            loc: id("bur"),
        },
        Unit {
            power: germany,
            kind: army,
            loc: id("ruh"),
        },
    ];
    p.dislodged = vec![Dislodged {
        unit: Unit {
            power: france,
            kind: army,
            loc: id("bur"),
        },
        by: map.prov_of(id("mun")),
        retreats: vec![id("ruh")],
    }];
    let orders = arbiter::orders::parse_orders(&map, "France: A Bur - Ruh\n").orders;
    let (result, next) = advance(&map, Rules::default(), &p, &orders, None).unwrap();
    assert_eq!(
        result.orders()[0].outcome,
        arbiter::judge::Outcome::Illegal(arbiter::judge::Illegal::NotARetreat),
        "{:?}",
        result.orders()
    );
    let in_ruhr = next
        .units
        .iter()
        .filter(|u| map.prov_of(u.loc) == map.prov_of(id("ruh")))
        .count();
    assert_eq!(in_ruhr, 1);
}

// ---------------------------------------------------------------------------------
// Item 13: silent acceptances.
// ---------------------------------------------------------------------------------

/// One batch line's answer, as JSON.
fn batch(line: &str, extra: &[&str]) -> (std::process::Output, serde_json::Value) {
    let mut args = vec!["adjudicate", "--batch"];
    args.extend_from_slice(extra);
    args.push("-");
    let o = arbiter_bytes(&args, Some(format!("{line}\n").as_bytes()));
    let v = serde_json::from_str(stdout(&o).trim()).unwrap_or(serde_json::Value::Null);
    (o, v)
}

#[test]
fn a_batch_id_that_json_readers_cannot_read_back_is_refused() {
    for id in ["1e400", "-1E999", "[1, 2e400]", "{\"k\": 1e400}"] {
        let (o, v) = batch(&format!("{{\"id\": {id}, \"units\": {{}}}}"), &[]);
        code(&o, 1);
        // The answer reads back (before the fix the id was echoed, and no JSON reader
        // could read the answer: this `from_str` failed).
        assert_eq!(v["id"], serde_json::Value::Null, "{}", stdout(&o));
        has(
            v["error"].as_str().unwrap(),
            "cannot be read back by JSON readers",
        );
    }
    // Numbers in range, and strings, are echoed as written.
    let (o, _) = batch("{\"id\": 1e10, \"units\": {}}", &[]);
    code(&o, 0);
    assert!(stdout(&o).starts_with("{\"id\":1e10,"), "{}", stdout(&o));
    let (o, v) = batch("{\"id\": \"1e400\", \"units\": {}}", &[]);
    code(&o, 0);
    assert_eq!(v["id"], "1e400");
}

#[test]
fn a_batch_order_allows_one_trailing_separator_not_unlimited_ones() {
    let line = |order: &str| {
        format!(
            "{{\"units\": {{\"france\": [\"A par\"]}}, \"orders\": {{\"france\": [\"{order}\"]}}}}"
        )
    };
    for ok in ["A Par - Bur,", "A Par - Bur;", "A Par - Bur ; "] {
        let (o, v) = batch(&line(ok), &[]);
        code(&o, 0);
        assert_eq!(v["orders"][0]["outcome"], "succeeds", "{ok}");
    }
    for bad in ["A Par - Bur,,", "A Par - Bur,,,,", "A Par - Bur;,; ,"] {
        let (_, v) = batch(&line(bad), &[]);
        let o = &v["orders"][0];
        assert_eq!(o["outcome"], "illegal", "{bad}: {v}");
        has(
            o["reason"].as_str().unwrap(),
            "empty orders after the order",
        );
        has(o["reason"].as_str().unwrap(), "at most one `,` or `;`");
    }
}

#[test]
fn a_slip_says_when_separators_leave_an_empty_order() {
    // Before, `A Par - Bur,,,,` in a slip passed without a word (the empty pieces
    // were read as blank lines).
    use arbiter::orders::{parse_orders_with, ParseOptions, Severity};
    let map = Map::standard();
    let read = |text: &str| parse_orders_with(&map, text, ParseOptions { strict: false });
    for ok in [
        "France:\nA Par - Bur,\n",
        "France:\nA Par - Bur;\n",
        "France:\nA Par - Bur, A Mar - Spa\n",
    ] {
        let p = read(ok);
        assert!(p.diagnostics.is_empty(), "{ok:?}: {:?}", p.diagnostics);
    }
    for (bad, orders, column) in [
        ("France:\nA Par - Bur,,,,\n", 1, 13),
        ("France:\nA Par - Bur;; A Mar - Spa\n", 2, 13),
        ("France:\n, A Par - Bur\n", 1, 1),
    ] {
        let p = read(bad);
        assert_eq!(p.orders.len(), orders, "{bad:?}");
        // One warning a line, at the extra separator; the orders are read.
        let [d] = &p.diagnostics[..] else {
            panic!("{bad:?}: {:?}", p.diagnostics)
        };
        assert_eq!(d.severity, Severity::Warning, "{bad:?}");
        assert_eq!((d.span.line, d.span.start + 1), (2, column), "{bad:?}");
        has(&d.message, "empty order between separators");
    }
}

#[test]
fn a_centre_listed_twice_for_one_power_is_refused_at_every_door() {
    let src = "units: {}\nowners:\n  france: [par, bre, PAR]\n";
    let e = position(src).unwrap_err();
    has(&e, "power france: the supply centre Paris is listed twice");
    // The second listing is the one pointed at.
    has(&e, "line 3, column 22");
    let (o, v) = batch(
        r#"{"phase": "adjustment", "units": {}, "centers": {"france": ["PAR", "BRE", "par"]}}"#,
        &[],
    );
    code(&o, 1);
    has(v["error"].as_str().unwrap(), "Paris is listed twice");
}

#[test]
fn a_map_file_registered_under_a_name_lines_already_reach_is_refused() {
    for spec in [
        "standard=maps/standard.yaml",
        "Classic=maps/standard.yaml",
        "world1914=maps/standard.yaml",
        "=maps/standard.yaml",
    ] {
        let (o, _) = batch("{\"units\": {}}", &["--map-file", spec]);
        code(&o, 2);
        has(&stderr(&o), "give the map file a name of its own");
    }
    let (o, _) = batch(
        "{\"units\": {}}",
        &[
            "--map-file",
            "mine=maps/standard.yaml",
            "--map-file",
            "mine=maps/classic1913.yaml",
        ],
    );
    code(&o, 2);
    has(&stderr(&o), "already taken");
    let (o, v) = batch(
        "{\"map\": \"mine\", \"units\": {}}",
        &["--map-file", "mine=maps/standard.yaml"],
    );
    code(&o, 0);
    assert_eq!(v["map"], "standard");
}

/// A new game on the classic board with a last year, judged once (Spring 1901), in
/// `dir`: its path and text.
fn judged_game(dir: &std::path::Path) -> (std::path::PathBuf, String) {
    let game = dir.join("g.yaml");
    code(&arbiter(&["new", s(&game), "--last-year", "1902"]), 0);
    let slip = dir.join("france.txt");
    std::fs::write(&slip, "France\nA Par - Bur\n").unwrap();
    code(&arbiter(&["judge", s(&game), s(&slip)]), 0);
    let text = std::fs::read_to_string(&game).unwrap();
    (game, text)
}

fn refused(game: &std::path::Path, text: &str, part: &str) {
    std::fs::write(game, text).unwrap();
    let o = arbiter(&["status", s(game)]);
    code(&o, 2);
    has(&stderr(&o), part);
}

#[test]
fn hand_edited_game_files_that_cannot_be_are_refused() {
    let dir = temp_dir("fuzz-edit");
    let (game, text) = judged_game(&dir);
    // A result naming a power the map does not have.
    assert!(text.contains("    power: france\n"));
    refused(
        &game,
        &text.replacen("    power: france\n", "    power: narnia\n", 1),
        "names the power `narnia`, which is not one of the map's",
    );
    // A first phase before the map's start.
    let edited = text.replace(
        "- phase: Spring 1901 movement",
        "- phase: Spring 1850 movement",
    );
    let edited = edited.replace("next: Fall 1901 movement", "next: Spring 1851 movement");
    let edited = edited.replace(
        "phase: Fall 1901 movement\n",
        "phase: Spring 1851 movement\n",
    );
    refused(
        &game,
        &edited,
        "Spring 1850 movement comes before the map's first phase (Spring 1901 movement)",
    );
    // A game with no history, at a phase before the start.
    let fresh = dir.join("fresh.yaml");
    code(&arbiter(&["new", s(&fresh)]), 0);
    let t = std::fs::read_to_string(&fresh).unwrap();
    refused(
        &fresh,
        &t.replace(
            "phase: Spring 1901 movement",
            "phase: Winter 1899 adjustment",
        ),
        "before the map's first phase",
    );
    // A last year already past, and the game not over.
    let edited = text.replace("last_year: 1902", "last_year: 1901");
    std::fs::write(&game, &edited).unwrap();
    code(&arbiter(&["status", s(&game)]), 0);
    let past = t
        .replace("phase: Spring 1901 movement", "phase: Spring 1903 movement")
        .replace("name: fresh\n", "name: fresh\nlast_year: 1902\n");
    refused(&fresh, &past, "past its last year 1902");
    let winter = t
        .replace(
            "phase: Spring 1901 movement",
            "phase: Winter 1902 adjustment",
        )
        .replace("name: fresh\n", "name: fresh\nlast_year: 1902\n");
    refused(&fresh, &winter, "past its last year 1902");
}

#[test]
fn a_drawing_position_no_picture_can_hold_is_refused_by_the_loader() {
    // Before the fix, the map loaded and `render --png` asked for a picture
    // 4,294,967,295 pixels high (the height saturated u32).
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test-cases/maps/at-range.ymap"),
    )
    .unwrap();
    let e = Map::from_yaml(&src, "at-range.ymap")
        .unwrap_err()
        .to_string();
    has(
        &e,
        "provinces.ccc.at: the drawing position [2147483647, 5] is out of range",
    );
    has(&e, "[10, -2147483648] is out of range");
    let ok = src
        .replace("2147483647", "100000")
        .replace("-2147483648", "-100000");
    Map::from_yaml(&ok, "at-range.ymap").unwrap();
    let dir = temp_dir("fuzz-at");
    let map = dir.join("big.yaml");
    std::fs::write(&map, &src).unwrap();
    let o = arbiter(&[
        "render",
        "--map",
        s(&map),
        "--png",
        "-o",
        s(&dir.join("big.png")),
    ]);
    code(&o, 2);
    has(&stderr(&o), "AT_RANGE");
}
