//! Runs every case under `test-cases/` (format: `test-cases/README.md`).
//! A failure prints the case id and each difference.

use std::collections::BTreeMap;
use std::path::Path;

use arbiter::game::{Phase, PhaseKind, Position};
use arbiter::judge::{adjudicate, adjudicate_adjustments, Rules};
use arbiter::map::Map;
use arbiter::orders::parse_orders;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    #[allow(dead_code)]
    title: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    phase: Option<String>,
    #[serde(default)]
    units: BTreeMap<String, Vec<String>>,
    orders: serde_yaml::Mapping,
    #[serde(default)]
    dislodged: BTreeMap<String, String>,
    #[serde(default)]
    contested: Option<Vec<String>>,
    #[serde(default)]
    #[allow(dead_code)]
    note: Option<String>,
}

fn load_cases(dir: &Path, out: &mut Vec<(String, Case)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("test-cases dir").map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            load_cases(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            let text = std::fs::read_to_string(&p).unwrap();
            let cases: Vec<Case> =
                serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            for c in cases {
                out.push((p.display().to_string(), c));
            }
        }
    }
}

/// Run one case; return the differences from the expectation.
fn check(map: &Map, case: &Case) -> Vec<String> {
    let mut diffs = Vec::new();
    let rules = match &case.rules {
        Some(r) => Rules::parse(r).unwrap_or_else(|| panic!("{}: unknown rules {r}", case.id)),
        None => Rules::default(),
    };
    let phase = case
        .phase
        .as_deref()
        .map(|p| Phase::parse(p).unwrap_or_else(|| panic!("{}: bad phase", case.id)))
        .unwrap_or(Phase { season: map.start_season, year: map.start_year, kind: PhaseKind::Movement });
    let position = Position::from_units(map, phase, case.units.iter().map(|(k, v)| (k.as_str(), v.as_slice())))
        .unwrap_or_else(|e| panic!("{}: {e}", case.id));
    // The orders text as the DATC writes it: a header per power, one order per line.
    let mut text = String::new();
    let mut expected: Vec<(String, String)> = Vec::new();
    for (power, list) in &case.orders {
        let power = power.as_str().expect("power name");
        text.push_str(&format!("{power}:\n"));
        for item in list.as_sequence().expect("a list of orders") {
            let m = item.as_mapping().expect("order: outcome");
            for (k, v) in m {
                let order = k.as_str().expect("order text").to_string();
                text.push_str(&order);
                text.push('\n');
                expected.push((order, v.as_str().expect("outcome word").to_string()));
            }
        }
    }
    let parsed = parse_orders(map, &text);
    for d in &parsed.diagnostics {
        diffs.push(format!("parse error: {} (line {})", d.message, d.span.line));
    }
    if parsed.orders.len() != expected.len() {
        diffs.push(format!("parsed {} orders, expected {}", parsed.orders.len(), expected.len()));
        return diffs;
    }
    let words: Vec<&'static str> = if phase.kind == PhaseKind::Adjustment {
        let r = adjudicate_adjustments(map, &position, &parsed.orders);
        r.orders.iter().map(|(_, o)| o.word()).collect()
    } else {
        let r = adjudicate(map, &position, &parsed.orders, rules);
        let got: BTreeMap<String, String> = r
            .dislodged
            .iter()
            .map(|d| (map.province(map.prov_of(r.units[d.unit].loc)).id.clone(), map.province(d.by).id.clone()))
            .collect();
        if got != case.dislodged {
            diffs.push(format!("dislodged: expected {:?}, got {:?}", case.dislodged, got));
        }
        if let Some(c) = &case.contested {
            let mut want: Vec<String> = c.clone();
            want.sort();
            let mut have: Vec<String> = r.contested.iter().map(|&p| map.province(p).id.clone()).collect();
            have.sort();
            if want != have {
                diffs.push(format!("contested: expected {want:?}, got {have:?}"));
            }
        }
        r.orders
            .iter()
            .map(|o| o.outcome.word())
            .zip(&r.orders)
            .map(|(w, o)| {
                let _ = o;
                w
            })
            .collect()
    };
    for ((order, want), got) in expected.iter().zip(words) {
        if want != got {
            diffs.push(format!("`{order}`: expected {want}, got {got}"));
        }
    }
    diffs
}

#[test]
fn all_cases() {
    let map = Map::standard();
    let mut cases = Vec::new();
    load_cases(&Path::new(env!("CARGO_MANIFEST_DIR")).join("test-cases"), &mut cases);
    let mut failures = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for (file, case) in &cases {
        assert!(ids.insert(case.id.clone()), "duplicate case id {}", case.id);
        let diffs = check(&map, case);
        if !diffs.is_empty() {
            failures.push(format!("{} ({}, {}):\n    {}", case.id, case.title, file, diffs.join("\n    ")));
        }
    }
    let datc = cases.iter().filter(|(_, c)| c.id.starts_with("6.")).count();
    assert!(datc >= 130, "expected at least the 130 DATC cases 6.A-6.G, found {datc}");
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
