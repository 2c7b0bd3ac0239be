//! One bench per kind of phase, each checking its own result inside the loop:
//!
//! - the Spring 1901 opening (22 units): through `game::advance`, the whole step a game
//!   takes, and through `judge::adjudicate` alone (legality, resolution, retreat
//!   options: what issue 13's 1 µs target counts);
//! - a retreat phase (DATC 6.H.1: two fleets retreat to Albania and are destroyed);
//! - an adjustment phase with civil disorder (DATC 6.J.2);
//! - movement phases on world1914 with 10 … 200 units, to show how the cost grows;
//! - the batch path: 2,000 JSON lines through `batch::stream`, the code
//!   `arbiter adjudicate --batch` runs.
//!
//! Run: `cargo bench --bench phases`. Medians are recorded in docs/PERFORMANCE.md.

/// The allocator the `arbiter` binary uses (src/main.rs), so the benches measure
/// what the command runs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use arbiter::batch::{stream, Maps, StreamOptions};
use arbiter::cases::parse_cases;
use arbiter::game::advance;
use arbiter::judge::Rules;
use arbiter::map::{Map, Prov, UnitKind};
use arbiter::orders::{parse_orders, ParseOptions};
use arbiter::state::{Phase, Position};

/// The opening: every power moves; Vienna and Warsaw bounce in Galicia, the rest
/// succeed (each move goes to an empty province no other unit enters).
const OPENING: &str = "\
Austria:\nA Vie - Gal\nA Bud - Ser\nF Tri - Alb\n\
England:\nF Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\n\
France:\nA Par - Bur\nA Mar - Spa\nF Bre - Mao\n\
Germany:\nA Mun - Ruh\nF Kie - Den\nA Ber - Kie\n\
Italy:\nA Ven - Pie\nA Rom - Apu\nF Nap - Ion\n\
Russia:\nA War - Gal\nA Mos - Ukr\nF Sev - Bla\nF Stp/sc - Bot\n\
Turkey:\nF Ank - Bla\nA Con - Bul\nA Smy - Arm\n";

fn opening(c: &mut Criterion) {
    let map = Map::standard();
    let position = Position::initial(&map);
    let orders = parse_orders(&map, OPENING);
    assert!(orders.diagnostics.is_empty());
    assert_eq!(orders.orders.len(), 22);
    c.bench_function("opening: Spring 1901, 22 units (advance)", |b| {
        b.iter(|| {
            let (r, next) = advance(
                &map,
                Rules::default(),
                black_box(&position),
                black_box(&orders.orders),
                None,
            )
            .unwrap();
            // Galicia: Vienna and Warsaw bounce; Black Sea: Sevastopol and Ankara bounce.
            let failed = r.orders().iter().filter(|o| !o.outcome.succeeded()).count();
            assert_eq!(failed, 4);
            assert!(r.dislodged().is_empty());
            assert_eq!(next.units.len(), 22);
            (r, next)
        })
    });
}

/// The opening's movement phase alone, as issue 13's target counts it: legality,
/// resolution and retreat options (`judge::adjudicate`), without the step to the
/// next phase that `opening` also takes.
fn opening_adjudicate(c: &mut Criterion) {
    use arbiter::judge::adjudicate;
    let map = Map::standard();
    let position = Position::initial(&map);
    let orders = parse_orders(&map, OPENING);
    assert!(orders.diagnostics.is_empty());
    c.bench_function("opening: Spring 1901, 22 units (adjudicate)", |b| {
        b.iter(|| {
            let r = adjudicate(
                &map,
                black_box(&position),
                black_box(&orders.orders),
                Rules::default(),
            )
            .unwrap();
            // Galicia: Vienna and Warsaw bounce; Black Sea: Sevastopol and Ankara bounce.
            let failed = r.orders.iter().filter(|o| !o.outcome.succeeded()).count();
            assert_eq!(failed, 4);
            assert!(r.dislodged.is_empty());
            assert_eq!(r.contested.len(), 2);
            r
        })
    });
}

fn retreat(c: &mut Criterion) {
    let map = Map::standard();
    let cases = parse_cases(include_str!("../test-cases/datc/6h-retreats.yaml")).unwrap();
    let case = cases.iter().find(|c| c.id == "6.H.1").unwrap();
    let p = case.prepare(&map).unwrap();
    let (r, position) = advance(&map, p.rules, &p.position, &p.orders, None).unwrap();
    assert_eq!(r.dislodged().len(), 2);
    let orders = parse_orders(
        &map,
        "Austria:\nF Trieste - Albania\nA Serbia Supports F Trieste - Albania\n\
         Turkey:\nF Greece - Albania\n",
    );
    assert!(orders.diagnostics.is_empty());
    c.bench_function("retreat phase: DATC 6.H.1", |b| {
        b.iter(|| {
            let (r, next) = advance(
                &map,
                p.rules,
                black_box(&position),
                black_box(&orders.orders),
                None,
            )
            .unwrap();
            // Both fleets retreat to Albania: both are destroyed; the support is illegal.
            assert_eq!(r.destroyed().len(), 2);
            assert_eq!(next.units.len(), position.units.len());
            (r, next)
        })
    });
}

fn adjustment(c: &mut Criterion) {
    let map = Map::standard();
    let cases = parse_cases(include_str!("../test-cases/datc/6j-civil-disorder.yaml")).unwrap();
    let case = cases.iter().find(|c| c.id == "6.J.2").unwrap();
    let p = case.prepare(&map).unwrap();
    let mun = map.prov_by_id("mun").unwrap();
    c.bench_function("adjustment phase with civil disorder: DATC 6.J.2", |b| {
        b.iter(|| {
            let (r, next) = advance(
                &map,
                p.rules,
                black_box(&p.position),
                black_box(&p.orders),
                None,
            )
            .unwrap();
            // Paris removed by order, Munich (farthest from Paris) in civil disorder.
            assert_eq!(r.adjustment().unwrap().removed.len(), 1);
            assert_eq!(r.adjustment().unwrap().civil_disorder.len(), 1);
            let (u, _) = r.adjustment().unwrap().civil_disorder[0];
            assert_eq!(map.prov_of(r.units()[u].loc), mun);
            assert_eq!(next.units.len(), 1);
            (r, next)
        })
    });
}

/// SplitMix64: a fixed generator, so every run benches the same positions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `n` units on random provinces of `map`, each with an order: a move to a random
/// neighbour, a support of a neighbouring unit's hold, or a hold. Returns the orders
/// text, for `parse_orders`, and the position.
fn crowd(map: &Map, n: usize, seed: u64) -> (Position, String) {
    let mut rng = Rng(seed);
    let mut provs: Vec<Prov> = map.provs().collect();
    for i in (1..provs.len()).rev() {
        provs.swap(i, rng.below(i + 1));
    }
    let powers: Vec<_> = map.power_ids().collect();
    let mut units: Vec<(String, Vec<String>)> = powers
        .iter()
        .map(|&p| (map.power(p).id.clone(), Vec::new()))
        .collect();
    let mut placed = Vec::new();
    for &p in &provs {
        if placed.len() == n {
            break;
        }
        let kinds: Vec<(UnitKind, arbiter::map::Loc)> = [UnitKind::Army, UnitKind::Fleet]
            .into_iter()
            .flat_map(|k| map.unit_locs(k, p).into_iter().map(move |l| (k, l)))
            .filter(|&(k, l)| map.placement_problem(k, l).is_none())
            .collect();
        if kinds.is_empty() {
            continue;
        }
        let (k, l) = kinds[rng.below(kinds.len())];
        let owner = rng.below(powers.len());
        units[owner]
            .1
            .push(format!("{} {}", k.letter(), map.loc_id(l)));
        placed.push((owner, k, l));
    }
    let phase = Phase::parse("Spring 1910").unwrap();
    let position = Position::from_units(
        map,
        phase,
        units.iter().map(|(p, l)| (p.as_str(), l.as_slice())),
    )
    .unwrap();
    let mut text = String::new();
    for (owner, k, l) in &placed {
        let me = format!("{} {}", k.letter(), map.loc_id(*l));
        let reach: Vec<Prov> = map
            .provs()
            .filter(|&q| q != map.prov_of(*l) && map.can_reach(*k, *l, q))
            .collect();
        let roll = rng.below(10);
        text.push_str(&format!("{}: ", map.power(powers[*owner]).id));
        if reach.is_empty() || roll < 2 {
            text.push_str(&format!("{me} H\n"));
        } else if roll < 7 {
            let to = reach[rng.below(reach.len())];
            text.push_str(&format!("{me} - {}\n", map.province(to).id));
        } else {
            let friend = placed
                .iter()
                .find(|(_, _, fl)| reach.contains(&map.prov_of(*fl)))
                .map(|(_, fk, fl)| format!("{} {}", fk.letter(), map.loc_id(*fl)));
            match friend {
                Some(f) => text.push_str(&format!("{me} S {f}\n")),
                None => text.push_str(&format!("{me} H\n")),
            }
        }
    }
    (position, text)
}

fn world_scaling(c: &mut Criterion) {
    let map = Map::embedded("world1914").unwrap();
    let mut g = c.benchmark_group("world1914 movement phase");
    for n in [10usize, 25, 50, 100, 150, 200] {
        let (position, text) = crowd(&map, n, 1914 + n as u64);
        let parsed = parse_orders(&map, &text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        assert_eq!(position.units.len(), n);
        assert_eq!(parsed.orders.len(), n);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| {
                let (r, next) = advance(
                    &map,
                    Rules::default(),
                    black_box(&position),
                    black_box(&parsed.orders),
                    None,
                )
                .unwrap();
                // Every order has one outcome; every unit is on the board or dislodged.
                assert_eq!(r.orders().len(), n);
                assert_eq!(r.units_after.len() + r.dislodged().len(), n);
                (r, next)
            })
        });
    }
    g.finish();
}

/// 2,000 batch lines (movement phases on the classic board, 20–34 units each, plus
/// one line per 100 with a bad order) through the code the CLI runs.
fn batch(c: &mut Criterion) {
    let map = Map::standard();
    let mut lines = String::new();
    let mut n_bad = 0;
    for i in 0..2000u64 {
        let (position, text) = crowd(&map, 20 + (i % 15) as usize, i);
        let mut units = serde_json::Map::new();
        for u in &position.units {
            let p = map.power(u.power).id.clone();
            let list = units.entry(p).or_insert_with(|| serde_json::json!([]));
            if let Some(a) = list.as_array_mut() {
                a.push(u.short(&map).into());
            }
        }
        let mut orders = serde_json::Map::new();
        for line in text.lines() {
            let (p, o) = line.split_once(": ").unwrap();
            let list = orders
                .entry(p.to_string())
                .or_insert_with(|| serde_json::json!([]));
            if let Some(a) = list.as_array_mut() {
                a.push(o.into());
            }
        }
        if i % 100 == 7 {
            n_bad += 1;
            orders.insert("atlantis".into(), serde_json::json!(["A Par - Bur"]));
        }
        let line =
            serde_json::json!({"id": i, "phase": "Spring 1902", "units": units, "orders": orders});
        lines.push_str(&line.to_string());
        lines.push('\n');
    }
    let maps = Maps::new(Map::standard());
    let options = StreamOptions {
        rules: Rules::default(),
        parse: ParseOptions::default(),
        jobs: 1,
        max_line: arbiter::batch::MAX_LINE,
    };
    let mut g = c.benchmark_group("batch");
    g.throughput(Throughput::Elements(2000));
    g.sample_size(20);
    g.bench_function("2000 lines, one thread", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(lines.len() * 5);
            let stats = stream(&mut lines.as_bytes(), &mut out, &maps, &options).unwrap();
            assert_eq!(stats.lines, 2000);
            assert_eq!(stats.errors, n_bad);
            assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 2000);
            out
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    opening,
    opening_adjudicate,
    retreat,
    adjustment,
    world_scaling,
    batch
);
criterion_main!(benches);
