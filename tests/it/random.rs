//! Random positions and orders (a fixed-seed generator, so failures reproduce):
//! adjudication never panics, its result is consistent with itself, and it does not
//! depend on the order the orders or units are written in. The parser never panics
//! on garbage.

use std::collections::{BTreeMap, BTreeSet};

use arbiter::judge::{adjudicate, enumerate_resolutions, MovementResult, Outcome, Rules};
use arbiter::map::{Loc, Map, Power, Terrain, UnitKind};
use arbiter::orders::{parse_orders, Order, OrderKind, Span, UnitRef};
use arbiter::state::{Phase, Position, Unit};

/// xorshift64*: small, deterministic.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len())]
    }
}

fn random_position(map: &Map, rng: &mut Rng, n: usize) -> Position {
    let provs: Vec<_> = map
        .provs()
        .filter(|&p| map.terrain(p) != Terrain::Impassable)
        .collect();
    place_units(map, rng, n, &provs)
}

/// Up to `n` units in a crowd: every province within two steps of a random one.
fn crowded_position(map: &Map, rng: &mut Rng, n: usize) -> Position {
    let all: Vec<_> = map
        .provs()
        .filter(|&p| map.terrain(p) != Terrain::Impassable)
        .collect();
    let mut near = vec![rng.pick(&all)];
    for _ in 0..2 {
        let mut next = near.clone();
        for &p in &near {
            let mut reach: Vec<_> = map.army_neighbours(p).iter().collect();
            for l in map.unit_locs(UnitKind::Fleet, p) {
                reach.extend(map.fleet_reach(l).iter());
            }
            for q in reach {
                if map.terrain(q) != Terrain::Impassable && !next.contains(&q) {
                    next.push(q);
                }
            }
        }
        near = next;
    }
    place_units(map, rng, n.min(near.len()), &near)
}

fn place_units(map: &Map, rng: &mut Rng, n: usize, provs: &[arbiter::map::Prov]) -> Position {
    let mut taken = BTreeSet::new();
    let mut units = Vec::new();
    while units.len() < n {
        let p = rng.pick(provs);
        if !taken.insert(p) {
            continue;
        }
        let kind = match map.terrain(p) {
            Terrain::Sea => UnitKind::Fleet,
            Terrain::Land => UnitKind::Army,
            _ => {
                if rng.below(2) == 0 {
                    UnitKind::Army
                } else {
                    UnitKind::Fleet
                }
            }
        };
        let locs = map.unit_locs(kind, p);
        let loc = rng.pick(&locs);
        units.push(Unit {
            power: Power(rng.below(map.powers.len()) as u8),
            kind,
            loc,
        });
    }
    Position {
        phase: Phase::first(map),
        units,
        owners: Position::home_owners(map),
        dislodged: Vec::new(),
        saved: Vec::new(),
    }
}

/// A random order for each unit, mostly plausible (neighbours, supports of neighbours'
/// moves, convoys), sometimes nonsense.
fn random_orders(map: &Map, rng: &mut Rng, pos: &Position) -> Vec<Order> {
    let all_locs: Vec<Loc> = map.locs().collect();
    let near = |u: &Unit| -> Vec<Loc> {
        let mut v: Vec<Loc> = match u.kind {
            UnitKind::Army => map
                .army_neighbours(map.prov_of(u.loc))
                .iter()
                .map(Loc::from)
                .collect(),
            UnitKind::Fleet => map.fleet_neighbours(u.loc).to_vec(),
        };
        if v.is_empty() {
            v.push(u.loc);
        }
        v
    };
    let mut out: Vec<Order> = Vec::new();
    let mut convoys: Vec<(Loc, Loc)> = Vec::new();
    for u in &pos.units {
        let me = Some(UnitRef {
            kind: Some(u.kind),
            loc: u.loc,
        });
        let other = pos.units[rng.below(pos.units.len())];
        let kind = match rng.below(10) {
            0 | 1 => OrderKind::Hold,
            2..=5 => OrderKind::Move {
                to: rng.pick(&near(u)),
                via_convoy: rng.below(8) == 0,
            },
            6 => OrderKind::Move {
                to: rng.pick(&all_locs),
                via_convoy: rng.below(2) == 0,
            },
            7 => OrderKind::Support {
                target: UnitRef {
                    kind: None,
                    loc: other.loc,
                },
                to: None,
            },
            8 => OrderKind::Support {
                target: UnitRef {
                    kind: None,
                    loc: other.loc,
                },
                to: Some(rng.pick(&near(&other))),
            },
            _ => OrderKind::Convoy {
                army: UnitRef {
                    kind: None,
                    loc: other.loc,
                },
                to: rng.pick(&all_locs),
            },
        };
        // Make convoys likely: a fleet at sea convoys an army on a shore it touches to
        // another shore it touches, and the army is often ordered to go.
        let kind = match (u.kind, map.is_sea(map.prov_of(u.loc)), rng.below(2)) {
            (UnitKind::Fleet, true, 0) => {
                let reach = map.fleet_reach(u.loc);
                let armies: Vec<&Unit> = pos
                    .units
                    .iter()
                    .filter(|a| a.kind == UnitKind::Army && reach.contains(map.prov_of(a.loc)))
                    .collect();
                let shores: Vec<Loc> = reach
                    .iter()
                    .filter(|&p| map.is_coastal(p))
                    .map(Loc::from)
                    .collect();
                if armies.is_empty() || shores.is_empty() {
                    kind
                } else {
                    let a = armies[rng.below(armies.len())];
                    let to = rng.pick(&shores);
                    convoys.push((a.loc, to));
                    OrderKind::Convoy {
                        army: UnitRef {
                            kind: Some(UnitKind::Army),
                            loc: a.loc,
                        },
                        to,
                    }
                }
            }
            _ => kind,
        };
        let power = if rng.below(20) == 0 {
            Some(Power(rng.below(7) as u8))
        } else {
            Some(u.power)
        };
        out.push(Order {
            power,
            unit: me,
            kind,
            text: Default::default(),
            span: Span::default(),
            stated: None,
        });
    }
    // Many units support a neighbour in what it does (so supports match and units fall).
    for i in 0..pos.units.len() {
        let u = pos.units[i];
        if rng.below(3) != 0 || matches!(out[i].kind, OrderKind::Convoy { .. }) {
            continue;
        }
        let reach = |p| match u.kind {
            UnitKind::Army => map.army_neighbours(map.prov_of(u.loc)).contains(p),
            UnitKind::Fleet => map.fleet_reach(u.loc).contains(p),
        };
        let friends: Vec<usize> = (0..pos.units.len())
            .filter(|&j| {
                j != i
                    && match out[j].kind {
                        OrderKind::Move { to, .. } => reach(map.prov_of(to)),
                        _ => reach(map.prov_of(pos.units[j].loc)),
                    }
            })
            .collect();
        if friends.is_empty() {
            continue;
        }
        let j = friends[rng.below(friends.len())];
        let target = UnitRef {
            kind: Some(pos.units[j].kind),
            loc: pos.units[j].loc,
        };
        out[i].kind = match out[j].kind {
            OrderKind::Move { to, .. } => OrderKind::Support {
                target,
                to: Some(to),
            },
            _ => OrderKind::Support { target, to: None },
        };
    }
    // Armies follow the convoys ordered for them, most of the time.
    for (from, to) in convoys {
        if rng.below(4) != 0 {
            if let Some(o) = out
                .iter_mut()
                .find(|o| o.unit.is_some_and(|u| u.loc == from))
            {
                o.kind = OrderKind::Move {
                    to,
                    via_convoy: rng.below(3) == 0,
                };
            }
        }
    }
    out
}

/// Units after (power, unit), dislodged (unit -> attacker origin, retreats), contested.
type Summary = (
    BTreeSet<(u8, String)>,
    BTreeMap<String, (String, Vec<String>)>,
    BTreeSet<String>,
);

/// What a phase decided, independent of the order units and orders were listed in.
fn summary(map: &Map, r: &MovementResult) -> Summary {
    let after = r
        .units_after()
        .iter()
        .map(|u| (u.power.0, u.short(map)))
        .collect();
    let dislodged = r
        .dislodged
        .iter()
        .map(|d| {
            let mut ret: Vec<String> = d.retreats.iter().map(|&l| map.loc_id(l)).collect();
            ret.sort();
            (d.unit.short(map), (map.province(d.by).id.clone(), ret))
        })
        .collect();
    let contested = r
        .contested
        .iter()
        .map(|&p| map.province(p).id.clone())
        .collect();
    (after, dislodged, contested)
}

fn check_consistent(map: &Map, pos: &Position, r: &MovementResult) {
    // No two units end in one province.
    let mut seen = BTreeSet::new();
    for u in r.units_after() {
        assert!(
            seen.insert(map.prov_of(u.loc)),
            "two units end in {}",
            map.loc_id(u.loc)
        );
    }
    assert_eq!(r.units_after().len() + r.dislodged.len(), pos.units.len());
    for d in &r.dislodged {
        let here = map.prov_of(d.unit.loc);
        // The attacker now stands where the dislodged unit stood.
        assert!(r.units_after().iter().any(|u| map.prov_of(u.loc) == here));
        for &l in &d.retreats {
            let p = map.prov_of(l);
            assert!(!seen.contains(&p), "retreat to an occupied province");
            assert!(!r.contested.contains(&p), "retreat to a standoff");
            assert!(
                crate::common::attack_by_convoy(map, r, d) || p != d.by,
                "retreat to the attacker's origin"
            );
        }
    }
    for &p in &r.contested {
        assert!(!seen.contains(&p), "a contested province is occupied");
    }
}

#[test]
fn random_phases_are_consistent_and_order_independent() {
    let map = Map::standard();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut convoyed, mut paradoxes, mut dislodged) = (0, 0, 0);
    for round in 0..3000 {
        let n = 2 + rng.below(40);
        let pos = random_position(&map, &mut rng, n);
        let orders = random_orders(&map, &mut rng, &pos);
        let rules = Rules::EDITIONS[round % Rules::EDITIONS.len()];
        let r = adjudicate(&map, &pos, &orders, rules).unwrap();
        check_consistent(&map, &pos, &r);
        // Reverse the orders and the units: the same decisions.
        let mut pos2 = pos.clone();
        pos2.units.reverse();
        let mut orders2 = orders.clone();
        orders2.reverse();
        let r2 = adjudicate(&map, &pos2, &orders2, rules).unwrap();
        assert_eq!(
            summary(&map, &r),
            summary(&map, &r2),
            "round {round}: order-dependent result"
        );
        let words: Vec<_> = r.orders.iter().map(|o| o.outcome.word()).collect();
        let mut words2: Vec<_> = r2.orders.iter().map(|o| o.outcome.word()).collect();
        words2.reverse();
        assert_eq!(words, words2, "round {round}: outcomes depend on order");
        for (k, o) in r.orders.iter().enumerate() {
            match (&orders[k].kind, &o.outcome) {
                (OrderKind::Convoy { .. }, arbiter::judge::Outcome::Succeeds) => convoyed += 1,
                (_, arbiter::judge::Outcome::Fails(arbiter::judge::Failure::Paradox)) => {
                    paradoxes += 1
                }
                _ => {}
            }
        }
        dislodged += r.dislodged.len();
    }
    // The generator reaches the interesting parts of the resolver.
    assert!(
        convoyed > 100 && dislodged > 100,
        "convoys {convoyed}, dislodged {dislodged}"
    );
    eprintln!("convoys {convoyed}, paradoxes {paradoxes}, dislodged {dislodged}");
}

/// Every phase in which the backup rule fires really has no resolution or two (DATC
/// 5.F), and every phase it does not touch has exactly one, the one the resolver chose:
/// checked against a brute-force enumeration of all resolutions of crowded phases. Every
/// decision decided before the search (`decide_alone`) has its value under every
/// assignment of the other decisions.
#[test]
fn the_backup_rule_fires_only_without_a_single_resolution() {
    let map = Map::standard();
    let mut rng = Rng(0x005e_ed0f_9a7a_d0c5);
    let (mut fired, mut checked, mut alone) = (0, 0, 0);
    for round in 0..40_000 {
        let n = 4 + rng.below(12);
        let pos = crowded_position(&map, &mut rng, n);
        let orders = random_orders(&map, &mut rng, &pos);
        // Every edition in turn: their paradox and convoy rules change the decisions.
        let rules = Rules::EDITIONS[round % Rules::EDITIONS.len()];
        let Some(e) = enumerate_resolutions(&map, &pos, &orders, rules, 14) else {
            continue;
        };
        checked += 1;
        alone += e.alone.len();
        assert!(
            e.alone_wrong.is_empty(),
            "round {round}: decided before the search, but another value under some \
             assignment: units {:?} of {:?}\n{pos:?}\n{orders:?}",
            e.alone_wrong,
            e.alone
        );
        if e.backup_fired {
            fired += 1;
            assert_ne!(
                e.solutions.len(),
                1,
                "round {round}: the backup rule fired on a phase with one resolution \
                 {:?}\n{pos:?}\n{orders:?}",
                e.solutions
            );
        } else {
            assert_eq!(
                e.solutions,
                vec![e.resolved.clone()],
                "round {round}: the resolver's answer is not the one resolution\n{pos:?}\n{orders:?}"
            );
        }
        // A failure reason always names its cause.
        let r = adjudicate(&map, &pos, &orders, rules).unwrap();
        for o in &r.orders {
            if let Outcome::Fails(arbiter::judge::Failure::Bounced { against, .. }) = &o.outcome {
                assert!(!against.is_empty(), "round {round}: a bounce names nobody");
            }
        }
    }
    eprintln!(
        "brute force: {checked} phases, backup rule in {fired}, {alone} decisions decided alone"
    );
    assert!(
        checked > 30_000 && fired > 50 && alone > 10_000,
        "checked {checked}, fired {fired}, decided alone {alone}"
    );
}

#[test]
fn the_parser_survives_garbage() {
    let map = Map::standard();
    let mut rng = Rng(42);
    let pieces = [
        "A",
        "F",
        "Par",
        "-",
        "->",
        "S",
        "C",
        "H",
        "via",
        "convoy",
        "(",
        ")",
        "/",
        "nc",
        "sc",
        "Spain",
        "St.",
        "North",
        "Sea",
        "England:",
        "[",
        "]",
        ",",
        ";",
        "#",
        "(*",
        "*)",
        "→",
        "é",
        "Build",
        "waive",
        "R",
        "D",
        "*",
        "+",
        ".",
        "  ",
        "Mid-Atlantic",
        "Bul",
        "(ec)",
        "12",
        "\t",
        "stp/nc",
        "Burgandi",
        ":",
        "to",
        "by",
    ];
    for _ in 0..5000 {
        let n = rng.below(12);
        let line: Vec<&str> = (0..n).map(|_| rng.pick(&pieces)).collect();
        let text = line.join(if rng.below(3) == 0 { "" } else { " " });
        let p = parse_orders(&map, &text);
        for d in &p.diagnostics {
            assert!(d.span.start <= d.span.end, "{text:?}");
            assert!(d.span.end as usize <= text.len() + 1, "{text:?}: {d:?}");
        }
        let _ = arbiter::orders::render_diagnostics(&p.diagnostics, &text, "x");
    }
}
