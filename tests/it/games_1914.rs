//! Two game-years on each 1914-era board. classic1913: Spring 1913 to Spring 1915
//! through `game::advance`, and again through the binary's `new`, `judge` and `status`
//! with `--map classic1913`; builds in owned colonies are refused. world1914: Spring
//! 1901 to Spring 1903 through `game::advance`, with the colonial build rule: a build
//! saved in Winter 1901 allows one colonial build in Winter 1902, a colonial build
//! without one is refused, an illegal build is not a save, and a saving not used is
//! lost. The saved builds survive the game file and `status` shows them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use arbiter::game::{advance, PhaseResult};
use arbiter::gamefile::{Game, PositionRecord};
use arbiter::judge::{is_save, save_order, Illegal, Outcome, Rules};
use arbiter::map::{Map, Power, Season};
use arbiter::orders::{parse_orders, Order};
use arbiter::state::{Phase, PhaseKind, Position};

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------

fn orders(map: &Map, text: &str) -> Vec<Order> {
    let parsed = parse_orders(map, text);
    assert!(
        parsed.diagnostics.is_empty(),
        "{text}\n{:?}",
        parsed.diagnostics
    );
    parsed.orders
}

/// Judge the position's phase with these orders; the result and the next position.
fn step(map: &Map, pos: &Position, o: Vec<Order>) -> (PhaseResult, Position) {
    let (r, next) = advance(map, Rules::default(), pos, &o, None).unwrap();
    assert!(
        r.diagnostics().is_empty(),
        "{}: {:?}",
        pos.phase,
        r.diagnostics()
    );
    (r, next)
}

fn phase(s: &str) -> Phase {
    Phase::parse(s).unwrap()
}

fn power(map: &Map, name: &str) -> Power {
    map.power_by_name(name).unwrap()
}

fn centres(map: &Map, pos: &Position, name: &str) -> usize {
    let pw = power(map, name);
    pos.owners.iter().filter(|o| **o == Some(pw)).count()
}

fn unit_count(pos: &Position, pw: Power) -> usize {
    pos.units.iter().filter(|u| u.power == pw).count()
}

/// The outcome of the order whose text is `text`.
fn outcome<'a>(r: &'a PhaseResult, text: &str) -> &'a Outcome {
    let k = r
        .input
        .iter()
        .position(|o| o.text.eq_ignore_ascii_case(text))
        .unwrap_or_else(|| panic!("no order `{text}`"));
    &r.orders()[k].outcome
}

fn built(map: &Map, r: &PhaseResult) -> Vec<String> {
    let mut v: Vec<String> = r
        .adjustment()
        .unwrap()
        .built
        .iter()
        .map(|u| u.short(map))
        .collect();
    v.sort();
    v
}

fn has_unit(map: &Map, pos: &Position, short: &str) -> bool {
    pos.units.iter().any(|u| u.short(map) == short)
}

// ---------------------------------------------------------------------------------
// classic1913
// ---------------------------------------------------------------------------------

/// The scripted orders of the classic1913 game, by phase (one text each; the same
/// text is used by the binary test).
const CLASSIC1913: &[(&str, &str)] = &[
    (
        "spring-1913",
        "Italy:\nA mil - swi\nF nap - ion\n\
         France:\nA mar - spa\nF bre - mao\nA alg - mor\n\
         Germany:\nA col - hol\nF kie - den\n\
         England:\nF edi - nwg\nF lon - nth\nF egy - eas\nA lvp - edi\n\
         Russia:\nA war - gal\nF sev - rum\n\
         Austria:\nA bud - ser\nF tri - alb\n\
         Turkey:\nA con - bul\nF ank - bla\n",
    ),
    (
        "fall-1913",
        "Italy:\nF ion - trp\n\
         France:\nF mao - por\n\
         England:\nF nwg - nwy\nF nth - bel\n\
         Austria:\nF alb - gre\n",
    ),
    (
        "winter-1913",
        "England:\nBuild F egy\nBuild F lon\nBuild A lvp\n\
         France:\nBuild A alg\nBuild A mar\nBuild F bre\n\
         Italy:\nBuild A mil\nBuild F nap\n\
         Germany:\nBuild A col\nBuild F kie\n",
    ),
    (
        "spring-1914",
        "Germany:\nA col - bur\n\
         England:\nF lon - nth\n",
    ),
    (
        "fall-1914",
        "Germany:\nA hol - bel\nA bur S A hol - bel\n\
         England:\nF bel H\n",
    ),
    ("fall-1914-retreat", "England:\nF bel - pic\n"),
    ("winter-1914", "Germany:\nBuild A col\n"),
];

fn classic1913_orders(name: &str) -> &'static str {
    CLASSIC1913.iter().find(|(n, _)| *n == name).unwrap().1
}

#[test]
fn two_years_on_classic1913_through_advance() {
    let map = Map::embedded("classic1913").unwrap();
    let pos = Position::initial(&map);
    assert_eq!(pos.phase, phase("Spring 1913"));
    assert_eq!(pos.units.len(), 25);
    // England owns Egypt, France Algeria, from the start.
    assert_eq!(centres(&map, &pos, "england"), 4);
    assert_eq!(centres(&map, &pos, "france"), 4);
    assert_eq!(centres(&map, &pos, "germany"), 4);

    let (r, pos) = step(&map, &pos, orders(&map, classic1913_orders("spring-1913")));
    assert!(r.orders().iter().all(|o| o.outcome == Outcome::Succeeds));
    assert_eq!(pos.phase, phase("Fall 1913"));
    assert!(has_unit(&map, &pos, "A SWI") && has_unit(&map, &pos, "F EAS"));

    let (r, pos) = step(&map, &pos, orders(&map, classic1913_orders("fall-1913")));
    assert!(r.orders().iter().all(|o| o.outcome == Outcome::Succeeds));
    assert_eq!(pos.phase, phase("Winter 1913"));
    // Neutral Switzerland and Tripolitania are Italy's; Egypt, empty, stays English.
    for (who, n) in [
        ("italy", 5),
        ("france", 6),
        ("germany", 6),
        ("england", 6),
        ("russia", 5),
        ("austria", 5),
        ("turkey", 4),
    ] {
        assert_eq!(centres(&map, &pos, who), n, "{who}");
    }
    let owed = &r.owed[power(&map, "england").0 as usize];
    let sites: Vec<&str> = owed
        .build_sites
        .iter()
        .map(|&p| map.province(p).id.as_str())
        .collect();
    assert_eq!(
        sites,
        ["lon", "lvp"],
        "Egypt is vacant but not a build site"
    );
    assert!(!owed.may_save);

    let (r, pos) = step(&map, &pos, orders(&map, classic1913_orders("winter-1913")));
    for colony in ["Build F egy", "Build A alg"] {
        assert_eq!(
            outcome(&r, colony),
            &Outcome::Illegal(Illegal::Build("not a home centre of the power")),
            "{colony}"
        );
    }
    assert_eq!(
        built(&map, &r),
        ["A COL", "A LVP", "A MAR", "A MIL", "F BRE", "F KIE", "F LON", "F NAP"]
    );
    assert!(r.adjustment().unwrap().saved.is_empty() && pos.saved.is_empty());
    assert_eq!(pos.phase, phase("Spring 1914"));

    let (_, pos) = step(&map, &pos, orders(&map, classic1913_orders("spring-1914")));
    let (r, pos) = step(&map, &pos, orders(&map, classic1913_orders("fall-1914")));
    assert_eq!(r.dislodged().len(), 1);
    assert_eq!(pos.phase, phase("Fall 1914 retreat"));
    let (_, pos) = step(
        &map,
        &pos,
        orders(&map, classic1913_orders("fall-1914-retreat")),
    );
    assert_eq!(pos.phase, phase("Winter 1914"));
    assert!(has_unit(&map, &pos, "F PIC"));
    assert_eq!(centres(&map, &pos, "germany"), 7);
    assert_eq!(centres(&map, &pos, "england"), 5);
    let (r, pos) = step(&map, &pos, orders(&map, classic1913_orders("winter-1914")));
    assert_eq!(built(&map, &r), ["A COL"]);
    // England has 5 centres and 6 units and orders nothing: civil disorder.
    assert_eq!(r.adjustment().unwrap().civil_disorder.len(), 1);
    assert_eq!(pos.phase, phase("Spring 1915"));
    assert_eq!(unit_count(&pos, power(&map, "england")), 5);
}

// ---------------------------------------------------------------------------------
// world1914: the colonial build rule
// ---------------------------------------------------------------------------------

#[test]
fn two_years_on_world1914_with_a_colonial_build() {
    let map = Map::embedded("world1914").unwrap();
    let (england, france, germany, usa) = (
        power(&map, "england"),
        power(&map, "france"),
        power(&map, "germany"),
        power(&map, "usa"),
    );
    let pos = Position::initial(&map);
    assert_eq!(pos.phase, phase("Spring 1901"));
    assert_eq!(pos.units.len(), 74);
    assert_eq!(centres(&map, &pos, "england"), 13);

    // Spring 1901: England leaves Cairo and Accra.
    let (_, pos) = step(
        &map,
        &pos,
        orders(&map, "England:\nF cai - red\nF acc - ivo\n"),
    );
    // Fall 1901: England takes Liberia and Afghanistan (leaving Bombay), France the
    // Belgian Congo (leaving Libreville), Germany Denmark, the USA Cuba.
    let (r, pos) = step(
        &map,
        &pos,
        orders(
            &map,
            "England:\nF ivo - lib\nA bom - afg\n\
             France:\nF lbv - bco\n\
             Germany:\nF kie - den\n\
             USA:\nF mia - cub\n",
        ),
    );
    assert!(r.orders().iter().all(|o| o.outcome == Outcome::Succeeds));
    assert_eq!(pos.phase, phase("Winter 1901"));
    assert_eq!(centres(&map, &pos, "england"), 15);
    let owed = &r.owed[england.0 as usize];
    assert_eq!(owed.change, 2);
    assert!(
        owed.build_sites.is_empty(),
        "every English home centre is occupied"
    );
    assert!(owed.colonial_sites.is_empty(), "no build was saved");
    assert!(owed.may_save && owed.has_work());

    // Winter 1901: England tries a colonial build without a saved build (illegal, and
    // not a save), saves one build and waives the other; France saves its build;
    // Germany builds at home; the USA orders nothing.
    let mut o = orders(&map, "England:\nBuild F cai\n");
    o.push(save_order(england));
    o.extend(orders(&map, "England:\nWaive\nGermany:\nBuild F kie\n"));
    o.push(save_order(france));
    assert!(is_save(&o[1]) && !is_save(&o[0]));
    let (r, pos) = step(&map, &pos, o);
    assert_eq!(
        r.orders()[0].outcome,
        Outcome::Illegal(Illegal::Build(
            "not a home centre: a colonial build needs a build saved last winter"
        ))
    );
    assert_eq!(r.orders()[1].outcome, Outcome::Succeeds);
    assert_eq!(r.orders()[2].outcome, Outcome::Succeeds);
    assert_eq!(r.orders()[4].outcome, Outcome::Succeeds);
    assert_eq!(built(&map, &r), ["F KIE"]);
    assert_eq!(r.adjustment().unwrap().saved, [(england, 1), (france, 1)]);
    // An explicit waive is an order, not a build left unordered.
    assert_eq!(r.adjustment().unwrap().waived, [(usa, 1)]);
    assert_eq!(pos.phase, phase("Spring 1902"));
    assert_eq!(pos.saved_by(england), 1);
    assert_eq!(pos.saved_by(france), 1);
    assert_eq!(pos.saved_by(germany), 0);
    // The sheet says so.
    let sheet = arbiter::report::text::sheet(&map, "w", &r);
    assert!(sheet.contains("SAVE (for a colonial build)"), "{sheet}");
    assert!(
        sheet.contains("England saves 1 build for a colonial build next winter."),
        "{sheet}"
    );

    // The saved builds are carried through 1902, and survive the game file.
    let (_, pos) = step(&map, &pos, Vec::new());
    assert_eq!(pos.phase, phase("Fall 1902"));
    assert_eq!(pos.saved_by(england), 1);
    let record = PositionRecord::of(&map, &pos);
    assert_eq!(record.saved.get("england"), Some(&1));
    let back = record.to_position(&map, pos.phase, "test").unwrap();
    assert_eq!(back.saved, pos.saved);
    assert_eq!(back.owners, pos.owners);
    assert_eq!(back.units.len(), pos.units.len());
    let (r, pos) = step(&map, &pos, Vec::new());
    assert_eq!(pos.phase, phase("Winter 1902"));
    let owed = &r.owed[england.0 as usize];
    assert_eq!((owed.change, owed.saved), (2, 1));
    let sites: Vec<&str> = owed
        .colonial_sites
        .iter()
        .map(|&p| map.province(p).id.as_str())
        .collect();
    assert_eq!(sites, ["acc", "bom", "cai"], "vacant English colonies");
    let french = &r.owed[france.0 as usize];
    assert_eq!(french.saved, 1);

    // Winter 1902: England builds in Cairo with its saved build; a second colonial
    // build is refused (one saved build per colonial unit). France does not use its
    // saved build, so it is lost.
    let (r, pos) = step(
        &map,
        &pos,
        orders(&map, "England:\nBuild F cai\nBuild A bom\n"),
    );
    assert_eq!(outcome(&r, "Build F cai"), &Outcome::Succeeds);
    assert_eq!(
        outcome(&r, "Build A bom"),
        &Outcome::Illegal(Illegal::Build(
            "not a home centre, and every build saved last winter is used"
        ))
    );
    assert_eq!(built(&map, &r), ["F CAI"]);
    assert_eq!(r.saved_before[england.0 as usize], 1);
    assert!(r.adjustment().unwrap().saved.is_empty());
    assert_eq!(pos.phase, phase("Spring 1903"));
    assert!(pos.saved.is_empty(), "savings not used are lost");
    assert!(has_unit(&map, &pos, "F CAI"));
    assert_eq!(unit_count(&pos, england), 14);
    let explained = arbiter::report::explain::explain(&map, &r, None);
    let words = explained.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "England saved 1 build last winter",
        "building F Cairo succeeds: the unit is built with a build saved last winter.",
        "France: 1 build saved last winter is not used and is lost.",
    ] {
        assert!(words.contains(want), "{explained}");
    }
}

#[test]
fn saves_are_refused_without_a_build_or_on_a_map_without_colonial_builds() {
    // world1914: Austria has no build to save.
    let map = Map::embedded("world1914").unwrap();
    let mut pos = Position::initial(&map);
    pos.phase = phase("Winter 1901");
    let austria = power(&map, "austria");
    let (r, next) = step(&map, &pos, vec![save_order(austria)]);
    assert_eq!(
        r.orders()[0].outcome,
        Outcome::Illegal(Illegal::Build("no build left to save"))
    );
    assert!(next.saved.is_empty());
    // classic1913: nothing to save for.
    let map = Map::embedded("classic1913").unwrap();
    let mut pos = Position::initial(&map);
    pos.phase = phase("Winter 1913");
    pos.units.retain(|u| map.loc_id(u.loc) != "par");
    let (r, _) = step(&map, &pos, vec![save_order(power(&map, "france"))]);
    assert_eq!(
        r.orders()[0].outcome,
        Outcome::Illegal(Illegal::Build(
            "this map has no colonial builds: there is nothing to save for"
        ))
    );
    // A position or game file may not give saved builds on such a map.
    let mut record = PositionRecord::of(&map, &pos);
    record.saved.insert("france".into(), 1);
    let e = record
        .to_position(&map, pos.phase, "position")
        .unwrap_err()
        .to_string();
    assert!(e.contains("saved builds are for colonial builds"), "{e}");
}

/// A winter in which no power may build or save is skipped, and builds saved for it
/// are lost.
#[test]
fn a_skipped_winter_loses_the_savings() {
    let map = Map::embedded("world1914").unwrap();
    let england = power(&map, "england");
    let mut pos = Position::initial(&map);
    pos.phase = phase("Fall 1902");
    pos.set_saved(map.power_ids().map(|pw| u32::from(pw == england)).collect());
    let (r, next) = step(&map, &pos, Vec::new());
    assert_eq!(
        r.skipped,
        [phase("Fall 1902 retreat"), phase("Winter 1902")]
    );
    assert_eq!(next.phase, phase("Spring 1903"));
    assert!(next.saved.is_empty());
}

// ---------------------------------------------------------------------------------
// Through the binary
// ---------------------------------------------------------------------------------

fn run(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.output().unwrap()
}

fn ok(o: &Output) -> String {
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "stdout:\n{out}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-games1914-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn two_years_on_classic1913_through_the_game_commands() {
    let dir = temp_dir("classic1913");
    let game = dir.join("g.yaml");
    let out = ok(&run(&[
        "new",
        s(&game),
        "--map",
        "classic1913",
        "--name",
        "g1913",
    ]));
    assert!(out.contains("classic1913"), "{out}");
    assert!(out.contains("Spring 1913"), "{out}");
    let mut sheets = String::new();
    for (name, text) in CLASSIC1913 {
        let file = dir.join(format!("{name}.txt"));
        std::fs::File::create(&file)
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let mut o = run(&["judge", s(&game), s(&file)]);
        if *name == "winter-1913" {
            // Illegal builds in the colonies block judging (exit 1) until the referee
            // accepts them; they are then void, and the sheet says why.
            assert_eq!(o.status.code(), Some(1));
            let err = String::from_utf8_lossy(&o.stderr).into_owned();
            assert!(
                err.contains("error: illegal order: not a home centre of the power"),
                "{err}"
            );
            o = run(&["judge", s(&game), s(&file), "--accept"]);
            let sheet = ok(&o);
            assert!(
                sheet.contains("England: BUILD Fleet Egypt: not a home centre of the power.\n"),
                "{sheet}"
            );
            sheets.push_str(&sheet);
            continue;
        }
        sheets.push_str(&ok(&o));
        if *name == "fall-1913" {
            let status = ok(&run(&["status", s(&game)]));
            assert!(status.contains("Winter 1913"), "{status}");
            assert!(
                status.contains("England (6 centres, 4 units) builds 2: London"),
                "{status}"
            );
        }
    }
    assert!(sheets.contains("Army Milan -> Switzerland."), "{sheets}");
    assert!(sheets.contains("BUILD Fleet Egypt"), "{sheets}");
    let status = ok(&run(&["status", s(&game)]));
    assert!(status.contains("Spring 1915"), "{status}");
    let history = ok(&run(&["history", s(&game)]));
    assert!(history.contains("Winter 1914"), "{history}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `status` on a world1914 game whose position has a saved build: the power's line
/// says so, and in the winter the colonial build sites are listed.
#[test]
fn status_shows_saved_builds_and_colonial_sites() {
    let map = Map::embedded("world1914").unwrap();
    let england = power(&map, "england");
    let mut game = Game::new(&map, "w", None, Rules::default(), None);
    // England, with two more centres and a saved build, in Winter 1902.
    let pos = &mut game.position;
    pos.phase = Phase {
        season: Season::Winter,
        year: 1902,
        kind: PhaseKind::Adjustment,
    };
    for id in ["lib", "afg"] {
        pos.owners[map.prov_by_id(id).unwrap().0 as usize] = Some(england);
    }
    pos.units.retain(|u| map.loc_id(u.loc) != "cai");
    pos.set_saved(map.power_ids().map(|pw| u32::from(pw == england)).collect());
    let dir = temp_dir("status");
    let file = dir.join("w.yaml");
    std::fs::write(&file, game.to_yaml(&map)).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("saved:"), "{text}");
    let back = Game::from_yaml(&map, &text).unwrap();
    assert_eq!(back.position.saved_by(england), 1);
    let out = ok(&run(&["status", s(&file)]));
    assert!(
        out.contains("Saved for a colonial build this winter: 1 build."),
        "{out}"
    );
    assert!(
        out.contains("With the 1 build saved last winter, colonial builds: Afghanistan"),
        "{out}"
    );
    assert!(out.contains("Liberia (army or fleet)"), "{out}");
    let json = ok(&run(&["status", s(&file), "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["saved"]["england"], 1);
    let owed = v["owed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["power"] == "england")
        .unwrap();
    assert_eq!(
        owed["colonial_sites"],
        serde_json::json!(["AFG", "CAI", "LIB"])
    );
    assert_eq!(owed["may_save"], true);
    let _ = std::fs::remove_dir_all(&dir);
}
