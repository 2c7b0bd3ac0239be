//! Games that begin in another phase than a spring movement: a map that starts with
//! builds (`start: {season: winter, year: 1900}`), played through `new`, `status`,
//! `judge`, `undo`, self-play and the batch; the DPjudge `BEGIN` line of every kind
//! the standard year has, and `NEWHOMES` refused with its line.

use std::path::Path;

use arbiter::judge::Rules;
use arbiter::map::{dpjudge, Map};
use arbiter::selfplay::{game_seed, play_game};
use arbiter::state::{Phase, PhaseKind, Position};

use crate::common::{arbiter_bytes, code, has, s, stderr, stdout, temp_dir};

const WINTER_MAP: &str = "tests/fixtures/maps/winter-start.yaml";
const BUILDS_MAP: &str = "tests/fixtures/dpjudge/builds.map";

fn arbiter(args: &[&str]) -> std::process::Output {
    arbiter_bytes(args, None)
}

fn winter_map() -> Map {
    let text = std::fs::read_to_string(WINTER_MAP).unwrap();
    Map::from_yaml(&text, WINTER_MAP).unwrap_or_else(|e| panic!("{e}"))
}

/// Read included DPjudge files from the disk.
fn disk(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

#[test]
fn a_map_that_starts_with_builds_loads_in_its_adjustment_phase() {
    let map = winter_map();
    let first = Phase::first(&map);
    assert_eq!(first.to_string(), "Winter 1900 adjustment");
    assert_eq!(
        Phase::first_movement(&map).to_string(),
        "Spring 1901 movement"
    );
    // The powers own their home centres; Red has no unit, Blue one.
    let p = Position::initial(&map);
    assert_eq!(p.phase, first);
    assert_eq!(p.units.len(), 1);
    let owned = p.owners.iter().flatten().count();
    assert_eq!(owned, 4);
    // The classic board is unchanged: its first phase is its spring movement.
    let standard = Map::standard();
    assert_eq!(Phase::first(&standard).to_string(), "Spring 1901 movement");
    assert_eq!(Phase::first_movement(&standard), Phase::first(&standard));
}

#[test]
fn a_start_phase_its_season_has_not_is_refused() {
    let base = std::fs::read_to_string(WINTER_MAP).unwrap();
    let with = |start: &str| base.replacen("{season: winter, year: 1900}", start, 1);
    // Written out, the winter's kind is accepted.
    let m = Map::from_yaml(
        &with("{season: winter, year: 1900, kind: adjustment}"),
        "m.yaml",
    )
    .unwrap();
    assert_eq!(Phase::first(&m).kind, PhaseKind::Adjustment);
    let m = Map::from_yaml(
        &with("{season: fall, year: 1900, kind: movement}"),
        "m.yaml",
    )
    .unwrap();
    assert_eq!(Phase::first(&m).to_string(), "Fall 1900 movement");
    for (start, says) in [
        (
            "{season: spring, year: 1901, kind: retreat}",
            "cannot start in a retreat phase",
        ),
        (
            "{season: winter, year: 1900, kind: movement}",
            "winter has no movement phase",
        ),
        (
            "{season: fall, year: 1900, kind: adjustment}",
            "fall has no adjustment phase",
        ),
        ("{season: winter, year: 1900, kind: builds}", "kind"),
    ] {
        let e = Map::from_yaml(&with(start), "m.yaml")
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{start}: {e}");
        assert!(e.contains("m.yaml:4"), "{start}: the line of `start`: {e}");
    }
}

#[test]
fn a_game_that_starts_with_builds_is_played_and_undone_to_its_start() {
    let dir = temp_dir("begin-game");
    let game = dir.join("g.yaml");
    let g = s(&game);
    let o = arbiter(&["new", g, "--map", WINTER_MAP]);
    code(&o, 0);
    has(&stdout(&o), "Next: Winter 1900 adjustment.");
    // The status says who builds, how many, and where.
    let o = arbiter(&["status", g]);
    code(&o, 0);
    let text = stdout(&o);
    has(&text, "Game g: Winter 1900 adjustment");
    has(
        &text,
        "Red (2 centres, 0 units) builds 2: Rosso (army or fleet), Rubin (army).",
    );
    has(&text, "Blue (2 centres, 1 unit) builds 1: Bluet (army).");
    let o = arbiter(&["status", g, "--format", "json"]);
    code(&o, 0);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["phase"], "Winter 1900 adjustment");
    let owed = v["owed"].to_string();
    assert!(owed.contains("red") && owed.contains("blue"), "{owed}");

    // The builds are judged; the game goes on to its first spring.
    let orders = dir.join("w.txt");
    std::fs::write(
        &orders,
        "Red:\nBuild F ros\nBuild A rub\nBlue:\nBuild A blu\n",
    )
    .unwrap();
    let o = arbiter(&["judge", g, s(&orders)]);
    code(&o, 0);
    let sheet = stdout(&o);
    has(&sheet, "Adjustment orders for Winter of 1900.");
    has(&sheet, "Red: BUILD Fleet Rosso.");
    has(&sheet, "Blue: BUILD Army Bluet.");
    has(&sheet, "Next: Spring 1901 movement.");
    let o = arbiter(&["status", g]);
    has(&stdout(&o), "Red (2 centres, 2 units)");
    has(&stdout(&o), "Units: Army Blau, Army Bluet.");

    // Undo goes back to the start, and no further.
    let o = arbiter(&["undo", g]);
    code(&o, 0);
    let said = stdout(&o).split_whitespace().collect::<Vec<_>>().join(" ");
    has(&said, "The game is back at Winter 1900 adjustment.");
    has(
        &said,
        "This is the start of the game: there is nothing more to undo.",
    );
    let o = arbiter(&["status", g]);
    has(&stdout(&o), "Red (2 centres, 0 units) builds 2");
    let o = arbiter(&["undo", g]);
    assert_ne!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn last_year_counts_from_the_first_year_of_moves() {
    let dir = temp_dir("begin-last");
    let game = dir.join("g.yaml");
    // The first Fall turn is 1901's: a game cannot end in 1900.
    let o = arbiter(&["new", s(&game), "--map", WINTER_MAP, "--last-year", "1900"]);
    code(&o, 2);
    has(&stderr(&o), "before the map's first year of moves, 1901");
    let o = arbiter(&["new", s(&game), "--map", WINTER_MAP, "--last-year", "1901"]);
    code(&o, 0);
}

#[test]
fn self_play_of_a_year_from_builds_holds_every_invariant() {
    let map = winter_map();
    for g in 0..40 {
        let seed = game_seed(7, g);
        let last = Phase::first_movement(&map).year;
        let game =
            play_game(&map, Rules::default(), seed, last, true).unwrap_or_else(|v| panic!("{v}"));
        let first = &game.record[0];
        assert_eq!(first.position.phase.to_string(), "Winter 1900 adjustment");
        // The builds were made before the first move.
        let second = game.record.get(1).unwrap();
        assert_eq!(second.position.phase.to_string(), "Spring 1901 movement");
        assert!(second.position.units.len() > 1);
        assert!(game.last.year == 1901, "{}", game.last);
    }
    let o = arbiter(&[
        "selfplay", "--map", WINTER_MAP, "--years", "1", "--games", "30", "--jobs", "1",
    ]);
    code(&o, 0);
    has(&stdout(&o), "30 games on winterstart");
    assert!(!stderr(&o).contains("invariant"), "{}", stderr(&o));
}

#[test]
fn batch_lines_on_a_map_that_starts_with_builds() {
    let lines = concat!(
        r#"{"id": 1, "units": {"blue": ["A bla"]}, "orders": {"red": ["build A rub"], "blue": ["build A blu"]}}"#,
        "\n",
        r#"{"id": 2, "phase": "movement", "units": {"blue": ["A bla"]}, "orders": {"blue": ["A bla - mid"]}}"#,
        "\n",
        r#"{"id": 3, "phase": "adjustment", "units": {"blue": ["A bla"]}, "orders": {}}"#,
        "\n",
    );
    let o = arbiter_bytes(
        &["adjudicate", "--batch", "-", "--map", WINTER_MAP],
        Some(lines.as_bytes()),
    );
    code(&o, 0);
    let answers: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 3, "{}", stdout(&o));
    // No phase: the map's first, its builds.
    assert_eq!(
        answers[0]["phase"], "Winter 1900 adjustment",
        "{}",
        answers[0]
    );
    assert_eq!(answers[0]["next"], "Spring 1901 movement", "{}", answers[0]);
    // `movement`: the map's first movement phase, the spring after the builds.
    assert_eq!(
        answers[1]["phase"], "Spring 1901 movement",
        "{}",
        answers[1]
    );
    assert_eq!(
        answers[2]["phase"], "Winter 1900 adjustment",
        "{}",
        answers[2]
    );
}

#[test]
fn a_dpjudge_map_that_begins_with_builds_is_imported_and_played() {
    let dir = temp_dir("begin-import");
    let yaml = dir.join("builds.yaml");
    let o = arbiter(&["map", "import", BUILDS_MAP, "-o", s(&yaml)]);
    code(&o, 0);
    let text = std::fs::read_to_string(&yaml).unwrap();
    has(&text, "start: {season: winter, year: 1900}");
    let map = Map::from_yaml(&text, "builds.yaml").unwrap_or_else(|e| panic!("{e}"));
    assert!(Position::initial(&map).units.is_empty());

    let game = dir.join("g.yaml");
    let g = s(&game);
    code(&arbiter(&["new", g, "--map", s(&yaml)]), 0);
    let o = arbiter(&["status", g]);
    let status = stdout(&o);
    has(&status, "Winter 1900 adjustment");
    has(&status, "Russia (4 centres, 0 units) builds 4:");
    has(&status, "England (3 centres, 0 units) builds 3:");
    let orders = dir.join("w.txt");
    std::fs::write(
        &orders,
        "England: Build F lon, Build F edi, Build A lvp\nRussia: Build F stp/sc, Build A mos\n",
    )
    .unwrap();
    let o = arbiter(&["judge", g, s(&orders)]);
    code(&o, 0);
    has(&stdout(&o), "England: BUILD Fleet London.");
    has(
        &stdout(&o),
        "Russia: BUILD Fleet St Petersburg (south coast).",
    );
    let o = arbiter(&["status", g]);
    let status = stdout(&o);
    has(&status, "Spring 1901 movement");
    has(&status, "England (3 centres, 3 units)");
    has(&status, "Russia (4 centres, 2 units)");
}

/// Import `text` as if it were the file `file` (its includes read from the disk).
fn import_text(file: &str, text: &str) -> dpjudge::Imported {
    dpjudge::import(file, text, Some("t"), &mut disk).unwrap()
}

#[test]
fn dpjudge_begin_reads_every_phase_of_the_standard_year() {
    let base = std::fs::read_to_string(BUILDS_MAP).unwrap();
    let begin = |line: &str| {
        let text = base.replacen("BEGIN  WINTER 1900 ADJUSTMENTS", line, 1);
        import_text(BUILDS_MAP, &text)
    };
    let line = base.lines().position(|l| l.starts_with("BEGIN")).unwrap() + 1;
    for (written, start) in [
        ("BEGIN SPRING 1901 MOVEMENT", "Spring 1901 movement"),
        ("BEGIN Fall 1901 Movement", "Fall 1901 movement"),
        ("begin winter 1900 adjustments", "Winter 1900 adjustment"),
        ("BEGIN WINTER 1900", "Winter 1900 adjustment"),
    ] {
        let imp = begin(written);
        assert!(
            imp.refused.is_empty() && imp.notes.is_empty(),
            "{written}: {imp:#?}"
        );
        let map = Map::from_yaml(&imp.yaml, "t.yaml").unwrap();
        assert_eq!(Phase::first(&map).to_string(), start, "{written}");
    }
    // Retreats with nobody dislodged: DPjudge passes the phase at once.
    for (written, start) in [
        ("BEGIN SPRING 1901 RETREATS", "Fall 1901 movement"),
        ("BEGIN FALL 1901 RETREATS", "Winter 1901 adjustment"),
    ] {
        let imp = begin(written);
        assert!(imp.refused.is_empty(), "{written}: {:#?}", imp.refused);
        assert_eq!(imp.notes.len(), 1, "{written}: {:#?}", imp.notes);
        assert_eq!(imp.notes[0].line, line);
        assert!(
            imp.notes[0].message.contains("passed at once"),
            "{:?}",
            imp.notes[0]
        );
        let map = Map::from_yaml(&imp.yaml, "t.yaml").unwrap();
        assert_eq!(Phase::first(&map).to_string(), start, "{written}");
    }
    // A phase the standard year has not, or an unreadable one: an error on its line.
    for written in [
        "BEGIN WINTER 1900 MOVEMENT",
        "BEGIN SPRING 1901 ADJUSTMENTS",
        "BEGIN SUMMER 1901 MOVEMENT",
        "BEGIN SPRING 19x1 MOVEMENT",
    ] {
        let imp = begin(written);
        assert_eq!(imp.refused.len(), 1, "{written}: {:#?}", imp.refused);
        let r = &imp.refused[0];
        assert_eq!((r.file.as_str(), r.line), (BUILDS_MAP, line), "{written}");
        assert!(r.message.contains(written), "{written}: {}", r.message);
        // The map is still written, and loads.
        Map::from_yaml(&imp.yaml, "t.yaml").unwrap_or_else(|e| panic!("{written}: {e}"));
    }
}

#[test]
fn newhomes_is_refused_with_its_line() {
    let base = std::fs::read_to_string(BUILDS_MAP).unwrap();
    let text = format!("{base}NEWHOMES 1905 1910\n");
    let line = text.lines().count();
    let imp = import_text(BUILDS_MAP, &text);
    assert_eq!(imp.refused.len(), 1, "{:#?}", imp.refused);
    let r = &imp.refused[0];
    assert_eq!((r.file.as_str(), r.line), (BUILDS_MAP, line));
    has(&r.message, "`NEWHOMES 1905 1910`");
    has(&r.message, "not supported");
    assert!(imp.notes.is_empty(), "{:#?}", imp.notes);

    // On the command line: an error naming the file and line, the map still written,
    // exit 1.
    let dir = temp_dir("begin-newhomes");
    let file = dir.join("newhomes.map");
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dpjudge");
    for inc in ["classic.names", "classic.borders"] {
        std::fs::copy(here.join(inc), dir.join(inc)).unwrap();
    }
    std::fs::write(&file, &text).unwrap();
    let yaml = dir.join("newhomes.yaml");
    let o = arbiter(&["map", "import", s(&file), "-o", s(&yaml)]);
    code(&o, 1);
    let report = stdout(&o);
    has(
        &report,
        &format!("error: {}:{line}: `NEWHOMES 1905 1910`", s(&file)),
    );
    has(&report, "1 line refused");
    assert!(yaml.exists());
}
