//! Hostile input, issue 28 (theme NAMES): names, ids and places that are absurdly long
//! or many. Every command that loads such a map keeps its peak memory under 20 times
//! its input plus 50 MB (measured with `/usr/bin/time -f %M`, skipped with a note where
//! it is not installed: not timing-based); `map show` cuts long names; `map import`
//! refuses a map past the loader's limits before building it; messages quote at most
//! a few dozen characters of what they name.

use crate::common::{arbiter, code, has, s, stderr, stdout, temp_dir};
use std::path::Path;
use std::process::Output;

/// [`crate::hostile_memory`]'s rule, for a command reading no standard input.
fn within_bound(what: &str, args: &[&str], input: &Path) -> Option<Output> {
    crate::hostile_memory::within_bound(what, args, input, false)
}

/// The clean tiny map (`test-cases/maps/clean-base.ymap`) with `extra` written after
/// Alpha's `name: Alpha` line (`name` replaced when `rename` is given).
fn tiny_map(rename: Option<&str>, extra: &str) -> String {
    let base = include_str!("../../test-cases/maps/clean-base.ymap");
    let name = match rename {
        Some(n) => format!("name: \"{n}\""),
        None => "name: Alpha".to_string(),
    };
    base.replacen("name: Alpha", &format!("{name}{extra}"), 1)
}

/// `n` words `ab`, joined by spaces.
fn words(n: usize) -> String {
    vec!["ab"; n].join(" ")
}

#[test]
fn a_name_of_many_words_costs_memory_in_proportion() {
    // Alpha named with 20,000 words (60 KB): every word-prefix of the name was indexed,
    // 1.2 GB of them (`map check` peaked at 1.5 GB for a bound of 51 MB).
    let dir = temp_dir("names-words");
    let long = dir.join("long.yaml");
    std::fs::write(&long, tiny_map(Some(&words(20_000)), "")).unwrap();
    // The same words as one alias of Alpha.
    let alias = dir.join("alias.yaml");
    let extra = format!("\n    aliases: [\"{}\"]", words(20_000));
    std::fs::write(&alias, tiny_map(None, &extra)).unwrap();
    let orders = dir.join("o.txt");
    std::fs::write(&orders, "Red: A aaa - ccc\nBlue: F bbb H\n").unwrap();
    for map in [&long, &alias] {
        let m = s(map);
        let Some(o) = within_bound("map check", &["map", "check", m], map) else {
            return;
        };
        // Refused since (a name is at most 100 characters), and still within the bound.
        code(&o, 1);
        has(&stdout(&o), "at most 100 characters, not 59999");
        within_bound("map show", &["map", "show", m], map);
        let o = within_bound("adjudicate", &["adjudicate", "--map", m, s(&orders)], map).unwrap();
        code(&o, 2);
        has(&crate::common::stderr(&o), "at most 100 characters");
        within_bound(
            "selfplay",
            &["selfplay", "--map", m, "--years", "1", "--jobs", "1"],
            map,
        );
    }
    // A DPjudge geography line naming a place with 10,000 words.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dpjudge");
    for f in ["tiny.map", "tiny.politics", "tiny.military"] {
        std::fs::copy(fixtures.join(f), dir.join(f)).unwrap();
    }
    let geo = std::fs::read_to_string(fixtures.join("tiny.geography")).unwrap();
    let line = geo.lines().find(|l| l.ends_with("= aaa")).unwrap();
    let geo = geo.replacen(line, &format!("{} = aaa", words(10_000)), 1);
    std::fs::write(dir.join("tiny.geography"), geo).unwrap();
    let out = dir.join("tiny.yaml");
    let o = within_bound(
        "map import",
        &["map", "import", s(&dir.join("tiny.map")), "-o", s(&out)],
        &dir.join("tiny.geography"),
    )
    .unwrap();
    code(&o, 0);
    // The name is cut to 100 characters, at a word, with a note: the map loads.
    has(&stdout(&o), "characters long: cut to");
    let o = arbiter(&["map", "check", s(&out)]);
    code(&o, 0);
}

#[test]
fn a_name_of_many_words_is_still_read_by_its_first_words() {
    // A name of exactly eight words, the most an order reads, is read in full; one of
    // nine words (like a name of 20,000) can only be written by its id.
    let dir = temp_dir("names-eight");
    let map = dir.join("m.yaml");
    std::fs::write(
        &map,
        tiny_map(Some("The Land Of The Eight Long Name Words"), ""),
    )
    .unwrap();
    let orders = dir.join("o.txt");
    std::fs::write(
        &orders,
        "Red: A The Land Of The Eight Long Name Words - ccc\n",
    )
    .unwrap();
    let o = arbiter(&["adjudicate", "--map", s(&map), s(&orders)]);
    code(&o, 0);
    has(&stdout(&o), "-> Gamma.");
}

#[test]
fn map_show_cuts_long_names_and_pads_no_row_to_them() {
    // 300 provinces, one named with 100 `x` (the longest a name may be; 200,000 made
    // 60 MB of output): every row was padded to the name.
    let dir = temp_dir("names-show");
    let map = dir.join("m.yaml");
    let n = 300;
    let mut m = String::from(
        "name: big\nstart: {season: spring, year: 1901}\nvictory: 2\npowers:\n  - id: red\n    name: Red\n    adjective: Reddish\n    home: [p000]\n    units: [A p000]\n  - id: blue\n    name: Blue\n    adjective: Bluish\n    home: [p001]\n    units: [A p001]\nprovinces:\n",
    );
    for i in 0..n {
        let name = if i == 2 {
            "x".repeat(100)
        } else {
            format!("Prov{i}")
        };
        m.push_str(&format!(
            "  - id: p{i:03}\n    name: {name}\n    kind: land\n    army: [p{:03}, p{:03}]\n",
            (i + 1) % n,
            (i + n - 1) % n
        ));
        if i < 2 {
            m.push_str(&format!(
                "    supply: true\n    home: {}\n",
                if i == 0 { "red" } else { "blue" }
            ));
        }
    }
    std::fs::write(&map, &m).unwrap();
    let o = arbiter(&["map", "show", s(&map)]);
    code(&o, 0);
    let out = stdout(&o);
    assert!(out.len() < 40_000, "{} bytes of output", out.len());
    // The name is cut to 40 characters, the last one `…`, and the column is as wide.
    let cut = format!("{}…", "x".repeat(39));
    has(&out, &format!("p002  {cut}  land"));
    has(&out, &format!("p003  {:<40}  land", "Prov3"));
    // The province itself still shows its whole name.
    let o = arbiter(&["map", "show", s(&map), "p002"]);
    code(&o, 0);
    has(&stdout(&o), &"x".repeat(100));
    // With a picture too, within the memory rule.
    let svg = dir.join("m.svg");
    if let Some(o) = within_bound(
        "map show --svg",
        &["map", "show", s(&map), "--svg", s(&svg)],
        &map,
    ) {
        code(&o, 0);
        assert!(stdout(&o).len() < 40_000);
    }
    let _ = stderr;
}

/// A DPjudge map of `n` land provinces `P0`… in a ring (each next to the next), two
/// powers with one home centre and one army each; `extra` lines at the end.
fn dp_ring(n: usize, extra: &str) -> String {
    let mut m = String::from("RED (REDDISH) P0\nA P0\nBLUE (BLUISH) P1\nA P1\n");
    for i in 0..n {
        m.push_str(&format!("Prov {i} = p{i}\n"));
    }
    for i in 0..n {
        m.push_str(&format!(
            "LAND P{i} ABUTS P{} P{}\n",
            (i + 1) % n,
            (i + n - 1) % n
        ));
    }
    m.push_str(extra);
    m
}

#[test]
fn map_import_stops_at_the_loaders_province_limit_and_writes_nothing() {
    // 600 provinces: the import built and wrote a map every command then refused
    // (`TOO_MANY`); at 150,000 it went past the memory bound on the way.
    let dir = temp_dir("names-import-many");
    let file = dir.join("big.map");
    std::fs::write(&file, dp_ring(600, "")).unwrap();
    let out = dir.join("big.yaml");
    let o = arbiter(&["map", "import", s(&file), "-o", s(&out)]);
    code(&o, 2);
    let err = stderr(&o);
    has(&err, "big.map:1117:");
    has(
        &err,
        "`P512` is province 513 of the map: a map may have at most 512 provinces",
    );
    assert!(!out.exists(), "a map the loader refuses was written");
    // 512 provinces import, and the map loads.
    std::fs::write(&file, dp_ring(512, "")).unwrap();
    let o = arbiter(&["map", "import", s(&file), "-o", s(&out)]);
    code(&o, 0);
    code(&arbiter(&["map", "check", s(&out)]), 0);
    // Nine named coasts of one province: one more than the loader takes.
    let coasts: String = (1..=9)
        .map(|c| format!("COAST P0/C{c} ABUTS P1\n"))
        .collect();
    std::fs::write(&file, dp_ring(3, &coasts)).unwrap();
    let _ = std::fs::remove_file(&out);
    let o = arbiter(&["map", "import", s(&file), "-o", s(&out)]);
    code(&o, 2);
    has(
        &stderr(&o),
        "`P0/C9` is coast 9 of `P0`: a province may have at most 8 named coasts",
    );
    assert!(!out.exists());
}

#[test]
fn map_import_carries_over_at_most_the_loaders_aliases() {
    // A name line with 70 aliases: the map written had 70, which the loader refuses.
    let dir = temp_dir("names-import-aliases");
    let file = dir.join("al.map");
    let aliases: Vec<String> = (0..70).map(|i| format!("alias{i}")).collect();
    let mut m = dp_ring(3, "");
    m = m.replacen(
        "Prov 2 = p2",
        &format!("Prov 2 = p2 {}", aliases.join(" ")),
        1,
    );
    std::fs::write(&file, m).unwrap();
    let out = dir.join("al.yaml");
    let o = arbiter(&["map", "import", s(&file), "-o", s(&out)]);
    code(&o, 0);
    has(
        &stdout(&o),
        "`p2`: 6 more aliases not carried over: a province may have at most 64",
    );
    let yaml = std::fs::read_to_string(&out).unwrap();
    has(&yaml, "alias63");
    assert!(!yaml.contains("alias64"), "{yaml}");
    code(&arbiter(&["map", "check", s(&out)]), 0);
}

#[test]
fn messages_quote_at_most_sixty_characters_of_a_word() {
    let dir = temp_dir("names-quote");
    let long = "x".repeat(200_000);
    let cut = format!("`{}…`", "x".repeat(59));
    // An order with a word of 200,000 letters: the message quoted it whole.
    let orders = dir.join("o.txt");
    std::fs::write(&orders, format!("France: A {long} - bur\n")).unwrap();
    let o = arbiter(&["adjudicate", s(&orders)]);
    code(&o, 1);
    let err = stderr(&o);
    has(&err, &format!("error: unknown province {cut}\n"));
    assert!(err.len() < 2_000, "{} bytes of diagnostics", err.len());
    let o = arbiter(&["adjudicate", "--format", "json", s(&orders)]);
    assert!(o.stdout.len() + o.stderr.len() < 4_000);
    has(&stdout(&o), &format!("unknown province {cut}"));
    // A map with an id of 200,000 letters, one-sided edges to it, and neighbours that
    // name it short: each finding quoted the id (and its key held it) whole.
    let id = "c".repeat(200_000);
    let map = dir.join("m.yaml");
    let base = include_str!("../../test-cases/maps/clean-base.ymap");
    std::fs::write(&map, base.replacen("- id: ccc", &format!("- id: {id}"), 1)).unwrap();
    let o = arbiter(&["map", "check", s(&map)]);
    code(&o, 1);
    let out = stdout(&o);
    has(&out, &format!("one-sided edge: `{}…`", "c".repeat(59)));
    assert!(out.len() < 5_000, "{} bytes of findings", out.len());
    let o = arbiter(&["map", "check", "--format", "json", s(&map)]);
    code(&o, 1);
    assert!(o.stdout.len() < 10_000, "{} bytes of JSON", o.stdout.len());
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let keys: Vec<&str> = j["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["key"].as_str().unwrap())
        .collect();
    assert!(
        keys.contains(&format!("provinces.{}….army", "c".repeat(59)).as_str()),
        "{keys:?}"
    );
    // A DPjudge line passed over with a note that quotes it.
    let file = dir.join("n.map");
    std::fs::write(&file, dp_ring(3, &format!("FLAGS {long}\n"))).unwrap();
    let o = arbiter(&["map", "import", s(&file), "-o", s(&dir.join("n.yaml"))]);
    code(&o, 0);
    let out = stdout(&o);
    has(
        &out,
        &format!("`FLAGS {}…` is not carried over", "x".repeat(53)),
    );
    assert!(out.len() < 5_000, "{} bytes of report", out.len());
}
