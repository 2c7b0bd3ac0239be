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
