//! Any text as a DPjudge map (`arbiter map import`: `dpjudge::import_with`), with up
//! to three files it may `USE`.
//!
//! The input is split at NUL bytes: the first piece is `fuzz/main.map`, the next ones
//! `a.map`, `b.map` and `c.map` in its folder; any other name is answered as missing,
//! so that the embedded boards (`standard.map`, `standard.geography`, …) are used, as
//! the command does. The imported YAML is then checked as `map import` checks it
//! (`mapcheck::check_and_load`); a map the checker passes is loaded by every command
//! (`mapcheck::load`), and its starting position is adjudicated with every unit
//! holding. Invariants: every note and refusal names a file that was read and a line
//! in it; a map that `map check` finds no error in is one the loader takes.
#![no_main]

use arbiter::game::advance;
use arbiter::judge::Rules;
use arbiter::map::dpjudge;
use arbiter::mapcheck;
use arbiter::state::Position;
use libfuzzer_sys::fuzz_target;

const FILES: [&str; 3] = ["a.map", "b.map", "c.map"];

fuzz_target!(|data: &[u8]| {
    let Ok(all) = std::str::from_utf8(data) else {
        return;
    };
    let mut pieces = all.split('\0');
    let main = pieces.next().unwrap_or_default();
    let used: Vec<&str> = pieces.take(FILES.len()).collect();
    let mut lines_of: std::collections::HashMap<String, usize> = Default::default();
    lines_of.insert("fuzz/main.map".into(), main.lines().count());
    let mut read = |p: &str| -> Result<String, String> {
        let name = std::path::Path::new(p)
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        match FILES.iter().position(|f| *f == name) {
            Some(k) if k < used.len() => {
                lines_of.insert(p.to_string(), used[k].lines().count());
                Ok(used[k].to_string())
            }
            _ => Err(dpjudge::NOT_FOUND.to_string()),
        }
    };
    let order_words: Vec<&str> = arbiter::orders::order_words().collect();
    let Ok(imported) = dpjudge::import_with("fuzz/main.map", main, None, &mut read, &order_words)
    else {
        return;
    };
    for n in imported.notes.iter().chain(&imported.refused) {
        if n.line == 0 {
            continue;
        }
        // An embedded board's lines are not in `lines_of`: only check the files given.
        if let Some(&count) = lines_of.get(&n.file) {
            assert!(
                n.line <= count.max(1),
                "{}:{} is past the file's {count} lines: {}",
                n.file,
                n.line,
                n.message
            );
        }
    }
    let (findings, loaded) = mapcheck::check_and_load(&imported.yaml, "fuzz.yaml", None);
    let (errors, _, _) = mapcheck::count(&findings);
    if errors > 0 {
        return;
    }
    let map = loaded.unwrap_or_else(|| {
        panic!(
            "map check finds no error, and the loader refuses the map:\n{}",
            imported.yaml
        )
    });
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
