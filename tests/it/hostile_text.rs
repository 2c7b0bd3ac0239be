//! Hostile input, how user text is shown (issue 28, session 9): no-break spaces,
//! control and invisible characters in orders, units and power names, other
//! encodings, control characters in YAML, names a loader refuses, line separators in
//! names, paths printed to a terminal, reserved power ids.

use crate::common::{arbiter, arbiter_bytes, code, has, s, slip, stderr, stdout, temp_dir};

/// No raw control character (C0 but line feed and tab, DEL, C1) in `text`.
fn no_raw_controls(text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\t')
        .collect();
    assert!(bad.is_empty(), "raw control characters {bad:?} in:\n{text}");
}

// ---- Defect 10: a no-break space next to an order's words reads as a space ----

/// `A PAR -<NBSP>BUR`, `A PAR - <NBSP>BUR`, and a narrow no-break space: read as
/// spaces at the slip door and the batch door (once `unknown province `BUR``).
#[test]
fn a_no_break_space_reads_as_a_space_at_every_door() {
    let dir = temp_dir("text-nbsp");
    let f = slip(
        &dir,
        "france.txt",
        "A PAR -\u{a0}BUR\nA MAR - \u{a0}SPA\nF BRE\u{202f}- MAO\n",
    );
    let o = arbiter(&["adjudicate", &f]);
    code(&o, 0);
    let out = stdout(&o);
    has(&out, "France: Army Paris -> Burgundy.");
    has(&out, "France: Army Marseilles -> Spain.");
    has(&out, "France: Fleet Brest -> Mid-Atlantic Ocean.");
    let line =
        "{\"units\":{\"france\":[\"A MAR\"]},\"orders\":{\"france\":[\"A MAR -\\u00a0GAS\"]}}\n";
    let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(line.as_bytes()));
    let out = stdout(&o);
    has(&out, "\"canonical\":\"A MAR - GAS\"");
    has(&out, "\"outcome\":\"succeeds\"");
}

// ---- Defect 11: control characters in orders are named ----

/// ESC, BEL and NUL in an order are named with their code point in the CLI's
/// message (not a bare `�`) and in batch (not `\u001b`).
#[test]
fn control_characters_in_orders_are_named() {
    let dir = temp_dir("text-ctl");
    let f = slip(
        &dir,
        "france.txt",
        "A PAR - \u{1b}[2JBUR\nA MAR - \u{7}BUR\nF BRE - \u{0}MAO\n",
    );
    let o = arbiter(&["adjudicate", &f]);
    let err = stderr(&o);
    has(&err, "found `<U+001B ESCAPE>`");
    has(&err, "found `<U+0007 BELL>`");
    has(&err, "found `<U+0000 NULL>`");
    no_raw_controls(&err);
    let line = "{\"units\":{\"france\":[\"A PAR\"]},\"orders\":{\"france\":[\"A PAR - \\u001b[2JBUR\"]}}\n";
    let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(line.as_bytes()));
    let out = stdout(&o);
    has(&out, "found `<U+001B ESCAPE>`");
    assert!(!out.contains("found `\\u001b`"), "{out}");
}

// ---- Defect 12: invisible characters in units and power names are named ----

/// A right-to-left mark after a unit in a position file, a zero-width joiner in a
/// batch power name: named.
#[test]
fn invisible_characters_in_units_and_powers_are_named() {
    let dir = temp_dir("text-unit");
    let pos = dir.join("p.yaml");
    std::fs::write(
        &pos,
        "phase: Spring 1901 movement\nunits: {france: [\"A PAR\u{200f}\"]}\n",
    )
    .unwrap();
    let o = arbiter(&["adjudicate", "--position", s(&pos), "/dev/null"]);
    code(&o, 2);
    has(
        &stderr(&o),
        "cannot read unit `A PAR<U+200F RIGHT-TO-LEFT MARK>`",
    );
    let line = "{\"units\":{\"fr\\u200dance\":[\"A PAR\"]}}\n";
    let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(line.as_bytes()));
    has(
        &stdout(&o),
        "unknown power `fr<U+200D ZERO WIDTH JOINER>ance`",
    );
    // A map's starting unit, at `map check`.
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/standard.yaml"),
    )
    .unwrap();
    assert!(src.contains("[F bre, A mar, A par]"));
    let map = dir.join("m.yaml");
    std::fs::write(
        &map,
        src.replace("[F bre, A mar, A par]", "[F bre, A mar, \"A par\\u200f\"]"),
    )
    .unwrap();
    let o = arbiter(&["map", "check", s(&map)]);
    has(
        &stdout_or_err(&o),
        "cannot read unit `A par<U+200F RIGHT-TO-LEFT MARK>`",
    );
    let line = "{\"units\":{\"fr\\u001bance\":[\"A PAR\"]}}\n";
    let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(line.as_bytes()));
    has(&stdout(&o), "unknown power `fr<U+001B ESCAPE>ance`");
}

// ---- Defect 14: a control character in a YAML file is placed and named ----

/// A raw ESC in a position's comment, a DEL in a game file, a C1 control in a map:
/// refused with the line and column and the character named, at each YAML door.
#[test]
fn a_control_character_in_yaml_is_placed_and_named() {
    let dir = temp_dir("text-yamlctl");
    let pos = dir.join("p.yaml");
    std::fs::write(&pos, "units:\n  france: [A PAR]\n# c \u{1b}[2J\n").unwrap();
    let o = arbiter(&["adjudicate", "--position", s(&pos), "/dev/null"]);
    code(&o, 2);
    let err = stderr(&o);
    has(
        &err,
        "line 3, column 5: a control character (U+001B ESCAPE)",
    );
    assert!(!err.contains("at position"), "{err}");

    let game = crate::common::new_game(&dir);
    let mut text = std::fs::read_to_string(&game).unwrap();
    text.insert_str(0, "# \u{7f}\n");
    std::fs::write(&game, text).unwrap();
    let o = arbiter(&["status", &game]);
    has(
        &stderr(&o),
        "line 1, column 3: a control character (U+007F DELETE)",
    );

    let map = dir.join("m.yaml");
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/standard.yaml"),
    )
    .unwrap();
    std::fs::write(&map, format!("# \u{9b}x\n{src}")).unwrap();
    let o = arbiter(&["map", "check", s(&map)]);
    assert_ne!(o.status.code(), Some(0));
    has(
        &stdout_or_err(&o),
        "line 1, column 3: a control character (U+009B CONTROL CHARACTER)",
    );
}

fn stdout_or_err(o: &std::process::Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

// ---- Defect 16: line and paragraph separators (and NEL) are line breaks ----

/// U+2028 in a province name is `BAD_ID`; `new --name` refuses U+2028, U+2029 and
/// NEL; a separator in an order line reaches the terminal as `�`.
#[test]
fn line_separators_are_line_breaks_in_names_and_on_the_terminal() {
    let dir = temp_dir("text-lsep");
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/standard.yaml"),
    )
    .unwrap();
    assert!(src.contains("    name: Paris\n"));
    let map = dir.join("m.yaml");
    std::fs::write(
        &map,
        src.replace("    name: Paris\n", "    name: \"Pa\\u2028ris\"\n"),
    )
    .unwrap();
    let o = arbiter(&["map", "check", s(&map)]);
    assert_ne!(o.status.code(), Some(0));
    has(&stdout_or_err(&o), "error[BAD_ID]");
    for bad in ["a\u{2028}b", "a\u{2029}b", "a\u{85}b"] {
        let g = dir.join("g.yaml");
        let o = arbiter(&["new", "--name", bad, s(&g)]);
        code(&o, 2);
        has(&stderr(&o), "--name must be one line of text");
        assert!(!g.exists());
    }
    // `adjudicate --game` writes each as a space in the sheet's header.
    let f = slip(&dir, "empty.txt", "");
    let o = arbiter(&["adjudicate", "--game", "a\u{2028}b\u{2029}c", &f]);
    has(&stdout(&o), "Spring of 1901. (a b c)\n");
    let f = slip(&dir, "france.txt", "A PAR - \u{2028}Burgundy\u{2029}x\n");
    let o = arbiter(&["adjudicate", &f]);
    let all = stdout_or_err(&o);
    has(&all, "U+2028 LINE SEPARATOR");
    assert!(
        !all.contains('\u{2028}') && !all.contains('\u{2029}'),
        "a separator reached the terminal:\n{all}"
    );
}

// ---- Defect 17: every path printed to a terminal is made safe ----

/// A game path with an escape sequence and a bell: `new` and `judge` print it with
/// `�` for each control character, never raw.
#[test]
fn game_paths_are_printed_safely() {
    let dir = temp_dir("text-path");
    let game = dir.join("g\u{1b}[2J\u{1b}]0;X\u{7}.yaml");
    let o = arbiter(&["new", s(&game)]);
    code(&o, 0);
    no_raw_controls(&stdout(&o));
    no_raw_controls(&stderr(&o));
    has(&stdout(&o), "g\u{fffd}[2J\u{fffd}]0;X\u{fffd}.yaml");
    let f = slip(&dir, "france.txt", "A PAR - BUR\n");
    let o = arbiter(&["judge", s(&game), &f]);
    code(&o, 0);
    no_raw_controls(&stdout(&o));
    let err = stderr(&o);
    no_raw_controls(&err);
    has(&err, "saved `");
}

// ---- Defect 15: map import writes only names its loader reads ----

/// A DPjudge power name with an escape sequence, another with a right-to-left mark,
/// a province name with a line separator and an alias with a zero-width space:
/// imported without those characters (noted), so the output loads and checks.
#[test]
fn map_import_drops_control_and_invisible_characters_from_names() {
    let dir = temp_dir("text-import");
    let fix = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dpjudge");
    let geo = std::fs::read_to_string(fix.join("tiny.geography")).unwrap();
    assert!(geo.contains("Alpha = aaa"));
    std::fs::write(
        dir.join("tiny.geography"),
        geo.replace("Alpha = aaa", "Al\u{2028}pha = aaa al\u{200b}f"),
    )
    .unwrap();
    let pol = std::fs::read_to_string(fix.join("tiny.politics")).unwrap();
    assert!(pol.contains("RED   (REDDISH)  AAA"));
    std::fs::write(
        dir.join("tiny.politics"),
        pol.replace("RED   (REDDISH)  AAA", "RED   (RE\u{1b}[2JDDISH)  AAA")
            .replace("BLUE  (BLUISH)", "BLUE  (BLU\u{200f}ISH)"),
    )
    .unwrap();
    std::fs::copy(fix.join("tiny.military"), dir.join("tiny.military")).unwrap();
    std::fs::write(
        dir.join("t.map"),
        "USE tiny.geography tiny.politics tiny.military\n",
    )
    .unwrap();
    let out = dir.join("out.yaml");
    let o = arbiter(&["map", "import", s(&dir.join("t.map")), "-o", s(&out)]);
    let report = stdout_or_err(&o);
    code(&o, 0);
    has(
        &report,
        "holds a control or invisible character: imported without it",
    );
    no_raw_controls(&report);
    let yaml = std::fs::read_to_string(&out).unwrap();
    for c in ['\u{1b}', '\u{2028}', '\u{200b}', '\u{200f}'] {
        assert!(!yaml.contains(c), "{c:?} written:\n{yaml}");
    }
    let o = arbiter(&["map", "check", s(&out)]);
    code(&o, 0);
}

// ---- Defect 18: power ids that name a CSV column are reserved ----

/// `year` and `unowned` (any case) are refused by the loader and `map check`, with a
/// hint; `map import` renames a DPjudge power `YEAR`.
#[test]
fn reserved_power_ids_are_refused_and_renamed_on_import() {
    let dir = temp_dir("text-reserved");
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/standard.yaml"),
    )
    .unwrap();
    for (id, bad) in [("france", "year"), ("england", "Unowned")] {
        let from = format!("  - id: {id}\n");
        assert!(src.contains(&from));
        let map = dir.join(format!("{bad}.yaml"));
        std::fs::write(&map, src.replacen(&from, &format!("  - id: {bad}\n"), 1)).unwrap();
        let o = arbiter(&["map", "check", s(&map)]);
        assert_ne!(o.status.code(), Some(0));
        let all = stdout_or_err(&o);
        has(&all, "error[BAD_ID]");
        has(&all, &format!("the power id `{bad}` is reserved"));
    }
    let fix = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dpjudge");
    for f in ["tiny.geography", "tiny.military"] {
        std::fs::copy(fix.join(f), dir.join(f)).unwrap();
    }
    let pol = std::fs::read_to_string(fix.join("tiny.politics")).unwrap();
    std::fs::write(dir.join("tiny.politics"), pol.replace("RED ", "YEAR")).unwrap();
    std::fs::write(
        dir.join("tiny.military"),
        std::fs::read_to_string(fix.join("tiny.military"))
            .unwrap()
            .replace("RED", "YEAR"),
    )
    .unwrap();
    std::fs::write(
        dir.join("t.map"),
        "USE tiny.geography tiny.politics tiny.military\n",
    )
    .unwrap();
    let out = dir.join("out.yaml");
    let o = arbiter(&["map", "import", s(&dir.join("t.map")), "-o", s(&out)]);
    code(&o, 0);
    has(&stdout_or_err(&o), "imported under the id `year2`");
    let yaml = std::fs::read_to_string(&out).unwrap();
    has(&yaml, "- id: year2\n");
}

// ---- Defect 13: other encodings named at every door ----

/// Batch: a Latin-1 line names the encoding and the column (and its id is echoed as
/// meant, `café`), the next line is answered; UTF-16 input gets one answer naming it.
#[test]
fn batch_names_latin1_and_utf16() {
    let mut input = b"{\"id\":\"caf\xe9\",\"units\":{\"france\":[\"A PAR\"]}}\n".to_vec();
    input.extend_from_slice(b"{\"id\":\"ok\",\"units\":{\"france\":[\"A PAR\"]}}\n");
    let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(&input));
    let out = stdout(&o);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["id"], "café");
    let e = lines[0]["error"].as_str().unwrap();
    has(e, "line 1, column 11: byte 0xE9 is not UTF-8");
    has(e, "Latin-1");
    has(e, "save the file as UTF-8");
    assert_eq!(lines[1]["id"], "ok");

    let text = "{\"id\":\"x\",\"units\":{\"france\":[\"A PAR\"]}}\n";
    for bom in [true, false] {
        let mut u16: Vec<u8> = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
        u16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(&u16));
        let out = stdout(&o);
        assert_eq!(out.lines().count(), 1, "one answer:\n{out}");
        has(&out, "UTF-16 (little-endian), not UTF-8: save it as UTF-8");
    }
}

/// The server's `/check` of Latin-1 orders names the encoding and the place.
#[cfg(feature = "serve")]
#[test]
fn serve_check_names_latin1() {
    use crate::common::http::{request, Served};
    let game = crate::common::new_game(&temp_dir("text-serve-enc"));
    let s = Served::start(std::path::Path::new(&game), &[]);
    let france = &s.links["france"];
    let a = request(
        "POST",
        &format!("{france}/check"),
        Some(("text/plain", b"A Par - Bur\nA Mar - Gasc\xf3gne\n")),
    );
    assert_eq!(a.status, 400, "{}", a.body);
    let e = a.json()["error"].as_str().unwrap().to_string();
    has(&e, "line 2, column 13: byte 0xF3 is not UTF-8");
    has(&e, "Latin-1");
}

/// A line break inside an order (form feed, NEL, U+2028) is named, never read as a
/// space nor as `unknown province `BUR``; in a slip and at the batch door.
#[test]
fn a_line_break_inside_an_order_is_named() {
    let dir = temp_dir("text-break");
    let f = slip(
        &dir,
        "france.txt",
        "A PAR - \u{c}BUR\nA MAR \u{2028}- SPA\nF BRE\u{85}- MAO\n",
    );
    let o = arbiter(&["adjudicate", &f]);
    code(&o, 1);
    let err = stderr(&o);
    has(
        &err,
        "a line break inside an order: found `<U+000C FORM FEED>`",
    );
    has(&err, "found `<U+2028 LINE SEPARATOR>`");
    has(&err, "found `<U+0085 NEXT LINE>`");
    assert!(!err.contains("unknown province"), "{err}");
    has(&stdout(&o), "France: Army Marseilles HOLD.");
    let line =
        "{\"units\":{\"france\":[\"A PAR\"]},\"orders\":{\"france\":[\"A PAR -\\u2028BUR\"]}}\n";
    let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(line.as_bytes()));
    has(&stdout(&o), "found `<U+2028 LINE SEPARATOR>`");
}

/// The jDip door: a no-break space reads as a space, an escape is named.
#[test]
fn jdip_door_reads_a_no_break_space_and_names_an_escape() {
    let dir = temp_dir("text-jdip");
    let case = |n: u32, order: &str| {
        format!(
            "CASE {n} (x)\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n    France: A \
             par\nORDERS\n    France: {order}\nPOSTSTATE\n    France: A bur\nEND\n\n"
        )
    };
    let f = dir.join("j.txt");
    std::fs::write(
        &f,
        format!(
            "VARIANT_ALL Standard\n\n{}{}",
            case(1, "A par -\u{a0}bur"),
            case(2, "A par - \u{1b}bur")
        ),
    )
    .unwrap();
    let o = arbiter(&["test", s(&f)]);
    let out = stdout_or_err(&o);
    has(&out, "1 ... ok");
    has(&out, "found `<U+001B ESCAPE>`");
    no_raw_controls(&out);
}
