//! Whole games through the referee's commands (`new`, `judge`, `status`, `undo`,
//! `history`, `centres`, `explain`), driving the binary. The scripted game of
//! `examples/game/` is played from Spring 1901 to Winter 1902; every sheet is a
//! snapshot, and every key ruling is also asserted here, so accepting a snapshot can
//! never hide a wrong ruling. Also: game files that must be refused (and left
//! untouched), interrupted saves, tournament games that end after a fixed year.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::{code, has, s, stderr, stdout, temp_dir, units_of};
use serde_json::{json, Value};

/// Run the binary from the repository root (so order files are given relative to it).
fn run(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd.env_remove("ARBITER_CRASH_AT");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(s) = stdin {
        child.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn arbiter(args: &[&str]) -> Output {
    run(args, None, &[])
}

/// The order files of one phase of the scripted game, sorted.
fn phase_files(dir: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(root.join("examples/game").join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .map(|n| format!("examples/game/{dir}/{n}"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no order files in {dir}");
    files
}

/// `arbiter judge GAME FILES…`, which must succeed; returns the sheet.
fn judge(game: &Path, files: &[String]) -> String {
    let mut args = vec!["judge", s(game)];
    args.extend(files.iter().map(String::as_str));
    let o = arbiter(&args);
    code(&o, 0);
    let out = stdout(&o);
    assert_fits(&out);
    out
}

fn status_json(game: &Path) -> Value {
    let o = arbiter(&["status", s(game), "--format", "json"]);
    code(&o, 0);
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn status_text(game: &Path) -> String {
    let o = arbiter(&["status", s(game)]);
    code(&o, 0);
    let out = stdout(&o);
    assert_fits(&out);
    out
}

fn assert_fits(text: &str) {
    for l in text.lines() {
        assert!(l.chars().count() <= 80, "line over 80 columns: {l:?}");
    }
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn owed_of<'a>(v: &'a Value, power: &str) -> Option<&'a Value> {
    v["owed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["power"] == power)
}

#[test]
fn the_scripted_game_from_spring_1901_to_winter_1902() {
    let dir = temp_dir("script");
    let game = dir.join("demo.yaml");
    let o = arbiter(&["new", s(&game), "--name", "demo"]);
    code(&o, 0);
    has(&stdout(&o), "Next: Spring 1901 movement.");
    let created = std::fs::read(&game).unwrap();
    let o = arbiter(&["new", s(&game)]);
    code(&o, 2);
    has(&stderr(&o), "already exists");
    assert_eq!(std::fs::read(&game).unwrap(), created);
    assert_eq!(status_json(&game)["phase"], "Spring 1901 movement");

    // Spring 1901: Vienna and Warsaw bounce in Galicia, Sevastopol and Ankara in the
    // Black Sea; everything else moves. Nobody is dislodged: the retreat phase is skipped.
    let sheet = judge(&game, &phase_files("1-spring-1901"));
    for line in [
        "Austria: Army Vienna -> Galicia.  (*bounce*)\n",
        "Russia: Army Warsaw -> Galicia.  (*bounce*)\n",
        "Russia: Fleet Sevastopol -> Black Sea.  (*bounce*)\n",
        "Turkey: Fleet Ankara -> Black Sea.  (*bounce*)\n",
        "France: Army Paris -> Burgundy.\n",
        "Germany: Army Munich -> Ruhr.\n",
        "Germany: Army Berlin -> Munich.\n",
        "Standoffs (no retreat there): Black Sea, Galicia.\n",
        "Spring 1901 retreat: nothing to do, skipped.\nNext: Fall 1901 movement.\n",
    ] {
        has(&sheet, line);
    }
    insta::assert_snapshot!("s1901_movement", sheet);
    let after_spring = std::fs::read(&game).unwrap();
    let v = status_json(&game);
    assert_eq!(v["phase"], "Fall 1901 movement");
    assert_eq!(
        units_of(&v, "austria"),
        sorted(&["A VIE", "A SER", "F ALB"])
    );
    assert_eq!(
        units_of(&v, "germany"),
        sorted(&["A RUH", "A MUN", "F DEN"])
    );

    // The referee forgets Austria's orders: its units hold and Italy walks into Trieste.
    let mut without_austria = phase_files("2-fall-1901");
    without_austria.retain(|f| !f.ends_with("austria.txt"));
    let wrong = judge(&game, &without_austria);
    has(&wrong, "Italy: Army Venice -> Trieste.\n");
    // The sheet shows that Austria's slip is missing: its units hold with no order.
    has(&wrong, "Austria: Army Vienna HOLD.  (*no order*)\n");
    // Undo: back to Fall 1901 exactly (the file is byte for byte as before).
    let o = arbiter(&["undo", s(&game)]);
    code(&o, 0);
    has(
        &stdout(&o),
        "Undid Fall 1901 movement (orders from england.txt, france.txt, germany.txt,",
    );
    assert_eq!(std::fs::read(&game).unwrap(), after_spring);
    assert_eq!(status_json(&game)["phase"], "Fall 1901 movement");

    // Fall 1901, all orders. Munich, supported by Ruhr (2), dislodges the French army
    // in Burgundy, whose own move to Belgium bounced off the North Sea fleet (1 v 1).
    // It may not retreat to Belgium (standoff), Ruhr (occupied) or Munich (where the
    // attack came from). Vienna and Venice bounce in Trieste; Albania, supported by
    // Serbia, takes Greece; Sevastopol takes Rumania and Armenia walks into Sevastopol.
    let sheet = judge(&game, &phase_files("2-fall-1901"));
    for line in [
        "Austria: Fleet Albania -> Greece.\n",
        "Austria: Army Vienna -> Trieste.  (*bounce*)\n",
        "Italy: Army Venice -> Trieste.  (*bounce*)\n",
        "England: Fleet North Sea -> Belgium.  (*bounce*)\n",
        "France: Army Burgundy -> Belgium.  (*bounce, dislodged*)\n",
        "Germany: Army Munich -> Burgundy.\n",
        "Russia: Fleet Sevastopol -> Rumania.\n",
        "Turkey: Army Armenia -> Sevastopol.\n",
        "The French Army in Burgundy can retreat to Gascony, Marseilles, Paris or\n    Picardy.\n",
        "Standoffs (no retreat there): Belgium, Trieste.\n",
        "Next: Fall 1901 retreat.\n",
    ] {
        has(&sheet, line);
    }
    insta::assert_snapshot!("f1901_movement", sheet);
    let v = status_json(&game);
    assert_eq!(v["phase"], "Fall 1901 retreat");
    assert_eq!(
        v["dislodged"],
        json!([{"power": "france", "unit": "A BUR", "by": "MUN",
                "retreats": ["GAS", "MAR", "PAR", "PIC"]}])
    );
    assert_eq!(units_of(&v, "france"), sorted(&["A SPA", "F POR"]));
    assert_eq!(v["owed"], json!([]));
    insta::assert_snapshot!("f1901_retreat_status", status_text(&game));

    // Fall 1901 retreat: Burgundy retreats to Picardy. The Fall turn is over: centres
    // change hands (Sevastopol goes to Turkey) and the builds are owed.
    let sheet = judge(&game, &phase_files("3-fall-1901-retreat"));
    for line in [
        "France: Army Burgundy -> Picardy.\n",
        "Changes: Bulgaria (nobody to Turkey), Denmark (nobody to Germany), Greece\n",
        "Austria (5 centres, 3 units) builds 2.\n",
        "England (4 centres, 3 units) builds 1.\n",
        "France (5 centres, 3 units) builds 2.\n",
        "Germany (4 centres, 3 units) builds 1.\n",
        "Italy (4 centres, 3 units) builds 1.\n",
        "Russia (5 centres, 4 units) builds 1.\n",
        "Turkey (5 centres, 3 units) builds 2.\n",
        "Next: Winter 1901 adjustment.\n",
    ] {
        has(&sheet, line);
    }
    insta::assert_snapshot!("f1901_retreat", sheet);
    let v = status_json(&game);
    assert_eq!(v["phase"], "Winter 1901 adjustment");
    assert_eq!(v["dislodged"], json!([]));
    assert_eq!(units_of(&v, "france"), sorted(&["A SPA", "F POR", "A PIC"]));
    assert_eq!(
        v["owners"]["turkey"],
        json!(["ANK", "BUL", "CON", "SEV", "SMY"])
    );
    assert_eq!(v["centres"]["russia"], 5);
    assert_eq!(v["centres"]["turkey"], 5);
    let austria = owed_of(&v, "austria").unwrap();
    assert_eq!(austria["change"], 2);
    assert_eq!(austria["build_sites"], json!(["BUD", "TRI"]));
    let russia = owed_of(&v, "russia").unwrap();
    assert_eq!(russia["change"], 1);
    // Sevastopol is lost to Turkey: not a Russian build site.
    assert_eq!(russia["build_sites"], json!(["MOS", "STP", "WAR"]));
    insta::assert_snapshot!("w1901_status", status_text(&game));

    // Winter 1901: builds; Italy waives. Turkey's build in Sevastopol (not a home
    // centre) is an error: nothing is judged until the referee accepts it. Then it is
    // void, the sheet says why, and Turkey's other two builds stand.
    let winter = phase_files("4-winter-1901");
    let before = std::fs::read(&game).unwrap();
    let mut args = vec!["judge", s(&game)];
    args.extend(winter.iter().map(String::as_str));
    let o = arbiter(&args);
    code(&o, 1);
    has(
        &stderr(&o),
        "error: illegal order: not a home centre of the power\n --> examples/game/4-winter-1901/turkey.txt:2:1\n",
    );
    assert_eq!(std::fs::read(&game).unwrap(), before);
    let mut accepted = winter.clone();
    accepted.push("--accept".into());
    let sheet = judge(&game, &accepted);
    for line in [
        "Void orders (not carried out):\nTurkey: BUILD Army Sevastopol: not a home centre of the power.\n",
        "Austria: BUILD Army Budapest.\n",
        "Austria: BUILD Fleet Trieste.\n",
        "Russia: BUILD Fleet St Petersburg (north coast).\n",
        "Italy: WAIVE.\n",
        "Turkey: BUILD Army Sevastopol.  (*void*)\n",
        "Turkey: BUILD Fleet Smyrna.\n",
        "Turkey: BUILD Army Constantinople.\n",
        "Next: Spring 1902 movement.\n",
    ] {
        has(&sheet, line);
    }
    insta::assert_snapshot!("w1901_adjustment", sheet);
    let v = status_json(&game);
    assert_eq!(v["phase"], "Spring 1902 movement");
    assert_eq!(
        units_of(&v, "austria"),
        sorted(&["A VIE", "A SER", "F GRE", "A BUD", "F TRI"])
    );
    assert_eq!(
        units_of(&v, "russia"),
        sorted(&["A GAL", "A UKR", "F RUM", "F SWE", "F STP/NC"])
    );
    assert_eq!(
        units_of(&v, "turkey"),
        sorted(&["F BLA", "A BUL", "A SEV", "F SMY", "A CON"])
    );
    assert_eq!(units_of(&v, "italy").len(), 3);

    // Spring 1902: Ukraine, supported by Rumania, dislodges the Turkish army in
    // Sevastopol, which may retreat to Armenia or Moscow (not Ukraine: the attack came
    // from there; not Rumania: occupied). North Sea and Ruhr bounce in Holland;
    // Bulgaria (1) bounces off Greece (held with Serbia's support, 2).
    let sheet = judge(&game, &phase_files("5-spring-1902"));
    for line in [
        "Russia: Army Ukraine -> Sevastopol.\n",
        "Turkey: Army Sevastopol HOLD.  (*dislodged*)\n",
        "Turkey: Army Bulgaria -> Greece.  (*bounce*)\n",
        "England: Fleet North Sea -> Holland.  (*bounce*)\n",
        "Germany: Army Ruhr -> Holland.  (*bounce*)\n",
        "France: Army Picardy -> Belgium.\n",
        "The Turkish Army in Sevastopol can retreat to Armenia or Moscow.\n",
        "Standoffs (no retreat there): Holland.\n",
        "Next: Spring 1902 retreat.\n",
    ] {
        has(&sheet, line);
    }
    insta::assert_snapshot!("s1902_movement", sheet);
    let v = status_json(&game);
    assert_eq!(v["phase"], "Spring 1902 retreat");
    assert_eq!(
        v["dislodged"],
        json!([{"power": "turkey", "unit": "A SEV", "by": "UKR", "retreats": ["ARM", "MOS"]}])
    );

    // Spring 1902 retreat: to Armenia.
    let sheet = judge(&game, &phase_files("6-spring-1902-retreat"));
    has(&sheet, "Turkey: Army Sevastopol -> Armenia.\n");
    has(&sheet, "Next: Fall 1902 movement.\n");
    insta::assert_snapshot!("s1902_retreat", sheet);

    // Fall 1902: Greece holds again (2 v 2), Sevastopol holds (1 v 2), Ruhr takes
    // Holland. Nobody is dislodged. Russia takes Sevastopol back, so Turkey has 4
    // centres for 5 units and removes 1.
    let sheet = judge(&game, &phase_files("7-fall-1902"));
    for line in [
        "Turkey: Army Bulgaria -> Greece.  (*bounce*)\n",
        "Turkey: Army Armenia -> Sevastopol.  (*bounce*)\n",
        "Germany: Army Ruhr -> Holland.\n",
        "Changes: Belgium (nobody to France), Holland (nobody to Germany), Sevastopol\n    (Turkey to Russia).\n",
        "Austria (5 centres, 5 units) neither builds nor removes.\n",
        "France (6 centres, 5 units) builds 1.\n",
        "Germany (5 centres, 4 units) builds 1.\n",
        "Russia (6 centres, 5 units) builds 1.\n",
        "Turkey (4 centres, 5 units) removes 1.\n",
        "Fall 1902 retreat: nothing to do, skipped.\nNext: Winter 1902 adjustment.\n",
    ] {
        has(&sheet, line);
    }
    insta::assert_snapshot!("f1902_movement", sheet);
    let v = status_json(&game);
    assert_eq!(v["phase"], "Winter 1902 adjustment");
    assert_eq!(owed_of(&v, "turkey").unwrap()["change"], -1);
    assert_eq!(
        owed_of(&v, "france").unwrap()["build_sites"],
        json!(["MAR"])
    );
    assert_eq!(owed_of(&v, "austria").unwrap()["change"], 0);
    insta::assert_snapshot!("w1902_status", status_text(&game));

    // Winter 1902: Turkey removes Armenia; three builds; Italy sends nothing and waives.
    let sheet = judge(&game, &phase_files("8-winter-1902"));
    for line in [
        "France: BUILD Fleet Marseilles.\n",
        "Germany: BUILD Army Munich.\n",
        "Russia: BUILD Army Warsaw.\n",
        "Turkey: Army Armenia DISBAND.\n",
        "Italy waives 1 build.\n",
        "Next: Spring 1903 movement.\n",
    ] {
        has(&sheet, line);
    }
    insta::assert_snapshot!("w1902_adjustment", sheet);
    let v = status_json(&game);
    assert_eq!(v["phase"], "Spring 1903 movement");
    assert_eq!(v["judged"], 8);
    let counts: Vec<usize> = [
        "austria", "england", "france", "germany", "italy", "russia", "turkey",
    ]
    .iter()
    .map(|p| units_of(&v, p).len())
    .collect();
    assert_eq!(counts, vec![5, 4, 6, 5, 3, 6, 4]);
    assert!(!units_of(&v, "turkey").contains(&"A ARM".to_string()));
    assert_eq!(
        v["centres"],
        json!({"austria": 5, "england": 4, "france": 6, "germany": 5, "italy": 4,
               "russia": 6, "turkey": 4})
    );

    // History: every sheet as printed; one phase by name or short form; a skipped one.
    let o = arbiter(&["history", s(&game)]);
    code(&o, 0);
    let all = stdout(&o);
    assert_eq!(all.matches("Rules: 2023 edition.").count(), 8);
    has(&all, &sheet);
    assert!(
        !all.contains("Italy: Army Venice -> Trieste.\n"),
        "the undone sheet is gone"
    );
    let o = arbiter(&["history", s(&game), "F1901R"]);
    code(&o, 0);
    assert!(stdout(&o).starts_with("Retreat orders for Fall of 1901. (demo)\n"));
    let o = arbiter(&["history", s(&game), "Spring 1902"]);
    code(&o, 0);
    assert!(stdout(&o).starts_with("Movement results for Spring of 1902. (demo)\n"));
    let o = arbiter(&["history", s(&game), "Fall 1902 retreat"]);
    code(&o, 0);
    assert_eq!(
        stdout(&o),
        "Fall 1902 retreat was skipped: nothing to do (after Fall 1902 movement).\n"
    );
    let o = arbiter(&["history", s(&game), "Fall 1903"]);
    code(&o, 2);
    has(&stderr(&o), "has not been played yet");
    let o = arbiter(&["history", s(&game), "Spring 1902", "--format", "json"]);
    code(&o, 0);
    let h: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(h["phase"], "Spring 1902 movement");
    assert_eq!(h["dislodged"][0]["unit"], "A SEV");

    // Centres after each year, the table a tournament director imports.
    let o = arbiter(&["centres", s(&game), "--format", "csv"]);
    code(&o, 0);
    assert_eq!(
        stdout(&o),
        "year,austria,england,france,germany,italy,russia,turkey,unowned\n\
         1901,5,4,5,4,4,5,5,2\n\
         1902,5,4,6,5,4,6,4,0\n"
    );
    let o = arbiter(&["centres", s(&game), "--format", "json"]);
    code(&o, 0);
    let c: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(c["years"][0]["year"], 1901);
    assert_eq!(c["years"][0]["counts"]["turkey"], 5);
    assert_eq!(
        c["years"][0]["owners"]["turkey"],
        json!(["ANK", "BUL", "CON", "SEV", "SMY"])
    );
    assert_eq!(c["years"][1]["unowned"], 0);
    let o = arbiter(&["centres", s(&game)]);
    code(&o, 0);
    assert_fits(&stdout(&o));
    insta::assert_snapshot!("centres", stdout(&o));

    // Explain re-adjudicates a judged phase from its stored position and orders.
    let o = arbiter(&["explain", s(&game), "sev", "--phase", "Spring 1902"]);
    code(&o, 0);
    assert!(stdout(&o).contains("Sevastopol"), "{}", stdout(&o));
    assert!(!stderr(&o).contains("differently"), "{}", stderr(&o));
    let o = arbiter(&["explain", s(&game)]);
    code(&o, 0);
    assert!(!stdout(&o).is_empty());
    let o = arbiter(&["explain", s(&game), "Burgandi"]);
    code(&o, 2);
    has(&stderr(&o), "did you mean `Burgundy`");

    // Undo all the way back to the start: the file is then byte for byte the new game.
    for _ in 0..8 {
        code(&arbiter(&["undo", s(&game)]), 0);
    }
    assert_eq!(std::fs::read(&game).unwrap(), created);
    let o = arbiter(&["undo", s(&game)]);
    code(&o, 2);
    has(&stderr(&o), "nothing to undo");
    assert_eq!(std::fs::read(&game).unwrap(), created);
}

#[test]
fn errors_in_the_orders_change_nothing_unless_accepted() {
    let dir = temp_dir("accept");
    let game = dir.join("g.yaml");
    code(&arbiter(&["new", s(&game)]), 0);
    let before = std::fs::read(&game).unwrap();
    let france = dir.join("france.txt");
    let germany = dir.join("germany.txt");
    std::fs::write(&france, "France:\nA Par - Atlantis\nA Mar - Pie\n").unwrap();
    std::fs::write(&germany, "Germany: A Par H\nA Mun - Bur\n").unwrap();
    let o = arbiter(&["judge", s(&game), s(&france), s(&germany)]);
    code(&o, 1);
    let err = stderr(&o);
    // Every diagnostic of every file at once, each with its file and line.
    has(&err, "unknown province `Atlantis`");
    has(&err, &format!("--> {}:2:9", s(&france)));
    has(&err, "the army in Paris belongs to France, not Germany");
    has(&err, &format!("--> {}:1:10", s(&germany)));
    has(&err, "2 errors in the orders (above): nothing was judged");
    assert!(stdout(&o).is_empty());
    assert_eq!(std::fs::read(&game).unwrap(), before);

    // With --accept the unreadable order is left out (Paris holds), the foreign order
    // is illegal, the rest is judged.
    let o = arbiter(&[
        "judge",
        s(&game),
        s(&france),
        s(&germany),
        "--accept",
        "--format",
        "json",
    ]);
    code(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["diagnostics"][0]["file"], s(&france));
    assert_eq!(v["diagnostics"][1]["file"], s(&germany));
    let outcomes: Vec<(&str, &str)> = v["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["order"].as_str().unwrap(), o["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(
        outcomes,
        vec![
            ("A Mar - Pie", "succeeds"),
            ("A Par H", "illegal"),
            ("A Mun - Bur", "succeeds")
        ]
    );
    let text = std::fs::read_to_string(&game).unwrap();
    has(&text, "accepted: true");
    // The orders are kept exactly as typed.
    has(&text, "A Par - Atlantis");
    assert_eq!(status_json(&game)["phase"], "Fall 1901 movement");
    assert!(dir.join("g.yaml.bak").exists());
    assert_eq!(std::fs::read(dir.join("g.yaml.bak")).unwrap(), before);
}

#[test]
fn orders_from_standard_input_and_markdown() {
    let dir = temp_dir("stdin");
    let game = dir.join("g.yaml");
    code(&arbiter(&["new", s(&game)]), 0);
    let o = run(
        &["judge", s(&game), "-", "--format", "markdown"],
        Some("England: F Lon - Nth\n"),
        &[],
    );
    code(&o, 0);
    assert!(!stdout(&o).is_empty());
    let text = std::fs::read_to_string(&game).unwrap();
    has(&text, "file: <stdin>");
    let o = arbiter(&["judge", s(&game), "-", "-"]);
    code(&o, 2);
}

/// Each way a game file can be broken, the text that must appear in the refusal.
fn broken_files(good: &str) -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let cut = good.len() * 2 / 3;
    vec![
        ("empty", Vec::new(), "the file is empty"),
        ("truncated", good.as_bytes()[..cut].to_vec(), "cut short"),
        (
            "truncated at a line",
            good.as_bytes()[..good[..cut].rfind('\n').unwrap() + 1].to_vec(),
            "cut short",
        ),
        (
            "newer",
            good.replace("arbiter_game: 1", "arbiter_game: 7")
                .into_bytes(),
            "newer arbiter (game-file format 7)",
        ),
        (
            "not yaml",
            b"arbiter_game: 1\nname: [unclosed\n".to_vec(),
            "not valid YAML",
        ),
        (
            "binary",
            vec![0x61, 0x3a, 0xff, 0xfe, 0x00, 0x10],
            "not text (invalid UTF-8",
        ),
        (
            "not a game",
            b"units: {}\n".to_vec(),
            "not an arbiter game file",
        ),
        (
            "army at sea",
            good.replacen("A PAR]", "A NTH]", 1).into_bytes(),
            "an army cannot be at sea",
        ),
        (
            "unknown phase",
            good.replacen("phase: Fall 1901 movement", "phase: Summer 1901", 1)
                .into_bytes(),
            "unknown phase `Summer 1901`",
        ),
        (
            "phases out of order",
            good.replacen("next: Fall 1901 movement", "next: Fall 1902 movement", 1)
                .into_bytes(),
            "led to Fall 1902 movement",
        ),
        (
            "unknown key",
            good.replacen("rules: '2023'", "rules: '2023'\ncolour: blue", 1)
                .into_bytes(),
            "unknown field `colour`",
        ),
        (
            "unknown power",
            good.replacen("austria: [", "ruritania: [", 1).into_bytes(),
            "unknown power `ruritania`",
        ),
    ]
}

#[test]
fn broken_game_files_are_refused_and_left_untouched() {
    let dir = temp_dir("broken");
    let game = dir.join("g.yaml");
    code(&arbiter(&["new", s(&game)]), 0);
    let orders = dir.join("spring.txt");
    std::fs::write(&orders, "France: A Par - Bur\n").unwrap();
    code(&arbiter(&["judge", s(&game), s(&orders)]), 0);
    let good = std::fs::read_to_string(&game).unwrap();
    let backup = std::fs::read(dir.join("g.yaml.bak")).unwrap();
    let fall = dir.join("fall.txt");
    std::fs::write(&fall, "France: A Bur - Bel\n").unwrap();
    for (what, bytes, message) in broken_files(&good) {
        assert_ne!(bytes, good.as_bytes(), "{what}: the file must differ");
        std::fs::write(&game, &bytes).unwrap();
        for args in [
            vec!["status", s(&game)],
            vec!["judge", s(&game), s(&fall)],
            vec!["undo", s(&game)],
            vec!["history", s(&game)],
            vec!["centres", s(&game)],
            vec!["explain", s(&game)],
        ] {
            let o = arbiter(&args);
            code(&o, 2);
            let err = stderr(&o);
            assert!(err.contains(message), "{what}, {}: {err}", args[0]);
            assert!(err.contains("refused to load the game"), "{what}: {err}");
            assert!(err.contains("The file was not changed."), "{what}: {err}");
            assert_eq!(std::fs::read(&game).unwrap(), bytes, "{what}: file changed");
            assert_eq!(
                std::fs::read(dir.join("g.yaml.bak")).unwrap(),
                backup,
                "{what}: backup changed"
            );
        }
    }
    // The good file still loads.
    std::fs::write(&game, &good).unwrap();
    assert_eq!(status_json(&game)["phase"], "Fall 1901 movement");
}

#[test]
fn an_interrupted_save_leaves_the_game_whole() {
    for stage in ["write", "backup", "rename"] {
        let dir = temp_dir(&format!("crash-{stage}"));
        let game = dir.join("g.yaml");
        code(&arbiter(&["new", s(&game)]), 0);
        let spring = dir.join("spring.txt");
        std::fs::write(&spring, "France: A Par - Bur\n").unwrap();
        code(&arbiter(&["judge", s(&game), s(&spring)]), 0);
        let before = std::fs::read(&game).unwrap();
        let fall = dir.join("fall.txt");
        std::fs::write(&fall, "France: A Bur - Bel\n").unwrap();

        let o = run(
            &["judge", s(&game), s(&fall)],
            None,
            &[("ARBITER_CRASH_AT", stage)],
        );
        code(&o, 70);
        has(&stderr(&o), "simulated crash");
        // The game file is exactly the last saved version, and it loads.
        assert_eq!(std::fs::read(&game).unwrap(), before, "{stage}");
        let bak = dir.join("g.yaml.bak");
        assert!(bak.exists(), "{stage}: the backup is there");
        let o = arbiter(&["status", s(&game), "--format", "json"]);
        code(&o, 0);
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["phase"], "Fall 1901 movement", "{stage}");
        has(&stderr(&o), "left over from an interrupted save");
        // The backup is a whole game file too.
        let b = arbiter(&["status", s(&bak)]);
        code(&b, 0);
        // Judging again works and saves.
        code(&arbiter(&["judge", s(&game), s(&fall)]), 0);
        assert_eq!(status_json(&game)["phase"], "Winter 1901 adjustment");
        assert_eq!(std::fs::read(&bak).unwrap(), before, "{stage}");
    }
}

#[test]
fn an_interrupted_new_game_creates_nothing() {
    let dir = temp_dir("crash-new");
    let game = dir.join("g.yaml");
    let o = run(&["new", s(&game)], None, &[("ARBITER_CRASH_AT", "rename")]);
    code(&o, 70);
    assert!(!game.exists());
    code(&arbiter(&["new", s(&game)]), 0);
    assert!(game.exists());
}

#[test]
fn a_tournament_game_ends_after_its_last_year() {
    let dir = temp_dir("last-year");
    let game = dir.join("t.yaml");
    let o = arbiter(&["new", s(&game), "--last-year", "1901", "--name", "Final"]);
    code(&o, 0);
    has(&stdout(&o), "last year 1901");
    let o = arbiter(&["new", s(&dir.join("u.yaml")), "--last-year", "1850"]);
    code(&o, 2);
    let o = run(&["judge", s(&game), "-"], Some(""), &[]);
    code(&o, 0);
    has(&stdout(&o), "France: Army Paris HOLD.  (*no order*)\n");
    let o = run(
        &["judge", s(&game), "-"],
        Some("Germany: A Mun - Ruh\n"),
        &[],
    );
    code(&o, 0);
    let sheet = stdout(&o);
    has(&sheet, "Germany: Army Munich -> Ruhr.\n");
    has(&sheet, "The game is over: its last year has been played.\n");
    let v = status_json(&game);
    assert_eq!(v["over"], json!({"winner": null, "last_year": 1901}));
    assert_eq!(v["owed"], json!([]));
    has(
        &status_text(&game),
        "The game is over: its last year, 1901, has been played.",
    );
    let o = run(&["judge", s(&game), "-"], Some(""), &[]);
    code(&o, 2);
    has(&stderr(&o), "the game is over");
    let o = arbiter(&["centres", s(&game), "--format", "csv"]);
    code(&o, 0);
    assert_eq!(stdout(&o).lines().count(), 2);
    // Undo reopens the last phase.
    code(&arbiter(&["undo", s(&game)]), 0);
    let v = status_json(&game);
    assert_eq!(v["over"], Value::Null);
    assert_eq!(v["phase"], "Fall 1901 movement");
}

#[test]
fn retreat_and_adjustment_orders_are_checked_before_judging() {
    let dir = temp_dir("retreat-checks");
    let game = dir.join("g.yaml");
    code(&arbiter(&["new", s(&game)]), 0);
    let o = run(
        &["judge", s(&game), "-"],
        Some("Germany: A Mun - Bur\n"),
        &[],
    );
    code(&o, 0);
    let o = run(
        &["judge", s(&game), "-"],
        Some("France: A Par - Bur, A Mar S A Par - Bur\n"),
        &[],
    );
    code(&o, 0);
    has(
        &stdout(&o),
        "The German Army in Burgundy can retreat to Belgium, Gascony, Munich, Picardy or\n    Ruhr.\n",
    );
    let before = std::fs::read(&game).unwrap();
    // A unit that was not dislodged, and another power's unit: errors, nothing judged.
    let o = run(
        &["judge", s(&game), "-"],
        Some("Germany: A Kie - Hol\nFrance: A Bur - Pic\n"),
        &[],
    );
    code(&o, 1);
    let err = stderr(&o);
    has(&err, "error: the unit in Kiel was not dislodged");
    has(&err, "--> <stdin>:1:10");
    has(
        &err,
        "error: the unit in Burgundy belongs to Germany, not France",
    );
    has(&err, "--> <stdin>:2:9");
    assert_eq!(std::fs::read(&game).unwrap(), before);
    // A retreat to a place the unit may not go is an error too: nothing judged.
    let o = run(
        &["judge", s(&game), "-"],
        Some("Germany: A Bur - Mar\n"),
        &[],
    );
    code(&o, 1);
    has(
        &stderr(&o),
        "error: illegal order: the unit cannot retreat there",
    );
    assert_eq!(std::fs::read(&game).unwrap(), before);
    // Accepted, the retreat is void and the unit is disbanded.
    let o = run(
        &["judge", s(&game), "-", "--accept"],
        Some("Germany: A Bur - Mar\n"),
        &[],
    );
    code(&o, 0);
    has(
        &stdout(&o),
        "The German Army in Burgundy (its order was illegal).\n",
    );
    let v = status_json(&game);
    assert_eq!(v["phase"], "Winter 1901 adjustment");
    assert_eq!(units_of(&v, "germany"), sorted(&["A BER", "F KIE"]));
    // Adjustment: a removal of a unit that is not there is an error.
    let o = run(
        &["judge", s(&game), "-"],
        Some("Germany: Remove A Ruh\n"),
        &[],
    );
    code(&o, 1);
    has(&stderr(&o), "error: there is no unit to remove there");
}
