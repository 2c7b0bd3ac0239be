//! Hostile input, security (issue 28, items 6, 7, 8 and 14): orders for another power's
//! units at every door, local files disclosed through a map or a game file, injection
//! into CSV, Markdown and the terminal, and messages that name nothing.

use crate::common::{
    arbiter, arbiter_bytes, code, has, new_game, s, slip, stderr, stdout, temp_dir,
};

// ---- Item 6: cross-power orders, one test per door ----

/// A slip (`adjudicate`): France's slip ordering Germany's army is an error, and the
/// army holds.
#[test]
fn door_slip_refuses_another_powers_unit() {
    let dir = temp_dir("sec-slip");
    let f = slip(&dir, "france.txt", "A Mun - Ruh\nA Par - Bur\n");
    let o = arbiter(&["adjudicate", &f]);
    code(&o, 1);
    has(
        &stderr(&o),
        "the army in Munich belongs to Germany, not France",
    );
    has(&stdout(&o), "Germany: Army Munich HOLD.");
}

/// A `judge` file: refused, the game unchanged; a waive for another power too.
#[test]
fn door_judge_file_refuses_another_powers_unit_and_waive() {
    let dir = temp_dir("sec-judge");
    let game = new_game(&dir);
    let before = std::fs::read(&game).unwrap();
    let f = slip(&dir, "france.txt", "A Mun - Ruh\n");
    let o = arbiter(&["judge", &game, &f]);
    code(&o, 1);
    has(&stderr(&o), "belongs to Germany, not France");
    let w = slip(&dir, "w.txt", "Germany: waive France\n");
    let o = arbiter(&["judge", &game, &w]);
    assert_ne!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&game).unwrap(),
        before,
        "the game file changed"
    );
}

/// A batch line: an order listed under a power for another power's unit, removal,
/// retreat or waive is illegal (or refused), never judged for the unit's owner.
#[test]
fn door_batch_strings_refuse_another_powers_orders() {
    let lines = concat!(
        r#"{"id":1,"units":{"france":["A PAR"],"england":["F LON"]},"orders":{"france":["F LON - NTH","England: F LON - NTH"]}}"#,
        "\n",
        r#"{"id":2,"phase":"Winter 1901 adjustment","units":{"france":["A PAR","A BUR","A GAS","A PIC"],"england":["F LON"]},"centers":{"france":["par","bre","mar"],"england":["lon","edi","lvp"]},"orders":{"france":["Remove F Lon","waive England"]}}"#,
        "\n",
        r#"{"id":3,"phase":"Spring 1901 retreat","units":{"france":["A BUR"],"germany":["A MUN"]},"dislodged":[{"power":"germany","unit":"A PIC","by":"bur","retreats":["bre"]}],"orders":{"france":["A PIC - BRE"]}}"#,
        "\n",
    );
    let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(lines.as_bytes()));
    code(&o, 0);
    let answers: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 3);
    // Line 1: England's fleet stays in London; both orders are illegal.
    assert_eq!(
        answers[0]["units_after"]["england"],
        serde_json::json!(["F LON"])
    );
    for r in answers[0]["orders"].as_array().unwrap() {
        assert_eq!(r["outcome"], "illegal", "{r}");
    }
    // Line 2: England's fleet is not removed; France's own removal is in civil disorder.
    assert_eq!(
        answers[1]["units_after"]["england"],
        serde_json::json!(["F LON"])
    );
    for r in answers[1]["orders"].as_array().unwrap() {
        assert_eq!(r["outcome"], "illegal", "{r}");
    }
    assert_eq!(answers[1]["civil_disorder"][0]["power"], "france");
    // Line 3: Germany's dislodged army does not retreat on France's order.
    assert_eq!(answers[2]["orders"][0]["outcome"], "illegal");
    assert_eq!(
        answers[2]["units_after"]["germany"],
        serde_json::json!(["A MUN"])
    );
}

/// The served pages: a player's page refuses another power's units (`serve.rs`
/// `a_player_cannot_order_another_powers_units`). A game file edited by hand can still
/// keep, under `serve.pending`, a slip for France headed `England:`: the referee's Judge
/// refuses it (with or without accept) instead of judging England's fleet on France's
/// page.
#[cfg(feature = "serve")]
#[test]
fn door_served_pages_and_hand_edited_game_file_refuse_another_powers_orders() {
    use crate::common::http::{post_json, Served};
    let dir = temp_dir("sec-serve");
    let game = new_game(&dir);
    let mut srv = Served::start(std::path::Path::new(&game), &[]);
    let referee = srv.referee.clone().unwrap();
    let france = srv.links["france"].clone();
    let spring = "Spring 1901 movement";
    let a = post_json(
        &format!("{france}/orders"),
        &serde_json::json!({"phase": spring, "text": "England:\nF Lon - Nth\n"}),
    );
    assert_eq!(a.status, 422, "{}", a.body);
    let a = post_json(
        &format!("{france}/orders"),
        &serde_json::json!({"phase": spring, "text": "A Par - Bur\n"}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let old_base = srv.base.clone();
    srv.kill();
    // Edit the kept slip by hand: France's slip now orders England's fleet.
    let text = std::fs::read_to_string(&game).unwrap();
    let line = text.lines().find(|l| l.trim() == "A Par - Bur").unwrap();
    let indent = &line[..line.len() - line.trim_start().len()];
    let edited = text.replacen(
        &format!("{line}\n"),
        &format!("{indent}England:\n{indent}F Lon - Nth\n"),
        1,
    );
    assert_ne!(edited, text);
    std::fs::write(&game, &edited).unwrap();
    let srv = Served::start(std::path::Path::new(&game), &[]);
    let referee = referee.replacen(&old_base, &srv.base, 1);
    for accept in [false, true] {
        let a = post_json(
            &format!("{referee}/judge"),
            &serde_json::json!({"phase": spring, "accept": accept}),
        );
        assert_eq!(a.status, 422, "{}", a.body);
        has(&a.body, "an order for England");
    }
    assert_eq!(
        std::fs::read_to_string(&game).unwrap(),
        edited,
        "nothing judged"
    );
}

// ---- Item 7: local file disclosure ----

/// A secret the tests plant in a file that is not a map.
const SECRET: &str = "hunter2-secret-token";

/// `map import`: `USE` with a folder, an absolute name, or a link that leads out of the
/// importing file's folder is refused, and the used file's lines are not copied
/// anywhere.
#[test]
fn map_import_use_reads_only_inside_the_importing_files_folder() {
    let dir = temp_dir("sec-use");
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let secret = outside.join("secret.map");
    std::fs::write(&secret, format!("{SECRET} 1\n{SECRET} 2\n")).unwrap();
    let maps = dir.join("maps");
    std::fs::create_dir_all(&maps).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, maps.join("link.map")).unwrap();
    let mut uses = vec![
        "USE ../outside/secret.map".to_string(),
        format!("USE {}", s(&secret)),
        format!("MAP {}", s(&outside.join("secret"))),
    ];
    if cfg!(unix) {
        uses.push("USE standard\nUSE link".to_string());
    }
    for (k, u) in uses.iter().enumerate() {
        let map = maps.join(format!("m{k}.map"));
        std::fs::write(&map, format!("{u}\n")).unwrap();
        let out = maps.join(format!("m{k}.yaml"));
        let o = arbiter(&["map", "import", s(&map), "-o", s(&out)]);
        code(&o, 2);
        let all = format!("{}{}", stdout(&o), stderr(&o));
        assert!(!all.contains(SECRET), "{u}: the secret was shown:\n{all}");
        assert!(
            std::fs::read_to_string(&out).map_or(true, |t| !t.contains(SECRET)),
            "{u}: the secret was written"
        );
    }
}

/// A game file's `map_file` naming a file that is not a map: refused without a line of
/// it, at every command that loads the game.
#[test]
fn a_game_files_map_file_is_read_only_as_a_map_and_never_quoted() {
    let dir = temp_dir("sec-mapfile");
    let game = new_game(&dir);
    let text = std::fs::read_to_string(&game).unwrap();
    for (name, body) in [
        (
            "plain.txt",
            format!("{SECRET}:x:0:0:root:/root:/bin/bash\n"),
        ),
        ("keys.yaml", format!("{SECRET}: abc\n")),
        ("shaped.yaml", format!("name: x\nprovinces: {SECRET}\n")),
        ("list.yaml", format!("- {SECRET}\n")),
    ] {
        let secret = dir.join(name);
        std::fs::write(&secret, &body).unwrap();
        let edited = text.replacen(
            "map: standard\n",
            &format!("map: standard\nmap_file: {}\n", s(&secret)),
            1,
        );
        assert_ne!(edited, text);
        std::fs::write(&game, &edited).unwrap();
        for cmd in [&["status"][..], &["history"], &["centres"]] {
            let mut args = cmd.to_vec();
            args.push(&game);
            let o = arbiter(&args);
            code(&o, 2);
            let all = format!("{}{}", stdout(&o), stderr(&o));
            assert!(
                !all.contains(SECRET),
                "{name}: the secret was shown:\n{all}"
            );
            has(&all, "it is not a map file");
            has(&all, "arbiter map check");
        }
    }
}

// ---- Item 8: injection ----

/// CSV fields by RFC 4180, a formula never: the helper `centres --format csv` writes
/// its power ids with.
#[test]
fn csv_fields_are_quoted_and_formulas_neutralised() {
    use arbiter::report::csv_field;
    assert_eq!(csv_field("france"), "france");
    assert_eq!(csv_field("great_britain"), "great_britain");
    assert_eq!(
        csv_field("=HYPERLINK(\"http://x\",\"y\")"),
        "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""
    );
    for lead in ["+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
        let f = csv_field(lead);
        assert!(f.starts_with("\"'"), "{lead:?} → {f}");
    }
    assert_eq!(csv_field("a,b"), "\"a,b\"");
    assert_eq!(csv_field("a\nb"), "\"a\nb\"");
    // The classic board's table is unchanged: plain words are written as they are.
    let dir = temp_dir("sec-csv");
    let game = new_game(&dir);
    let o = arbiter(&["centres", &game, "--format", "csv"]);
    code(&o, 0);
    assert_eq!(
        stdout(&o).lines().next().unwrap(),
        "year,austria,england,france,germany,italy,russia,turkey,unowned"
    );
}

/// The standard map with England's id, or France's name, replaced.
fn standard_with(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string("maps/standard.yaml").unwrap();
    assert!(text.contains(from));
    text.replace(from, to)
}

/// `map check` refuses a power id that is not a word (a formula, a comma, markup), as
/// it does a province id with a space; so no game can carry one into a CSV.
#[test]
fn map_check_refuses_power_ids_that_are_not_words() {
    let dir = temp_dir("sec-powerid");
    for bad in [
        "'=HYPERLINK(\"http://x\")'",
        "'a,b'",
        "'<b>x</b>'",
        "'-x'",
        "'a b'",
    ] {
        let map = dir.join("bad.yaml");
        let text = standard_with("- id: england", &format!("- id: {bad}"))
            .replace("home: england", &format!("home: {bad}"));
        std::fs::write(&map, text).unwrap();
        let o = arbiter(&["map", "check", s(&map)]);
        assert_ne!(o.status.code(), Some(0), "{bad}: accepted");
        has(&format!("{}{}", stdout(&o), stderr(&o)), "is not a word");
    }
    // Names carry no control character (a line break or an escape in a sheet line).
    for bad in ["\"Par\\nis\"", "\"Pa\\e[2Jris\"", "\"Pa\\tris\""] {
        let map = dir.join("badname.yaml");
        std::fs::write(&map, standard_with("name: Paris", &format!("name: {bad}"))).unwrap();
        let o = arbiter(&["map", "check", s(&map)]);
        assert_ne!(o.status.code(), Some(0), "{bad}: accepted");
        has(
            &format!("{}{}", stdout(&o), stderr(&o)),
            "no control or invisible character",
        );
    }
    // Words pass: letters, digits, `_` and `-` after the first.
    let map = dir.join("good.yaml");
    std::fs::write(
        &map,
        standard_with("- id: england", "- id: great_britain-2"),
    )
    .unwrap();
    let o = arbiter(&["map", "check", s(&map)]);
    assert!(!format!("{}{}", stdout(&o), stderr(&o)).contains("is not a word"));
}

/// `map import` makes a DPjudge power's key into a word id, noted.
#[test]
fn map_import_makes_power_ids_words() {
    let dir = temp_dir("sec-import-ids");
    let fx = std::path::Path::new("tests/fixtures/dpjudge");
    std::fs::copy(fx.join("tiny.geography"), dir.join("tiny.geography")).unwrap();
    let map = dir.join("evil.map");
    std::fs::write(
        &map,
        "MAP tiny.geography\nVICTORY 3\n@SUM(A1) AAA\nA AAA\nBLUE BBB\nF BBB\nA,B DDD\nA DDD\nUNOWNED CCC\n",
    )
    .unwrap();
    let out = dir.join("evil.yaml");
    let o = arbiter(&["map", "import", s(&map), "-o", s(&out)]);
    let yaml = std::fs::read_to_string(&out).unwrap_or_default();
    let m = arbiter::map::Map::from_yaml(&yaml, "evil.yaml")
        .unwrap_or_else(|e| panic!("{e}\n{yaml}\n{}", stderr(&o)));
    let ids: Vec<String> = m.power_ids().map(|p| m.power(p).id.clone()).collect();
    assert_eq!(ids, ["sum_a1", "blue", "a_b"], "{yaml}");
    has(
        &format!("{}{}", stdout(&o), stderr(&o)),
        "imported under the id `sum_a1`",
    );
}

/// `--format markdown` makes names and orders inert: no tag, no link.
#[test]
fn markdown_escapes_html_and_links_in_names_and_orders() {
    let dir = temp_dir("sec-md");
    let map = dir.join("m.yaml");
    std::fs::write(
        &map,
        standard_with("name: France", "name: '<img src=x onerror=alert(1)>'"),
    )
    .unwrap();
    let f = slip(
        &dir,
        "orders.txt",
        "France:\nA Par - Bur <script>alert(2)</script>\n[x](javascript:alert(3))\n",
    );
    let o = arbiter(&[
        "adjudicate",
        &f,
        "--map",
        s(&map),
        "--format",
        "markdown",
        "--game",
        "<script>alert(4)</script> &amp; [y](javascript:z)",
    ]);
    let md = stdout(&o);
    assert!(md.contains("| Power | Order"), "{md}\n{}", stderr(&o));
    for bad in ["<script", "<img", "[x](", "[y](", "&amp; "] {
        assert!(!md.contains(bad), "{bad} in\n{md}");
    }
    has(&md, "\\[y\\](javascript:z)");
    has(&md, "&lt;script>alert(4)&lt;/script>");
    has(&md, "&lt;img src=x onerror=alert(1)>");
}

/// Control characters in user text never reach the terminal: an order file's escape
/// sequences in `judge`'s diagnostics and sheet, a game name in a sheet.
#[test]
fn terminal_output_strips_control_characters() {
    let dir = temp_dir("sec-term");
    let game = new_game(&dir);
    let f = slip(
        &dir,
        "france.txt",
        "A Par - B\u{1b}[2Jur\nF Bre - Mao \u{1b}]0;title\u{7}\nA Mar - Spa \u{202e}gnirts\u{9b}2J\n",
    );
    for args in [
        vec!["judge", game.as_str(), f.as_str()],
        vec!["judge", game.as_str(), f.as_str(), "--accept"],
        vec![
            "adjudicate",
            f.as_str(),
            "--game",
            "a\u{1b}[2Jb\rFrance: Army Paris -> Munich.",
        ],
        vec!["history", game.as_str()],
    ] {
        let o = arbiter(&args);
        for (what, text) in [("stdout", stdout(&o)), ("stderr", stderr(&o))] {
            assert!(
                !text
                    .chars()
                    .any(|c| (c.is_control() && c != '\n' && c != '\t')
                        || ('\u{202a}'..='\u{202e}').contains(&c)),
                "{args:?}: a control character on {what}:\n{text:?}"
            );
        }
    }
}

// ---- Item 14: messages that name what they found ----

/// An invisible character is named by its code point, in a slip and in a batch line.
#[test]
fn invisible_characters_are_named() {
    let dir = temp_dir("sec-invisible");
    let f = slip(
        &dir,
        "france.txt",
        "A Par \u{200f}- Bur\nF Bre - \u{200d}Mao\nA\u{200b} Mar - Spa\n",
    );
    let o = arbiter(&["adjudicate", &f]);
    let err = stderr(&o);
    has(&err, "found `<U+200F RIGHT-TO-LEFT MARK>`");
    has(&err, "found `<U+200D ZERO WIDTH JOINER>`");
    has(&err, "U+200B ZERO WIDTH SPACE at column 2");
    for bad in ["`\u{200f}`", "`\u{200d}`"] {
        assert!(!err.contains(bad), "{bad:?} quoted bare:\n{err}");
    }
    let line =
        "{\"units\":{\"france\":[\"A PAR\"]},\"orders\":{\"france\":[\"A PAR \u{200f}- BUR\"]}}\n";
    let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(line.as_bytes()));
    has(&stdout(&o), "U+200F RIGHT-TO-LEFT MARK");
}

/// UTF-16 and Latin-1 files are named as such, with the line, and a byte-order mark
/// is dropped (a jDip suite's first line reads).
#[test]
fn other_encodings_are_named_and_a_byte_order_mark_is_dropped() {
    let dir = temp_dir("sec-encoding");
    let text = "France:\nA Par - Bur\nA Mar - Spa\n";
    let le: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let mut latin1 = b"France:\nA Par - Bur\nA Mar - Spa # caf".to_vec();
    latin1.extend([0xE9, b'\n']);
    for (name, bytes, says) in [
        (
            "le.txt",
            le,
            "the file is UTF-16 (little-endian), not UTF-8: save it as UTF-8",
        ),
        (
            "be.txt",
            be,
            "the file is UTF-16 (big-endian), not UTF-8: save it as UTF-8",
        ),
        (
            "latin1.txt",
            latin1,
            "line 3, column 18: byte 0xE9 is not UTF-8 (in Latin-1 or Windows-1252 it is `é`",
        ),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, &bytes).unwrap();
        let o = arbiter(&["adjudicate", s(&p)]);
        code(&o, 2);
        has(&stderr(&o), says);
        has(&stderr(&o), "save");
    }
    // A slip with a byte-order mark: its header reads.
    let p = dir.join("bom.txt");
    std::fs::write(&p, format!("\u{feff}{text}")).unwrap();
    let o = arbiter(&["adjudicate", s(&p)]);
    code(&o, 0);
    has(&stdout(&o), "France: Army Paris -> Burgundy.");
    // A jDip DATC file with a byte-order mark runs as without it.
    let datc = std::fs::read_to_string("tests/fixtures/jdip/datc-6a.txt").unwrap();
    let p = dir.join("datc-bom.txt");
    std::fs::write(&p, format!("\u{feff}{datc}")).unwrap();
    let with = arbiter(&["test", s(&p)]);
    let without = arbiter(&["test", "tests/fixtures/jdip/datc-6a.txt"]);
    assert_eq!(
        with.status.code(),
        without.status.code(),
        "{}",
        stdout(&with)
    );
    assert_eq!(
        stdout(&with).lines().last(),
        stdout(&without).lines().last(),
        "{}",
        stdout(&with)
    );
    // A game file saved as UTF-16 says so.
    let game = new_game(&dir);
    let g = std::fs::read_to_string(&game).unwrap();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(g.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    std::fs::write(&game, utf16).unwrap();
    let o = arbiter(&["status", &game]);
    code(&o, 2);
    has(&stderr(&o), "UTF-16 (little-endian)");
}

/// A game whose map file changed under it: the refusal says the position does not fit
/// the map, not only which centre is unknown.
#[test]
fn a_game_whose_map_changed_says_the_position_does_not_fit_the_map() {
    let dir = temp_dir("sec-mapchanged");
    let map = dir.join("mine.yaml");
    let text = std::fs::read_to_string("maps/standard.yaml").unwrap();
    std::fs::write(&map, &text).unwrap();
    let game = dir.join("g.yaml");
    code(&arbiter(&["new", s(&game), "--map", s(&map)]), 0);
    // Venice is no longer a centre, nor Italy's home.
    let at = text.find("  - id: ven").unwrap();
    let mut changed = text.clone();
    let rest = changed[at..]
        .replacen("supply: true", "supply: false", 1)
        .replacen("    home: italy\n", "", 1);
    changed.replace_range(at.., &rest);
    let changed = changed
        .replace("home: [nap, rom, ven]", "home: [nap, rom]")
        .replace("units: [F nap, A rom, A ven]", "units: [F nap, A rom]");
    std::fs::write(&map, changed).unwrap();
    let o = arbiter(&["map", "check", s(&map)]);
    code(&o, 0);
    let o = arbiter(&["status", s(&game)]);
    code(&o, 2);
    let err = stderr(&o);
    has(&err, "`VEN`");
    has(&err, "the position does not fit the map `standard`");
    has(&err, "if the map was changed since the game began");
}

/// A game's name cannot forge a sheet line: `new --name` with a line break is refused,
/// a hand-edited name with one is refused at load, and `adjudicate --game` flattens it.
#[test]
fn a_game_name_is_one_line() {
    let dir = temp_dir("sec-name");
    let game = dir.join("g.yaml");
    let forged = "x\nEngland: Fleet London -> Munich.";
    let o = arbiter(&["new", s(&game), "--name", forged]);
    code(&o, 2);
    has(&stderr(&o), "one line of text");
    assert!(!game.exists());
    code(&arbiter(&["new", s(&game), "--name", "demo"]), 0);
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        text.replacen("name: demo", "name: \"x\\nEngland: F\"", 1),
    )
    .unwrap();
    let o = arbiter(&["status", s(&game)]);
    code(&o, 2);
    has(&stderr(&o), "line break");
    let f = slip(&dir, "france.txt", "A Par - Bur\n");
    let o = arbiter(&["adjudicate", &f, "--game", forged]);
    code(&o, 0);
    assert!(
        !stdout(&o)
            .lines()
            .any(|l| l.starts_with("England: Fleet London -> Munich")),
        "{}",
        stdout(&o)
    );
}
