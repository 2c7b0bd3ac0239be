//! Runs every case under `test-cases/` (format: `test-cases/README.md`): the DATC v3.0
//! cases of 6.A–6.J and our own regressions. A failure prints the case id and each
//! difference from the expectation.

use std::path::Path;

use arbiter::cases::{parse_cases, TestCase};
use arbiter::map::Map;

fn load(dir: &Path, out: &mut Vec<(String, TestCase)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("test-cases dir")
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            load(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            let text = std::fs::read_to_string(&p).unwrap();
            let cases = parse_cases(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            out.extend(cases.into_iter().map(|c| (p.display().to_string(), c)));
        }
    }
}

/// A test harness of its own, so that every case is reported by its id:
/// `test 6.A.1 ... ok`. `cargo test --test datc -- 6.F` runs the cases whose id or
/// title contains `6.F`.
fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let map = Map::standard();
    let mut cases = Vec::new();
    load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("test-cases"),
        &mut cases,
    );
    let mut ids = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    let mut passed = 0;
    let mut filtered = 0;
    for (file, case) in &cases {
        assert!(ids.insert(case.id.clone()), "duplicate case id {}", case.id);
        if filter
            .as_ref()
            .is_some_and(|f| !case.id.contains(f.as_str()) && !case.title.contains(f.as_str()))
        {
            filtered += 1;
            continue;
        }
        let editions = match case.editions() {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{} ({file}): {e}", case.id));
                continue;
            }
        };
        for rules in editions {
            let diffs = case.check_under(&map, rules);
            let name = format!("{} [{}]", case.id, rules.name());
            if diffs.is_empty() {
                println!("test {name} {} ... ok", case.title.to_lowercase());
                passed += 1;
                continue;
            }
            println!("test {name} {} ... FAILED", case.title.to_lowercase());
            failures.push(format!(
                "{name} ({}, {file}):\n    {}",
                case.title,
                diffs.join("\n    ")
            ));
        }
    }
    // Every DATC v3.0 case of 6.A-6.J, by number (6.J.9 has two positions, a and b).
    let sections = [
        ('A', 12),
        ('B', 15),
        ('C', 9),
        ('D', 34),
        ('E', 15),
        ('F', 25),
        ('G', 20),
        ('H', 16),
        ('I', 7),
        ('J', 11),
    ];
    let mut missing = Vec::new();
    for (s, n) in sections {
        for i in 1..=n {
            let id = format!("6.{s}.{i}");
            let split = [format!("{id}a"), format!("{id}b")];
            if !ids.contains(&id) && !split.iter().all(|x| ids.contains(x)) {
                missing.push(id);
            }
        }
    }
    if !missing.is_empty() {
        failures.push(format!("DATC cases missing from test-cases/: {missing:?}"));
    }
    if !failures.is_empty() {
        println!("\nfailures:\n\n{}\n", failures.join("\n"));
    }
    let status = if failures.is_empty() { "ok" } else { "FAILED" };
    println!(
        "\ntest result: {status}. {passed} passed; {} failed; {filtered} filtered out\n",
        failures.len()
    );
    if !failures.is_empty() {
        std::process::exit(101);
    }
}
