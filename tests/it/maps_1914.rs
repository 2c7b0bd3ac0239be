//! The 1914-era boards (`classic1913`, `world1914`) against committed copies of the
//! reference tables (`tests/golden/`), edge for edge: counts, every army and fleet
//! edge, every province's kind, centre and drawing position, every power's home
//! centres, colonies and starting units. Also: the golden copies are unchanged copies
//! of `../shared/reference/maps/` (when that directory is there), every full name of
//! the reference is a name the order parser reads, the world1914 ids are the table of
//! `docs/MAPS.md` and clash with no order keyword, and the classic ids are kept where
//! the province is the classic one.

use std::collections::{BTreeMap, BTreeSet};

use arbiter::map::names::normalize;
use arbiter::map::{BuildRule, Loc, Map, Season, Terrain, UnitKind};

fn golden(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/golden/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// The rows of a CSV file (header dropped); fields may be quoted.
fn csv(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut fields = Vec::new();
            let mut field = String::new();
            let mut quoted = false;
            for c in line.chars() {
                match c {
                    '"' => quoted = !quoted,
                    ',' if !quoted => fields.push(std::mem::take(&mut field)),
                    c => field.push(c),
                }
            }
            fields.push(field);
            fields
        })
        .collect()
}

/// `Spain (North Coast)` -> (`Spain`, Some(`North Coast`)).
fn split_coast(name: &str) -> (&str, Option<&str>) {
    match name.strip_suffix(')').and_then(|n| n.split_once(" (")) {
        Some((p, c)) => (p, Some(c)),
        None => (name, None),
    }
}

/// The location a reference name means: the province whose name or alias is the
/// name, and its coast of that name.
fn loc_of(map: &Map, name: &str) -> Loc {
    let (prov, coast) = split_coast(name);
    let matches: Vec<_> = map
        .provs()
        .filter(|&p| {
            let pr = map.province(p);
            std::iter::once(&pr.name)
                .chain(&pr.aliases)
                .any(|n| normalize(n) == normalize(prov))
        })
        .collect();
    assert_eq!(matches.len(), 1, "{name}: {matches:?}");
    let p = matches[0];
    match coast {
        None => p.into(),
        Some(c) => *map
            .province(p)
            .coasts
            .iter()
            .find(|&&l| map.coast(l).unwrap().name.eq_ignore_ascii_case(c))
            .unwrap_or_else(|| panic!("{name}: no coast {c}")),
    }
}

fn army_edges(map: &Map) -> BTreeSet<(Loc, Loc)> {
    let mut out = BTreeSet::new();
    for a in map.provs() {
        for b in map.army_neighbours(a).iter() {
            out.insert((Loc::from(a.min(b)), Loc::from(a.max(b))));
        }
    }
    out
}

fn fleet_edges(map: &Map) -> BTreeSet<(Loc, Loc)> {
    let mut out = BTreeSet::new();
    for a in map.locs() {
        for &b in map.fleet_neighbours(a) {
            out.insert((a.min(b), a.max(b)));
        }
    }
    out
}

/// Every edge of `borders.csv` (`territory_a,territory_b,fleets_pass,armies_pass`)
/// against the map, naming what is missing or extra.
fn check_edges(map: &Map, borders: &str) {
    let mut army_ref = BTreeSet::new();
    let mut fleet_ref = BTreeSet::new();
    for row in csv(borders) {
        let (a, b) = (loc_of(map, &row[0]), loc_of(map, &row[1]));
        if row[2] == "Yes" {
            fleet_ref.insert((a.min(b), a.max(b)));
        }
        if row[3] == "Yes" {
            let (a, b) = (Loc::from(map.prov_of(a)), Loc::from(map.prov_of(b)));
            army_ref.insert((a.min(b), a.max(b)));
        }
    }
    let name = |(a, b): &(Loc, Loc)| format!("{}-{}", map.loc_id(*a), map.loc_id(*b));
    let (army, fleet) = (army_edges(map), fleet_edges(map));
    let missing: Vec<String> = army_ref.difference(&army).map(name).collect();
    let extra: Vec<String> = army.difference(&army_ref).map(name).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{}: army edges: missing {missing:?}, extra {extra:?}",
        map.name
    );
    let missing: Vec<String> = fleet_ref.difference(&fleet).map(name).collect();
    let extra: Vec<String> = fleet.difference(&fleet_ref).map(name).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{}: fleet edges: missing {missing:?}, extra {extra:?}",
        map.name
    );
}

/// Every row of `territories.csv` (`name,type,supply_center,country_id,map_x,map_y,…`):
/// kind, supply centre and drawing position of each province and coast; the provinces
/// of the map are exactly those of the table.
fn check_territories(map: &Map, territories: &str) {
    let mut seen = BTreeSet::new();
    for row in csv(territories) {
        let l = loc_of(map, &row[0]);
        let at = Some((row[4].parse().unwrap(), row[5].parse().unwrap()));
        seen.insert(l);
        if let Some(c) = map.coast(l) {
            assert_eq!(c.at, at, "{}", row[0]);
            assert_eq!(map.terrain(c.province), Terrain::Coastal, "{}", row[0]);
            continue;
        }
        let p = map.province(map.prov_of(l));
        let kind = match row[1].as_str() {
            "Sea" => Terrain::Sea,
            "Coast" => Terrain::Coastal,
            "Land" => Terrain::Land,
            k => panic!("unknown type {k}"),
        };
        assert_eq!(p.terrain, kind, "{}", row[0]);
        assert_eq!(p.supply, row[2] == "Yes", "{}", row[0]);
        assert_eq!(p.at, at, "{}", row[0]);
        // The name the reference gives is accepted by the order parser's index.
        let norm = normalize(split_coast(&row[0]).0);
        assert!(
            map.names().place(&norm).contains(&l),
            "{}: `{norm}` is not read as {}",
            row[0],
            map.loc_id(l)
        );
    }
    let all: BTreeSet<Loc> = map.locs().collect();
    assert_eq!(seen, all, "{}: provinces not in the reference", map.name);
}

/// Units as the map starts them: `a bud`, `f stp/sc`, per power id.
fn units(map: &Map) -> BTreeMap<String, BTreeSet<String>> {
    map.power_ids()
        .map(|pw| {
            let info = map.power(pw);
            let units = info
                .units
                .iter()
                .map(|&(k, l)| {
                    let k = if k == UnitKind::Army { "a" } else { "f" };
                    format!("{k} {}", map.loc_id(l))
                })
                .collect();
            (info.id.clone(), units)
        })
        .collect()
}

fn ids(map: &Map, list: &[arbiter::map::Prov]) -> BTreeSet<String> {
    list.iter().map(|&p| map.province(p).id.clone()).collect()
}

fn words(s: &str, sep: char) -> BTreeSet<String> {
    s.split(sep)
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn counts(map: &Map) -> (usize, usize, usize, usize, usize) {
    let kind = |t: Terrain| map.provs().filter(|&p| map.terrain(p) == t).count();
    (
        map.province_count(),
        kind(Terrain::Sea),
        kind(Terrain::Coastal),
        kind(Terrain::Land),
        map.provs().filter(|&p| map.province(p).supply).count(),
    )
}

// ---------------------------------------------------------------------------------
// classic1913
// ---------------------------------------------------------------------------------

fn classic1913() -> Map {
    Map::embedded("classic1913").unwrap()
}

#[test]
fn classic1913_counts() {
    let map = classic1913();
    assert_eq!(map.name, "classic1913");
    assert_eq!(map.title, "1913: Europe on the eve of the Great War");
    assert_eq!(map.designer, "Enriador");
    assert_eq!(map.powers.len(), 7);
    // provinces, sea, coast, land, centres
    assert_eq!(counts(&map), (82, 19, 45, 18, 38));
    assert_eq!(map.coasts.len(), 6);
    assert_eq!(army_edges(&map).len(), 130);
    assert_eq!(fleet_edges(&map).len(), 151);
    assert_eq!(map.victory, 20);
    assert_eq!((map.start_season, map.start_year), (Season::Spring, 1913));
    assert_eq!(map.build_rule, BuildRule::Home);
    let home: usize = map.powers.iter().map(|p| p.home.len()).sum();
    let owned: usize = map.powers.iter().map(|p| p.owns.len()).sum();
    assert_eq!((home, owned), (23, 2));
}

#[test]
fn classic1913_matches_reference_edges() {
    check_edges(&classic1913(), &golden("classic1913-borders.csv"));
}

#[test]
fn classic1913_matches_reference_provinces() {
    check_territories(&classic1913(), &golden("classic1913-territories.csv"));
}

#[test]
fn classic1913_matches_reference_setup() {
    let map = classic1913();
    let have_units = units(&map);
    for row in csv(&golden("classic1913-setup.csv")) {
        let pw = map.power_by_name(&row[0]).unwrap();
        let info = map.power(pw);
        assert_eq!(
            ids(&map, &info.home),
            words(&row[1], ' '),
            "{} home",
            row[0]
        );
        assert_eq!(
            ids(&map, &info.owns),
            words(&row[2], ' '),
            "{} owns",
            row[0]
        );
        let want: BTreeSet<String> = words(&row[3], ',')
            .into_iter()
            .map(|u| u.to_ascii_lowercase())
            .collect();
        assert_eq!(have_units[&info.id], want, "{} units", row[0]);
    }
}

#[test]
fn classic1913_features() {
    let map = classic1913();
    let p = |s: &str| map.prov_by_id(s).unwrap();
    let l = |s: &str| map.loc_by_id(s).unwrap();
    // Switzerland: a passable neutral centre.
    let swi = map.province(p("swi"));
    assert!(swi.supply && swi.home.is_none() && swi.terrain == Terrain::Land);
    assert!(map.army_adjacent(p("swi"), p("mil")));
    // Bulgaria's coasts are north and south.
    let coasts: Vec<String> = map
        .province(p("bul"))
        .coasts
        .iter()
        .map(|&c| map.loc_id(c))
        .collect();
    assert_eq!(coasts, ["bul/nc", "bul/sc"]);
    assert!(map.fleet_adjacent(l("bla"), l("bul/nc")));
    assert!(map.fleet_adjacent(l("aeg"), l("bul/sc")));
    // Algeria and Egypt: owned at the start, not home centres (no builds there).
    let owners = map.starting_owners();
    let england = map.power_by_name("england").unwrap();
    let france = map.power_by_name("france").unwrap();
    assert_eq!(owners[p("egy").0 as usize], Some(england));
    assert_eq!(owners[p("alg").0 as usize], Some(france));
    assert!(map.province(p("egy")).home.is_none() && map.province(p("alg")).home.is_none());
    // Tunisia is no longer a centre; Venetia neither; Milan is Italy's.
    assert!(!map.province(p("tun")).supply && !map.province(p("ven")).supply);
    assert_eq!(map.province(p("mil")).home, map.power_by_name("italy"));
    // Morocco-Spain by land and to the south coast by sea; Egypt-North Atlantic.
    assert!(map.army_adjacent(p("mor"), p("spa")));
    assert!(map.fleet_adjacent(l("mor"), l("spa/sc")));
    assert!(map.fleet_adjacent(l("egy"), l("nao")));
    // The ids of the classic board are kept.
    let classic = Map::standard();
    for q in map.provs() {
        let pr = map.province(q);
        if let Some(c) = classic.prov_by_id(&pr.id) {
            let c = classic.province(c);
            let same = normalize(&c.name) == normalize(&pr.name)
                || pr
                    .aliases
                    .iter()
                    .any(|a| normalize(a) == normalize(&c.name));
            assert!(
                same || ["col", "ven", "tun"].contains(&pr.id.as_str()),
                "{}",
                pr.id
            );
        }
    }
}

// ---------------------------------------------------------------------------------
// world1914
// ---------------------------------------------------------------------------------

fn world1914() -> Map {
    Map::embedded("world1914").unwrap()
}

#[test]
fn world1914_counts() {
    let map = world1914();
    assert_eq!(map.name, "world1914");
    assert_eq!(map.powers.len(), 14);
    assert_eq!(counts(&map), (244, 54, 150, 40, 107));
    assert_eq!(map.coasts.len(), 22);
    assert_eq!(map.provs().filter(|&p| map.is_split(p)).count(), 11);
    assert_eq!(army_edges(&map).len(), 366);
    assert_eq!(fleet_edges(&map).len(), 501);
    assert_eq!(map.victory, 37);
    assert_eq!((map.start_season, map.start_year), (Season::Spring, 1901));
    assert_eq!(map.build_rule, BuildRule::Colonial);
    let powers: Vec<&str> = map.powers.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        powers,
        [
            "austria",
            "england",
            "france",
            "germany",
            "italy",
            "russia",
            "turkey",
            "china",
            "japan",
            "brazil",
            "argentina",
            "colombia",
            "mexico",
            "usa"
        ]
    );
}

#[test]
fn world1914_matches_reference_edges() {
    check_edges(&world1914(), &golden("world1914-borders.csv"));
}

#[test]
fn world1914_matches_reference_provinces() {
    check_territories(&world1914(), &golden("world1914-territories.csv"));
}

#[test]
fn world1914_matches_reference_setup() {
    let map = world1914();
    let have_units = units(&map);
    for row in csv(&golden("world1914-setup.csv")) {
        let pw = map.power_by_name(&row[0]).unwrap();
        let info = map.power(pw);
        let home: BTreeSet<String> = row[1]
            .split(';')
            .map(|n| map.province(map.prov_of(loc_of(&map, n.trim()))).id.clone())
            .collect();
        assert_eq!(ids(&map, &info.home), home, "{} home", row[0]);
        let want: BTreeSet<String> = row[2]
            .split(';')
            .map(|u| {
                let (k, at) = u.trim().split_once(' ').unwrap();
                format!(
                    "{} {}",
                    k.to_ascii_lowercase(),
                    map.loc_id(loc_of(&map, at))
                )
            })
            .collect();
        assert_eq!(have_units[&info.id], want, "{} units", row[0]);
    }
    // Colonies: every other centre the reference gives a power at the start.
    let order: Vec<String> = map.powers.iter().map(|p| p.id.clone()).collect();
    let owners = map.starting_owners();
    for row in csv(&golden("world1914-territories.csv")) {
        if row[2] != "Yes" {
            continue;
        }
        let p = map.prov_of(loc_of(&map, &row[0]));
        let want = match row[3].parse::<usize>().unwrap() {
            0 => None,
            k => Some(order[k - 1].clone()),
        };
        let have = owners[p.0 as usize].map(|pw| map.power(pw).id.clone());
        assert_eq!(have, want, "{} owner", row[0]);
    }
    // Every power starts with as many units as centres.
    for pw in map.power_ids() {
        let centres = owners.iter().filter(|o| **o == Some(pw)).count();
        assert_eq!(centres, map.power(pw).units.len(), "{}", map.power(pw).id);
    }
}

/// Order words and tokens a province id must never be: the parser's keywords, DAIDE
/// order tokens, coast words, unit types, and three-letter power abbreviations.
const RESERVED: &[&str] = &[
    "a", "f", "army", "fleet", "h", "hold", "holds", "stand", "stands", "s", "sup", "supp",
    "support", "supports", "c", "convoy", "convoys", "to", "m", "mv", "move", "moves", "attack",
    "attacks", "r", "retreat", "retreats", "d", "disband", "disbands", "destroy", "remove",
    "removes", "b", "build", "builds", "waive", "waives", "waived", "save", "via", "into", "from",
    "hld", "mto", "cvy", "cto", "rto", "dsb", "bld", "rem", "wve", "nc", "sc", "ec", "wc", "ncs",
    "scs", "ecs", "wcs", "n", "e", "w", "north", "south", "east", "west", "coast", "aus", "eng",
    "fra", "ger", "ita", "rus", "tur", "chi", "jap", "bra", "arg", "col", "mex", "usa",
];

#[test]
fn world1914_ids_are_short_readable_and_clash_with_nothing() {
    let map = world1914();
    let classic = Map::standard();
    let mut names = BTreeMap::new();
    for p in map.provs() {
        let pr = map.province(p);
        assert!(
            pr.id.len() == 3 && pr.id.chars().all(|c| c.is_ascii_lowercase()),
            "{}: ids are three lower-case letters",
            pr.id
        );
        // `eng` stays the English Channel, as on the classic board.
        if pr.id != "eng" {
            assert!(
                !RESERVED.contains(&pr.id.as_str()),
                "{} is an order word",
                pr.id
            );
        }
        for n in std::iter::once(&pr.id)
            .chain(std::iter::once(&pr.name))
            .chain(&pr.aliases)
        {
            assert!(!RESERVED.contains(&normalize(n).as_str()) || n == "eng");
            if let Some(other) = names.insert(normalize(n), pr.id.clone()) {
                assert_eq!(other, pr.id, "`{n}` names two provinces");
            }
        }
        // A province of the classic board keeps its classic id.
        for c in classic.provs() {
            let cp = classic.province(c);
            if normalize(&cp.name) == normalize(&pr.name) {
                assert_eq!(cp.id, pr.id, "{}", pr.name);
            }
        }
    }
    // No power word is a place, but one: the reference names Mexico's capital
    // province `Mexico`, so `Mexico` is both the power and (as an alias of Mexico City,
    // `mxc`) the province. A header `Mexico:` or a prefix before a unit is the power.
    for pw in &map.powers {
        for n in [&pw.id, &pw.name, &pw.adjective] {
            let places = map.names().place(&normalize(n));
            if normalize(n) == "mexico" {
                assert_eq!(places, [map.loc_by_id("mxc").unwrap()]);
                continue;
            }
            assert!(places.is_empty(), "the power word `{n}` is also a place");
        }
    }
}

/// The table of ids in `docs/MAPS.md` (`| id | name | … |` rows under the world1914
/// heading) is the map's.
#[test]
fn world1914_ids_are_the_table_in_the_docs() {
    let map = world1914();
    let doc =
        std::fs::read_to_string(format!("{}/docs/MAPS.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let start = doc
        .find("<!-- world1914 ids -->")
        .expect("docs/MAPS.md has the world1914 id table");
    let end = doc[start..].find("<!-- end -->").unwrap() + start;
    let mut table = BTreeMap::new();
    for line in doc[start..end].lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | id | name | id | name | id | name |
        if cells.len() < 3 || cells[1].starts_with('-') || cells[1] == "id" {
            continue;
        }
        for pair in cells[1..cells.len() - 1].chunks(2) {
            if let [id, name] = pair {
                if !id.is_empty() {
                    let id = id.trim_matches('`');
                    assert!(
                        table.insert(id.to_string(), name.to_string()).is_none(),
                        "{id}"
                    );
                }
            }
        }
    }
    let have: BTreeMap<String, String> = map
        .provs()
        .map(|p| (map.province(p).id.clone(), map.province(p).name.clone()))
        .collect();
    assert_eq!(table, have);
}

// ---------------------------------------------------------------------------------
// The golden copies
// ---------------------------------------------------------------------------------

/// `tests/golden/` holds unchanged copies of the reference tables. When the shared
/// reference is next to the repository (as in CI), they must still be identical.
#[test]
fn golden_copies_are_the_reference() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/reference/maps");
    if !shared.is_dir() {
        eprintln!("skipped: {} is not there", shared.display());
        return;
    }
    for board in ["standard", "classic1913", "world1914"] {
        for entry in std::fs::read_dir(shared.join(board)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.ends_with(".csv") {
                continue;
            }
            let golden = root.join("tests/golden").join(format!("{board}-{name}"));
            let want = std::fs::read(&path).unwrap();
            let have = std::fs::read(&golden)
                .unwrap_or_else(|_| panic!("no golden copy {}", golden.display()));
            assert!(
                want == have,
                "{} differs from {}",
                golden.display(),
                path.display()
            );
        }
    }
}

#[test]
fn every_embedded_map_loads_by_name() {
    for (name, file, _) in arbiter::map::EMBEDDED {
        let map = Map::embedded(name).unwrap();
        assert_eq!(&map.name, name, "{file}");
    }
    assert_eq!(Map::embedded("classic").unwrap().name, "standard");
    assert_eq!(Map::embedded("World1914").unwrap().name, "world1914");
    assert!(Map::embedded("nowhere").is_none());
}

// ---------------------------------------------------------------------------------
// Large boards: up to 512 provinces
// ---------------------------------------------------------------------------------

/// A board of `n` provinces: coastal provinces `p000`, `p001`, … in a line (each an
/// army neighbour of the next), all on one sea `sea` (the last province), the first
/// and every hundredth a supply centre; one power, `red`, at home in `p000`.
fn line_board(n: usize) -> String {
    let coastal = n - 1;
    let mut s = String::from(
        "name: line\nstart: {season: spring, year: 1901}\nvictory: 3\npowers:\n  - id: red\n    \
         name: Red\n    adjective: Redish\n    home: [p000]\n    units: [A p000]\nprovinces:\n",
    );
    for i in 0..coastal {
        let mut army = Vec::new();
        if i > 0 {
            army.push(format!("p{:03}", i - 1));
        }
        if i + 1 < coastal {
            army.push(format!("p{:03}", i + 1));
        }
        s.push_str(&format!(
            "  - id: p{i:03}\n    name: Province {i}\n    kind: coast\n{}{}    army: [{}]\n    fleet: [sea]\n",
            if i % 100 == 0 { "    supply: true\n" } else { "" },
            if i == 0 { "    home: red\n" } else { "" },
            army.join(", ")
        ));
    }
    let all: Vec<String> = (0..coastal).map(|i| format!("p{i:03}")).collect();
    s.push_str(&format!(
        "  - id: sea\n    name: The Sea\n    kind: sea\n    fleet: [{}]\n",
        all.join(", ")
    ));
    s
}

#[test]
fn a_board_of_512_provinces_loads_and_adjudicates() {
    use arbiter::game::advance;
    use arbiter::judge::{Outcome, Rules};
    use arbiter::state::{Phase, Position};
    let map = Map::from_yaml(&line_board(512), "line.yaml").unwrap();
    assert_eq!(map.province_count(), arbiter::map::MAX_PROVINCES);
    let p = |s: &str| map.prov_by_id(s).unwrap();
    assert!(map.army_adjacent(p("p510"), p("p509")));
    assert!(map.fleet_reach(Loc::from(p("sea"))).contains(p("p510")));
    // Units beyond the old 256 limit: a move, a support, and a convoy across the sea.
    let units = [
        "A p301".to_string(),
        "A p303".to_string(),
        "A p400".to_string(),
        "F sea".to_string(),
    ];
    let phase = Phase::parse("Fall 1901").unwrap();
    let pos = Position::from_units(&map, phase, [("red", &units[..])]).unwrap();
    let orders = arbiter::orders::parse_orders(
        &map,
        "Red:\nA p301 - p302\nA p303 S A p301 - p302\nA p400 - p100 via convoy\nF sea C A p400 - p100\n",
    );
    assert!(orders.diagnostics.is_empty(), "{:?}", orders.diagnostics);
    let (r, next) = advance(&map, Rules::default(), &pos, &orders.orders, None).unwrap();
    assert!(
        r.orders().iter().all(|o| o.outcome == Outcome::Succeeds),
        "{:?}",
        r.orders()
    );
    let at: BTreeSet<String> = next.units.iter().map(|u| map.loc_id(u.loc)).collect();
    assert_eq!(
        at,
        ["p100", "p302", "p303", "sea"]
            .map(String::from)
            .into_iter()
            .collect()
    );
    // After the Fall, Red owns p000 and p100 (two of six centres).
    let red = map.power_by_name("red").unwrap();
    assert_eq!(next.owners.iter().filter(|o| **o == Some(red)).count(), 2);
}

#[test]
fn a_board_of_513_provinces_is_refused() {
    let e = Map::from_yaml(&line_board(513), "line.yaml").unwrap_err();
    assert_eq!(e.problems.len(), 1, "{e}");
    assert_eq!(e.problems[0].code, arbiter::map::ProblemCode::TooMany);
    assert!(
        e.to_string()
            .starts_with("line.yaml:10: provinces: 513 provinces; a map may have at most 512"),
        "{e}"
    );
}
