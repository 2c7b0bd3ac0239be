//! Adjudicate a 34-unit mid-game movement phase with supports, a convoy and a convoy
//! paradox (`test-cases/regressions/midgame.yaml`): legality, resolution and retreat
//! options. Target: median ≤ 2 µs on the project's 2-core machine (issue 13). The loop checks its
//! own result: 20 orders succeed, 2 units are dislodged.

/// The allocator the `arbiter` binary uses (src/main.rs), so the benches measure
/// what the command runs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{black_box, criterion_group, criterion_main, Criterion};

use arbiter::cases::parse_cases;
use arbiter::judge::{adjudicate, Rules};
use arbiter::map::Map;

fn bench(c: &mut Criterion) {
    let map = Map::standard();
    let cases = parse_cases(include_str!("../test-cases/regressions/midgame.yaml")).unwrap();
    let case = cases.iter().find(|c| c.id == "arbiter.midgame.34").unwrap();
    let p = case.prepare(&map).unwrap();
    assert!(p.problems.is_empty());
    assert_eq!(p.position.units.len(), 34);
    assert_eq!(p.orders.len(), 34);
    c.bench_function("adjudicate 34-unit movement phase", |b| {
        b.iter(|| {
            let r = adjudicate(
                &map,
                black_box(&p.position),
                black_box(&p.orders),
                Rules::default(),
            )
            .unwrap();
            assert_eq!(
                r.orders.iter().filter(|o| o.outcome.succeeded()).count(),
                20
            );
            assert_eq!(r.dislodged.len(), 2);
            assert!(r.dislodged.iter().all(|d| d.retreats.is_empty()));
            r
        })
    });
}

/// The worst case for convoy legality: a fleet in every sea, all ordered to convoy an
/// army from London to Syria. Nine fleets lie on a route that cannot be shortened
/// (see `judge::convoy` tests); the other ten convoys are illegal; the army arrives.
fn all_seas_convoy(c: &mut Criterion) {
    let map = Map::standard();
    let mut text = String::from("England:\nA Lon - Syr\n");
    let mut units = vec!["A lon".to_string()];
    for s in map.seas().iter() {
        let id = &map.province(s).id;
        text.push_str(&format!("F {id} C A Lon - Syr\n"));
        units.push(format!("F {id}"));
    }
    let phase = arbiter::state::Phase::parse("Spring 1901").unwrap();
    let position =
        arbiter::state::Position::from_units(&map, phase, [("england", &units[..])]).unwrap();
    let orders = arbiter::orders::parse_orders(&map, &text).orders;
    assert_eq!(orders.len(), 20);
    c.bench_function("adjudicate 19-fleet convoy to Syria", |b| {
        b.iter(|| {
            let r = adjudicate(
                &map,
                black_box(&position),
                black_box(&orders),
                Rules::default(),
            )
            .unwrap();
            assert_eq!(
                r.orders
                    .iter()
                    .filter(|o| o.outcome.word() == "illegal")
                    .count(),
                10
            );
            assert!(r.orders[0].outcome.succeeded());
            r
        })
    });
}

/// A whole Fall turn's end through `game::advance`: the 34-unit movement phase with its
/// two dislodged units, their retreat phase (neither has a retreat, so it is taken at
/// once and both are destroyed), centre ownership, and the Winter adjustment phase with
/// civil disorder for every power that owes removals. The loop checks each step.
fn fall_to_spring(c: &mut Criterion) {
    use arbiter::game::advance;
    use arbiter::state::{Phase, PhaseKind};
    let map = Map::standard();
    let cases = parse_cases(include_str!("../test-cases/regressions/midgame.yaml")).unwrap();
    let case = cases.iter().find(|c| c.id == "arbiter.midgame.34").unwrap();
    let mut p = case.prepare(&map).unwrap();
    p.position.phase = Phase::parse("Fall 1905").unwrap();
    c.bench_function("advance 34-unit Fall turn to Spring (3 phases)", |b| {
        b.iter(|| {
            let (m, winter) = advance(
                &map,
                Rules::default(),
                black_box(&p.position),
                black_box(&p.orders),
                None,
            )
            .unwrap();
            // Neither dislodged unit has anywhere to go, so the retreat phase is taken
            // at once (docs/GAMES.md, "Automatic phases"): both are destroyed and the
            // Fall turn ends in the same call.
            assert_eq!(m.dislodged().len(), 2);
            assert!(m.dislodged().iter().all(|d| d.retreats.is_empty()));
            assert_eq!(m.skipped.first().map(|p| p.kind), Some(PhaseKind::Retreat));
            assert_eq!(m.destroyed().len(), 2);
            assert!(m.owners_after.is_some());
            assert_eq!(winter.phase.kind, PhaseKind::Adjustment);
            let (a, spring) = advance(&map, Rules::default(), &winter, &[], None).unwrap();
            let owed: i32 = m.owed.iter().map(|o| (-o.change).max(0)).sum();
            assert_eq!(a.adjustment().unwrap().civil_disorder.len() as i32, owed);
            assert_eq!(spring.phase.kind, PhaseKind::Movement);
            spring
        })
    });
}

#[path = "../tests/it/common/convoy_board.rs"]
mod convoy_board;

/// Defect 11: convoy legality on a board of 150 densely connected seas (a 10 × 15
/// grid, each sea touching its eight neighbours) and 6 trap seas, a fleet in each, every
/// fleet convoying one of four armies across (`tests/it/convoy_scale.rs`). The old search
/// over every induced route took hours here. The loop checks the traps' convoys are
/// illegal, the convoys in each army's own row legal, and every army arrives.
fn grid_of_150_seas(c: &mut Criterion) {
    use arbiter::game::advance;
    use arbiter::judge::{Illegal, Outcome};
    use arbiter::map::UnitKind;
    use convoy_board::{Board, Sea};

    let b = Board::grid(10, 15, 4, 6);
    let (map, position, orders) = b.load();
    c.bench_function("adjudicate 150-sea grid, every fleet convoying", |bench| {
        bench.iter(|| {
            let (r, _) = advance(
                &map,
                Rules::default(),
                black_box(&position),
                black_box(&orders),
                None,
            )
            .unwrap();
            for (k, sea) in b.order_sea.iter().enumerate() {
                match sea {
                    Sea::Trap => {
                        assert_eq!(r.orders()[k].outcome, Outcome::Illegal(Illegal::NotOnRoute))
                    }
                    Sea::Row => assert!(r.orders()[k].outcome.succeeded()),
                    Sea::Grid => {}
                }
            }
            let armies = r
                .units_after
                .iter()
                .filter(|u| u.kind == UnitKind::Army)
                .count();
            assert_eq!(armies, b.armies);
            r
        })
    });
}

criterion_group!(
    benches,
    bench,
    all_seas_convoy,
    fall_to_spring,
    grid_of_150_seas
);
criterion_main!(benches);
