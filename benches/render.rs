//! Pictures (issue 24): the classic board in a 34-unit mid-game movement phase with
//! its orders and outcomes (`test-cases/regressions/midgame.yaml`) drawn as SVG
//! (target: median under 5 ms) and rasterised to PNG at the picture's own size,
//! about 1600 pixels wide (under 150 ms); world1914's opening position as PNG (under
//! 400 ms); and the classic picture rasterised without the PNG encoding, to show
//! how the time divides. Each loop checks its output: the SVG's root, the PNG's
//! signature and size.

/// The allocator the `arbiter` binary uses (src/main.rs), so the benches measure
/// what the command runs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion};

use arbiter::cases::parse_cases;
use arbiter::game::{advance, PhaseResult};
use arbiter::judge::Rules;
use arbiter::map::Map;
use arbiter::render::{self, Scene};
use arbiter::state::Position;

fn scene<'a>(position: &'a Position, result: Option<&'a PhaseResult>) -> Scene<'a> {
    Scene {
        position,
        result,
        title: format!("{}: bench", position.phase),
        problems: Vec::new(),
        bare: false,
        graph: false,
    }
}

/// The PNG's width and height, after checking its signature.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(png.get(..8), Some(&b"\x89PNG\r\n\x1a\n"[..]));
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

/// The mid-game position judged with its orders.
fn midgame(map: &Map) -> (Position, PhaseResult) {
    let cases = parse_cases(include_str!("../test-cases/regressions/midgame.yaml")).unwrap();
    let case = cases.iter().find(|c| c.id == "arbiter.midgame.34").unwrap();
    let p = case.prepare(map).unwrap();
    assert_eq!(p.position.units.len(), 34);
    assert_eq!(p.orders.len(), 34);
    let (result, _) = advance(map, Rules::default(), &p.position, &p.orders, None).unwrap();
    (p.position, result)
}

/// The classic board with its drawing (the board view, not the graph).
fn standard() -> Map {
    let map = Map::embedded("standard").unwrap();
    assert!(map.drawing.is_some());
    map
}

fn standard_svg(c: &mut Criterion) {
    let map = standard();
    let (position, result) = midgame(&map);
    let scene = scene(&position, Some(&result));
    c.bench_function("render standard 34 units with orders: SVG", |b| {
        b.iter(|| {
            let svg = render::svg(&map, black_box(&scene)).unwrap();
            assert!(svg.starts_with("<svg") && svg.contains("id=\"p-par\""));
            svg
        })
    });
}

/// Rasterise `svg` to a PNG `width` pixels wide (`None`: the default width, which
/// must be `expect`) in a loop, checking the PNG's width.
fn png_bench(c: &mut Criterion, name: &str, svg: &str, width: Option<u32>, expect: u32) {
    c.bench_function(name, |b| {
        b.iter(|| {
            let png = render::png_width(black_box(svg), width).unwrap();
            assert_eq!(png_size(&png).0, expect);
            png
        })
    });
}

fn standard_png(c: &mut Criterion) {
    let map = standard();
    let (position, result) = midgame(&map);
    let svg = render::svg(&map, &scene(&position, Some(&result))).unwrap();
    // The classic board's default PNG is 1600 pixels wide.
    png_bench(
        c,
        "render standard 34 units with orders: PNG",
        &svg,
        None,
        render::PNG_WIDTH,
    );
}

fn world(c: &mut Criterion) {
    let map = Map::embedded("world1914").unwrap();
    assert!(map.drawing.is_some());
    let position = Position::initial(&map);
    let svg = render::svg(&map, &scene(&position, None)).unwrap();
    assert!(svg.contains("id=\"p-lon\""));
    png_bench(
        c,
        "render world1914 opening: PNG 1600 px",
        &svg,
        Some(1600),
        1600,
    );
    // Its default PNG is wider (four fifths of the SVG, which is 3200 units wide).
    png_bench(c, "render world1914 opening: PNG", &svg, None, 2560);
}

criterion_group! {
    name = svg;
    config = Criterion::default();
    targets = standard_svg
}
criterion_group! {
    // Rasterising takes tens of milliseconds: fewer samples keep a run short.
    name = png;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(6));
    targets = standard_png, world
}
criterion_main!(svg, png);
