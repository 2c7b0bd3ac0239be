//! Any text as orders on the standard map: the whole-text parser, lenient and strict,
//! and the one-order parser (batch input) on every line, with and without a power.
#![no_main]

use std::sync::OnceLock;

use arbiter::map::{Map, Power};
use arbiter::orders::{parse_order_with, parse_orders_with, render_diagnostics, ParseOptions};
use libfuzzer_sys::fuzz_target;

fn map() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(Map::standard)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let map = map();
    for strict in [false, true] {
        let options = ParseOptions { strict };
        let parsed = parse_orders_with(map, text, options);
        for o in &parsed.orders {
            // Every order read can be written back.
            let _ = o.canonical(map, None);
        }
        // Every diagnostic can be shown under its line.
        let _ = render_diagnostics(&parsed.diagnostics, text, "fuzz.txt");
    }
    for (n, line) in text.lines().take(64).enumerate() {
        let power = (n % 2 == 1).then(|| Power((n / 2 % map.powers.len()) as u8));
        let strict = n % 3 == 0;
        if let Ok((o, _)) = parse_order_with(map, line, power, ParseOptions { strict }) {
            let _ = o.canonical(map, None);
        }
    }
});
