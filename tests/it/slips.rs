//! A player's slip through `judge` and `adjudicate`: its power is its header, or else
//! its file name (`austria.txt`, `Austria-S1901.txt`); a slip with neither is refused;
//! an order for another power's unit or waive blocks judging; a heading naming
//! another phase than the one judged blocks judging unless the referee accepts it.

use std::path::Path;

use crate::common::{arbiter, arbiter_bytes, code, new_game, s, slip, stderr, stdout, temp_dir};

fn game_bytes(game: &str) -> Vec<u8> {
    std::fs::read(game).unwrap()
}

/// The slip `austria.txt` holding an order for France's army in Paris is Austria's:
/// the order is for a unit that is not Austria's, so judging stops (it moved France's
/// army before, silently). With --accept the army holds, and the sheet never prints
/// the move as France's.
#[test]
fn a_slip_named_after_a_power_is_that_powers() {
    let dir = temp_dir("named");
    let game = new_game(&dir);
    let before = game_bytes(&game);
    let austria = slip(&dir, "austria.txt", "A Par - Pic\nA Vie - Gal\n");
    let o = arbiter(&["judge", &game, &austria]);
    code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("the army in Paris belongs to France, not Austria"),
        "{err}"
    );
    assert!(err.contains("austria.txt:1:1"), "{err}");
    assert_eq!(game_bytes(&game), before, "nothing was judged");

    // `adjudicate` reads the slip the same way.
    let o = arbiter(&["adjudicate", &austria]);
    code(&o, 1);
    assert!(
        !stdout(&o).contains("France: Army Paris -> Picardy."),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("France: Army Paris HOLD."));

    let o = arbiter(&["judge", &game, &austria, "--accept"]);
    code(&o, 0);
    let sheet = stdout(&o);
    assert!(!sheet.contains("France: Army Paris -> Picardy"), "{sheet}");
    assert!(sheet.contains("France: Army Paris HOLD."), "{sheet}");
    assert!(
        sheet.contains("Austria: Army Vienna -> Galicia."),
        "{sheet}"
    );
}

/// A slip with no header whose file name names no power is refused: its orders have no
/// power. The referee may accept it; each order then counts for its unit's owner.
#[test]
fn a_slip_without_a_power_is_refused() {
    let dir = temp_dir("nopower");
    let game = new_game(&dir);
    let before = game_bytes(&game);
    let orders = slip(&dir, "orders.txt", "A Vie - Gal\nF Tri - Alb\n");
    let o = arbiter(&["judge", &game, &orders]);
    code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("no power for `A Vie - Gal`"), "{err}");
    assert!(err.contains("orders.txt:1:1"), "{err}");
    assert!(err.contains("nor has 1 order after it"), "{err}");
    assert!(
        err.contains("`Austria:`") && err.contains("`austria.txt`"),
        "{err}"
    );
    assert_eq!(game_bytes(&game), before, "nothing was judged");

    // Standard input has no file name either; `adjudicate` reports it too.
    let o = arbiter_bytes(&["adjudicate", "-"], Some(b"A Vie - Gal\n"));
    code(&o, 1);
    assert!(stderr(&o).contains("no power for `A Vie - Gal`"));
    let o = arbiter_bytes(&["adjudicate", "-"], Some(b"Austria:\nA Vie - Gal\n"));
    code(&o, 0);

    let o = arbiter(&["judge", &game, &orders, "--accept"]);
    code(&o, 0);
    let sheet = stdout(&o);
    assert!(
        sheet.contains("Austria: Army Vienna -> Galicia."),
        "{sheet}"
    );
    assert!(
        sheet.contains("Austria: Fleet Trieste -> Albania."),
        "{sheet}"
    );
}

/// `Austria-S1901.txt`, any case, is Austria's slip: an order in it for Italy's army is
/// refused, and Austria's own orders are judged.
#[test]
fn a_file_name_with_more_after_the_power() {
    let dir = temp_dir("longname");
    let game = new_game(&dir);
    let bad = slip(&dir, "Austria-S1901.txt", "A Vie - Gal\nA Ven - Tyr\n");
    let o = arbiter(&["judge", &game, &bad]);
    code(&o, 1);
    assert!(
        stderr(&o).contains("the army in Venice belongs to Italy, not Austria"),
        "{}",
        stderr(&o)
    );
    let good = slip(&dir, "AUSTRIA-s1901.txt", "A Vie - Gal\nF Tri - Alb\n");
    let o = arbiter(&["judge", &game, &good, "--format", "json"]);
    code(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let orders = v["orders"].as_array().unwrap();
    let vie = orders.iter().find(|o| o["order"] == "A Vie - Gal").unwrap();
    assert_eq!(vie["power"], "austria");
    assert_eq!(vie["outcome"], "succeeds");
}

/// A referee's file with several headers is read as before, whatever its name (the
/// headers say whose each order is); an order above the first header has no power.
#[test]
fn a_combined_file_with_several_headers() {
    let dir = temp_dir("combined");
    let game = new_game(&dir);
    let text = "Spring 1901\nAustria:\nA Vie - Gal\nFrance:\nA Par - Bur\n\
                Germany: A Mun - Ruh\nEngland: F Lon - Nth, F Edi - Nwg\n";
    for name in ["all.txt", "austria.txt"] {
        let combined = slip(&dir, name, text);
        let o = arbiter(&["adjudicate", &combined]);
        code(&o, 0);
        let sheet = stdout(&o);
        for line in [
            "Austria: Army Vienna -> Galicia.",
            "France: Army Paris -> Burgundy.",
            "Germany: Army Munich -> Ruhr.",
            "England: Fleet Edinburgh -> Norwegian Sea.",
        ] {
            assert!(sheet.contains(line), "{name}: {line}\n{sheet}");
        }
    }
    let combined = slip(&dir, "all.txt", text);
    let o = arbiter(&["judge", &game, &combined]);
    code(&o, 0);

    let game = new_game(&temp_dir("combined2"));
    let headless = slip(&dir, "all.txt", &format!("A Ven - Tyr\n{text}"));
    let o = arbiter(&["judge", &game, &headless]);
    code(&o, 1);
    assert!(stderr(&o).contains("no power for `A Ven - Tyr`"));
}

/// A game at Winter 1901 (the scripted game of `examples/game` to its builds).
fn winter_game(dir: &Path) -> String {
    let game = new_game(dir);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for phase in ["1-spring-1901", "2-fall-1901", "3-fall-1901-retreat"] {
        let mut files: Vec<String> = std::fs::read_dir(root.join("examples/game").join(phase))
            .unwrap()
            .map(|e| s(&e.unwrap().path()).to_string())
            .filter(|n| n.ends_with(".txt"))
            .collect();
        files.sort();
        let mut args = vec!["judge", &game];
        args.extend(files.iter().map(String::as_str));
        code(&arbiter(&args), 0);
    }
    let o = arbiter(&["status", &game]);
    assert!(
        stdout(&o).contains("Winter 1901 adjustment"),
        "{}",
        stdout(&o)
    );
    game
}

/// `Germany: waive France` is no order of Germany's: it blocks judging (it waived one
/// of France's builds before). So does `waive France` in Germany's slip by its name.
#[test]
fn a_waive_for_another_power_blocks() {
    let dir = temp_dir("waive");
    let game = winter_game(&dir);
    let before = game_bytes(&game);
    let prefixed = slip(&dir, "g.txt", "Germany: waive France\n");
    let o = arbiter(&["judge", &game, &prefixed]);
    code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("`waive France` names France in Germany's orders"),
        "{err}"
    );
    assert!(err.contains("g.txt:1:10"), "{err}");
    assert_eq!(game_bytes(&game), before, "nothing was judged");

    let named = slip(&dir, "germany.txt", "Build A Ber\nwaive France\n");
    let o = arbiter(&["judge", &game, &named]);
    code(&o, 1);
    assert!(stderr(&o).contains("germany.txt:2:1"), "{}", stderr(&o));
    assert_eq!(game_bytes(&game), before, "nothing was judged");

    // Accepted, the order is left out: France's builds are not waived by Germany.
    let o = arbiter(&["judge", &game, &named, "--accept"]);
    code(&o, 0);
    let sheet = stdout(&o);
    assert!(!sheet.contains("France: WAIVE"), "{sheet}");
    assert!(sheet.contains("Germany: BUILD Army Berlin."), "{sheet}");
}

/// A slip headed with another phase blocks judging, in every way people head slips; a
/// heading naming the phase judged passes silently; --accept judges the slip anyway.
#[test]
fn a_slip_headed_with_another_phase_blocks() {
    let dir = temp_dir("season");
    let game = new_game(&dir);
    let before = game_bytes(&game);
    for (heading, column) in [
        ("Germany, Spring 1905", 10),
        ("Spring 1905", 1),
        ("S1905M", 1),
        ("F1901R", 1),
        ("Winter 1901", 1),
        ("Spring 1905 Movement", 1),
        ("1905 Spring", 1),
        ("Fall 1901", 1),
        ("Germany: Spring 1901 retreats", 1),
        ("== Germany - F1901M ==", 1),
    ] {
        let f = slip(&dir, "germany.txt", &format!("{heading}\nA Mun - Ruh\n"));
        let o = arbiter(&["judge", &game, &f]);
        code(&o, 1);
        let err = stderr(&o);
        assert!(err.contains("this slip is headed `"), "{heading}: {err}");
        assert!(
            err.contains("but the phase being judged is Spring 1901 movement"),
            "{heading}: {err}"
        );
        assert!(
            err.contains(&format!("germany.txt:1:{column}")),
            "{heading}: {err}"
        );
        assert_eq!(game_bytes(&game), before, "{heading}: nothing was judged");
        let o = arbiter(&["adjudicate", &f]);
        code(&o, 1);
    }
    let err = stderr(&arbiter(&[
        "judge",
        &game,
        &slip(&dir, "germany.txt", "Germany, Spring 1905\nA Mun - Ruh\n"),
    ]));
    assert!(
        err.contains(
            "this slip is headed `Spring 1905`, but the phase being judged is Spring 1901 \
             movement"
        ),
        "{err}"
    );
    for heading in [
        "Germany, Spring 1901",
        "Spring 1901",
        "S1901M",
        "s1901",
        "1901 Spring",
        "Spring 1901 Movement",
        "Orders for Germany, Spring of 1901",
    ] {
        let f = slip(&dir, "germany.txt", &format!("{heading}\nA Mun - Ruh\n"));
        let o = arbiter(&["adjudicate", &f]);
        code(&o, 0);
        assert!(stderr(&o).is_empty(), "{heading}: {}", stderr(&o));
    }
    // Accepted: judged as this phase's orders.
    let f = slip(&dir, "germany.txt", "Germany, Spring 1905\nA Mun - Ruh\n");
    let o = arbiter(&["judge", &game, &f, "--accept"]);
    code(&o, 0);
    assert!(stdout(&o).contains("Germany: Army Munich -> Ruhr."));
    // Fall 1901 now: a slip headed `Fall 1901` fits, one headed `Spring 1901` does not.
    let fall = slip(&dir, "germany.txt", "Fall 1901\nA Ruh - Bel\n");
    let stale = slip(&dir, "france.txt", "France: Spring 1901\nA Par - Bur\n");
    let o = arbiter(&["judge", &game, &fall, &stale]);
    code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("france.txt:1:1"), "{err}");
    assert!(!err.contains("germany.txt"), "{err}");
}
