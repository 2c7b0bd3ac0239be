//! Adjudicate any position with any orders, in every phase and every edition.
//!
//! The bytes choose a shipped map, a phase (movement; retreat, with dislodged units and
//! retreats each could make; adjustment, with centre owners and saved builds), units
//! where units may stand, and orders: structured (any unit or none, any kind, any
//! place, any power or none) and, optionally, text parsed on the map. Then
//! `game::advance` runs with every edition, and two more phases are played with no
//! orders. Invariants: every input order gets exactly one outcome; no two units share
//! a province after any phase; the dislodged units of the next phase are in distinct
//! provinces, and their retreats are vacant.
#![no_main]

use std::sync::OnceLock;

use arbiter::game::advance;
use arbiter::judge::Rules;
use arbiter::map::{BuildRule, Loc, Map, Power, Prov, Season, UnitKind};
use arbiter::orders::{Order, OrderKind, ParseOptions, Span, UnitRef};
use arbiter::state::{Dislodged, Phase, PhaseKind, Position, Unit};
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

/// A place a unit of `kind` may stand in province `p` (a coast for a fleet in a split
/// province; the province for an army).
fn place(u: &mut Unstructured, map: &Map, kind: UnitKind, p: Prov) -> Result<Option<Loc>> {
    let coasts = &map.province(p).coasts;
    let loc = if kind == UnitKind::Fleet && !coasts.is_empty() {
        coasts[u.choose_index(coasts.len())?]
    } else {
        p.into()
    };
    Ok(map.placement_problem(kind, loc).is_none().then_some(loc))
}

fn any_loc(u: &mut Unstructured, map: &Map) -> Result<Loc> {
    Ok(Loc(u.choose_index(map.locs().count())? as u16))
}

fn any_power(u: &mut Unstructured, map: &Map) -> Result<Power> {
    Ok(Power(u.choose_index(map.powers.len())? as u8))
}

/// Units on free provinces, each placed where it may stand.
fn units(u: &mut Unstructured, map: &Map, taken: &mut [bool], most: usize) -> Result<Vec<Unit>> {
    let n = u.int_in_range(0..=most)?;
    let mut out = Vec::new();
    for _ in 0..n {
        let p = Prov(u.choose_index(map.province_count())? as u16);
        let kind = if u.arbitrary()? {
            UnitKind::Fleet
        } else {
            UnitKind::Army
        };
        let power = any_power(u, map)?;
        if taken[p.0 as usize] {
            continue;
        }
        if let Some(loc) = place(u, map, kind, p)? {
            taken[p.0 as usize] = true;
            out.push(Unit { power, kind, loc });
        }
    }
    Ok(out)
}

/// A place near `from` (where a unit there could go), or anywhere.
fn near(u: &mut Unstructured, map: &Map, from: Loc) -> Result<Loc> {
    if u.ratio(1, 4)? {
        return any_loc(u, map);
    }
    let kind = if u.arbitrary()? {
        UnitKind::Fleet
    } else {
        UnitKind::Army
    };
    let to: Vec<Loc> = map
        .locs()
        .filter(|&l| map.can_reach(kind, from, map.prov_of(l)))
        .collect();
    if to.is_empty() {
        return any_loc(u, map);
    }
    Ok(to[u.choose_index(to.len())?])
}

fn unit_ref(u: &mut Unstructured, map: &Map, units: &[Unit]) -> Result<UnitRef> {
    let (kind, loc) = if !units.is_empty() && u.ratio(7, 8)? {
        let unit = units[u.choose_index(units.len())?];
        (Some(unit.kind), unit.loc)
    } else {
        (None, any_loc(u, map)?)
    };
    let kind = match u.int_in_range(0..=5)? {
        0 => None,
        1 => Some(UnitKind::Army),
        2 => Some(UnitKind::Fleet),
        _ => kind,
    };
    Ok(UnitRef { kind, loc })
}

fn order(u: &mut Unstructured, map: &Map, units: &[Unit]) -> Result<Order> {
    let unit = unit_ref(u, map, units)?;
    let owner = units.iter().find(|x| x.loc == unit.loc).map(|x| x.power);
    let power = match u.int_in_range(0..=3)? {
        0 => None,
        1 => Some(any_power(u, map)?),
        _ => owner,
    };
    let kind = match u.int_in_range(0..=8)? {
        0 => OrderKind::Hold,
        1 | 2 => OrderKind::Move {
            to: near(u, map, unit.loc)?,
            via_convoy: u.ratio(1, 4)?,
        },
        3 | 4 => {
            let target = unit_ref(u, map, units)?;
            let to = if u.arbitrary()? {
                Some(near(u, map, target.loc)?)
            } else {
                None
            };
            OrderKind::Support { target, to }
        }
        5 => {
            let army = unit_ref(u, map, units)?;
            OrderKind::Convoy {
                army,
                to: any_loc(u, map)?,
            }
        }
        6 => OrderKind::Disband,
        7 => OrderKind::Build,
        _ => {
            if u.arbitrary()? {
                OrderKind::Waive
            } else {
                OrderKind::Save
            }
        }
    };
    let unit = (kind != OrderKind::Waive || u.ratio(1, 8)?).then_some(unit);
    let stated = if u.ratio(1, 8)? {
        Some((any_power(u, map)?, Span::default()))
    } else {
        None
    };
    let mut o = Order {
        power,
        unit,
        kind,
        text: Default::default(),
        span: Span::default(),
        stated,
    };
    o.text = o.canonical(map, None).into();
    Ok(o)
}

fn position(u: &mut Unstructured, map: &Map) -> Result<Position> {
    let kind = match u.int_in_range(0..=2)? {
        0 => PhaseKind::Movement,
        1 => PhaseKind::Retreat,
        _ => PhaseKind::Adjustment,
    };
    let season = match kind {
        PhaseKind::Adjustment => Season::Winter,
        _ if u.arbitrary()? => Season::Fall,
        _ => Season::Spring,
    };
    let year = if u.ratio(1, 16)? {
        u.int_in_range(0..=999_999)?
    } else {
        map.start_year + u.int_in_range(0..=20)?
    };
    let phase = Phase { season, year, kind };
    let mut taken = vec![false; map.province_count()];
    let most = map.province_count().min(60);
    let board = units(u, map, &mut taken, most)?;
    let mut position = Position::initial(map);
    position.phase = phase;
    position.units = board;
    // Owners: the home centres, or any power (or none) per centre.
    if u.arbitrary()? {
        for p in map.provs() {
            if map.province(p).supply {
                position.owners[p.0 as usize] = match u.int_in_range(0..=2)? {
                    0 => None,
                    1 => Some(any_power(u, map)?),
                    _ => position.owners[p.0 as usize],
                };
            }
        }
    }
    if kind == PhaseKind::Retreat {
        // Dislodged units stand where the board's units may be (their attackers), each
        // in its own province, retreating only to vacant places it could move to.
        let mut gone = vec![false; map.province_count()];
        for d in units(u, map, &mut gone, 8)? {
            let from = map.prov_of(d.loc);
            let mut retreats = Vec::new();
            for l in map.locs() {
                let p = map.prov_of(l);
                let l = if d.kind == UnitKind::Army {
                    p.into()
                } else {
                    l
                };
                if !taken[p.0 as usize]
                    && p != from
                    && map.can_reach(d.kind, d.loc, p)
                    && map.placement_problem(d.kind, l).is_none()
                    && !retreats.contains(&l)
                    && u.arbitrary()?
                {
                    retreats.push(l);
                }
            }
            let by = Prov(u.choose_index(map.province_count())? as u16);
            position.dislodged.push(Dislodged {
                unit: d,
                by,
                retreats,
            });
        }
    }
    if map.build_rule == BuildRule::Colonial && u.arbitrary()? {
        let mut saved = Vec::new();
        for _ in 0..map.powers.len() {
            saved.push(u.int_in_range(0..=3)?);
        }
        position.set_saved(saved);
    }
    Ok(position)
}

fn check(map: &Map, orders: &[Order], result: &arbiter::game::PhaseResult, next: &Position) {
    assert_eq!(
        result.orders().len(),
        orders.len(),
        "one outcome per input order"
    );
    let mut seen = vec![false; map.province_count()];
    for unit in &next.units {
        let p = map.prov_of(unit.loc).0 as usize;
        assert!(
            !seen[p],
            "two units in {} after {}",
            map.province(Prov(p as u16)).id,
            result.phase
        );
        seen[p] = true;
        assert!(map.placement_problem(unit.kind, unit.loc).is_none());
    }
    let mut gone = vec![false; map.province_count()];
    for d in &next.dislodged {
        let p = map.prov_of(d.unit.loc).0 as usize;
        assert!(!gone[p], "two dislodged units in one province");
        gone[p] = true;
        for &r in &d.retreats {
            assert!(
                !seen[map.prov_of(r).0 as usize],
                "a retreat to an occupied province"
            );
        }
    }
}

fn run(u: &mut Unstructured) -> Result<()> {
    let maps = maps();
    let map = &maps[u.choose_index(maps.len())?];
    let position = position(u, map)?;
    let board: Vec<Unit> = position
        .units
        .iter()
        .copied()
        .chain(position.dislodged.iter().map(|d| d.unit))
        .collect();
    let n = u.int_in_range(0..=40)?;
    let mut orders = Vec::with_capacity(n);
    for _ in 0..n {
        orders.push(order(u, map, &board)?);
    }
    if u.ratio(1, 4)? {
        let text: &str = u.arbitrary()?;
        let strict = u.arbitrary()?;
        orders
            .extend(arbiter::orders::parse_orders_with(map, text, ParseOptions { strict }).orders);
    }
    let last_year = if u.ratio(1, 4)? {
        Some(position.phase.year + u.int_in_range(-1..=1)?)
    } else {
        None
    };
    for rules in Rules::EDITIONS {
        let (result, next) = advance(map, rules, &position, &orders, last_year)
            .expect("the position and orders have the map's ids");
        check(map, &orders, &result, &next);
        if rules == Rules::default() && result.next.is_some() {
            // Play on with no orders: retreats disbanded, civil disorder, holds.
            let mut at = next;
            for _ in 0..2 {
                let (r, n) = advance(map, rules, &at, &[], last_year)
                    .expect("a phase's own result has the map's ids");
                check(map, &[], &r, &n);
                if r.next.is_none() {
                    break;
                }
                at = n;
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
