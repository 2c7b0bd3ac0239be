//! Any text the guard lets through, read by the streaming reader (`yaml::streamed`, which
//! every YAML door uses for a text too dense for serde_yaml) as a YAML value, a suite and
//! a game file: it may refuse, never panic or hang.
#![no_main]

use arbiter::yaml;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if yaml::guard(text).is_err() {
        return;
    }
    let _ = yaml::streamed::<serde_yaml::Value>(text);
    let _ = yaml::streamed::<Vec<arbiter::cases::TestCase>>(text);
    let _ = yaml::streamed::<arbiter::gamefile::GameFile>(text);
});
