//! Any text as one batch line (`arbiter::batch::answer_line`) on the standard map,
//! lenient and strict. Every answer, good or bad, is one JSON object.
#![no_main]

use std::sync::OnceLock;

use arbiter::batch::{answer_line, Maps};
use arbiter::judge::Rules;
use arbiter::map::Map;
use arbiter::orders::ParseOptions;
use libfuzzer_sys::fuzz_target;

fn maps() -> &'static Maps {
    static MAPS: OnceLock<Maps> = OnceLock::new();
    MAPS.get_or_init(|| Maps::new(Map::standard()))
}

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let strict = data.len().is_multiple_of(2);
    let answer = match answer_line(line, Rules::default(), ParseOptions { strict }, maps()) {
        Ok(a) | Err(a) => a,
    };
    let v: serde_json::Value = serde_json::from_str(&answer)
        .unwrap_or_else(|e| panic!("the answer is JSON ({e}): {answer}"));
    assert!(v.is_object(), "the answer is an object: {answer}");
});
