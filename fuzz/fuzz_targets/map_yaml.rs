//! Any text as a map file (`Map::from_yaml`); a map that loads is used: its starting
//! position is adjudicated with no orders and every unit's hold order is parsed.
#![no_main]

use arbiter::game::advance;
use arbiter::judge::Rules;
use arbiter::map::Map;
use arbiter::state::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(map) = Map::from_yaml(text, "fuzz.yaml") else {
        return;
    };
    let position = Position::initial(&map);
    let text: String = position
        .units
        .iter()
        .map(|u| format!("{}\n", u.short(&map)))
        .collect();
    let parsed = arbiter::orders::parse_orders(&map, &text);
    let (result, _) = advance(&map, Rules::default(), &position, &parsed.orders, None)
        .expect("a loaded map's own position and orders have its ids");
    assert_eq!(result.orders().len(), parsed.orders.len());
});
