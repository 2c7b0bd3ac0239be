//! Self-play: whole games with random legal orders for every power, as a soak test of
//! the adjudicator. Each phase's orders come from [`legal_orders`], picked at random
//! with a bias towards moves, supports of the moves made and convoys of the armies
//! going by sea; every phase goes through [`advance`], and after each one the
//! invariants are checked ([`check_phase`]). A game is a function of its seed: the
//! generator is a hand-written SplitMix64, so runs are the same on every machine.

// Self-play makes its own input: positions are built on `map` (`scatter`, then
// `advance`), every order comes from `legal_orders`, and the vectors indexed here
// (`chosen`, `units`, `ordered`, owners) have one entry per unit, order or
// province of that same map; `rng.below(n)` is below `n`. Out of range is a bug.
#![allow(clippy::indexing_slicing)]

use std::fmt;

use std::collections::BTreeMap;

use crate::game::{advance, Judged, PhaseResult};
use crate::gamefile::PositionRecord;
use crate::judge::{Outcome, Rules};
use crate::legal::legal_orders;
use crate::map::{Map, Power, ProvSet, Terrain, UnitKind};
use crate::orders::{Order, OrderKind};
use crate::report::json;
use crate::state::{Phase, PhaseKind, Position, Unit};

/// SplitMix64 (Steele, Lea and Flood): a small, fixed, portable generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// A random element, if any.
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> Option<&'a T> {
        if v.is_empty() {
            None
        } else {
            v.get(self.below(v.len()))
        }
    }

    /// Shuffle in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// A position of the map's first phase with `n` units (at most one per passable
/// province) of random powers on random provinces, of a random type where both may
/// stand; owners as at the start. For tests and benches: a crowded board on a map with
/// many seas has fleets at sea, so convoys come up.
pub fn scatter(map: &Map, rng: &mut SplitMix64, n: usize) -> Position {
    let provs: Vec<crate::map::Prov> = map
        .provs()
        .filter(|&p| map.terrain(p) != Terrain::Impassable)
        .collect();
    let mut provs = provs;
    rng.shuffle(&mut provs);
    let mut position = Position::initial(map);
    position.units = provs
        .into_iter()
        .take(n)
        .map(|p| {
            let kind = match map.terrain(p) {
                Terrain::Sea => UnitKind::Fleet,
                Terrain::Land => UnitKind::Army,
                _ if rng.chance(50) => UnitKind::Army,
                _ => UnitKind::Fleet,
            };
            let locs = map.unit_locs(kind, p);
            Unit {
                power: Power(rng.below(map.powers.len()) as u8),
                kind,
                loc: locs[rng.below(locs.len())],
            }
        })
        .collect();
    position
}

/// The seed of game `game` of a run seeded `seed`: a fixed function, so a game is the
/// same however many threads play the run.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    SplitMix64::new(seed ^ game.wrapping_mul(0xd1b5_4a32_d192_ed03)).next_u64()
}

/// One adjudicated phase of a game: the position it started from (units grouped by
/// power id), the orders given (grouped the same way, as a batch line lists them) and
/// the result.
#[derive(Clone, Debug)]
pub struct PhaseRecord {
    pub position: Position,
    pub orders: Vec<Order>,
    pub result: PhaseResult,
}

/// A whole game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub seed: u64,
    /// The phases adjudicated.
    pub phases: usize,
    /// The power that reached the victory threshold, if one did.
    pub winner: Option<Power>,
    /// The last phase adjudicated.
    pub last: Phase,
    /// Supply centres per power (map order) at the end.
    pub centres: Vec<usize>,
    /// Every phase, when asked for.
    pub record: Vec<PhaseRecord>,
}

/// An invariant that did not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub seed: u64,
    pub phase: Phase,
    pub what: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game seed {}, {}: {}", self.seed, self.phase, self.what)
    }
}

/// Play one game from the map's starting position with random legal orders until a
/// power wins or the Fall turn of `last_year` ends it, checking the invariants after
/// every phase. `record`: keep every phase ([`GameRecord::record`]).
pub fn play_game(
    map: &Map,
    rules: Rules,
    seed: u64,
    last_year: i32,
    record: bool,
) -> Result<GameRecord, Violation> {
    let mut rng = SplitMix64::new(seed);
    let mut position = Position::initial(map);
    let mut game = GameRecord {
        seed,
        phases: 0,
        winner: None,
        last: position.phase,
        centres: Vec::new(),
        record: Vec::new(),
    };
    loop {
        // Units and orders by power id: the order a batch line lists them in.
        position.units.sort_by_key(|u| &map.power(u.power).id);
        let legal = legal_orders(map, &position, rules).map_err(|e| Violation {
            seed,
            phase: position.phase,
            what: e.to_string(),
        })?;
        let mut orders = match position.phase.kind {
            PhaseKind::Movement => movement_orders(map, &mut rng, &legal.units),
            PhaseKind::Retreat => legal
                .units
                .iter()
                .filter_map(|u| {
                    let retreats = &u.orders[..u.orders.len().saturating_sub(1)];
                    if !retreats.is_empty() && rng.chance(85) {
                        rng.pick(retreats).cloned()
                    } else {
                        u.orders.last().cloned()
                    }
                })
                .collect(),
            PhaseKind::Adjustment => adjustment_orders(map, &mut rng, &legal.powers),
        };
        orders.sort_by_key(|o| o.power.map(|pw| &map.power(pw).id));
        let (result, next) =
            advance(map, rules, &position, &orders, Some(last_year)).map_err(|e| Violation {
                seed,
                phase: position.phase,
                what: e.to_string(),
            })?;
        check_phase(map, &position, &result, &next).map_err(|what| Violation {
            seed,
            phase: position.phase,
            what,
        })?;
        game.phases += 1;
        game.last = position.phase;
        let done = result.next.is_none();
        game.winner = result.winner;
        if record {
            game.record.push(PhaseRecord {
                position,
                orders,
                result,
            });
        }
        position = next;
        if done {
            break;
        }
    }
    game.centres = vec![0; map.powers.len()];
    for pw in position.owners.iter().flatten() {
        game.centres[pw.0 as usize] += 1;
    }
    Ok(game)
}

fn target_prov(map: &Map, o: &Order) -> Option<crate::map::Prov> {
    match o.kind {
        OrderKind::Move { to, .. } => Some(map.prov_of(to)),
        _ => None,
    }
}

/// One order per unit: mostly moves, some supports, convoys and holds; a move is
/// sometimes supported by a unit that can, and a convoyed move is convoyed by every
/// fleet on a route that needs it.
fn movement_orders(
    map: &Map,
    rng: &mut SplitMix64,
    units: &[crate::legal::UnitOrders],
) -> Vec<Order> {
    let mut chosen: Vec<Option<Order>> = vec![None; units.len()];
    let mut turn: Vec<usize> = (0..units.len()).collect();
    rng.shuffle(&mut turn);
    for &i in &turn {
        if chosen[i].is_some() {
            continue;
        }
        let list = &units[i].orders;
        let of = |want: fn(&OrderKind) -> bool| -> Vec<&Order> {
            list.iter().filter(|o| want(&o.kind)).collect()
        };
        let r = rng.below(100);
        let pool = if r < 60 {
            of(|k| matches!(k, OrderKind::Move { .. }))
        } else if r < 80 {
            of(|k| matches!(k, OrderKind::Support { .. }))
        } else if r < 88 {
            of(|k| matches!(k, OrderKind::Convoy { .. }))
        } else {
            Vec::new()
        };
        let Some(o) = rng
            .pick(&pool)
            .map(|o| (*o).clone())
            .or(list.first().cloned())
        else {
            continue;
        };
        if let (Some(dest), Some(me)) = (target_prov(map, &o), o.unit) {
            let from = map.prov_of(me.loc);
            let matches = |h: &Order| match h.kind {
                OrderKind::Convoy { army, to } => {
                    map.prov_of(army.loc) == from && map.prov_of(to) == dest
                }
                _ => false,
            };
            // Every fleet that may convoy this move does (a route is then ordered).
            for j in 0..units.len() {
                if chosen[j].is_none() && j != i {
                    if let Some(c) = units[j].orders.iter().find(|h| matches(h)) {
                        chosen[j] = Some(c.clone());
                    }
                }
            }
            // Sometimes a unit that can supports it.
            if rng.chance(50) {
                let helpers: Vec<(usize, &Order)> = (0..units.len())
                    .filter(|&j| j != i && chosen[j].is_none())
                    .filter_map(|j| {
                        units[j]
                            .orders
                            .iter()
                            .find(|h| match h.kind {
                                OrderKind::Support {
                                    target,
                                    to: Some(to),
                                } => map.prov_of(target.loc) == from && map.prov_of(to) == dest,
                                _ => false,
                            })
                            .map(|h| (j, h))
                    })
                    .collect();
                if let Some(&(j, h)) = rng.pick(&helpers) {
                    chosen[j] = Some(h.clone());
                }
            }
        }
        chosen[i] = Some(o);
    }
    chosen.into_iter().flatten().collect()
}

/// Builds on distinct sites up to what is owed (colonial builds up to the builds
/// saved), sometimes a save or fewer builds; removals of random units, sometimes one
/// short (civil disorder takes the rest).
fn adjustment_orders(
    map: &Map,
    rng: &mut SplitMix64,
    powers: &[crate::legal::PowerOrders],
) -> Vec<Order> {
    let mut out = Vec::new();
    for p in powers {
        let mut list: Vec<&Order> = p.orders.iter().collect();
        rng.shuffle(&mut list);
        if p.change < 0 {
            let mut k = p.change.unsigned_abs() as usize;
            if rng.chance(15) {
                k -= 1;
            }
            out.extend(list.into_iter().take(k).cloned());
            continue;
        }
        let mut left = p.change as usize;
        let mut colonial_left = p.saved;
        let mut used = ProvSet::EMPTY;
        for o in list {
            if left == 0 {
                break;
            }
            let ok = match (o.kind, o.unit) {
                (OrderKind::Build, Some(u)) => {
                    let site = map.prov_of(u.loc);
                    let colonial = map.build_rule == crate::map::BuildRule::Colonial
                        && map.province(site).home != Some(p.power);
                    let ok = !used.contains(site) && (!colonial || colonial_left > 0);
                    if ok {
                        used.insert(site);
                        colonial_left -= colonial as usize;
                    }
                    ok
                }
                (OrderKind::Save, _) => rng.chance(30),
                _ => rng.chance(10),
            };
            if ok {
                out.push(o.clone());
                left -= 1;
            }
        }
    }
    out
}

/// The invariants of one phase: every order has exactly one outcome and none is
/// illegal (they came from the legal lists); no two units share a province; the units
/// change in number only by the dislodgements, destructions, builds and removals the
/// result reports; every owned province is a supply centre, a centre never falls back
/// to no owner and changes hands only to a power whose unit stands on it; after the
/// adjustments no power has more units than centres.
pub fn check_phase(
    map: &Map,
    before: &Position,
    r: &PhaseResult,
    next: &Position,
) -> Result<(), String> {
    if r.orders().len() != r.input.len() {
        return Err(format!(
            "{} orders but {} outcomes",
            r.input.len(),
            r.orders().len()
        ));
    }
    let mut ordered = vec![false; r.units().len()];
    for (k, o) in r.orders().iter().enumerate() {
        if let Outcome::Illegal(why) = &o.outcome {
            return Err(format!(
                "the legal order `{}` was judged illegal: {}",
                r.input[k].text,
                why.describe(map)
            ));
        }
        match o.unit {
            Some(u) if u < ordered.len() && ordered[u] => {
                return Err(format!("two outcomes for {}", r.units()[u].short(map)));
            }
            Some(u) if u < ordered.len() => ordered[u] = true,
            Some(_) => return Err(format!("`{}` names no unit", r.input[k].text)),
            None if before.phase.kind != PhaseKind::Adjustment => {
                return Err(format!("`{}` bound to no unit", r.input[k].text))
            }
            None => {}
        }
    }
    let mut seen = ProvSet::EMPTY;
    for u in &next.units {
        let p = map.prov_of(u.loc);
        if seen.contains(p) {
            return Err(format!("two units in {}", map.province(p).name));
        }
        seen.insert(p);
        if let Some(why) = map.placement_problem(u.kind, u.loc) {
            return Err(format!("{}: {why}", u.short(map)));
        }
    }
    let count = |v: &[Unit]| v.len() as i64;
    let (expected, how) = match &r.judged {
        Judged::Movement(_) => (
            count(&before.units) - r.dislodged().len() as i64,
            "units before less those dislodged",
        ),
        Judged::Retreat(_) => (
            count(&before.units) + before.dislodged.len() as i64 - r.destroyed().len() as i64,
            "units and retreating units less those destroyed",
        ),
        Judged::Adjustment(a) => (
            count(&before.units) + a.built.len() as i64
                - a.removed.len() as i64
                - a.civil_disorder.len() as i64,
            "units before, plus builds, less removals",
        ),
    };
    if count(&next.units) != expected {
        return Err(format!(
            "{} units after, but {how} make {expected}",
            next.units.len()
        ));
    }
    // Unless the retreat phase was taken at once (nobody could retreat: all destroyed).
    let carried = if r.retreats_taken_at_once() {
        0
    } else {
        r.dislodged().len()
    };
    if next.dislodged.len() != carried {
        return Err("the dislodged units do not carry into the retreat phase".into());
    }
    let mut owned = 0;
    for p in map.provs() {
        let (was, now) = (before.owners[p.0 as usize], next.owners[p.0 as usize]);
        if now.is_some() {
            owned += 1;
            if !map.province(p).supply {
                return Err(format!(
                    "{} is owned but no supply centre",
                    map.province(p).name
                ));
            }
        }
        if was != now {
            let holder = next
                .units
                .iter()
                .find(|u| map.prov_of(u.loc) == p)
                .map(|u| u.power);
            if now.is_none() || holder != now || r.owners_after.is_none() {
                return Err(format!(
                    "{} changed hands without a unit of its new owner there",
                    map.province(p).name
                ));
            }
        }
    }
    let centres = map.provs().filter(|&p| map.province(p).supply).count();
    if owned > centres {
        return Err(format!("{owned} centres owned of {centres}"));
    }
    if before.phase.kind == PhaseKind::Adjustment {
        for pw in map.power_ids() {
            let units = next.units.iter().filter(|u| u.power == pw).count();
            let has = next.owners.iter().filter(|o| **o == Some(pw)).count();
            if units > has {
                return Err(format!(
                    "{} has {units} units and {has} centres after the adjustments",
                    map.power(pw).name
                ));
            }
        }
    }
    Ok(())
}

/// A phase as a batch line (`arbiter adjudicate --batch`) that replays it: the
/// position (units, dislodged units, centre owners, saved builds), the orders by
/// power, the game's last year, and under `expect` the result the game got (the batch
/// answer without its `id`).
pub fn batch_line(map: &Map, id: &str, last_year: i32, p: &PhaseRecord) -> serde_json::Value {
    let pos = PositionRecord::of(map, &p.position);
    let mut orders: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for o in &p.orders {
        if let Some(pw) = o.power {
            orders.entry(&map.power(pw).id).or_default().push(&o.text);
        }
    }
    // The writer's text always reads back: `Null` is never written.
    let expect = json::phase(map, &p.result, &[]).unwrap_or_default();
    serde_json::json!({
        "id": id,
        "map": map.name,
        "rules": p.result.rules.name(),
        "phase": p.position.phase.to_string(),
        "units": pos.units,
        "dislodged": pos.dislodged,
        "centers": pos.owners,
        "saved": pos.saved,
        "last_year": last_year,
        "orders": orders,
        "expect": expect,
    })
}
