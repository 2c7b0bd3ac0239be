//! `arbiter map import` on DPjudge features beyond the classic shapes (issue 25, items
//! 2–7): ownership apart from home, home-centre shorthands, renames and amendments of
//! a USEd or MAPped base, names that are order words, victory counts, and the other
//! directives, each on a small file of `tests/fixtures/dpjudge/` written for it.

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
