//! The explanation and the Markdown sheet for fixed positions: snapshots of the text
//! people read, plus explicit checks of the key facts, so that accepting a snapshot can
//! never hide a wrong ruling. Every snapshot was read against the rules by hand.

use arbiter::game::{advance, PhaseResult};
use arbiter::judge::Rules;
use arbiter::map::Map;
use arbiter::orders::parse_orders;
use arbiter::report::{explain::explain, markdown};
use arbiter::state::Position;

/// Adjudicate `orders` against the position in `yaml`; return the result and the
/// position that follows.
fn run(map: &Map, yaml: &str, orders: &str) -> (PhaseResult, Position) {
    let position = Position::from_yaml(map, yaml).expect("a valid position");
    let parsed = parse_orders(map, orders);
    assert!(
        parsed.diagnostics.is_empty(),
        "orders should parse: {:?}",
        parsed.diagnostics
    );
    advance(map, Rules::default(), &position, &parsed.orders, None).unwrap()
}

/// Run orders for the position that follows `position`.
fn then(map: &Map, position: &Position, orders: &str) -> PhaseResult {
    let parsed = parse_orders(map, orders);
    assert!(
        parsed.diagnostics.is_empty(),
        "orders should parse: {:?}",
        parsed.diagnostics
    );
    advance(map, Rules::default(), position, &parsed.orders, None)
        .unwrap()
        .0
}

fn every_line_fits(text: &str) {
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "line too long: {line:?}");
    }
}

const CONVOY_1902: &str = "
phase: Spring 1902
units:
  russia: [F hel, F nth, F nwg, A nwy]
  france: [F edi, F lon]
";

const CONVOY_1902_ORDERS: &str = "
Russia:
F Helgoland Bight S F North Sea
F North Sea C A Norway - Edinburgh
F Norwegian Sea S A Norway - Edinburgh
A Norway - Edinburgh via convoy
France:
F Edinburgh S F London - North Sea
F London - North Sea
";

/// The army cuts the support of the fleet that attacks its convoy: the convoy stands
/// (London has 1 against the North Sea's hold strength of 2 either way), the army
/// moves with 2 against 1 and dislodges F Edinburgh, which may retreat to Clyde or
/// Yorkshire.
#[test]
fn convoyed_army_cuts_the_support_against_its_convoy() {
    let map = Map::standard();
    let (r, _) = run(&map, CONVOY_1902, CONVOY_1902_ORDERS);
    let words: Vec<&str> = r.orders().iter().map(|o| o.outcome.word()).collect();
    assert_eq!(
        words,
        ["succeeds", "succeeds", "succeeds", "succeeds", "fails", "fails"]
    );
    let text = explain(&map, &r, None);
    every_line_fits(&text);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for fact in [
        "Russia: A Norway -> Edinburgh (via convoy) succeeds. Attack strength 2: 1 + \
         support from F Norwegian Sea. Against it: F Edinburgh holds with strength 1 \
         (its support of F London -> North Sea was cut by this army).",
        "2 beats 1: F Edinburgh is dislodged. Convoyed by F North Sea.",
        "France: F London -> North Sea fails. Attack strength 1.",
        "The support from F Edinburgh was cut: F Edinburgh was dislodged by A \
         Norway -> Edinburgh (via convoy).",
        "Against it: F North Sea holds with strength 2 (1 + support from F Helgoland \
         Bight). 1 does not beat 2, so the move fails.",
        "It may retreat to Clyde or Yorkshire.",
        "F North Sea's convoy of A Norway -> Edinburgh succeeds. The convoy stands.",
    ] {
        assert!(flat.contains(fact), "missing {fact:?} in\n{text}");
    }
    insta::assert_snapshot!("convoy_1902_explain", text);

    let edi = map.prov_by_id("edi").unwrap();
    let only = explain(&map, &r, Some(edi));
    assert!(only.contains("Only the orders concerning Edinburgh."));
    assert!(!only.contains("F Helgoland Bight"));
    insta::assert_snapshot!("convoy_1902_explain_edinburgh", only);

    let md = markdown::sheet(&map, "demo", &r);
    assert!(md.contains(
        "| France | Fleet Edinburgh SUPPORT Fleet London -> North Sea | fails | cut, dislodged |"
    ));
    assert!(md.contains("- The French Fleet in Edinburgh can retreat to Clyde or Yorkshire."));
    insta::assert_snapshot!("convoy_1902_markdown", md);
}

/// A Fall turn: a supported move beats an unsupported one (Burgundy), a standoff (Galicia), an
/// illegal support, a void support, a move that bounces off a unit whose own move
/// failed, and units without orders.
#[test]
fn a_first_fall() {
    let map = Map::standard();
    let yaml = "phase: Fall 1901\nunits:\n  england: [F lon, F edi, A lvp]\n  \
                france: [A par, A mar, F bre]\n  germany: [A mun, A ber, F kie]\n  \
                austria: [A vie, A bud, F tri]\n  italy: [A ven, A rom, F nap]\n  \
                russia: [A war, A ukr, F sev, F stp/sc]\n  turkey: [A con, A smy, F ank]\n";
    let orders = "
France: A Par - Bur, A Mar S A Par - Bur, F Bre - Mao
Germany: A Mun - Bur, A Ber S A Mun - Bur, F Kie - Den
Austria: A Vie - Gal, A Bud S A Vie - Gal, F Tri H
Italy: A Ven - Tri, A Rom - Ven
Russia: A War - Gal, A Ukr S A War - Gal
Turkey: A Con S A Smy - Ank, A Smy H
";
    let (r, _) = run(&map, yaml, orders);
    let text = explain(&map, &r, None);
    every_line_fits(&text);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for fact in [
        "France: A Paris -> Burgundy succeeds. Attack strength 2: 1 + support from A \
         Marseilles. Against it: A Munich -> Burgundy also moves there, with prevent \
         strength 1. 2 beats 1.",
        "Germany: A Munich -> Burgundy fails. Attack strength 1. The support from A \
         Berlin is illegal",
        "Against it: A Paris -> Burgundy also moves there, with prevent strength 2 (1 + \
         support from A Marseilles). 1 does not beat 2, so the move fails.",
        "2 does not beat 2, so the move fails. Standoff: Galicia stays empty",
        "Turkey: A Constantinople's support of A Smyrna -> Ankara is void. A Smyrna is \
         ordered to hold.",
        "Against it: A Venice holds with strength 1 (its move to Trieste failed).",
        "England: F London has no order and holds.",
    ] {
        assert!(flat.contains(fact), "missing {fact:?} in\n{text}");
    }
    insta::assert_snapshot!("first_fall_explain", text);
    let md = markdown::sheet(&map, "demo", &r);
    assert!(md.contains("- Galicia"));
    // The Fall turn is over: Denmark goes to Germany, which builds one.
    assert!(md.contains("- Denmark (nobody to Germany)"));
    assert!(md.contains("- Germany (4 centres, 3 units) builds 1."));
    insta::assert_snapshot!("first_fall_markdown", md);
}

/// A foreign support does not count against its own power's unit; a head-to-head
/// battle; circular movement.
#[test]
fn foreign_support_head_to_head_and_circular_movement() {
    let map = Map::standard();
    let yaml = "phase: Fall 1903\nunits:\n  austria: [F tri, A vie]\n  \
                italy: [A ven, A tyr]\n  germany: [A ber]\n  russia: [A sil, A pru]\n  \
                turkey: [F ank, A con, A smy]\n";
    let orders = "
Austria: F Tri H, A Vie S A Ven - Tri
Italy: A Ven - Tri, A Tyr S A Ven - Tri
Germany: A Ber - Sil
Russia: A Sil - Ber, A Pru S A Sil - Ber
Turkey: F Ank - Con, A Con - Smy, A Smy - Ank
";
    let (r, _) = run(&map, yaml, orders);
    let words: Vec<&str> = r.orders().iter().map(|o| o.outcome.word()).collect();
    assert_eq!(
        words,
        [
            "fails", "succeeds", "succeeds", "succeeds", "fails", "succeeds", "succeeds",
            "succeeds", "succeeds", "succeeds"
        ]
    );
    let text = explain(&map, &r, None);
    every_line_fits(&text);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for fact in [
        "Italy: A Venice -> Trieste succeeds. Attack strength 2: 1 + support from A \
         Tyrolia. The support from A Vienna does not count: it is Austria's, and a \
         power's support cannot help dislodge its own unit.",
        "It does not count for the attack: a power's support cannot help dislodge its \
         own unit (F Trieste).",
        // A dislodged unit's line says so first, and ends with its retreats.
        "Germany: A Berlin is dislodged by A Silesia -> Berlin with attack strength 2 \
         against hold strength 1. A Berlin -> Silesia fails. Attack strength 1. Against \
         it: A Silesia -> Berlin moves the other way (a head-to-head battle) and defends \
         with strength 2 (1 + support from A Prussia). 1 does not beat 2, so the move \
         fails. It may retreat to Kiel or Munich.",
        "Austria: F Trieste is dislodged by A Venice -> Trieste with attack strength 2 \
         against hold strength 1. F Trieste holds, and fails.",
        "It is part of circular movement (F Ankara -> A Constantinople -> A Smyrna -> F \
         Ankara): units moving in a circle all move",
    ] {
        assert!(flat.contains(fact), "missing {fact:?} in\n{text}");
    }
    insta::assert_snapshot!("foreign_support_explain", text);
    insta::assert_snapshot!(
        "foreign_support_markdown",
        markdown::sheet(&map, "demo", &r)
    );
}

/// DATC 6.F.14, the simple convoy paradox: the Szykman rule fails the convoy, so the
/// army does not cut London's support, and Wales dislodges the convoying fleet.
#[test]
fn convoy_paradox_follows_szykman() {
    let map = Map::standard();
    let yaml = "units:\n  england: [F lon, F wal]\n  france: [A bre, F eng]\n";
    let orders = "
England: F London Supports F Wales - English Channel, F Wales - English Channel
France: A Brest - London, F English Channel Convoys A Brest - London
";
    let (r, _) = run(&map, yaml, orders);
    let words: Vec<&str> = r.orders().iter().map(|o| o.outcome.word()).collect();
    assert_eq!(words, ["succeeds", "succeeds", "fails", "fails"]);
    let text = explain(&map, &r, None);
    every_line_fits(&text);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for fact in [
        "France: A Brest -> London (via convoy) fails. No convoy: every convoy route was \
         disrupted",
        "F English Channel is dislodged by F Wales -> English Channel with attack \
         strength 2 against hold strength 1.",
        "Had the army cut the support of F London, F Wales -> English Channel would \
         have failed and the convoy would have stood: the orders form a convoy paradox. \
         The 2023 rules decide a convoy paradox by the Szykman rule (DATC 4.A.2)",
    ] {
        assert!(flat.contains(fact), "missing {fact:?} in\n{text}");
    }
    insta::assert_snapshot!("paradox_explain", text);
    insta::assert_snapshot!("paradox_markdown", markdown::sheet(&map, "demo", &r));
}

/// A retreat phase: two fleets retreat to Albania and are both destroyed; an army
/// retreats to Kiel; a support is not a retreat-phase order.
#[test]
fn retreats_with_a_clash() {
    let map = Map::standard();
    let yaml = "phase: Spring 1902\nunits:\n  austria: [F tri, A ser]\n  turkey: [F gre]\n  \
                italy: [A ven, A tyr, F ion, F aeg]\n  germany: [A mun]\n  \
                france: [A bur, A ruh]\n";
    let orders = "
Italy: A Ven S A Tyr - Tri, A Tyr - Tri, F Ion - Gre, F Aeg S F Ion - Gre
France: A Bur - Mun, A Ruh S A Bur - Mun
";
    let (m, next) = run(&map, yaml, orders);
    assert_eq!(m.dislodged().len(), 3);
    let r = then(
        &map,
        &next,
        "Austria: F Tri - Alb, A Ser S F Tri - Alb\nTurkey: F Gre - Alb\nGermany: A Mun - Kie\n",
    );
    let words: Vec<&str> = r.orders().iter().map(|o| o.outcome.word()).collect();
    assert_eq!(words, ["fails", "illegal", "fails", "succeeds"]);
    assert_eq!(r.destroyed().len(), 2);
    let text = explain(&map, &r, None);
    every_line_fits(&text);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for fact in [
        "Austria: F Trieste -> Albania fails: F Greece -> Albania retreated to the same \
         province. Units that retreat to the same province are all destroyed.",
        "Germany: A Munich -> Kiel succeeds: the unit retreats to Kiel.",
        "Austria: A Serbia's support of F Trieste -> Albania is illegal: not an order of \
         this phase.",
    ] {
        assert!(flat.contains(fact), "missing {fact:?} in\n{text}");
    }
    insta::assert_snapshot!("retreat_explain", text);
    let md = markdown::sheet(&map, "demo", &r);
    assert!(
        md.contains("- The Austrian Fleet in Trieste (bounced: another unit retreated there too).")
    );
    insta::assert_snapshot!("retreat_markdown", md);
}

/// A retreat-phase disband reads as English ("disbanding A Sevastopol succeeds", not
/// "A Sevastopol disbands succeeds").
#[test]
fn a_disband_reads_as_english() {
    let map = Map::standard();
    let yaml = "phase: Spring 1902\nunits:\n  russia: [A sev]\n  turkey: [A arm, F bla]\n";
    let (m, next) = run(&map, yaml, "Turkey: A Arm - Sev, F Bla S A Arm - Sev");
    assert_eq!(m.dislodged().len(), 1);
    let r = then(&map, &next, "Russia: A Sev disband");
    let text = explain(&map, &r, None);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Russia: disbanding A Sevastopol succeeds: the unit is disbanded."),
        "{text}"
    );
    assert!(!flat.contains("disbands succeeds"), "{text}");
}

/// What really held a unit: Venice's attack (2) beats Trieste's hold (1) but not the
/// prevent strength (2) of Serbia's move there, so F Trieste stays; the explanation
/// names Serbia's prevent strength, not only "attacked with strength 2 and failed".
#[test]
fn a_prevent_strength_that_held_a_unit_is_named() {
    let map = Map::standard();
    let yaml = "phase: Spring 1901\nunits:\n  austria: [F tri, A ser, A bud]\n  \
                italy: [A ven, A tyr]\n";
    let orders =
        "Italy: A Ven - Tri, A Tyr S A Ven - Tri\nAustria: A Ser - Tri, A Bud S A Ser - Tri";
    let (r, _) = run(&map, yaml, orders);
    assert!(r.dislodged().is_empty());
    let text = explain(&map, &r, None);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let want =
        "A Venice -> Trieste attacked with strength 2 and failed: it beat hold strength 1, but \
                not the prevent strength 2 of A Serbia -> Trieste (1 + support from A \
                Budapest).";
    assert!(flat.contains(want), "{text}");
}

/// Counts on the sheets are English: `1 centre`, not `1 centres`.
#[test]
fn counts_read_as_english() {
    let map = Map::standard();
    let yaml = "phase: Fall 1901\nunits:\n  russia: [A ukr, A lvn, A sil]\n  \
                turkey: [A con]\nowners:\n  russia: [mos]\n  turkey: [con, smy]\n";
    let (r, _) = run(&map, yaml, "");
    let text = arbiter::report::text::sheet(&map, "demo", &r);
    assert!(
        text.contains("Russia (1 centre, 3 units) removes 2."),
        "{text}"
    );
    assert!(
        text.contains("Turkey (2 centres, 1 unit) builds 1."),
        "{text}"
    );
    let md = markdown::sheet(&map, "demo", &r);
    assert!(
        md.contains("- Russia (1 centre, 3 units) removes 2."),
        "{md}"
    );
}

/// An adjustment phase: a build, an illegal build and the waived rest; an ordered
/// removal; two removals in civil disorder (the fleet farthest away, then Livonia
/// before Ukraine at equal distance, alphabetically).
#[test]
fn adjustments_with_civil_disorder() {
    let map = Map::standard();
    let yaml = "phase: Winter 1901\nunits:\n  russia: [F bot, A lvn, A ukr]\n  \
                france: [A par, A bur, A pic, A gas]\nowners:\n  russia: [mos]\n  \
                germany: [ber, kie, mun]\n  france: [par, bre, mar]\n";
    let orders = "
Germany: Build A Berlin, Build F Munich
France: Remove A Picardy
";
    let (r, _) = run(&map, yaml, orders);
    let cd: Vec<String> = r
        .adjustment()
        .unwrap()
        .civil_disorder
        .iter()
        .map(|&(u, d)| format!("{} {:?}", map.loc_id(r.units()[u].loc), d))
        .collect();
    assert_eq!(cd, ["bot Some(2)", "lvn Some(1)"]);
    let text = explain(&map, &r, None);
    every_line_fits(&text);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for fact in [
        "Russia owns 1 supply centre and has 3 units: it must remove 2.",
        "Russia ordered no removal, so 2 units are removed in civil disorder.",
        "F Gulf of Bothnia is removed: 2 steps from the nearest owned supply centre.",
        "A Livonia is removed: 1 step from the nearest owned supply centre; A Ukraine is \
         as far, and Livonia comes first alphabetically.",
        "Germany: building F Munich is illegal: a fleet cannot be built inland.",
        "Germany: 2 builds were not ordered and are waived.",
        "France: removing A Picardy succeeds: the unit is removed.",
    ] {
        assert!(flat.contains(fact), "missing {fact:?} in\n{text}");
    }
    insta::assert_snapshot!("adjustment_explain", text);
    insta::assert_snapshot!("adjustment_markdown", markdown::sheet(&map, "demo", &r));
}

/// Every case under `test-cases/` explains without panicking, within 80 columns, for
/// the whole phase and for each province a unit stands in; the Markdown sheet has one
/// table row per order.
/// `EXPLAIN_DUMP=1 cargo test --test explain every_case -- --nocapture` prints every
/// explanation, for reading them against the rules.
#[test]
fn every_case_explains_within_80_columns() {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                files(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                out.push(p);
            }
        }
    }
    let map = Map::standard();
    let mut all = Vec::new();
    files(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test-cases"),
        &mut all,
    );
    let mut n = 0;
    for f in all {
        let text = std::fs::read_to_string(&f).unwrap();
        for case in arbiter::cases::parse_cases(&text).unwrap() {
            let Ok(p) = case.prepare(&map) else { continue };
            let (r, next) = advance(&map, p.rules, &p.position, &p.orders, None).unwrap();
            let mut results = vec![r];
            if !next.dislodged.is_empty() {
                results.push(advance(&map, p.rules, &next, &[], None).unwrap().0);
            }
            for r in &results {
                n += 1;
                let t = explain(&map, r, None);
                if std::env::var_os("EXPLAIN_DUMP").is_some() {
                    println!("##### {}\n{t}", case.id);
                }
                every_line_fits(&t);
                for u in r.units() {
                    every_line_fits(&explain(&map, r, Some(map.prov_of(u.loc))));
                }
                let md = markdown::sheet(&map, &case.id, r);
                let rows = md.lines().filter(|l| l.starts_with("| ")).count();
                // A row per order, and per unit without an order, under one header row.
                let lines = arbiter::report::text::order_lines(&map, r).len();
                assert!(lines >= r.input.len());
                assert_eq!(rows, lines + usize::from(lines > 0));
            }
        }
    }
    assert!(n > 150, "only {n} phases explained");
}
