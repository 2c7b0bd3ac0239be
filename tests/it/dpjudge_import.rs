//! `arbiter map import` on DPjudge features beyond the classic shapes (issue 25, items
//! 2–7): ownership apart from home, home-centre shorthands, renames and amendments of
//! a USEd or MAPped base, names that are order words, victory counts, and the other
//! directives, each on a small file of `tests/fixtures/dpjudge/` written for it.

use std::path::Path;
use std::process::Output;

use arbiter::map::{Map, Power};

use crate::common::{arbiter_bytes, code, has, s, stdout, temp_dir};

/// Import `file` (relative to the crate) to a temporary YAML file: the command's output
/// and the YAML written.
fn import(file: &str) -> (Output, String) {
    let dir = temp_dir("dpjudge-import");
    let out = dir.join("out.yaml");
    let o = arbiter_bytes(&["map", "import", file, "-o", s(&out)], None);
    let yaml = std::fs::read_to_string(&out).unwrap_or_default();
    (o, yaml)
}

/// Import `file`, which must import and check without error: its map and report.
fn import_clean(file: &str) -> (Map, String) {
    let (o, yaml) = import(file);
    code(&o, 0);
    let map = Map::from_yaml(&yaml, "out.yaml").unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    (map, stdout(&o))
}

/// The starting owner of province `id`, by power id.
fn owner(map: &Map, id: &str) -> Option<String> {
    let p = map.prov_by_id(id).unwrap();
    map.starting_owners()[p.0 as usize].map(|pw: Power| map.power(pw).id.clone())
}

fn home(map: &Map, id: &str) -> Option<String> {
    let p = map.prov_by_id(id).unwrap();
    map.province(p).home.map(|pw| map.power(pw).id.clone())
}

#[test]
fn owns_over_a_used_politics_file_shifts_the_start() {
    // Each power starts owning another's home centre (DPjudge's OWNS replaces the
    // centres a power starts with); the homes stay where the politics file put them.
    let (map, report) = import_clean("tests/fixtures/dpjudge/shift.map");
    has(&report, "0 errors");
    for (prov, home_of, owned_by) in [
        ("aaa", "red", "green"),
        ("bbb", "blue", "red"),
        ("ddd", "green", "blue"),
    ] {
        assert_eq!(home(&map, prov).as_deref(), Some(home_of), "{prov}");
        assert_eq!(owner(&map, prov).as_deref(), Some(owned_by), "{prov}");
    }
    // A centre that is nobody's home, owned at the start.
    assert_eq!(home(&map, "ccc"), None);
    assert_eq!(owner(&map, "ccc").as_deref(), Some("green"));
}

#[test]
fn owned_twice_tells_a_conflict_from_an_override() {
    let base = "\
name: t
start: {season: spring, year: 1901}
victory: 2
powers:
  - {id: red, name: Red, adjective: Reddish, home: [aaa], owns: OWNS_RED}
  - {id: blue, name: Blue, adjective: Bluish, home: [bbb], owns: OWNS_BLUE}
provinces:
  - {id: aaa, name: Alpha, kind: land, supply: true, home: red, army: [bbb, ccc]}
  - {id: bbb, name: Beta, kind: land, supply: true, home: blue, army: [aaa, ccc]}
  - {id: ccc, name: Gamma, kind: land, supply: true, army: [aaa, bbb]}
";
    let map_with = |red: &str, blue: &str| {
        Map::from_yaml(
            &base.replace("OWNS_RED", red).replace("OWNS_BLUE", blue),
            "t.yaml",
        )
    };
    // Another power's home centre: an override, not a conflict.
    let map = map_with("[bbb]", "[aaa]").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(owner(&map, "aaa").as_deref(), Some("blue"));
    assert_eq!(owner(&map, "bbb").as_deref(), Some("red"));
    assert_eq!(home(&map, "aaa").as_deref(), Some("red"));
    // Real conflicts stay errors: two owners, a power's own home in its `owns`.
    for (red, blue, what) in [
        ("[ccc]", "[ccc]", "already owned by `red`"),
        ("[ccc, ccc]", "[]", "`ccc` is listed twice"),
        ("[aaa]", "[]", "is a home centre of `red`"),
    ] {
        let e = map_with(red, blue).unwrap_err();
        assert!(
            e.problems.iter().all(|p| p.code.as_str() == "OWNED_TWICE"),
            "{e}"
        );
        has(&e.to_string(), what);
    }
}

#[test]
fn a_home_centre_left_out_of_owns_starts_unowned() {
    let (map, _) = import_clean("tests/fixtures/dpjudge/centres.map");
    assert_eq!(owner(&map, "ccc").as_deref(), Some("green"));
    assert_eq!(owner(&map, "ddd"), None, "green's home, not in its CENTERS");
    assert_eq!(owner(&map, "bbb"), None, "blue's home, CENTERS empty");
    assert_eq!(owner(&map, "aaa").as_deref(), Some("red"), "no OWNS line");
    assert_eq!(home(&map, "ddd").as_deref(), Some("green"));
    // In YAML: `unowned_homes` lists the power's own home centres only.
    let yaml = "\
name: t
start: {season: spring, year: 1901}
victory: 2
powers:
  - {id: red, name: Red, adjective: Reddish, home: [aaa], unowned_homes: [bbb]}
  - {id: blue, name: Blue, adjective: Bluish, home: [bbb]}
provinces:
  - {id: aaa, name: Alpha, kind: land, supply: true, home: red, army: [bbb]}
  - {id: bbb, name: Beta, kind: land, supply: true, home: blue, army: [aaa]}
";
    let e = Map::from_yaml(yaml, "t.yaml").unwrap_err();
    has(&e.to_string(), "`bbb` is not a home centre of `red`");
}

#[test]
fn renames_and_amendments_apply_to_the_mapped_base() {
    let (map, report) = import_clean("tests/fixtures/dpjudge/savoy.map");
    has(&report, "0 errors, 0 warnings");
    let id = |s: &str| map.prov_by_id(s);
    assert!(
        id("eee").is_none(),
        "the old abbreviation is no province id"
    );
    let sav = id("sav").unwrap();
    assert_eq!(map.province(sav).name, "Savoy");
    assert_eq!(map.province(sav).aliases, ["eee", "echo"]);
    assert!(map.province(sav).supply, "UNOWNED EEE became SAV");
    // Every neighbour that named `EEE` names `sav` now.
    for n in ["aaa", "ccc", "ddd"] {
        assert!(map.army_adjacent(sav, id(n).unwrap()), "sav–{n}");
    }
    // AMEND … ABUTS -DDD: the border is gone at both ends.
    assert!(!map.army_adjacent(id("ccc").unwrap(), id("ddd").unwrap()));
    // Green's unit in Echo stands in Savoy; Red is Crimson, with its home and unit.
    let green = map.power_by_name("green").unwrap();
    let units: Vec<String> = map
        .power(green)
        .units
        .iter()
        .map(|&(_, l)| map.loc_id(l))
        .collect();
    assert_eq!(units, ["ddd", "sav"]);
    assert!(map.power_by_name("red").is_none());
    let crimson = map.power(map.power_by_name("crimson").unwrap());
    assert_eq!(
        (crimson.name.as_str(), crimson.adjective.as_str()),
        ("Crimson", "Crimsonish")
    );
    assert_eq!(home(&map, "aaa").as_deref(), Some("crimson"));
    assert_eq!(map.powers.len(), 3);
}

#[test]
fn a_used_name_is_looked_up_in_the_folder_then_among_the_embedded_boards() {
    use arbiter::map::dpjudge;
    // Not in the folder: the embedded classic board, the same board as arbiter's.
    let mut missing = |_: &str| Err(dpjudge::NOT_FOUND.to_string());
    let imp = dpjudge::import("variants/x.map", "MAP standard\n", None, &mut missing).unwrap();
    assert!(
        imp.notes[0]
            .message
            .contains("embedded board `standard` is used"),
        "{:?}",
        imp.notes
    );
    let map = Map::from_yaml(&imp.yaml, "x.yaml").unwrap_or_else(|e| panic!("{e}"));
    let std = Map::standard();
    assert_eq!(map.province_count(), std.province_count());
    assert_eq!(map.victory, std.victory);
    for p in std.provs() {
        let q = map.prov_by_id(&std.province(p).id).unwrap();
        let (a, b) = (std.province(p), map.province(q));
        assert_eq!(
            (a.terrain, a.supply, a.coasts.len()),
            (b.terrain, b.supply, b.coasts.len())
        );
        assert_eq!(
            a.home.map(|h| std.power(h).id.clone()),
            b.home.map(|h| map.power(h).id.clone())
        );
        for r in std.provs() {
            let s = map.prov_by_id(&std.province(r).id).unwrap();
            assert_eq!(
                std.army_adjacent(p, r),
                map.army_adjacent(q, s),
                "{} {}",
                a.id,
                std.province(r).id
            );
        }
    }
    for l in std.locs() {
        let m = map.loc_by_id(&std.loc_id(l)).unwrap();
        let mut a: Vec<String> = std
            .fleet_neighbours(l)
            .iter()
            .map(|&x| std.loc_id(x))
            .collect();
        let mut b: Vec<String> = map
            .fleet_neighbours(m)
            .iter()
            .map(|&x| map.loc_id(x))
            .collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{}", std.loc_id(l));
    }
    for pw in std.power_ids() {
        let q = map.power_by_name(&std.power(pw).id).unwrap();
        let ids = |m: &Map, u: &[(arbiter::map::UnitKind, arbiter::map::Loc)]| -> Vec<String> {
            u.iter()
                .map(|&(k, l)| format!("{k:?} {}", m.loc_id(l)))
                .collect()
        };
        assert_eq!(
            ids(&std, &std.power(pw).units),
            ids(&map, &map.power(q).units)
        );
    }

    // The embedded board's build rule comes with it.
    let imp = dpjudge::import("x.map", "MAP world1914\n", None, &mut missing).unwrap();
    let map = Map::from_yaml(&imp.yaml, "x.yaml").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(map.build_rule, arbiter::map::BuildRule::Colonial);
    assert_eq!(
        map.powers.len(),
        Map::embedded("world1914").unwrap().powers.len()
    );

    // In the folder: the file there wins over the embedded board of the same name.
    let dir = temp_dir("dpjudge-folder-first");
    let fix = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dpjudge");
    for f in ["tiny.geography", "tiny.politics", "tiny.military"] {
        std::fs::copy(fix.join(f), dir.join(f)).unwrap();
    }
    std::fs::write(
        dir.join("standard.map"),
        "USE tiny.geography tiny.politics tiny.military\n",
    )
    .unwrap();
    std::fs::write(dir.join("v.map"), "MAP standard\nVICTORY 3\n").unwrap();
    let (o, yaml) = import(s(&dir.join("v.map")));
    code(&o, 0);
    let map = Map::from_yaml(&yaml, "v.yaml").unwrap();
    assert_eq!(
        map.province_count(),
        6,
        "the folder's standard.map, not the classic board"
    );
}

#[test]
fn a_used_name_never_leads_out_of_the_folder() {
    let dir = temp_dir("dpjudge-escape");
    let inner = dir.join("variants");
    std::fs::create_dir_all(&inner).unwrap();
    let fix = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dpjudge");
    for f in [
        "tiny.map",
        "tiny.geography",
        "tiny.politics",
        "tiny.military",
    ] {
        std::fs::copy(fix.join(f), dir.join(f)).unwrap();
    }
    let abs = dir.join("tiny.map");
    for (line, what) in [
        ("MAP ../tiny".to_string(), "`MAP ../tiny`"),
        ("USE ../tiny.map".to_string(), "`USE ../tiny.map`"),
        (
            format!("USE {}", abs.display()),
            "its name has no folder in it",
        ),
        ("USES sub/tiny.map".to_string(), "`USES sub/tiny.map`"),
    ] {
        let v = inner.join("v.map");
        std::fs::write(&v, format!("# a variant\n{line}\n")).unwrap();
        let (o, _) = import(s(&v));
        code(&o, 2);
        let e = crate::common::stderr(&o);
        has(&e, "v.map:2:");
        has(&e, what);
    }
    // A link in the folder that leads out of it is refused too.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&abs, inner.join("base.map")).unwrap();
        let v = inner.join("v.map");
        std::fs::write(&v, "MAP base\n").unwrap();
        let (o, _) = import(s(&v));
        code(&o, 2);
        has(&crate::common::stderr(&o), "leads out of the folder");
    }
}

#[test]
fn home_centre_shorthand_any_centre_owned() {
    use arbiter::map::BuildRule;
    // `&SC` for every power, or `RULE BUILD_ANY`: `builds: owned`; `&SC` is no place.
    for f in ["anysc", "rulebuild"] {
        let (map, report) = import_clean(&format!("tests/fixtures/dpjudge/{f}.map"));
        assert_eq!(map.build_rule, BuildRule::Owned, "{f}");
        for pw in map.power_ids() {
            assert_eq!(map.power(pw).home.len(), 1, "{f}");
        }
        if f == "rulebuild" {
            has(
                &report,
                "rulebuild.map:5: `RULE PROXY_OK` is not carried over",
            );
            assert!(!report.contains("BUILD_ANY"), "{report}");
        }
    }
    // `&SC` for one power only: the map's rule cannot say it; reported with its line.
    let (map, report) = import_clean("tests/fixtures/dpjudge/somesc.map");
    assert_eq!(map.build_rule, BuildRule::Home);
    has(
        &report,
        "somesc.map:3: `&SC`: Blue may build in any centre it owns",
    );
}

#[test]
fn names_that_are_order_words_get_safe_ids() {
    let (map, report) = import_clean("tests/fixtures/dpjudge/words.map");
    has(&report, "0 errors");
    // `the` (a filler word) and `scs` (beside `spa/sc`, a fleet there moving to it
    // would name the coast) are imported under safe ids, the old ones not kept.
    has(
        &report,
        "words.map:5: `the` (Thebes) is an order word: imported under the id `thb`",
    );
    has(
        &report,
        "words.map:8: `scs` (South Sea) is a coast word (`sc`): a fleet on `spa/sc`",
    );
    has(&report, "words.map:6: alias `by` of `cor` is an order word");
    for gone in ["the", "scs"] {
        assert!(map.prov_by_id(gone).is_none(), "{gone}");
    }
    let thb = map.prov_by_id("thb").unwrap();
    assert_eq!(map.province(thb).name, "Thebes");
    assert!(map.province(thb).aliases.is_empty());
    assert_eq!(home(&map, "thb").as_deref(), Some("red"));
    let red = map.power(map.power_by_name("red").unwrap());
    assert_eq!(map.loc_id(red.units[0].1), "thb");
    let sou = map.prov_by_id("sou").unwrap();
    assert!(map.fleet_adjacent(map.loc_by_id("spa/sc").unwrap(), sou.into()));
    assert!(map
        .province(map.prov_by_id("cor").unwrap())
        .aliases
        .is_empty());
    // `ecs` is a coast word on a map with an east coast only: it stays.
    assert!(map.prov_by_id("ecs").is_some());

    // A hand-written YAML map keeps its error.
    let dir = temp_dir("dpjudge-words");
    let yaml = dir.join("w.yaml");
    std::fs::write(
        &yaml,
        "name: w\nstart: {season: spring, year: 1901}\nvictory: 1\npowers:\n  - {id: red, name: Red, adjective: Reddish, home: [the]}\nprovinces:\n  - {id: the, name: Thebes, kind: land, supply: true, home: red}\n",
    )
    .unwrap();
    let o = arbiter_bytes(&["map", "check", s(&yaml)], None);
    code(&o, 1);
    has(
        &stdout(&o),
        "error[KEYWORD_NAME]: `the` is also the order word",
    );
}

#[test]
fn a_victory_count_below_a_majority_is_imported_as_declared() {
    // The base says 3; the variant's line, read last, wins. A count below a majority
    // is what the designer declared: imported, and `map check` warns (exit 0).
    let (map, report) = import_clean("tests/fixtures/dpjudge/lowvictory.map");
    assert_eq!(map.victory, 2);
    has(
        &report,
        "warning[VICTORY_NOT_MAJORITY]: 2 of 4 supply centres",
    );
    has(&report, "lowvictory.map:4: `VICTORY 2 3`: victory thresholds that change by year are not carried over; the first one (2) is kept");
    has(&report, "0 errors, 1 warning");
}

#[test]
fn unplayed_and_drop_are_imported_and_what_is_not_is_named_with_its_line() {
    let (map, report) = import_clean("tests/fixtures/dpjudge/fewer.map");
    // UNPLAYED GREEN: two powers; its home is neutral only because UNOWNED lists it.
    let ids: Vec<&str> = map.powers.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["red", "blue"]);
    let ddd = map.prov_by_id("ddd").unwrap();
    assert!(map.province(ddd).supply);
    assert_eq!(home(&map, "ddd"), None);
    assert_eq!(owner(&map, "ddd"), None);
    // DROP EEE: no province, no border to it.
    assert!(map.prov_by_id("eee").is_none());
    assert_eq!(map.province_count(), 5);
    // A wing and a misspelt terrain keyword: named with the line, nothing else made.
    has(
        &report,
        "fewer.map:9: `W BBB`: a wing (an air unit) is not carried over",
    );
    has(
        &report,
        "fewer.map:10: `WATRE SSS ABUTS AAA BBB DDD`: `WATRE` is no terrain",
    );
    assert!(map.power_by_name("watre").is_none());
}

#[test]
fn a_coast_is_renamed_with_its_borders_and_units() {
    let (map, _) = import_clean("tests/fixtures/dpjudge/coastrename.map");
    assert!(map.loc_by_id("spa/sc").is_none());
    let ss = map.loc_by_id("spa/ss").unwrap();
    assert_eq!(map.coast(ss).unwrap().name, "South Shore");
    let sou = map.prov_by_id("sou").unwrap();
    assert!(map.fleet_adjacent(sou.into(), ss));
    let blue = map.power(map.power_by_name("blue").unwrap());
    let units: Vec<String> = blue.units.iter().map(|&(_, l)| map.loc_id(l)).collect();
    assert_eq!(units, ["cor", "spa/ss"]);
}

#[test]
fn a_rule_turned_off_and_a_leading_underscore() {
    use arbiter::map::BuildRule;
    let (map, report) = import_clean("tests/fixtures/dpjudge/underscore.map");
    assert_eq!(map.build_rule, BuildRule::Home, "RULE !BUILD_ANY");
    assert!(!report.contains("underscore.map:4"), "{report}");
    let blue = map.power(map.power_by_name("blue").unwrap());
    assert_eq!(
        (blue.name.as_str(), blue.adjective.as_str()),
        ("Blue", "Azure")
    );
    assert_eq!(map.powers.len(), 3);
}
