//! Names people write: short forms generated from the map's names, sentence forms.

use arbiter::map::Map;
use arbiter::orders::{parse_orders_with, render_diagnostics, ParseOptions};

#[test]
#[ignore]
fn probe() {
    let map = Map::standard();
    let text = std::fs::read_to_string("/tmp/names/probe.txt").unwrap();
    for line in text.lines() {
        let p = parse_orders_with(&map, line, ParseOptions { strict: true });
        let c: Vec<String> = p.orders.iter().map(|o| o.canonical(&map, None)).collect();
        println!("{line:50} => {c:?}");
        if !p.diagnostics.is_empty() {
            println!("{}", render_diagnostics(&p.diagnostics, line, "x"));
        }
    }
}
