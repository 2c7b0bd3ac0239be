//! The order grammar: every verb form and alias of docs/ORDERS.md, names, coasts,
//! headers and prefixes, and the diagnostics for bad input.

use arbiter::map::Map;
use arbiter::orders::{parse_orders, render_diagnostics, OrderKind, Severity};

/// Parse `text`; expect no diagnostics; return the canonical forms.
fn canon(text: &str) -> Vec<String> {
    let map = Map::standard();
    let p = parse_orders(&map, text);
    assert!(p.diagnostics.is_empty(), "{text:?}: {:?}", p.diagnostics);
    p.orders.iter().map(|o| o.canonical(&map, None)).collect()
}

fn one(text: &str) -> String {
    let v = canon(text);
    assert_eq!(v.len(), 1, "{text:?} gave {v:?}");
    v[0].clone()
}

#[test]
fn moves_in_every_spelling() {
    for t in [
        "A Par - Bur",
        "A Par -> Bur",
        "A Par => Bur",
        "A Par → Bur",
        "A Par to Bur",
        "A Par m Bur",
        "A Par move Bur",
        "A Par moves to Bur",
        "A Par attacks Bur",
        "A Par Bur",
        "a par-bur",
        "Army Paris -> Burgundy.",
        "Par - Burgandy",
        "A PAR - BUR",
    ] {
        let c = one(t);
        assert!(c == "A PAR - BUR" || c == "PAR - BUR", "{t:?} gave {c}");
    }
}

#[test]
fn holds_supports_convoys() {
    assert_eq!(one("A Vie H"), "A VIE H");
    assert_eq!(one("A Vie holds"), "A VIE H");
    assert_eq!(one("A Vie stands"), "A VIE H");
    assert_eq!(one("A Vie"), "A VIE H");
    assert_eq!(one("A Mun S A Ber - Kie"), "A MUN S A BER - KIE");
    assert_eq!(one("A Mun supports Ber - Kie"), "A MUN S BER - KIE");
    assert_eq!(one("A Mun S A Ber"), "A MUN S A BER");
    assert_eq!(one("A Mun S A Ber H"), "A MUN S A BER");
    assert_eq!(
        one("Army Munich SUPPORT Army Berlin -> Kiel."),
        "A MUN S A BER - KIE"
    );
    assert_eq!(one("F NTH C A Lon - Nwy"), "F NTH C A LON - NWY");
    assert_eq!(
        one("F NTH convoys A London - Norway"),
        "F NTH C A LON - NWY"
    );
    assert_eq!(
        one("Fleet Black Sea CONVOY Turkish Army Ankara -> Sevastopol."),
        "F BLA C A ANK - SEV"
    );
    assert_eq!(one("A Mun S Russian A Ber - Kie"), "A MUN S A BER - KIE");
}

#[test]
fn via_convoy_and_routes() {
    assert_eq!(one("A Lon - Nwy via convoy"), "A LON - NWY VIA CONVOY");
    assert_eq!(one("A Lon - Nwy via"), "A LON - NWY VIA CONVOY");
    assert_eq!(one("A Lon - Nwy by convoy"), "A LON - NWY VIA CONVOY");
    assert_eq!(one("A Lon-NTH-Nwy"), "A LON - NWY VIA CONVOY");
    assert_eq!(
        one("A Liverpool - Edinburgh via Convoy"),
        "A LVP - EDI VIA CONVOY"
    );
}

#[test]
fn retreats_and_adjustments() {
    assert_eq!(one("A Par R Bur"), "A PAR - BUR");
    assert_eq!(one("A Par retreats to Bur"), "A PAR - BUR");
    assert_eq!(one("A Par D"), "A PAR D");
    assert_eq!(one("A Par disband"), "A PAR D");
    assert_eq!(one("Build A Par"), "BUILD A PAR");
    assert_eq!(one("A Par B"), "BUILD A PAR");
    assert_eq!(one("B F StP/nc"), "BUILD F STP/NC");
    assert_eq!(one("+ F Bre"), "BUILD F BRE");
    assert_eq!(one("Remove A Mun"), "A MUN D");
    assert_eq!(one("* A Mun"), "A MUN D");
    assert_eq!(one("Build F St Petersburg"), "BUILD F STP");
    let map = Map::standard();
    let p = parse_orders(&map, "Russia: waive");
    assert_eq!(p.orders[0].kind, OrderKind::Waive);
}

#[test]
fn names_and_aliases() {
    assert_eq!(
        one("F North Atlantic Ocean - Mid-Atlantic Ocean"),
        "F NAO - MAO"
    );
    assert_eq!(one("F nat - mid"), "F NAO - MAO");
    assert_eq!(one("F nrg - nth"), "F NWG - NTH");
    assert_eq!(one("F gol - wes"), "F LYO - WES");
    assert_eq!(one("F Gulf of Lyons - Tyrrhenian Sea"), "F LYO - TYS");
    assert_eq!(one("A lpl - York"), "A LVP - YOR");
    assert_eq!(one("A tyrol - vie"), "A TYR - VIE");
    assert_eq!(one("A lvo - war"), "A LVN - WAR");
    assert_eq!(one("F nor - ska"), "F NWY - SKA");
    assert_eq!(one("F St. Petersburg - Bot"), "F STP - BOT");
    assert_eq!(one("A Rhur - Bel"), "A RUH - BEL");
}

#[test]
fn coasts_in_every_spelling() {
    for t in [
        "F Mao - Spa/nc",
        "F Mao - spa(nc)",
        "F Mao - Spa (nc)",
        "F Mao - spa nc",
        "F Mao - Spain north coast",
        "F Mao - Spain (north coast)",
        "F Mao - Spain(North Coast)",
        "F Mao - Spain/NC",
    ] {
        assert_eq!(one(t), "F MAO - SPA/NC", "{t:?}");
    }
    assert_eq!(one("F StP/sc - Bot"), "F STP/SC - BOT");
    assert_eq!(one("F Bul/ec - Bla"), "F BUL/EC - BLA");
    // A coast on a province without coasts is irrelevant (DATC 4.B.6).
    assert_eq!(one("F Lon - NTH/nc"), "F LON - NTH");
}

#[test]
fn headers_prefixes_comments_and_several_orders_per_line() {
    let map = Map::standard();
    let text = "# opening\n[England]\nF Lon - NTH, F Edi - NWG; A Lvp - Yor  # the usual\n\nFRANCE:\nA Par - Bur\nGermany: A Mun - Ruh, A Ber - Kie\nItaly\nA Ven H\n";
    let p = parse_orders(&map, text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let powers: Vec<String> = p
        .orders
        .iter()
        .map(|o| map.power(o.power.unwrap()).id.clone())
        .collect();
    assert_eq!(
        powers,
        ["england", "england", "england", "france", "germany", "germany", "italy"]
    );
    assert_eq!(p.orders[1].span.line, 3);
    assert_eq!(p.orders[1].text, "F Edi - NWG");
}

#[test]
fn a_results_listing_pasted_back_still_parses() {
    let text = "England: Fleet London -> North Sea.\nFrance: Army Paris -> Burgundy.  (*bounce*)\nGermany: Army Munich SUPPORT Army Berlin -> Kiel.  (*cut*)\nAustria: Army Vienna HOLD.  (*dislodged*)\n";
    assert_eq!(
        canon(text),
        [
            "F LON - NTH",
            "A PAR - BUR",
            "A MUN S A BER - KIE",
            "A VIE H"
        ]
    );
}

fn diagnostics(text: &str) -> String {
    let map = Map::standard();
    let p = parse_orders(&map, text);
    render_diagnostics(&p.diagnostics, text, "orders.txt")
}

#[test]
fn unknown_province_has_a_caret_and_a_suggestion() {
    insta::assert_snapshot!(diagnostics("France:\nA Par - Burgandi\n"), @r"
    error: unknown province `Burgandi`
     --> orders.txt:2:9
      |
    2 | A Par - Burgandi
      |         ^^^^^^^^ did you mean `Burgundy` (bur)?
    ");
}

#[test]
fn every_problem_is_reported_and_the_rest_is_read() {
    let map = Map::standard();
    let text = "A Par - Burgandi\nA Mun - Ruh\nF Lon suport F Edi\nA Vie Qqq Bud\nF Mao - Spa/xc\nA Ber - Kie extra words\nF Mao - Spa west\n";
    let p = parse_orders(&map, text);
    // `A Mun - Ruh` reads; so does `F Mao - Spa/xc`, its unknown coast ignored (DATC 4.B.6).
    assert_eq!(p.orders.len(), 2);
    assert_eq!(p.orders[1].canonical(&map, None), "F MAO - SPA");
    let lines: Vec<(u32, Severity)> = p
        .diagnostics
        .iter()
        .map(|d| (d.span.line, d.severity))
        .collect();
    use Severity::{Error, Warning};
    assert_eq!(
        lines,
        [
            (1, Error),
            (3, Error),
            (4, Error),
            (5, Warning),
            (6, Error),
            (7, Error)
        ]
    );
    assert_eq!(
        p.diagnostics[1].help.as_deref(),
        Some("did you mean `support`?")
    );
    assert!(
        p.diagnostics[3].message.contains("has no coast `xc`"),
        "{:?}",
        p.diagnostics[3]
    );
    // `west` is not guessed into a route to the Western Mediterranean.
    assert_eq!(
        p.diagnostics[5].message,
        "unexpected `west` after the order"
    );
    insta::assert_snapshot!(render_diagnostics(&p.diagnostics[2..3], text, "orders.txt"), @r"
    error: expected an order after the unit, found `Qqq`
     --> orders.txt:4:7
      |
    4 | A Vie Qqq Bud
      |       ^^^ an order is hold (H), move (-), support (S) or convoy (C)
    ");
}

#[test]
fn parenthesised_via_convoy_and_headers_on_the_line() {
    assert_eq!(one("A Lvp - Edi (via convoy)"), "A LVP - EDI VIA CONVOY");
    let map = Map::standard();
    let p = parse_orders(&map, "France, A Par H\nGermany; A Mun H\n");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let powers: Vec<&str> = p
        .orders
        .iter()
        .map(|o| map.power(o.power.unwrap()).id.as_str())
        .collect();
    assert_eq!(powers, ["france", "germany"]);
    // A waive that names another power than the header's is no order of either
    // (issue 23: `Germany: waive France` blocks judging).
    let p = parse_orders(&map, "England:\nwaive France\n");
    assert!(p.orders.is_empty(), "{:?}", p.orders);
    assert_eq!(
        p.diagnostics[0].message,
        "`waive France` names France in England's orders"
    );
    let p = parse_orders(&map, "waive France\n");
    assert_eq!(map.power(p.orders[0].power.unwrap()).id, "france");
}

#[test]
fn names_written_short_and_ambiguity() {
    assert_eq!(one("A Par - Gasc"), "A PAR - GAS");
    assert_eq!(one("F Lon - North Atl"), "F LON - NAO");
    insta::assert_snapshot!(diagnostics("F Edi - Norw\n"), @r"
    error: ambiguous name `Norw`: it could be `Norwegian Sea` (nwg) or `Norway` (nwy)
     --> orders.txt:1:9
      |
    1 | F Edi - Norw
      |         ^^^^ write more of the name, or the province's id
    ");
}

#[test]
fn a_power_word_that_begins_a_place_is_the_place() {
    let map = Map::standard();
    let p = parse_orders(
        &map,
        "France: A Par - Bur, English Channel - Mao, A Mar - Spa\n",
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let canon: Vec<String> = p.orders.iter().map(|o| o.canonical(&map, None)).collect();
    assert_eq!(canon, ["A PAR - BUR", "ENG - MAO", "A MAR - SPA"]);
    assert!(p
        .orders
        .iter()
        .all(|o| map.power(o.power.unwrap()).id == "france"));
    // An adjective as a prefix still works when no place follows it.
    let p = parse_orders(&map, "English F Lon - NTH\n");
    assert_eq!(map.power(p.orders[0].power.unwrap()).id, "england");
}

#[test]
fn implicit_moves_to_names_that_start_like_coasts_and_dashes() {
    assert_eq!(one("F Nwy North Sea"), "F NWY - NTH");
    assert_eq!(one("F Smy Eastern Mediterranean"), "F SMY - EAS");
    assert_eq!(one("A Par – Bur"), "A PAR - BUR");
    assert_eq!(one("F Mao — Por"), "F MAO - POR");
}

#[test]
fn one_order_per_batch_string() {
    let map = Map::standard();
    assert!(arbiter::orders::parse_order(&map, "A PAR - BUR;", None).is_ok());
    let e = arbiter::orders::parse_order(&map, "A PAR - BUR, A MAR - SPA", None).unwrap_err();
    assert_eq!(e.message, "several orders in one string");
}
