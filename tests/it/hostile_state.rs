//! Hostile positions and game files (issue 28, the state sweep): power keys that name
//! one power in two spellings, game histories that jump over phases, retreats into a
//! standoff's province written into a game file, a phase past `last_year`, batch ids
//! that are not Unicode, refusals that blame the map for what is wrong with the
//! position, duplicate retreat options, retreat phases with nobody dislodged, and the
//! messages for years and drawing sizes out of range. Every door: batch lines (and so
//! the Python package's `adjudicate`), position files, game files.

use crate::common::{arbiter, arbiter_bytes, code, has, s, stderr, stdout, temp_dir};

/// Answer batch lines; one JSON value per answer.
fn batch(lines: &[&str]) -> Vec<serde_json::Value> {
    let input = lines.join("\n") + "\n";
    let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(input.as_bytes()));
    // 0, or 1 when a line is refused: never a failure of the run.
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The error of a batch answer (fails if the line was answered).
fn error_of(v: &serde_json::Value) -> String {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("answered, not refused: {v}"))
        .to_string()
}

/// `adjudicate --position FILE` on a position text, with no orders.
fn position_refusal(src: &str) -> String {
    let dir = temp_dir("state-pos");
    let p = dir.join("p.yaml");
    std::fs::write(&p, src).unwrap();
    let orders = dir.join("none.txt");
    std::fs::write(&orders, "").unwrap();
    let o = arbiter(&["adjudicate", "--position", s(&p), s(&orders)]);
    code(&o, 2);
    stderr(&o)
}

/// A game judged to Fall 1901 retreat on the classic map, where France's A BUR was
/// dislodged by A MUN (supported from RUH) while its move to Belgium stood off against
/// England's F NTH: its retreats are GAS, PAR, PIC (BEL is a standoff's province, MUN
/// the attacker's, MAR and RUH occupied).
fn game_at_fall_retreat(tag: &str) -> (std::path::PathBuf, String) {
    let dir = temp_dir(tag);
    let game = dir.join("g.yaml");
    code(&arbiter(&["new", s(&game)]), 0);
    let spring = dir.join("spring.txt");
    std::fs::write(
        &spring,
        "France: A Par - Bur\nGermany: A Mun - Ruh\nGermany: A Ber - Mun\nEngland: F Lon - Nth\n",
    )
    .unwrap();
    code(&arbiter(&["judge", s(&game), s(&spring)]), 0);
    let fall = dir.join("fall.txt");
    std::fs::write(
        &fall,
        "France: A Bur - Bel\nGermany: A Mun - Bur\nGermany: A Ruh S A Mun - Bur\n\
         England: F Nth - Bel\n",
    )
    .unwrap();
    code(&arbiter(&["judge", s(&game), s(&fall)]), 0);
    let text = std::fs::read_to_string(&game).unwrap();
    has(&text, "phase: Fall 1901 retreat");
    has(&text, "retreats: [GAS, PAR, PIC]");
    (dir, text)
}

/// `status` on a game text: refused (exit 2), its message.
fn game_refusal(dir: &std::path::Path, text: &str) -> String {
    let game = dir.join("edited.yaml");
    std::fs::write(&game, text).unwrap();
    let o = arbiter(&["status", s(&game)]);
    code(&o, 2);
    let err = stderr(&o);
    has(&err, "refused to load the game");
    err
}

// ------------------------------------------------------- 5: one power, two spellings

#[test]
fn a_power_given_twice_in_two_spellings_is_refused_in_batch_lines() {
    let answers = batch(&[
        r#"{"id":1,"units":{"france":["A PAR"],"FRANCE":["F BRE"]}}"#,
        r#"{"id":2,"units":{"france":["A PAR"]},"centers":{"France":["PAR"],"FRANCE":["BRE"]}}"#,
        r#"{"id":3,"units":{"france":["A PAR"]},"orders":{"France":["A PAR H"],"FRANCE":["A PAR - BUR"]}}"#,
        r#"{"id":4,"phase":"Winter 1901 adjustment","units":{"france":["A PAR"]},"saved":{"france":0,"France":0}}"#,
    ]);
    assert_eq!(answers.len(), 4);
    let e = error_of(&answers[0]);
    has(
        &e,
        "the power `france` is given twice (as `france` and `FRANCE`)",
    );
    has(&e, "`units`");
    let e = error_of(&answers[1]);
    has(
        &e,
        "the power `france` is given twice (as `France` and `FRANCE`)",
    );
    has(&e, "`centers`");
    let e = error_of(&answers[2]);
    has(
        &e,
        "the power `france` is given twice (as `France` and `FRANCE`)",
    );
    has(&e, "`orders`");
    has(&error_of(&answers[3]), "the power `france` is given twice");
    // The same key twice is refused too (serde kept the last one).
    let answers = batch(&[
        r#"{"id":1,"phase":"Winter 1901 adjustment","units":{"france":["A PAR"]},"saved":{"france":0,"france":0}}"#,
    ]);
    has(&error_of(&answers[0]), "the key `france` is given twice");
}

#[test]
fn a_power_given_twice_in_two_spellings_is_refused_in_position_files() {
    let e = position_refusal("units: {france: [A PAR], FRANCE: [F BRE]}\n");
    has(&e, "line 1");
    has(&e, "the power `france` is given twice");
    let e =
        position_refusal("units: {france: [A PAR]}\nowners:\n  France: [PAR]\n  FRANCE: [BRE]\n");
    has(&e, "line 3");
    has(&e, "the power `france` is given twice");
}

#[test]
fn a_power_given_twice_in_two_spellings_is_refused_in_game_files() {
    let dir = temp_dir("state-twice-game");
    let game = dir.join("g.yaml");
    code(&arbiter(&["new", s(&game)]), 0);
    let text = std::fs::read_to_string(&game).unwrap();
    // Units: France's army moved under a second spelling of its power.
    let units = text.replacen(
        "    france: [F BRE, A MAR, A PAR]\n",
        "    france: [F BRE, A MAR]\n    FRANCE: [A PAR]\n",
        1,
    );
    assert_ne!(units, text);
    let e = game_refusal(&dir, &units);
    has(
        &e,
        "the power `france` is given twice (as `FRANCE` and `france`)",
    );
    // Owners.
    let owners = text.replacen(
        "    france: [BRE, MAR, PAR]\n",
        "    france: [BRE, MAR]\n    France: [PAR]\n",
        1,
    );
    assert_ne!(owners, text);
    let e = game_refusal(&dir, &owners);
    has(
        &e,
        "the power `france` is given twice (as `France` and `france`)",
    );
    // Nothing about the map: its ids are all the map's.
    assert!(!e.contains("does not fit the map"), "{e}");
    // `serve`'s pending orders: one of the two would be dropped when judged.
    let serve = text.replacen(
        "complete: true",
        &format!(
            "serve:\n  referee: {}\n  phase: Spring 1901 movement\n  pending:\n    \
             France: 'A PAR - BUR'\n    france: 'A PAR - PIC'\ncomplete: true",
            "a".repeat(64)
        ),
        1,
    );
    assert_ne!(serve, text);
    let e = game_refusal(&dir, &serve);
    has(&e, "serve: pending");
    has(
        &e,
        "the power `france` is given twice (as `France` and `france`)",
    );
}

// ------------------------------------------------------------ 6: no phase left out

#[test]
fn a_game_history_that_jumps_over_phases_is_refused() {
    let dir = temp_dir("state-jump");
    let game = dir.join("g.yaml");
    code(&arbiter(&["new", s(&game)]), 0);
    let orders = dir.join("spring.txt");
    std::fs::write(&orders, "France: A Par - Bur\n").unwrap();
    code(&arbiter(&["judge", s(&game), s(&orders)]), 0);
    let text = std::fs::read_to_string(&game).unwrap();
    has(&text, "next: Fall 1901 movement");
    has(&text, "phase: Fall 1901 movement");
    // The entry's `next` and the game's phase agree with each other, but not with the
    // entry's result: Spring 1901 leads to Fall 1901.
    for to in [
        "Spring 1950 movement",
        "Winter 1901 adjustment",
        "Fall 1902 movement",
    ] {
        let edited = text
            .replacen("next: Fall 1901 movement", &format!("next: {to}"), 1)
            .replacen("phase: Fall 1901 movement", &format!("phase: {to}"), 1);
        let e = game_refusal(&dir, &edited);
        has(&e, "history entry 1 (Spring 1901 movement)");
        has(
            &e,
            &format!(
                "its next phase is {to}, but Spring 1901 movement leads to Fall 1901 movement"
            ),
        );
        // `judge` refuses it as well, and leaves the file alone.
        std::fs::write(&game, &edited).unwrap();
        let o = arbiter(&["judge", s(&game), s(&orders)]);
        code(&o, 2);
        assert_eq!(std::fs::read_to_string(&game).unwrap(), edited);
    }
    // A skipped phase that is not the one after the phase judged.
    let edited = text.replacen(
        "skipped: [Spring 1901 retreat]",
        "skipped: [Fall 1901 retreat]",
        1,
    );
    assert_ne!(edited, text);
    let e = game_refusal(&dir, &edited);
    has(&e, "history entry 1 (Spring 1901 movement)");
    has(
        &e,
        "the skipped phase Fall 1901 retreat is not the phase after Spring 1901 movement",
    );
}

// ---------------------------------------------------- 7: no retreat into a standoff

#[test]
fn a_retreat_into_a_standoff_written_into_a_game_file_is_refused() {
    let (dir, text) = game_at_fall_retreat("state-standoff");
    // The movement phase's own record lists the standoff in Belgium.
    has(&text, "A BUR - BEL");
    let edited = text.replacen(
        "retreats: [GAS, PAR, PIC]",
        "retreats: [BEL, GAS, PAR, PIC]",
        1,
    );
    let e = game_refusal(&dir, &edited);
    has(&e, "position: dislodged `A BUR` cannot retreat to `BEL`");
    has(
        &e,
        "Belgium was left empty by a standoff in Fall 1901 movement",
    );
    assert!(!e.contains("does not fit the map"), "{e}");
    // `judge` with the retreat there refuses it too, and saves nothing.
    let game = dir.join("g.yaml");
    std::fs::write(&game, &edited).unwrap();
    let slip = dir.join("france.txt");
    std::fs::write(&slip, "France: A Bur - Bel\n").unwrap();
    let o = arbiter(&["judge", s(&game), s(&slip)]);
    code(&o, 2);
    has(&stderr(&o), "cannot retreat to `BEL`");
    assert_eq!(std::fs::read_to_string(&game).unwrap(), edited);
    // The retreat phase judged with the option written in: the history entry is
    // refused the same way.
    std::fs::write(&game, &text).unwrap();
    std::fs::write(&slip, "France: A Bur - Pic\n").unwrap();
    code(&arbiter(&["judge", s(&game), s(&slip)]), 0);
    let judged = std::fs::read_to_string(&game).unwrap();
    let edited = judged.replacen(
        "retreats: [GAS, PAR, PIC]",
        "retreats: [BEL, GAS, PAR, PIC]",
        1,
    );
    assert_ne!(edited, judged);
    let e = game_refusal(&dir, &edited);
    has(
        &e,
        "history entry 3 (Fall 1901 retreat): position: dislodged `A BUR` cannot retreat to `BEL`",
    );
}

// --------------------------------------------------------- 8: a phase past last_year

#[test]
fn a_batch_phase_past_last_year_is_refused() {
    let answers = batch(&[
        r#"{"id":1,"phase":"Spring 1901 movement","last_year":1,"units":{"france":["A PAR"]}}"#,
        r#"{"id":2,"phase":"Spring 1905 movement","last_year":1901,"units":{"france":["A PAR"]}}"#,
        r#"{"id":3,"phase":"Winter 1901 adjustment","last_year":1901,"units":{"france":["A PAR"]}}"#,
        // The last year's Fall turn is played; the game then ends.
        r#"{"id":4,"phase":"Fall 1901 movement","last_year":1901,"units":{"france":["A PAR"]}}"#,
    ]);
    has(
        &error_of(&answers[0]),
        "Spring 1901 movement is past the last year 1",
    );
    has(
        &error_of(&answers[1]),
        "Spring 1905 movement is past the last year 1901",
    );
    has(
        &error_of(&answers[2]),
        "Winter 1901 adjustment is past the last year 1901",
    );
    assert!(answers[3].get("error").is_none(), "{}", answers[3]);
    assert_eq!(answers[3]["next"], serde_json::Value::Null);
}

// ------------------------------------------------------- 9: ids that are not Unicode

#[test]
fn a_batch_id_with_a_lone_surrogate_is_refused() {
    let answers = batch(&[
        r#"{"id":"\ud800","units":{"france":["A PAR"]}}"#,
        r#"{"id":["x\udc00"],"units":{"france":["A PAR"]}}"#,
        // A pair is a character, and an escaped quote is no surrogate.
        r#"{"id":"\ud83d\ude00","units":{"france":["A PAR"]}}"#,
        r#"{"id":"a\"b","units":{"france":["A PAR"]}}"#,
    ]);
    has(&error_of(&answers[0]), "is not valid Unicode");
    has(&error_of(&answers[1]), "is not valid Unicode");
    assert_eq!(answers[2]["id"], "\u{1f600}");
    assert_eq!(answers[3]["id"], "a\"b");
}

// ---------------------------------------- 19a: the real reason, not the map's change

#[test]
fn a_position_refusal_names_the_map_only_for_ids_it_lacks() {
    let (dir, text) = game_at_fall_retreat("state-reason");
    // An occupied retreat option: the real reason, nothing about the map.
    let occupied = text.replacen(
        "retreats: [GAS, PAR, PIC]",
        "retreats: [GAS, PAR, PIC, RUH]",
        1,
    );
    let e = game_refusal(&dir, &occupied);
    has(&e, "cannot retreat to `RUH`: Ruhr is occupied");
    assert!(!e.contains("does not fit the map"), "{e}");
    assert!(!e.contains("restore the map"), "{e}");
    // A retreat phase with nobody dislodged.
    let start = text.find("  dislodged:\n").unwrap();
    let end = start
        + text[start..].find("retreats: [GAS, PAR, PIC]\n").unwrap()
        + "retreats: [GAS, PAR, PIC]\n".len();
    let nobody = format!("{}{}", &text[..start], &text[end..]);
    let e = game_refusal(&dir, &nobody);
    has(&e, "Fall 1901 retreat has no dislodged units");
    assert!(!e.contains("does not fit the map"), "{e}");
    // A place the map does not have: the map may have changed.
    let foreign = text.replacen("france: [F BRE, A MAR]", "france: [F BRE, A ZZZ]", 1);
    assert_ne!(foreign, text);
    let e = game_refusal(&dir, &foreign);
    has(&e, "does not fit the map `standard`");
}

// ----------------------------------------------------------------- 21: the minor ones

#[test]
fn a_retreat_option_listed_twice_is_refused_at_every_door() {
    let answers = batch(&[
        r#"{"id":1,"phase":"Fall 1901 retreat","units":{"germany":["A BUR"]},"dislodged":[{"power":"france","unit":"A BUR","by":"MUN","retreats":["PAR","PAR","par"]}]}"#,
    ]);
    has(
        &error_of(&answers[0]),
        "cannot retreat to `PAR`: Paris is already among its retreats",
    );
    let e = position_refusal(
        "phase: Fall 1901 retreat\nunits: {germany: [A BUR]}\ndislodged:\n- {power: france, unit: A BUR, by: MUN, retreats: [PAR, GAS, par]}\n",
    );
    has(&e, "line 4");
    has(
        &e,
        "cannot retreat to `par`: Paris is already among its retreats (`PAR`)",
    );
    // Two coasts of one province are two places.
    let answers = batch(&[
        r#"{"id":1,"phase":"Fall 1901 retreat","units":{"italy":["F WES"]},"dislodged":[{"power":"france","unit":"F MAO","by":"WES","retreats":["SPA/NC","SPA/SC"]}]}"#,
    ]);
    assert!(answers[0].get("error").is_none(), "{}", answers[0]);
}

#[test]
fn a_retreat_phase_with_nobody_dislodged_is_refused_at_every_door() {
    let answers = batch(&[
        r#"{"id":1,"phase":"Spring 1901 retreat","units":{"france":["A PAR"]}}"#,
        r#"{"id":2,"phase":"retreat","units":{"france":["A PAR"]}}"#,
    ]);
    for a in &answers {
        has(&error_of(a), "Spring 1901 retreat has no dislodged units");
    }
    let e = position_refusal("phase: Spring 1901 retreat\nunits: {france: [A PAR]}\n");
    has(&e, "line 1");
    has(&e, "Spring 1901 retreat has no dislodged units");
}

#[test]
fn a_jdip_phase_past_the_year_range_names_the_range() {
    let dir = temp_dir("state-jdip-year");
    let file = dir.join("cases.txt");
    std::fs::write(
        &file,
        "CASE 1\nPRESTATE_SETPHASE Spring 10000, Movement\nPRESTATE\nFrance: A par\nORDERS\n\
         France: A par H\nPOSTSTATE_SAME\nEND\n",
    )
    .unwrap();
    let o = arbiter(&["test", s(&file)]);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    has(&out, "outside the years arbiter plays, 1 to 9999");
    assert!(!out.contains("unknown phase"), "{out}");
}

#[test]
fn a_drawing_of_width_0_names_the_sizes_allowed() {
    let dir = temp_dir("state-drawing-size");
    let root = env!("CARGO_MANIFEST_DIR");
    let map = dir.join("standard.yaml");
    std::fs::copy(format!("{root}/maps/standard.yaml"), &map).unwrap();
    let drawing = std::fs::read_to_string(format!("{root}/maps/standard.drawing.yaml")).unwrap();
    let edited = drawing.replacen("width: 1600", "width: 0", 1);
    assert_ne!(edited, drawing);
    std::fs::write(dir.join("standard.drawing.yaml"), edited).unwrap();
    let o = arbiter(&["map", "check", s(&map)]);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    has(&out, "width 0 is not a size between 1 and 20000");
}
