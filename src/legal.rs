//! Every legal order of a position, for programs that play: per unit in movement and
//! retreat phases, per power in adjustment phases, each as a typed [`Order`] whose
//! `text` is its canonical form ([`Order::canonical`]).
//!
//! "Legal" is what the adjudicator's legality filter (DATC 4.E.1, `judge::legality`)
//! accepts: every order listed is adjudicated without `illegal`, and every order the
//! filter accepts is listed in one spelling (one order per effect). An order can be
//! legal and still void in adjudication: a support of a move its unit is not making, a
//! convoy of an army that stays home. The lists are:
//!
//! - movement: hold; every move to an adjacent place (a fleet's coast spelled out);
//!   every convoyed move of an army to a coastal province that a chain of fleets at sea
//!   (of any power) reaches, written without `VIA CONVOY` when the province is not
//!   adjacent, and also `VIA CONVOY` to an adjacent one where the edition honours it
//!   (4.A.3); support to hold of every unit in a province the supporter could move to;
//!   support of every possible move (convoyed ones too, by routes without the
//!   supporter, 6.D.31) into such a province, naming the province and no coast; a
//!   convoy by each fleet at sea of every army move on a route that needs it (6.G.19);
//! - retreat: each dislodged unit's retreats (a fleet's coast spelled out) and its
//!   disband;
//! - adjustment: for a power owed builds, a build of each unit type (fleets on each
//!   coast) on each site the map's build rule allows now or with a saved build, a waive,
//!   and a save for a colonial build where allowed; for a power owing removals, the
//!   removal of each of its units.
//!
//! Cost: adjacency comes from the map's tables; an army's convoy destinations come from
//! one breadth-first search over fleets; each convoy order asks, for its fleet, army
//! and destination, the question legality asks (`convoy::necessary`: two breadth-first
//! searches for most fleets, a bounded search for the rest).

// Indexing is by the map's dense ids and by positions in vectors built here with
// one entry per unit or province. The position must be of `map` (the contract of
// the judge: game files resolve names against the map they name; `advance` checks
// ids with `game::check_ids`). An out-of-range index is a bug, not input.
#![allow(clippy::indexing_slicing)]

use crate::judge::convoy;
use crate::judge::{owed_checked, ConvoyIntent, Rules};
use crate::map::{Loc, Map, Power, Prov, ProvSet, Terrain, UnitKind};
use crate::orders::{Order, OrderKind, Span, UnitRef};
use crate::state::{check_ids, ForeignIds, PhaseKind, Position, Unit};

/// The legal orders of one unit: a unit on the board in a movement phase, a dislodged
/// unit in a retreat phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitOrders {
    pub unit: Unit,
    pub orders: Vec<Order>,
}

/// The legal orders of one power in an adjustment phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowerOrders {
    pub power: Power,
    /// Builds owed (positive) or removals owed (negative).
    pub change: i32,
    /// Builds saved last winter for a colonial build: at most this many of the builds
    /// may be on colonial sites (centres not home to the power, colonial build rule).
    pub saved: usize,
    /// Builds, waive and save (builds owed), or removals (removals owed).
    pub orders: Vec<Order>,
}

/// Every legal order of a position.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LegalOrders {
    /// Movement: per unit on the board, in the position's order. Retreat: per
    /// dislodged unit. Empty in an adjustment phase.
    pub units: Vec<UnitOrders>,
    /// Adjustment: per power owed builds or removals, in map order. Empty otherwise.
    pub powers: Vec<PowerOrders>,
}

impl LegalOrders {
    /// The number of orders listed.
    pub fn count(&self) -> usize {
        self.units.iter().map(|u| u.orders.len()).sum::<usize>()
            + self.powers.iter().map(|p| p.orders.len()).sum::<usize>()
    }
}

/// An order for `power` with its canonical text.
fn order(map: &Map, power: Power, unit: Option<UnitRef>, kind: OrderKind) -> Order {
    let mut o = Order {
        power: Some(power),
        unit,
        kind,
        text: smol_str::SmolStr::default(),
        span: Span::default(),
        stated: None,
    };
    o.text = o.canonical(map, None).into();
    o
}

fn unit_ref(u: &Unit) -> UnitRef {
    UnitRef {
        kind: Some(u.kind),
        loc: u.loc,
    }
}

/// Every legal order of `position` in its phase. Refused if an id of the position is
/// not on `map` ([`check_ids`]).
pub fn legal_orders(
    map: &Map,
    position: &Position,
    rules: Rules,
) -> Result<LegalOrders, ForeignIds> {
    check_ids(map, position, &[])?;
    Ok(match position.phase.kind {
        PhaseKind::Movement => LegalOrders {
            units: movement(map, &position.units, rules),
            powers: Vec::new(),
        },
        PhaseKind::Retreat => LegalOrders {
            units: retreats(map, position),
            powers: Vec::new(),
        },
        PhaseKind::Adjustment => LegalOrders {
            units: Vec::new(),
            powers: adjustments(map, position),
        },
    })
}

/// The moves of a unit: exact destinations, and whether by convoy.
struct Moves {
    /// Adjacent places (fleets: with the coast).
    near: Vec<Loc>,
    /// Armies: coastal provinces reachable by convoy (adjacent ones included).
    convoy: ProvSet,
    /// Armies: the fleets at sea reachable from the army's province.
    fleets: ProvSet,
}

fn moves_of(map: &Map, u: &Unit, fleets_at_sea: &ProvSet) -> Moves {
    let here = map.prov_of(u.loc);
    match u.kind {
        UnitKind::Army => {
            let near = map
                .army_neighbours(here)
                .iter()
                .filter(|&p| !matches!(map.terrain(p), Terrain::Sea | Terrain::Impassable))
                .map(Loc::from)
                .collect();
            let mut convoy = ProvSet::EMPTY;
            let mut fleets = ProvSet::EMPTY;
            if map.is_coastal(here) {
                fleets = convoy::reachable(map, fleets_at_sea, here);
                let mut touched = ProvSet::EMPTY;
                for s in fleets.iter() {
                    touched = touched.or(map.fleet_reach_any(s));
                }
                for p in touched.iter() {
                    if p != here
                        && map.is_coastal(p)
                        && !matches!(map.terrain(p), Terrain::Sea | Terrain::Impassable)
                        && map.fleet_reach_any(p).intersects(&fleets)
                    {
                        convoy.insert(p);
                    }
                }
            }
            Moves {
                near,
                convoy,
                fleets,
            }
        }
        UnitKind::Fleet => Moves {
            near: map
                .fleet_neighbours(u.loc)
                .iter()
                .copied()
                .filter(|&l| {
                    !matches!(
                        map.terrain(map.prov_of(l)),
                        Terrain::Land | Terrain::Impassable
                    )
                })
                .collect(),
            convoy: ProvSet::EMPTY,
            fleets: ProvSet::EMPTY,
        },
    }
}

/// The provinces a unit could move to, for the support rule (4.E.1: a unit supports
/// only into a province it could move to).
fn reach(map: &Map, u: &Unit) -> ProvSet {
    match u.kind {
        UnitKind::Army => *map.army_neighbours(map.prov_of(u.loc)),
        UnitKind::Fleet => *map.fleet_reach(u.loc),
    }
}

/// What the legal orders of a movement phase are read from: the units, where they
/// stand, and where each could move.
struct Board<'a> {
    map: &'a Map,
    units: &'a [Unit],
    /// Per province: the unit in it.
    unit_at: Vec<Option<usize>>,
    /// The provinces of the fleets at sea.
    fleets_at_sea: ProvSet,
    /// Per unit: where it could move.
    moves: Vec<Moves>,
    /// Per province: the units that could move there, as a support sees it (a fleet:
    /// any coast; `true`: an army only by convoy), as one sorted list.
    entries: Vec<(Prov, usize, bool)>,
    /// The entries of province `p` are `entries[start[p]..start[p + 1]]`.
    start: Vec<usize>,
}

impl<'a> Board<'a> {
    /// Where the units stand, where each could move, and who could move where.
    fn new(map: &'a Map, units: &'a [Unit]) -> Board<'a> {
        let mut unit_at: Vec<Option<usize>> = vec![None; map.province_count()];
        let mut fleets_at_sea = ProvSet::EMPTY;
        for (i, u) in units.iter().enumerate() {
            let p = map.prov_of(u.loc);
            unit_at[p.0 as usize] = Some(i);
            if u.kind == UnitKind::Fleet && map.is_sea(p) {
                fleets_at_sea.insert(p);
            }
        }
        let moves: Vec<Moves> = units
            .iter()
            .map(|u| moves_of(map, u, &fleets_at_sea))
            .collect();
        let (entries, start) = support_entries(map, units, &moves);
        Board {
            map,
            units,
            unit_at,
            fleets_at_sea,
            moves,
            entries,
            start,
        }
    }

    /// The units that could move into `p`, as a support sees it.
    #[inline]
    fn movers(&self, p: Prov) -> &[(Prov, usize, bool)] {
        &self.entries[self.start[p.0 as usize]..self.start[p.0 as usize + 1]]
    }

    /// Unit `i`'s moves, in order of destination: to each adjacent place, and by
    /// convoy (`via` a convoy to an adjacent province where the edition honours it).
    fn push_moves(&self, i: usize, via: bool, list: &mut Vec<Order>) {
        let (map, u) = (self.map, &self.units[i]);
        let me = Some(unit_ref(u));
        let here = map.prov_of(u.loc);
        let m = &self.moves[i];
        let mut dests: Vec<(Loc, bool)> = m.near.iter().map(|&l| (l, false)).collect();
        for p in m.convoy.iter() {
            if map.army_adjacent(here, p) {
                if via {
                    dests.push((p.into(), true));
                }
            } else {
                dests.push((p.into(), false));
            }
        }
        dests.sort();
        for (to, via_convoy) in dests {
            list.push(order(map, u.power, me, OrderKind::Move { to, via_convoy }));
        }
    }

    /// Unit `i`'s supports: to hold, then of moves, into each province it could enter.
    fn push_supports(&self, i: usize, list: &mut Vec<Order>) {
        let (map, units, u) = (self.map, self.units, &self.units[i]);
        let me = Some(unit_ref(u));
        let here = map.prov_of(u.loc);
        let r = reach(map, u);
        for p in r.iter() {
            if let Some(t) = self.unit_at[p.0 as usize].filter(|&t| t != i) {
                let target = unit_ref(&units[t]);
                list.push(order(
                    map,
                    u.power,
                    me,
                    OrderKind::Support { target, to: None },
                ));
            }
        }
        // Without this fleet, for the routes of supported convoys (6.D.31).
        let mut others = self.fleets_at_sea;
        others.remove(here);
        let at_sea = others != self.fleets_at_sea;
        for p in r.iter() {
            for &(_, t, by_convoy) in self.movers(p) {
                if t == i {
                    continue;
                }
                let tp = map.prov_of(units[t].loc);
                if by_convoy
                    && at_sea
                    && self.moves[t].fleets.contains(here)
                    && !convoy::route_exists(map, &others, tp, p)
                {
                    continue;
                }
                let target = unit_ref(&units[t]);
                list.push(order(
                    map,
                    u.power,
                    me,
                    OrderKind::Support {
                        target,
                        to: Some(p.into()),
                    },
                ));
            }
        }
    }

    /// Convoys: for each army move by convoy, the fleets on a route that needs them,
    /// each fleet's after its other orders.
    fn push_convoys(&self, out: &mut [UnitOrders]) {
        let (map, units) = (self.map, self.units);
        let mut convoys: Vec<Vec<(usize, Prov)>> = vec![Vec::new(); units.len()];
        for (a, u) in units.iter().enumerate() {
            let m = &self.moves[a];
            if u.kind != UnitKind::Army || m.convoy.is_empty() {
                continue;
            }
            let ap = map.prov_of(u.loc);
            for d in m.convoy.iter() {
                for f in convoy::necessary_among(map, &self.fleets_at_sea, ap, d, &m.fleets).iter()
                {
                    if let Some(fi) = self.unit_at[f.0 as usize] {
                        convoys[fi].push((a, d));
                    }
                }
            }
        }
        for (f, list) in convoys.into_iter().enumerate() {
            let u = &units[f];
            for (a, d) in list {
                out[f].orders.push(order(
                    map,
                    u.power,
                    Some(unit_ref(u)),
                    OrderKind::Convoy {
                        army: unit_ref(&units[a]),
                        to: d.into(),
                    },
                ));
            }
        }
    }
}

/// Per province, the units that could move there as a support sees it, as one sorted
/// list, and where each province's entries start in it.
fn support_entries(
    map: &Map,
    units: &[Unit],
    moves: &[Moves],
) -> (Vec<(Prov, usize, bool)>, Vec<usize>) {
    let mut entries: Vec<(Prov, usize, bool)> = Vec::new();
    for (i, u) in units.iter().enumerate() {
        match u.kind {
            UnitKind::Fleet => {
                entries.extend(map.fleet_reach(u.loc).iter().map(|p| (p, i, false)));
            }
            UnitKind::Army => {
                let land: ProvSet = moves[i].near.iter().map(|&l| map.prov_of(l)).collect();
                entries.extend(land.iter().map(|p| (p, i, false)));
                entries.extend(moves[i].convoy.minus(&land).iter().map(|p| (p, i, true)));
            }
        }
    }
    entries.sort_unstable();
    let mut start = vec![0usize; map.province_count() + 1];
    for &(p, _, _) in &entries {
        start[p.0 as usize + 1] += 1;
    }
    for k in 1..start.len() {
        start[k] += start[k - 1];
    }
    (entries, start)
}

/// The legal orders of a movement phase, per unit: hold, moves, supports, convoys.
fn movement(map: &Map, units: &[Unit], rules: Rules) -> Vec<UnitOrders> {
    let board = Board::new(map, units);
    let via = matches!(
        rules.convoy_intent,
        ConvoyIntent::ViaConvoyOrOwnFleet { .. }
    );
    let mut out: Vec<UnitOrders> = units
        .iter()
        .map(|u| UnitOrders {
            unit: *u,
            orders: Vec::new(),
        })
        .collect();
    for (i, u) in units.iter().enumerate() {
        let list = &mut out[i].orders;
        list.reserve(16);
        list.push(order(map, u.power, Some(unit_ref(u)), OrderKind::Hold));
        board.push_moves(i, via, list);
        board.push_supports(i, list);
    }
    board.push_convoys(&mut out);
    out
}

fn retreats(map: &Map, position: &Position) -> Vec<UnitOrders> {
    position
        .dislodged
        .iter()
        .map(|d| {
            let u = d.unit;
            let me = Some(unit_ref(&u));
            let mut orders: Vec<Order> = d
                .retreats
                .iter()
                .map(|&to| {
                    let to = match u.kind {
                        UnitKind::Army => map.prov_of(to).into(),
                        UnitKind::Fleet => to,
                    };
                    order(
                        map,
                        u.power,
                        me,
                        OrderKind::Move {
                            to,
                            via_convoy: false,
                        },
                    )
                })
                .collect();
            orders.push(order(map, u.power, me, OrderKind::Disband));
            UnitOrders { unit: u, orders }
        })
        .collect()
}

fn adjustments(map: &Map, position: &Position) -> Vec<PowerOrders> {
    let owed = owed_checked(map, &position.owners, &position.units, &position.saved);
    owed.iter()
        .filter(|o| o.change != 0)
        .map(|o| {
            let pw = o.power;
            let mut orders = Vec::new();
            if o.change < 0 {
                for u in position.units.iter().filter(|u| u.power == pw) {
                    orders.push(order(map, pw, Some(unit_ref(u)), OrderKind::Disband));
                }
            } else {
                let build = |kind, loc| {
                    order(
                        map,
                        pw,
                        Some(UnitRef {
                            kind: Some(kind),
                            loc,
                        }),
                        OrderKind::Build,
                    )
                };
                for &p in o.build_sites.iter().chain(&o.colonial_sites) {
                    if map.terrain(p) != Terrain::Sea {
                        orders.push(build(UnitKind::Army, p.into()));
                    }
                    if map.is_coastal(p) {
                        for l in map.unit_locs(UnitKind::Fleet, p) {
                            orders.push(build(UnitKind::Fleet, l));
                        }
                    }
                }
                orders.push(order(map, pw, None, OrderKind::Waive));
                if o.may_save {
                    orders.push(order(map, pw, None, OrderKind::Save));
                }
            }
            PowerOrders {
                power: pw,
                change: o.change,
                saved: o.saved,
                orders,
            }
        })
        .collect()
}

/// The lists as JSON (the batch's `"legal"` key): in movement and retreat phases an
/// object from each unit's location (`"STP/SC"`) to its orders; in an adjustment phase
/// an object from each power owed something to `{"change": n, "orders": [...]}`
/// (builds positive, removals negative), with `"saved": n` where the power has builds
/// saved for colonial builds. Orders in canonical form.
pub fn to_json(map: &Map, l: &LegalOrders) -> serde_json::Value {
    let texts = |v: &[Order]| serde_json::Value::from_iter(v.iter().map(|o| o.text.as_str()));
    let mut out = serde_json::Map::new();
    for u in &l.units {
        out.insert(map.loc_id(u.unit.loc).to_uppercase(), texts(&u.orders));
    }
    for p in &l.powers {
        let mut e = serde_json::json!({"change": p.change, "orders": texts(&p.orders)});
        if p.saved > 0 {
            e["saved"] = p.saved.into();
        }
        out.insert(map.power(p.power).id.clone(), e);
    }
    serde_json::Value::Object(out)
}
