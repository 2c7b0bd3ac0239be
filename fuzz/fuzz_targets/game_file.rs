//! Any text as a game file (`GameFile::from_yaml`, then `Game::from_file` against the
//! embedded map it names). A game that loads is written back and must read back the
//! same, and its current phase is judged with no orders.
#![no_main]

use arbiter::gamefile::{Game, GameFile};
use arbiter::map::Map;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(file) = GameFile::from_yaml(text) else {
        return;
    };
    let Some(map) = Map::embedded(&file.map) else {
        return;
    };
    let Ok(game) = Game::from_file(&map, &file) else {
        return;
    };
    let written = game.to_yaml(&map);
    let again = Game::from_yaml(&map, &written)
        .unwrap_or_else(|e| panic!("a written game reads back: {e}\n{written}"));
    assert_eq!(again.to_yaml(&map), written, "written twice the same");
    if game.over.is_none() {
        let _ = game.judge(&map, &[], false).expect("the game's own ids");
    }
});
