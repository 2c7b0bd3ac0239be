//! Adjudicate a 34-unit mid-game movement phase with supports, a convoy and a convoy
//! paradox (`test-cases/regressions/midgame.yaml`): legality, resolution and retreat
//! options. Target: median ≤ 10 µs on the project's 2-core machine. The loop checks its
//! own result: 20 orders succeed, 2 units are dislodged.

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
            );
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

criterion_group!(benches, bench);
criterion_main!(benches);
