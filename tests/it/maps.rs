//! The classic board against a committed copy of the reference tables, edge for edge;
//! and the loader's rejection of broken maps, with file, line and key.

use std::collections::BTreeSet;

use arbiter::map::{Loc, Map, Terrain, UnitKind};

fn golden(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/golden/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn loc(map: &Map, id: &str) -> Loc {
    map.loc_by_id(id)
        .unwrap_or_else(|| panic!("no location {id}"))
}

#[test]
fn classic_board_counts() {
    let map = Map::standard();
    let passable = map
        .provs()
        .filter(|&p| map.terrain(p) != Terrain::Impassable)
        .count();
    assert_eq!(passable, 75);
    assert_eq!(map.provs().filter(|&p| map.province(p).supply).count(), 34);
    assert_eq!(map.coasts.len(), 6);
    let mut army = BTreeSet::new();
    for a in map.provs() {
        for b in map.army_neighbours(a).iter() {
            army.insert((a.min(b), a.max(b)));
        }
    }
    assert_eq!(army.len(), 111);
    let mut fleet = BTreeSet::new();
    for a in map.locs() {
        for &b in map.fleet_neighbours(a) {
            fleet.insert((a.min(b), a.max(b)));
        }
    }
    assert_eq!(fleet.len(), 141);
    assert_eq!(map.victory, 18);
}

#[test]
fn classic_board_matches_reference_edges() {
    let map = Map::standard();
    let mut army_ref = BTreeSet::new();
    let mut fleet_ref = BTreeSet::new();
    for line in golden("standard-edges.csv").lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (a, b) = (loc(&map, f[0]), loc(&map, f[1]));
        if f[2] == "1" {
            army_ref.insert((a.min(b), a.max(b)));
        }
        if f[3] == "1" {
            fleet_ref.insert((a.min(b), a.max(b)));
        }
    }
    let mut army = BTreeSet::new();
    for a in map.provs() {
        for b in map.army_neighbours(a).iter() {
            army.insert((Loc::from(a.min(b)), Loc::from(a.max(b))));
        }
    }
    let mut fleet = BTreeSet::new();
    for a in map.locs() {
        for &b in map.fleet_neighbours(a) {
            fleet.insert((a.min(b), a.max(b)));
        }
    }
    let name = |(a, b): &(Loc, Loc)| format!("{}-{}", map.loc_id(*a), map.loc_id(*b));
    let missing: Vec<String> = army_ref.difference(&army).map(name).collect();
    let extra: Vec<String> = army.difference(&army_ref).map(name).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "army edges: missing {missing:?}, extra {extra:?}"
    );
    let missing: Vec<String> = fleet_ref.difference(&fleet).map(name).collect();
    let extra: Vec<String> = fleet.difference(&fleet_ref).map(name).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "fleet edges: missing {missing:?}, extra {extra:?}"
    );
}

#[test]
fn classic_board_matches_reference_provinces_and_setup() {
    let map = Map::standard();
    for line in golden("standard-provinces.csv").lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let l = loc(&map, f[0]);
        let p = map.province(map.prov_of(l));
        if map.is_named_coast(l) {
            assert!(map.province(map.prov_of(l)).coasts.contains(&l));
            continue;
        }
        assert_eq!(p.name, f[1], "{}", f[0]);
        let kind = match f[2] {
            "sea" => Terrain::Sea,
            "coast" => Terrain::Coastal,
            "land" => Terrain::Land,
            _ => Terrain::Impassable,
        };
        assert_eq!(p.terrain, kind, "{}", f[0]);
        assert_eq!(p.supply, f[3] == "yes", "{}", f[0]);
        assert_eq!(
            p.home.map(|h| map.power(h).id.clone()).unwrap_or_default(),
            f[4],
            "{}",
            f[0]
        );
    }
    for line in golden("standard-setup.csv").lines().skip(1) {
        let (power, rest) = line.split_once(',').unwrap();
        let (homes, units) = rest.split_once(',').unwrap();
        let pw = map.power_by_name(power).unwrap();
        let info = map.power(pw);
        let mut want: Vec<&str> = homes.split_whitespace().collect();
        want.sort();
        let mut have: Vec<String> = info
            .home
            .iter()
            .map(|&h| map.province(h).id.clone())
            .collect();
        have.sort();
        assert_eq!(have, want, "{power} home centres");
        let want: BTreeSet<String> = units
            .trim_matches('"')
            .split(", ")
            .map(|u| u.to_ascii_lowercase())
            .collect();
        let have: BTreeSet<String> = info
            .units
            .iter()
            .map(|&(k, l)| {
                format!(
                    "{} {}",
                    if k == UnitKind::Army { "a" } else { "f" },
                    map.loc_id(l)
                )
            })
            .collect();
        assert_eq!(have, want, "{power} units");
    }
}

#[test]
fn traps_of_the_classic_board() {
    let map = Map::standard();
    let p = |s: &str| map.prov_by_id(s).unwrap();
    // Gulf of Bothnia touches stp/sc, never stp/nc.
    assert!(map.fleet_adjacent(loc(&map, "bot"), loc(&map, "stp/sc")));
    assert!(!map.fleet_adjacent(loc(&map, "bot"), loc(&map, "stp/nc")));
    // Kiel joins Helgoland Bight and the Baltic.
    assert!(map.fleet_reach(loc(&map, "kie")).contains(p("hel")));
    assert!(map.fleet_reach(loc(&map, "kie")).contains(p("bal")));
    // Army-only coastal borders.
    for (a, b) in [
        ("ank", "smy"),
        ("apu", "rom"),
        ("pie", "ven"),
        ("wal", "yor"),
        ("edi", "lvp"),
    ] {
        assert!(map.army_adjacent(p(a), p(b)));
        assert!(
            !map.fleet_reach(loc(&map, a)).contains(p(b)),
            "{a}-{b} is army-only"
        );
    }
    assert!(map.fleet_reach(loc(&map, "con")).contains(p("smy")));
}

fn load_fixture(name: &str) -> Result<Map, arbiter::map::MapError> {
    let file = format!("tests/fixtures/maps/{name}");
    let src = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    Map::from_yaml(&src, &file)
}

#[test]
fn a_valid_small_map_loads() {
    let map = load_fixture("tiny.yaml").unwrap();
    assert_eq!(map.province_count(), 3);
}

#[test]
fn rejects_a_one_sided_edge_with_file_line_and_key() {
    let e = load_fixture("one-sided.yaml").unwrap_err().to_string();
    assert_eq!(
        e,
        "tests/fixtures/maps/one-sided.yaml:17: provinces.aaa.army: one-sided edge: `aaa` lists `bbb` but `bbb` does not list `aaa`; add it there or remove it here"
    );
}

#[test]
fn rejects_an_unknown_id_with_file_line_and_key() {
    let e = load_fixture("unknown-id.yaml").unwrap_err().to_string();
    assert_eq!(
        e,
        "tests/fixtures/maps/unknown-id.yaml:27: provinces.sss.fleet: unknown location `zzz`"
    );
}

#[test]
fn rejects_a_duplicate_name_with_file_line_and_key() {
    let e = load_fixture("duplicate-name.yaml").unwrap_err().to_string();
    assert_eq!(
        e,
        "tests/fixtures/maps/duplicate-name.yaml:25: provinces.sss.name: duplicate name `Alpha`: already a name or id of `aaa`"
    );
}

#[test]
fn rejects_a_bad_kind_with_its_line() {
    let e = load_fixture("bad-kind.yaml").unwrap_err().to_string();
    assert!(e.starts_with("tests/fixtures/maps/bad-kind.yaml:"), "{e}");
    assert!(e.contains("ocean"), "{e}");
}

#[test]
fn a_one_sided_coast_edge_points_at_the_coast() {
    let e = load_fixture("one-sided-coast.yaml")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "tests/fixtures/maps/one-sided-coast.yaml:20: provinces.spl.coasts.sc.fleet: one-sided edge: `spl/sc` lists `sss` but `sss` does not list `spl/sc`; add it there or remove it here"
    );
}

#[test]
fn rejects_an_alias_that_is_another_provinces_id() {
    let e = load_fixture("alias-is-an-id.yaml").unwrap_err().to_string();
    assert_eq!(
        e,
        "tests/fixtures/maps/alias-is-an-id.yaml:21: provinces.bbb.aliases: duplicate name `sss`: already a name or id of `sss`"
    );
}

#[test]
fn rejects_a_starting_army_at_sea() {
    let e = load_fixture("army-at-sea.yaml").unwrap_err().to_string();
    assert_eq!(
        e,
        "tests/fixtures/maps/army-at-sea.yaml:10: powers.red.units: A sss: an army cannot be at sea"
    );
}
