//! The `arbiter` binary end to end: the README's command, JSON, batch, exit codes.

use std::process::Output;

fn arbiter(args: &[&str], stdin: Option<&str>) -> Output {
    crate::common::arbiter_bytes(args, stdin.map(str::as_bytes))
}

/// Write `text` to a fresh file under the temporary directory; return its path.
fn temp_file(tag: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("arbiter-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("file.yaml");
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn readme_command_prints_the_results_listing() {
    let o = arbiter(&["adjudicate", "examples/spring1901.txt"], None);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = stdout(&o);
    // The rulings, checked by hand: Paris (2, Marseilles supporting) beats Munich (1);
    // Vienna and Warsaw bounce in Galicia; Sevastopol and Ankara in the Black Sea.
    for line in [
        "France: Army Paris -> Burgundy.\n",
        "Germany: Army Munich -> Burgundy.  (*bounce*)\n",
        "Austria: Army Vienna -> Galicia.  (*bounce*)\n",
        "Russia: Army Warsaw -> Galicia.  (*bounce*)\n",
        "Russia: Fleet Sevastopol -> Black Sea.  (*bounce*)\n",
        "Turkey: Fleet Ankara -> Black Sea.  (*bounce*)\n",
        "Russia: Fleet St Petersburg (south coast) -> Gulf of Bothnia.\n",
        "Germany: Army Berlin -> Kiel.\n",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
    insta::assert_snapshot!(out);
}

#[test]
fn json_output_names_outcomes_reasons_and_causes() {
    let o = arbiter(
        &["adjudicate", "-", "--format", "json"],
        Some("Germany: A Mun - Bur\nFrance: A Par - Bur, A Mar S A Par - Bur\n"),
    );
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["rules"], "2023");
    let orders = v["orders"].as_array().unwrap();
    assert_eq!(orders.len(), 3);
    assert_eq!(orders[0]["power"], "germany");
    assert_eq!(orders[0]["order"], "A Mun - Bur");
    assert_eq!(orders[0]["canonical"], "A MUN - BUR");
    assert_eq!(orders[0]["outcome"], "fails");
    // Paris, supported by Marseilles, prevents with 2 against Munich's attack of 1.
    assert_eq!(orders[0]["caused_by"], serde_json::json!(["A PAR - BUR"]));
    assert_eq!(
        orders[0]["reason"],
        "bounced: attack strength 1 did not beat A PAR - BUR (prevent strength 2)"
    );
    assert_eq!(orders[1]["outcome"], "succeeds");
    assert_eq!(orders[2]["outcome"], "succeeds");
    assert_eq!(
        v["units_after"]["france"],
        serde_json::json!(["F BRE", "A MAR", "A BUR"])
    );
    assert_eq!(v["contested"], serde_json::json!([]));
}

#[test]
fn dislodged_units_carry_attacker_and_retreats() {
    let p = temp_file(
        "dislodged",
        "phase: Spring 1901\nunits:\n  france: [A par, A bur]\n  germany: [A mun, A ruh]\n",
    );
    let o = arbiter(
        &["adjudicate", "-", "--format", "json", "--position", &p],
        Some("Germany: A Mun - Bur, A Ruh S A Mun - Bur\nFrance: A Bur H, A Par - Pic\n"),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let d = &v["dislodged"][0];
    assert_eq!(d["power"], "france");
    assert_eq!(d["unit"], "A BUR");
    assert_eq!(d["by"], "MUN");
    // Burgundy's army neighbours: bel gas mar mun par pic ruh. Munich is the attacker's
    // origin, Ruhr is occupied, Picardy was taken by Paris; Paris itself is now empty.
    assert_eq!(
        d["retreats"],
        serde_json::json!(["BEL", "GAS", "MAR", "PAR"])
    );
    assert_eq!(v["orders"][2]["outcome"], "fails");
    assert_eq!(v["orders"][2]["reason"], "dislodged by A MUN - BUR");
}

#[test]
fn batch_keeps_input_order_and_survives_bad_lines() {
    let input = concat!(
        r#"{"id": "a", "units": {"ENGLAND": ["F LON", "F STP/SC"], "russia": ["A MOS"]}, "orders": {"england": ["F LON - NTH", "F STP/SC - BOT", "A Foo"], "Russia": ["A MOS - STP"]}}"#,
        "\n",
        "this is not json\n",
        r#"{"id": 7, "map": "standard", "units": {"france": ["A PAR", "A MAR"], "germany": ["A MUN"]}, "orders": {"germany": ["A MUN - BUR"], "france": ["A PAR - BUR", "A MAR S A PAR - BUR"]}}"#,
        "\n",
        r#"{"id": "c", "units": {"france": ["A XYZ"]}, "orders": {}}"#,
        "\n",
        r#"{"id": "d", "expected": {"anything": 1}, "units": {"italy": ["A VEN"]}, "orders": {"italy": ["A VEN - SWI"]}}"#,
        "\n",
    );
    let o = arbiter(&["adjudicate", "--batch", "-"], Some(input));
    assert_eq!(o.status.code(), Some(1), "bad lines give exit code 1");
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    let a = &lines[0];
    assert_eq!(a["id"], "a");
    let words: Vec<&str> = a["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(words, ["succeeds", "succeeds", "illegal", "succeeds"]);
    assert_eq!(a["orders"][2]["order"], "A Foo");
    assert_eq!(
        a["units_after"]["england"],
        serde_json::json!(["F NTH", "F BOT"])
    );
    assert!(lines[1]["error"].as_str().unwrap().contains("bad JSON"));
    assert_eq!(lines[2]["id"], 7);
    assert_eq!(lines[2]["orders"][0]["power"], "germany");
    assert_eq!(lines[2]["orders"][0]["outcome"], "fails");
    assert_eq!(
        lines[2]["units_after"]["france"],
        serde_json::json!(["A BUR", "A MAR"])
    );
    assert_eq!(lines[3]["id"], "c");
    assert!(lines[3]["error"].as_str().unwrap().contains("A XYZ"));
    // Keys of the caller's own are ignored; Switzerland is impassable.
    assert_eq!(lines[4]["orders"][0]["outcome"], "illegal");
    assert_eq!(
        lines[4]["orders"][0]["reason"],
        "illegal: no unit may enter that province"
    );
}

#[test]
fn exit_codes() {
    // 1: the orders had an error, and the rest was still adjudicated. With --strict a
    // misspelling with one close reading is an error.
    let o = arbiter(
        &["adjudicate", "--strict", "-"],
        Some("France: A Par - Burgandi\nFrance: A Mar - Bur\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("France: Army Marseilles -> Burgundy."));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("did you mean `Burgundy` (bur)?"), "{err}");
    // 0: without --strict the one close reading is taken, with a warning showing it.
    let o = arbiter(
        &["adjudicate", "-"],
        Some("France: A Par - Burgandi\nFrance: A Mar - Bur\n"),
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("France: Army Paris -> Burgundy.  (*bounce*)"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("warning") && err.contains("Burgundy"), "{err}");
    // 2: a file that is not there; an unknown map.
    assert_eq!(
        arbiter(&["adjudicate", "no/such/file.txt"], None)
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        arbiter(&["adjudicate", "-", "--map", "atlantis"], Some(""))
            .status
            .code(),
        Some(2)
    );
    assert_eq!(arbiter(&["frobnicate"], None).status.code(), Some(2));
}

#[test]
fn output_file_is_written_whole() {
    let dir = std::env::temp_dir().join(format!("arbiter-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("results.txt");
    let o = arbiter(
        &[
            "adjudicate",
            "examples/spring1901.txt",
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("Movement results for Spring of 1901. (standard)"));
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "no temporary file left behind: {leftovers:?}"
    );
}

#[test]
fn a_coast_needed_and_not_given_is_an_error_naming_both() {
    let p = temp_file("coast", "units:\n  france: [F mao]\n");
    let o = arbiter(
        &["adjudicate", "-", "--position", &p],
        Some("France: F MAO - Spa\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("error: the coast must be named: both spa/nc and spa/sc are reachable"),
        "{err}"
    );
    assert!(stdout(&o).contains("France: Fleet Mid-Atlantic Ocean -> Spain.  (*void*)"));
}

#[test]
fn after_fall_the_listing_gives_centres_and_adjustments() {
    let o = arbiter(
        &[
            "adjudicate",
            "--position",
            "examples/fall1901.yaml",
            "examples/fall1901.txt",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    // Armenia walks into the empty Sevastopol: Turkey takes it, Russia (3 centres,
    // 4 units) owes a removal. England's convoyed army takes Norway.
    assert!(
        out.contains("Turkey: Ankara, Bulgaria, Constantinople, Sevastopol, Smyrna.\n"),
        "{out}"
    );
    assert!(
        out.contains("Russia (3 centres, 4 units) removes 1.\n"),
        "{out}"
    );
    assert!(
        out.contains("England: Edinburgh, Liverpool, London, Norway.\n"),
        "{out}"
    );
    assert!(
        out.contains("England: Army Yorkshire -> Norway.\n"),
        "{out}"
    );
}

#[test]
fn the_listing_shows_dislodgements_retreats_and_void_orders() {
    let o = arbiter(
        &[
            "adjudicate",
            "--position",
            "examples/dislodge.yaml",
            "examples/dislodge.txt",
        ],
        None,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "a warning alone does not change the exit code"
    );
    let out = stdout(&o);
    // Checked by hand: Munich (2, Ruhr) dislodges Burgundy (1, Paris left for Gascony);
    // Burgundy may not go to Munich (the attacker's origin), Ruhr, Belgium (taken by the
    // convoyed Yorkshire, 2 with the Channel's support, over Holland's 1), Gascony or
    // Picardy (taken): Marseilles and Paris remain.
    for line in [
        "France: Army Burgundy HOLD.  (*dislodged*)\n",
        "Germany: Army Holland -> Belgium.  (*bounce*)\n",
        "England: Army Yorkshire -> Belgium.\n",
        "Russia: Army Ukraine -> Berlin.  (*void*)\n",
        "The French Army in Burgundy can retreat to Marseilles or Paris.\n",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
    insta::assert_snapshot!(out);
}

/// One batch answer per line, parsed.
fn batch(lines: &str) -> Vec<serde_json::Value> {
    let o = arbiter(&["adjudicate", "--batch", "-"], Some(lines));
    stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn batch_chains_movement_retreat_and_adjustment() {
    // Fall 1901: Germany dislodges the French army in Burgundy (Munich supported by
    // Ruhr); Marseilles is occupied, so Burgundy may retreat to Paris, Picardy,
    // Belgium or Gascony but not Munich (the attacker's origin).
    let movement = r#"{"id":"m","phase":"Fall 1901","units":{"france":["A BUR","A MAR"],"germany":["A MUN","A RUH"]},"orders":{"germany":["A MUN - BUR","A RUH S A MUN - BUR"],"france":["A BUR H","A MAR H"]}}"#;
    let m = &batch(movement)[0];
    assert_eq!(m["phase"], "Fall 1901 movement");
    let d = &m["dislodged"][0];
    assert_eq!(d["unit"], "A BUR");
    assert_eq!(d["by"], "MUN");
    let mut options: Vec<String> = d["retreats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    options.sort();
    assert_eq!(options, ["BEL", "GAS", "PAR", "PIC"]);
    assert_eq!(m["next"], "Fall 1901 retreat");
    // The retreat phase takes the movement's `dislodged` and `units_after` as they are.
    let retreat = serde_json::json!({
        "id": "r",
        "phase": "Fall 1901 retreat",
        "units": m["units_after"],
        "dislodged": m["dislodged"],
        "orders": {"france": ["A BUR R PAR"]},
    });
    let r = &batch(&retreat.to_string())[0];
    assert_eq!(r["orders"][0]["outcome"], "succeeds", "{r}");
    assert!(r["units_after"]["france"]
        .as_array()
        .unwrap()
        .contains(&"A PAR".into()));
    // After the Fall turn Germany owns Munich and nothing else changed hands: every
    // power keeps its home centres (Burgundy is no supply centre).
    assert_eq!(
        r["owners"]["germany"],
        serde_json::json!(["BER", "KIE", "MUN"])
    );
    // Germany: 3 centres, 2 units (Burgundy, Ruhr): builds 1; Berlin, Kiel and Munich
    // are vacant.
    let owed = r["owed"].as_array().unwrap();
    let germany = owed.iter().find(|o| o["power"] == "germany").unwrap();
    assert_eq!(germany["change"], 1);
    assert_eq!(
        germany["build_sites"],
        serde_json::json!(["BER", "KIE", "MUN"])
    );
    assert_eq!(r["next"], "Winter 1901 adjustment");
}

#[test]
fn batch_retreats_clash_and_illegal_retreats() {
    let line = r#"{"id":1,"phase":"retreat","units":{"austria":["A VIE"]},"dislodged":[{"power":"germany","unit":"A BOH","retreats":["GAL","TYR"]},{"power":"italy","unit":"A TRI","retreats":["TYR","ALB"]},{"power":"russia","unit":"F SEV","retreats":["ARM"]}],"orders":{"germany":["A BOH - TYR"],"italy":["A TRI R TYR"],"russia":["F SEV - RUM"],"austria":["A VIE - BOH"]}}"#;
    let a = &batch(line)[0];
    let outcomes: Vec<&str> = a["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["outcome"].as_str().unwrap())
        .collect();
    // Two retreats to Tyrolia both fail; Rumania is not among Sevastopol's retreats;
    // Vienna was not dislodged, so it may not move now.
    assert_eq!(outcomes, ["fails", "fails", "illegal", "illegal"], "{a}");
    let destroyed: Vec<&str> = a["destroyed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["unit"].as_str().unwrap())
        .collect();
    assert_eq!(destroyed, ["A BOH", "A TRI", "F SEV"]);
    assert_eq!(a["units_after"]["austria"], serde_json::json!(["A VIE"]));
}

#[test]
fn batch_adjustments_build_remove_waive_and_civil_disorder() {
    // France owns Paris, Brest, Marseilles and Spain with one unit: 3 builds.
    // Russia owns Moscow and Warsaw with four units: 2 removals, one ordered.
    let line = r#"{"id":"w","phase":"adjustment","units":{"france":["A PAR"],"russia":["A MOS","A WAR","F BOT","A UKR"]},"centers":{"france":["PAR","BRE","MAR","SPA"],"russia":["MOS","WAR"]},"orders":{"france":["F BRE B","A PAR B","WAIVE"],"russia":["A UKR D"]}}"#;
    let a = &batch(line)[0];
    let outcomes: Vec<&str> = a["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["outcome"].as_str().unwrap())
        .collect();
    // Paris is occupied: that build is illegal.
    assert_eq!(
        outcomes,
        ["succeeds", "illegal", "succeeds", "succeeds"],
        "{a}"
    );
    assert_eq!(a["built"][0]["unit"], "F BRE");
    // One build unused and not waived by order: waived automatically.
    assert_eq!(a["waived"]["france"], 1);
    // The second removal is civil disorder: the Gulf of Bothnia fleet is two steps from
    // Moscow and Warsaw (Bothnia - St Petersburg - Moscow), the armies are on them.
    assert_eq!(a["civil_disorder"][0]["unit"], "F BOT");
    assert_eq!(a["civil_disorder"][0]["distance"], 2);
    assert_eq!(
        a["units_after"]["russia"],
        serde_json::json!(["A MOS", "A WAR"])
    );
    assert_eq!(a["next"], "Spring 1902 movement");
}

#[test]
fn adjudicate_takes_a_retreat_position() {
    let pos = temp_file(
        "retreat-pos",
        "phase: Spring 1902 retreat\nunits:\n  germany: [A bel]\ndislodged:\n  - {power: france, unit: A pic, by: bel, retreats: [par, bre]}\n",
    );
    let o = arbiter(
        &["adjudicate", "--position", &pos, "-"],
        Some("France: A Picardy retreats to Paris\n"),
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.starts_with("Retreat orders for Spring of 1902."),
        "{out}"
    );
    assert!(out.contains("France: Army Picardy -> Paris.\n"), "{out}");
    assert!(out.contains("Next: Fall 1902 movement."), "{out}");
}

#[test]
fn world1914_saves_a_build_and_builds_in_a_colony_the_next_winter() {
    // England owns 13 centres on world1914 (3 home, 10 colonies) and has 12 units (the
    // fleet in Accra is gone): one build. Its home centres are all occupied, so it
    // saves the build for a colonial build; a second save finds no build left.
    let units = "england: [F lon, A lvp, F edi, F ade, F cai, A bom, F cap, A lag, F mad, F que, F mel, A van]";
    let pos = temp_file(
        "w1914-save",
        &format!("phase: Winter 1901\nunits:\n  {units}\n"),
    );
    let o = arbiter(
        &["adjudicate", "--map", "world1914", "--position", &pos, "-"],
        Some("England: Save\nEngland: Waive for a colonial build\n"),
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("England: SAVE (for a colonial build).\n"),
        "{out}"
    );
    assert!(
        out.contains("England: SAVE (for a colonial build).  (*void*)\n"),
        "{out}"
    );
    assert!(
        out.contains("England saves 1 build for a colonial build next winter."),
        "{out}"
    );
    // The next winter, with the build saved, a fleet is built in Accra (a colony).
    let pos = temp_file(
        "w1914-colonial",
        &format!("phase: Winter 1902\nunits:\n  {units}\nsaved: {{england: 1}}\n"),
    );
    let o = arbiter(
        &["adjudicate", "--map", "world1914", "--position", &pos, "-"],
        Some("England:\nBuild F Accra\n"),
    );
    let out = stdout(&o);
    assert!(out.contains("England: BUILD Fleet Accra.\n"), "{out}");
    // Without a saved build the same order is illegal: Accra is no home centre.
    let pos = temp_file(
        "w1914-nosave",
        &format!("phase: Winter 1902\nunits:\n  {units}\n"),
    );
    let o = arbiter(
        &["adjudicate", "--map", "world1914", "--position", &pos, "-"],
        Some("England:\nBuild F Accra\n"),
    );
    let out = stdout(&o);
    assert!(
        out.contains("England: BUILD Fleet Accra.  (*void*)\n"),
        "{out}"
    );
}

/// Two game-years on world1914 through the referee's commands: England takes two
/// neutral centres, has no vacant home centre, saves both builds, and builds them in
/// its colonies the next winter.
#[test]
fn world1914_game_with_a_colonial_build_through_the_commands() {
    let dir = std::env::temp_dir().join(format!("arbiter-w1914-game-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("w.yaml");
    let game = game.to_str().unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let ok = |args: &[&str]| {
        let o = arbiter(args, None);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        stdout(&o)
    };
    ok(&["new", game, "--map", "world1914", "--name", "w"]);
    let s1 = file(
        "s1.txt",
        "England:\nA Bombay - Afghanistan\nF Capetown - Mozambique\n",
    );
    let empty = file("empty.txt", "");
    let out = ok(&["judge", game, &s1]);
    assert!(
        out.contains("England: Army Bombay -> Afghanistan.\n"),
        "{out}"
    );
    assert!(
        out.contains("England: Fleet Capetown -> Mozambique.\n"),
        "{out}"
    );
    let out = ok(&["judge", game, &empty]);
    assert!(
        out.contains("England (15 centres, 13 units) builds 2."),
        "{out}"
    );
    let status = ok(&["status", game]);
    assert!(status.contains("has no vacant home centre"), "{status}");
    let w1 = file("w1.txt", "England:\nSave\nWaive for a colonial build\n");
    let out = ok(&["judge", game, &w1]);
    assert!(
        out.contains("England saves 2 builds for a colonial build next winter."),
        "{out}"
    );
    ok(&["judge", game, &empty]);
    ok(&["judge", game, &empty]);
    let status = ok(&["status", game]);
    assert!(
        status.contains("Saved for a colonial build this winter: 2 builds."),
        "{status}"
    );
    let w2 = file("w2.txt", "England:\nBuild A Bombay\nBuild F Capetown\n");
    let out = ok(&["judge", game, &w2]);
    assert!(out.contains("England: BUILD Army Bombay.\n"), "{out}");
    assert!(out.contains("England: BUILD Fleet Capetown.\n"), "{out}");
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["status", game, "--format", "json"])).unwrap();
    assert_eq!(v["phase"], "Spring 1903 movement");
    let units = v["units"]["england"].as_array().unwrap();
    assert_eq!(units.len(), 15);
    assert!(units.contains(&"A BOM".into()) && units.contains(&"F CAP".into()));
}

/// Every command that takes `--rules` lists the editions, their aliases and what each
/// is in its `--help`.
#[test]
fn every_rules_option_lists_the_editions() {
    for command in ["adjudicate", "new", "selfplay", "render", "test"] {
        let help = stdout(&arbiter(&[command, "--help"], None));
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        for want in [
            "--rules <EDITION>",
            "2023 (default; alias datc-3.0): the 2023 rulebook",
            "2000 (alias datc-2.4): the 2000 rulebook",
            "1982: the 1982 rulebook",
            "1971: the 1971 rulebook",
        ] {
            assert!(
                flat.contains(want),
                "`{command} --help` lacks {want:?}:\n{help}"
            );
        }
    }
}
