//! No public entry point panics on ids that are not its map's (docs/ARCHITECTURE.md,
//! "Ids belong to one map"): positions and orders built on another board (world1914's
//! 244 provinces against the classic board's 75, and the other way round) and positions
//! and orders with random ids are refused with an error, never indexed out of bounds.

use std::sync::OnceLock;

use proptest::prelude::*;

use arbiter::game::advance;
use arbiter::judge::{
    adjudicate, adjudicate_adjustments, adjudicate_retreats, nationality_warnings, owed,
    owners_after, Rules,
};
use arbiter::legal::legal_orders;
use arbiter::map::{Loc, Map, Power, Prov, Season, UnitKind};
use arbiter::orders::{Order, OrderKind, Span, UnitRef};
use arbiter::render::{self, Scene};
use arbiter::selfplay::{scatter, SplitMix64};
use arbiter::state::{check_ids, Dislodged, Phase, PhaseKind, Position, Unit};

fn maps() -> &'static [Map; 2] {
    static MAPS: OnceLock<[Map; 2]> = OnceLock::new();
    MAPS.get_or_init(|| {
        [
            Map::standard(),
            Map::embedded("world1914").expect("world1914 is embedded"),
        ]
    })
}

/// A unit reference whose location is `loc`, for orders with chosen ids.
fn unit_ref(loc: u16) -> UnitRef {
    UnitRef {
        kind: Some(UnitKind::Army),
        loc: Loc(loc),
    }
}

/// An order of every kind, with ids drawn from `rng` below `bound` (and the power below
/// `powers`).
fn orders(rng: &mut SplitMix64, n: usize, bound: usize, powers: usize) -> Vec<Order> {
    let mut id = || rng.below(bound) as u16;
    (0..n)
        .map(|k| {
            let (a, b, c) = (id(), id(), id());
            let kind = match k % 7 {
                0 => OrderKind::Hold,
                1 => OrderKind::Move {
                    to: Loc(b),
                    via_convoy: k % 2 == 0,
                },
                2 => OrderKind::Support {
                    target: unit_ref(b),
                    to: Some(Loc(c)),
                },
                3 => OrderKind::Convoy {
                    army: unit_ref(b),
                    to: Loc(c),
                },
                4 => OrderKind::Disband,
                5 => OrderKind::Build,
                _ => OrderKind::Waive,
            };
            Order {
                power: Some(Power((usize::from(a) % powers.max(1)) as u8)),
                unit: (k % 7 != 6).then(|| unit_ref(a)),
                kind,
                text: "an order".into(),
                span: Span::default(),
                stated: (k % 3 == 0).then(|| {
                    (
                        Power((usize::from(b) % powers.max(1)) as u8),
                        Span::default(),
                    )
                }),
            }
        })
        .collect()
}

/// A position whose units, dislodged units, owners and saved builds have ids drawn
/// from `rng` below `bound` (powers below `powers`), in phase `kind`.
fn random_position(
    rng: &mut SplitMix64,
    kind: PhaseKind,
    n: usize,
    bound: usize,
    powers: usize,
    provs: usize,
) -> Position {
    let unit = |rng: &mut SplitMix64| Unit {
        power: Power(rng.below(powers) as u8),
        kind: UnitKind::Fleet,
        loc: Loc(rng.below(bound) as u16),
    };
    let season = match kind {
        PhaseKind::Adjustment => Season::Winter,
        _ => Season::Fall,
    };
    Position {
        phase: Phase {
            season,
            year: 1901,
            kind,
        },
        units: (0..n).map(|_| unit(rng)).collect(),
        owners: (0..provs)
            .map(|_| (rng.below(3) > 0).then(|| Power(rng.below(powers) as u8)))
            .collect(),
        dislodged: (0..n / 2)
            .map(|_| Dislodged {
                unit: unit(rng),
                by: Prov(rng.below(bound) as u16),
                retreats: vec![Loc(rng.below(bound) as u16)],
            })
            .collect(),
        saved: (0..rng.below(powers + 2)).map(|_| 1).collect(),
    }
}

/// Every public entry point that reads a position or orders, on `map`: each refuses
/// the input (`Err`) exactly when an id it would read is not on `map` (as `check_ids`
/// finds on the part it reads), and none panics.
fn every_entry(map: &Map, position: &Position, orders: &[Order]) {
    let rules = Rules::default();
    let foreign = check_ids(map, position, orders).is_err();
    // The parts of the position that some entries read alone.
    let board = Position {
        dislodged: Vec::new(),
        ..position.clone()
    };
    let units_and_orders = Position {
        owners: vec![None; map.province_count()],
        saved: Vec::new(),
        ..board.clone()
    };
    let units_foreign = check_ids(map, &units_and_orders, orders).is_err();
    let board_foreign = check_ids(map, &board, &[]).is_err();
    let owners_foreign = check_ids(
        map,
        &Position {
            saved: Vec::new(),
            ..board
        },
        &[],
    )
    .is_err();

    assert_eq!(
        advance(map, rules, position, orders, None).is_err(),
        foreign
    );
    assert_eq!(
        legal_orders(map, position, rules).is_err(),
        foreign_units(map, position)
    );
    match position.phase.kind {
        PhaseKind::Movement => {
            // A movement phase reads the units and orders alone.
            assert_eq!(
                adjudicate(map, position, orders, rules).is_err(),
                units_foreign
            );
        }
        PhaseKind::Retreat => {
            assert_eq!(adjudicate_retreats(map, position, orders).is_err(), foreign);
        }
        PhaseKind::Adjustment => {
            let adjudicated = adjudicate_adjustments(map, position, orders, rules);
            assert_eq!(adjudicated.is_err(), foreign);
        }
    }
    let warnings = nationality_warnings(map, &position.units, orders);
    assert_eq!(warnings.is_err(), units_foreign);
    let owed = owed(map, &position.owners, &position.units, &position.saved);
    assert_eq!(owed.is_err(), board_foreign);
    let after = owners_after(map, &position.owners, &position.units);
    assert_eq!(after.is_err(), owners_foreign);
    let _ = arbiter::game::winner(map, &position.owners);
    let scene = Scene {
        position,
        result: None,
        title: "foreign".into(),
        problems: Vec::new(),
        bare: false,
        graph: false,
    };
    assert_eq!(
        render::svg(map, &scene).is_err(),
        foreign_units(map, position)
    );
}

/// Does `position` hold an id `legal_orders` would read that is not on `map`?
fn foreign_units(map: &Map, position: &Position) -> bool {
    check_ids(map, position, &[]).is_err()
}

#[test]
fn positions_of_another_board_are_refused() {
    let [standard, world] = maps();
    let mut rng = SplitMix64::new(7);
    for (from, on) in [(world, standard), (standard, world)] {
        for kind in [
            PhaseKind::Movement,
            PhaseKind::Retreat,
            PhaseKind::Adjustment,
        ] {
            for n in [1, 10, 40] {
                let mut p = scatter(from, &mut rng, n);
                p.phase.kind = kind;
                p.phase.season = if kind == PhaseKind::Adjustment {
                    Season::Winter
                } else {
                    Season::Fall
                };
                let bound = from.provinces.len() + from.coasts.len();
                let o = orders(&mut rng, n, bound, from.powers.len());
                every_entry(on, &p, &o);
                every_entry(on, &p, &[]);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random ids, some on the map and some not, in every kind of phase.
    #[test]
    fn random_ids_are_refused_or_judged(
        m in 0usize..2,
        kind in prop_oneof![Just(PhaseKind::Movement), Just(PhaseKind::Retreat), Just(PhaseKind::Adjustment)],
        seed in any::<u64>(),
        n in 0usize..30,
        wide in any::<bool>(),
        owners_off in -2i64..3,
    ) {
        let map = &maps()[m];
        let mut rng = SplitMix64::new(seed);
        let locs = map.provinces.len() + map.coasts.len();
        // Mostly on the map; `wide`: up to twice its size, so some ids are off it.
        let bound = if wide { locs * 2 } else { locs };
        let powers = if wide { map.powers.len() * 2 } else { map.powers.len() };
        let provs = (map.province_count() as i64 + owners_off).max(0) as usize;
        let p = random_position(&mut rng, kind, n, bound, powers, provs);
        let o = orders(&mut rng, n, bound, powers);
        every_entry(map, &p, &o);
    }
}
