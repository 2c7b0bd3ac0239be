//! Any text as a position file on the standard map (`Position::from_yaml`); a position
//! that loads is adjudicated with no orders.
#![no_main]

use std::sync::OnceLock;

use arbiter::game::advance;
use arbiter::judge::Rules;
use arbiter::map::Map;
use arbiter::state::Position;
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
    let Ok(position) = Position::from_yaml(map, text) else {
        return;
    };
    let (result, _) = advance(map, Rules::default(), &position, &[], None)
        .expect("a loaded position has the map's ids");
    assert!(result.orders().is_empty());
});
