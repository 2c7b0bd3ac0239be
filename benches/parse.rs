//! Parse 1,000 order lines of mixed styles (codes, full names, aliases, coasts,
//! supports, convoys). Target: median ≤ 0.25 µs per line. The loop checks its own result:
//! 1,000 orders, no diagnostics. A second group parses 1,000 lines of the other styles
//! of `docs/ORDERS.md` (web-site sentences, DAIDE, prefixes, list markers, result words,
//! command-first forms, nationalities), checked the same way.

/// The allocator the `arbiter` binary uses (src/main.rs), so the benches measure
/// what the command runs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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

/// Other styles: every line is one order, read without a diagnostic.
const STYLES: &[&str] = &[
    "The army at Vienna move to Trieste.",
    "The fleet at Aegean Sea support move to Greece from Bulgaria.",
    "( ( ENG FLT LON ) MTO NTH )",
    "( ( FRA AMY PAR ) SUP ( FRA AMY MAR ) MTO BUR )",
    "1. A Vie - Tri",
    "E) F Lon - NTH",
    "TUR: Con-Bul",
    "[GERMANY] A Mun - Ruh",
    "A Ukr S Turkish F Bla - Rum",
    "The army at London move to Norway via convoy. (fail)",
    "Move army Vienna to Trieste",
    "A Bud-Holds",
    "A Yor via Nth to Nwy",
    "F Mao - Spa (northern)",
    "Austria-Hungary: A Vie - Tri",
    "A Boh supports (Ger A Mun holds)",
    "Build fleet at St. Petersburg (North Coast)",
    "- F Tri",
    "A Par attack on Bur",
    "2) F NTH convoy to Nwy from Lon",
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
    let styles: String = (0..1000)
        .map(|i| format!("{}\n", STYLES[i % STYLES.len()]))
        .collect();
    g.bench_function("parse 1000 lines of other styles", |b| {
        b.iter(|| {
            let p = parse_orders(&map, black_box(&styles));
            assert_eq!(p.orders.len(), 1000);
            assert!(p.diagnostics.is_empty());
            p
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
