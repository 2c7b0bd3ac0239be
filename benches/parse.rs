//! Parse 1,000 order lines of mixed styles (codes, full names, aliases, coasts,
//! supports, convoys). Target: median ≤ 1 µs per line. The loop checks its own result:
//! 1,000 orders, no diagnostics.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use arbiter::map::Map;
use arbiter::orders::parse_orders;

const LINES: &[&str] = &[
    "A Par - Bur",
    "F Lon - NTH",
    "A Mun S A Ber - Kie",
    "F North Atlantic Ocean - Mid-Atlantic Ocean",
    "F NTH C A Lon - Nwy",
    "A Lon - Nwy via convoy",
    "F Mao - Spa/nc",
    "Army Marseilles SUPPORT Army Paris -> Burgundy.",
    "F StP/sc - Bot",
    "A Vienna Hold",
    "F Gulf of Lyons - Tyrrhenian Sea",
    "A tyrol - vie",
    "England: F Edi - NWG",
    "Fleet Black Sea CONVOY Turkish Army Ankara -> Sevastopol.",
    "A Bud S A Vie",
    "F Spain (south coast) - Western Mediterranean",
    "A Rom m Apu",
    "F Kie -> Den",
    "A War moves to Gal",
    "A Con - Bul",
];

fn bench(c: &mut Criterion) {
    let map = Map::standard();
    let _ = map.names();
    let text: String = (0..1000)
        .map(|i| format!("{}\n", LINES[i % LINES.len()]))
        .collect();
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Elements(1000));
    g.bench_function("parse 1000 order lines", |b| {
        b.iter(|| {
            let p = parse_orders(&map, black_box(&text));
            assert_eq!(p.orders.len(), 1000);
            assert!(p.diagnostics.is_empty());
            p
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
