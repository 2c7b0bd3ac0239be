//! `arbiter judge` and `arbiter undo` on a game file, as the referee commands drive
//! the library (`Game::judge`, `Game::record`, `Game::undo`, `Game::rejudge`).
//!
//! The input is a game file and a script, split at the first NUL byte: the text before
//! it is read as a game file (`Game::from_yaml` against the embedded map it names); with
//! no NUL, or a file that does not load, the script starts a new game on a shipped map
//! (maybe with a last year). The script's bytes then judge the current phase with one
//! to three random order slips (orders for the board's units, builds, removals and
//! waives, right or wrong places and powers, power headers and prefixes, separators,
//! garbage), strict or lenient, accepted or not, and undo.
//!
//! Invariants, after every step: the game as saved (`to_yaml`) is read back by the
//! loader, and writes the same text again (no command may save what the loader
//! refuses); no two units share a province; an undo gives back, byte for byte, the game
//! as it was before the phase it undoes was judged; every judged phase judges again
//! from its stored orders.
#![no_main]

use std::sync::OnceLock;

use arbiter::gamefile::{Game, OrderFile};
use arbiter::judge::Rules;
use arbiter::map::{Loc, Map, UnitKind};
use arbiter::state::{PhaseKind, Unit};
use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

fn maps() -> &'static [Map] {
    static MAPS: OnceLock<Vec<Map>> = OnceLock::new();
    MAPS.get_or_init(|| {
        ["standard", "classic1913", "world1914"]
            .iter()
            .filter_map(|n| Map::embedded(n))
            .collect()
    })
}

fn any_loc(u: &mut Unstructured, map: &Map) -> Result<Loc> {
    Ok(Loc(u.choose_index(map.locs().count())? as u16))
}

/// A place id as a player may write it: where a unit at `from` could go (mostly), or
/// anywhere.
fn place(u: &mut Unstructured, map: &Map, from: Loc) -> Result<String> {
    let to: Vec<Loc> = if u.ratio(3, 4)? {
        map.locs()
            .filter(|&l| {
                map.can_reach(UnitKind::Army, from, map.prov_of(l))
                    || map.can_reach(UnitKind::Fleet, from, map.prov_of(l))
            })
            .collect()
    } else {
        Vec::new()
    };
    let l = if to.is_empty() {
        any_loc(u, map)?
    } else {
        to[u.choose_index(to.len())?]
    };
    Ok(map.loc_id(l))
}

fn power_word(u: &mut Unstructured, map: &Map, owner: Option<&Unit>) -> Result<String> {
    Ok(match (owner, u.int_in_range(0..=3)?) {
        (Some(unit), 0 | 1) => map.power(unit.power).id.clone(),
        _ => {
            let ids: Vec<_> = map.power_ids().collect();
            map.power(ids[u.choose_index(ids.len())?]).id.clone()
        }
    })
}

/// One order line for the current phase.
fn order_line(u: &mut Unstructured, map: &Map, game: &Game) -> Result<String> {
    let p = &game.position;
    let units: Vec<&Unit> = match p.phase.kind {
        PhaseKind::Retreat if u.ratio(7, 8)? => p.dislodged.iter().map(|d| &d.unit).collect(),
        _ => p.units.iter().collect(),
    };
    let unit = if units.is_empty() {
        None
    } else {
        Some(units[u.choose_index(units.len())?])
    };
    let short = match unit {
        Some(x) if u.ratio(7, 8)? => x.short(map),
        _ => {
            let kind = if u.arbitrary()? { "A" } else { "F" };
            format!("{kind} {}", map.loc_id(any_loc(u, map)?))
        }
    };
    let from = unit.map(|x| x.loc).unwrap_or(Loc(0));
    let other = |u: &mut Unstructured| -> Result<String> {
        Ok(if p.units.is_empty() {
            format!("A {}", map.loc_id(any_loc(u, map)?))
        } else {
            p.units[u.choose_index(p.units.len())?].short(map)
        })
    };
    let body = match u.int_in_range(0..=14)? {
        0 => format!("{short} H"),
        1..=3 => format!("{short} - {}", place(u, map, from)?),
        4 => format!("{short} S {}", other(u)?),
        5 | 6 => {
            let o = other(u)?;
            let to = place(u, map, from)?;
            format!("{short} S {o} - {to}")
        }
        7 => {
            let o = other(u)?;
            let to = any_loc(u, map)?;
            format!("{short} C {o} - {}", map.loc_id(to))
        }
        8 => format!("{short} - {} via convoy", place(u, map, from)?),
        9 => format!("{short} D"),
        10 => {
            let kind = if u.arbitrary()? { "A" } else { "F" };
            format!("Build {kind} {}", map.loc_id(any_loc(u, map)?))
        }
        11 => format!("Remove {short}"),
        12 => "Waive".to_string(),
        13 => format!("{short} R {}", place(u, map, from)?),
        _ => {
            let s: &str = u.arbitrary()?;
            s.chars().take(40).collect()
        }
    };
    Ok(match u.int_in_range(0..=5)? {
        0 => format!("{}: {body}", power_word(u, map, unit)?),
        _ => body,
    })
}

/// A slip: a header line maybe, then orders, one a line or several joined by `,`/`;`.
fn slip(u: &mut Unstructured, map: &Map, game: &Game) -> Result<String> {
    let mut text = String::new();
    if u.ratio(1, 3)? {
        text.push_str(&power_word(u, map, None)?);
        text.push_str(":\n");
    }
    let n = u.int_in_range(0..=12)?;
    for _ in 0..n {
        text.push_str(&order_line(u, map, game)?);
        text.push_str(match u.int_in_range(0..=7)? {
            0 => ", ",
            1 => "; ",
            2 => ",,,\n",
            _ => "\n",
        });
    }
    Ok(text)
}

fn saved(map: &Map, game: &Game) -> String {
    let text = game.to_yaml(map);
    let again = Game::from_yaml(map, &text)
        .unwrap_or_else(|e| panic!("a saved game reads back: {e}\n{text}"));
    assert_eq!(again.to_yaml(map), text, "written twice the same");
    let mut seen = vec![false; map.province_count()];
    for unit in &game.position.units {
        let p = map.prov_of(unit.loc).0 as usize;
        assert!(!seen[p], "two units in one province\n{text}");
        seen[p] = true;
    }
    text
}

fn run(data: &[u8]) -> Result<()> {
    let maps = maps();
    let (file, script) = match data.iter().position(|&b| b == 0) {
        Some(k) => (std::str::from_utf8(&data[..k]).ok(), &data[k + 1..]),
        None => (None, data),
    };
    let u = &mut Unstructured::new(script);
    let loaded = file.and_then(|text| {
        let f = arbiter::gamefile::GameFile::from_yaml(text).ok()?;
        let map = maps.iter().find(|m| m.name == f.map)?;
        Some((map, Game::from_file(map, &f).ok()?))
    });
    let (map, mut game) = match loaded {
        Some(g) => g,
        None => {
            let map = &maps[u.choose_index(maps.len())?];
            let last_year = if u.ratio(1, 4)? {
                Some(map.start_year + u.int_in_range(0..=3)?)
            } else {
                None
            };
            let rules = Rules::EDITIONS[u.choose_index(Rules::EDITIONS.len())?];
            (map, Game::new(map, "fuzz", None, rules, last_year))
        }
    };
    // The text before each phase this script judged, to compare undo with.
    let mut before: Vec<String> = Vec::new();
    saved(map, &game);
    let steps = u.int_in_range(1..=12)?;
    for _ in 0..steps {
        if u.ratio(1, 4)? {
            let judged = game.history.len();
            if game.undo().is_some() {
                let now = saved(map, &game);
                // Undo gives back the game exactly as it was (the links and pending
                // orders of `arbiter serve` aside: judging drops those).
                if let Some(was) = before.pop() {
                    assert_eq!(now, was, "undo gives back the game as it was");
                }
                assert_eq!(game.history.len() + 1, judged);
            } else {
                assert!(game.history.is_empty());
            }
            continue;
        }
        if game.over.is_some() {
            continue;
        }
        let n = u.int_in_range(1..=3)?;
        let mut files = Vec::new();
        for k in 0..n {
            files.push(OrderFile {
                file: format!("slip{k}.txt"),
                text: slip(u, map, &game)?,
            });
        }
        let strict = u.ratio(1, 4)?;
        let accept: bool = u.arbitrary()?;
        let j = game
            .judge(map, &files, strict)
            .expect("orders read on the game's map have its ids");
        assert_eq!(j.diagnostics.len(), files.len(), "diagnostics per file");
        let errors = j.has_errors();
        if errors && !accept {
            continue;
        }
        let mut was = game.clone();
        was.drop_pending();
        before.push(was.to_yaml(map));
        game.record(map, files, j, errors);
        saved(map, &game);
        let k = game.history.len() - 1;
        game.rejudge(map, k)
            .expect("the phase just recorded")
            .expect("its own orders have the map's ids");
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});
