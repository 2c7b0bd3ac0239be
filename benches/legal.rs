//! Every legal order of a position (`arbiter::legal::legal_orders`): the classic
//! opening, the 34-unit mid-game of `test-cases/regressions/midgame.yaml`, and 110
//! units on world1914 (244 provinces); and one whole self-play game. Each loop checks
//! its own result: the number of orders listed (with the hand-checked lists of
//! `tests/it/legal.rs` for the opening), and the game's phases and outcome.

/// The allocator the `arbiter` binary uses (src/main.rs), so the benches measure
/// what the command runs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{black_box, criterion_group, criterion_main, Criterion};

use arbiter::cases::parse_cases;
use arbiter::judge::Rules;
use arbiter::legal::{legal_orders, LegalOrders};
use arbiter::map::Map;
use arbiter::selfplay::SplitMix64;
use arbiter::state::Position;

fn count_at(map: &Map, l: &LegalOrders, loc: &str) -> usize {
    let loc = map.loc_by_id(loc).unwrap();
    l.units
        .iter()
        .find(|u| u.unit.loc == loc)
        .map_or(0, |u| u.orders.len())
}

fn bench(c: &mut Criterion) {
    let map = Map::standard();
    let opening = Position::initial(&map);
    let total = legal_orders(&map, &opening, Rules::default())
        .unwrap()
        .count();
    c.bench_function("legal orders: opening (22 units)", |b| {
        b.iter(|| {
            let l = legal_orders(&map, black_box(&opening), Rules::default()).unwrap();
            assert_eq!(l.units.len(), 22);
            assert_eq!(count_at(&map, &l, "kie"), 8);
            assert_eq!(count_at(&map, &l, "par"), 11);
            assert_eq!(count_at(&map, &l, "stp/sc"), 6);
            assert_eq!(l.count(), OPENING);
            l
        })
    });
    assert_eq!(total, OPENING);

    let cases = parse_cases(include_str!("../test-cases/regressions/midgame.yaml")).unwrap();
    let case = cases.iter().find(|c| c.id == "arbiter.midgame.34").unwrap();
    let mid = case.prepare(&map).unwrap().position;
    assert_eq!(mid.units.len(), 34);
    c.bench_function("legal orders: 34-unit mid-game", |b| {
        b.iter(|| {
            let l = legal_orders(&map, black_box(&mid), Rules::default()).unwrap();
            assert_eq!(l.units.len(), 34);
            assert_eq!(l.count(), MIDGAME);
            l
        })
    });

    let world = Map::embedded("world1914").unwrap();
    let big = arbiter::selfplay::scatter(&world, &mut SplitMix64::new(1914), 110);
    c.bench_function("legal orders: 110 units on world1914", |b| {
        b.iter(|| {
            let l = legal_orders(&world, black_box(&big), Rules::default()).unwrap();
            assert_eq!(l.units.len(), 110);
            assert_eq!(l.count(), WORLD);
            l
        })
    });
}

/// One whole self-play game on the classic board, 10 years, fixed seed: legal orders,
/// random choices and `advance` for every phase, with the invariants checked.
fn selfplay(c: &mut Criterion) {
    let map = Map::standard();
    let seed = arbiter::selfplay::game_seed(2024, 0);
    let first = arbiter::selfplay::play_game(&map, Rules::default(), seed, 1910, false).unwrap();
    c.bench_function("selfplay: one 10-year game on standard", |b| {
        b.iter(|| {
            let g =
                arbiter::selfplay::play_game(&map, Rules::default(), black_box(seed), 1910, false)
                    .unwrap();
            assert_eq!(
                (g.phases, g.winner, g.last),
                (first.phases, first.winner, first.last)
            );
            assert_eq!(g.centres, first.centres);
            assert!(g.phases >= 20);
            g
        })
    });
}

const OPENING: usize = 238;
const MIDGAME: usize = 1062;
const WORLD: usize = 3883;

criterion_group!(benches, bench, selfplay);
criterion_main!(benches);
